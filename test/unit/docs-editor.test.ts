/**
 * The docs domain's parser, syntax-aware editor, outline and template library. Properties (on
 * the shipped templates, with edits aimed at their real elements and fragments that are often
 * broken): an accepted edit never adds a parse error of any kind and changes the source only
 * inside the edited element's range; a refused edit is a reason, and the input is untouched.
 * Examples: every op, the problems the parser finds (stray end tags, unclosed elements,
 * misnesting, foster-parenting) and the valid documents where it must find none, the outline's
 * size bound, and retrieval.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Element } from 'domhandler';
import { applyEdit, docEditSchema, view, type DocEdit } from '../../src/domains/docs/editor.js';
import { outline } from '../../src/domains/docs/outline.js';
import {
  elementsIn,
  parseFragmentHtml,
  parseHtml,
  selectAll,
  uniqueSelector,
  type ParseProblem,
} from '../../src/domains/docs/parse.js';
import { TemplateLibrary } from '../../src/domains/docs/templates.js';

const library = TemplateLibrary.shipped();
const TEMPLATES = library.templates;

const codesOf = (problems: readonly ParseProblem[]) => problems.map((p) => p.code);
const errorCounts = (problems: readonly ParseProblem[]) => {
  const counts = new Map<string, number>();
  for (const p of problems) if (p.severity === 'error') counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  return counts;
};
const assertNoMoreErrors = (before: string, after: string) => {
  const was = errorCounts(parseHtml(before).errors);
  for (const [code, n] of errorCounts(parseHtml(after).errors))
    assert.ok(n <= (was.get(code) ?? 0), `the edit added ${code} errors: ${n} > ${was.get(code) ?? 0}`);
};

// ---------------------------------------------------------------------------------------------
// Parsing: problems found, and none where there are none

const clean = (body: string, head = '<title>t</title>') =>
  `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n${head}\n</head>\n<body>\n${body}\n</body>\n</html>\n`;

test('valid documents have no parse problems', () => {
  const valid: Record<string, string> = {
    'p without </p>': clean('<p>one\n<p>two\n<div>block</div>\n<p>last'),
    'li, dt, dd, option without end tags': clean(
      '<ul><li>a<li>b<ul><li>nested</ul><li>c</ul><dl><dt>term<dd>def</dl><select><optgroup label="g"><option>1<option>2</select>',
    ),
    'tables without tbody, end tags left out': clean(
      '<table><caption>c<colgroup><col><col><tr><th>a<th>b<tr><td>1<td>2</table><table><tr><td>x</td></tr></tbody></table>',
    ),
    'inline svg and mathml': clean(
      '<svg viewBox="0 0 10 10" role="img"><title>chart</title><style>.a{fill:red}</style><path d="M0 0L10 10"/><g><rect width="2" height="2"/></g><![CDATA[x]]><foreignObject><div>html in svg</div></foreignObject></svg><math><mi>x</mi><mo>=</mo><mn>2</mn></math>',
    ),
    'end tags inside script, style, comments, textarea, title': clean(
      '<script>var s = "</div></section>"; if (a < b && c > d) {}</script><style>p::after { content: "</p>"; }</style><!-- </section> <div> --><textarea></span></textarea><noscript><p>x</p></noscript>',
      '<title>a </div> b</title>',
    ),
    template: clean('<template id="row"><tr><td>x</td></tr></template><template><li>y<div>z</div></template>'),
    'body and head tags left out':
      '<!DOCTYPE html><title>t</title><p>hi\n</body>\n</html>\n<!-- trailing comment -->\n',
    'explicit head and body, void elements with and without slash': clean(
      '<br><br/><hr><img src="a.png" alt=""><img src="b.png" alt=""/><input type="checkbox" checked><wbr>',
    ),
    'block inside a link, custom element, entities, pre': clean(
      '<a href="#x"><div>card</div></a><my-card data-x="1">custom</my-card><p>&copy; 2026 &amp; &lt;tag&gt; &nbsp; caf&eacute;</p><pre>\ncode</pre><p>text<table><tr><td>1</td></tr></table>',
    ),
    ruby: clean('<ruby>漢<rp>(</rp><rt>kan<rp>)</rp></ruby><ruby>字<rt>ji</ruby>'),
    'p closed by a block, li closing p': clean('<p>intro<ul><li><p>para<li>next</ul><p>x<blockquote>q</blockquote>'),
  };
  for (const [name, html] of Object.entries(valid)) assert.deepEqual(parseHtml(html).errors, [], name);
});

test('stray end tags are found, with a message a person can act on', () => {
  const { errors } = parseHtml(clean('<div>a</div></div>\n<p>x</span></p></p>'));
  assert.deepEqual(codesOf(errors), ['stray-end-tag', 'stray-end-tag', 'stray-end-tag']);
  assert.ok(errors.every((e) => e.severity === 'error'));
  const [div, span, p] = errors;
  assert.equal(div!.line, 8);
  assert.equal(div!.col, 13);
  assert.match(div!.message, /^line 8, col 13: <\/div> closes nothing \(stray end tag\)/);
  assert.match(span!.message, /line 9, col 5: <\/span> closes nothing/);
  assert.match(p!.message, /empty paragraph/);
  // A second </body> is stray; the first, for a body the parser implied, is not.
  assert.deepEqual(codesOf(parseHtml('<!DOCTYPE html><title>t</title><p>x</body></body>').errors), ['stray-end-tag']);
});

test('unclosed elements are found; end tags HTML lets you omit are not', () => {
  const { errors } = parseHtml(clean('<section>\n<h2>Title</h2>\n<div>text\n<p>para'));
  assert.deepEqual(codesOf(errors), ['unclosed-element', 'unclosed-element']);
  assert.match(errors[0]!.message, /^line 8: <section> is never closed/);
  assert.match(errors[1]!.message, /^line 10: <div> is never closed/);
  // Closed implicitly by another tag: said where.
  const heading = parseHtml(clean('<h3>x</h2>')).errors;
  assert.deepEqual(codesOf(heading), ['unclosed-element', 'stray-end-tag']);
  assert.match(heading[0]!.message, /closes it at line 8, col 6, before <\/h2>/);
  // "<div/>" does not close a div in HTML.
  assert.deepEqual(codesOf(parseHtml(clean('<div/>x')).errors), [
    'non-void-html-element-start-tag-with-trailing-solidus',
    'unclosed-element',
  ]);
});

test('misnested tags, foster-parented content and ignored start tags are found', () => {
  assert.deepEqual(codesOf(parseHtml(clean('<b><i>x</b>y</i>')).errors), ['misnested-tag']);
  const table = parseHtml(clean('<table><div>moved</div>loose text<tr><td>1</td></tr></table>')).errors;
  assert.deepEqual(codesOf(table), ['foster-parented', 'foster-parented']);
  assert.match(table[0]!.message, /<div> is not allowed directly inside a table/);
  assert.match(table[1]!.message, /text "loose text"/);
  assert.deepEqual(codesOf(parseHtml(clean('<div><td>x</div>')).errors), ['ignored-start-tag']);
  assert.deepEqual(codesOf(parseHtml(clean('<form><form></form></form>')).errors), [
    'ignored-start-tag',
    'stray-end-tag',
  ]);
});

test("parse5's own errors keep their codes, with severities", () => {
  const missing = parseHtml('<p>x</p>').errors;
  assert.deepEqual(
    missing.map((e) => [e.code, e.severity]),
    [['missing-doctype', 'warning']],
  );
  assert.deepEqual(
    parseHtml(clean('<p class="a" class="b">x</p>')).errors.map((e) => [e.code, e.severity]),
    [['duplicate-attribute', 'error']],
  );
  assert.ok(parseHtml(clean('<p class="x>hi')).errors.some((e) => e.code === 'eof-in-tag' && e.severity === 'error'));
  assert.deepEqual(codesOf(parseHtml(clean('<script>var a')).errors), ['eof-in-element-that-can-contain-only-text']);
  // A fragment parses as innerHTML of its context.
  assert.deepEqual(parseFragmentHtml('<tr><td>1</td></tr>', { name: 'tbody' }).errors, []);
  assert.deepEqual(codesOf(parseFragmentHtml('<div><span>', { name: 'section' }).errors), [
    'unclosed-element',
    'unclosed-element',
  ]);
});

test('selectAll returns elements, or a reason for an invalid selector', () => {
  const parsed = parseHtml(clean('<p class="a">1</p><p>2</p>'));
  const found = selectAll(parsed, 'p.a');
  assert.ok(found.ok);
  assert.equal(found.elements.length, 1);
  const bad = selectAll(parsed, 'p[');
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.reason : '', /invalid CSS selector "p\["/);
  assert.equal(selectAll(parsed, '  ').ok, false);
});

test('uniqueSelector selects exactly its element, for every element of every template', () => {
  for (const t of TEMPLATES) {
    const parsed = parseHtml(t.html);
    for (const el of elementsIn(parsed.document)) {
      const selector = uniqueSelector(parsed, el);
      const found = selectAll(parsed, selector);
      assert.ok(found.ok, `${t.name}: ${selector}`);
      assert.deepEqual(found.elements, [el], `${t.name}: ${selector}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// The editor: examples

const DOC = clean(
  [
    '<section id="intro" class="lead wide">',
    '  <h1>Title</h1>',
    '  <p>Hello &amp; welcome.</p>',
    '  <p class="note">Note</p>',
    '</section>',
    '<ul><li>one<li>two</ul>',
    '<table id="totals"><tr><td>1</td><td>2</td></tr></table>',
    '<img src="logo.png" alt="logo">',
  ].join('\n'),
);
const ok = (edit: DocEdit, source = DOC) => {
  const outcome = applyEdit(source, edit);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  assertNoMoreErrors(source, outcome.source);
  return outcome;
};
const refused = (edit: DocEdit, pattern: RegExp, source = DOC) => {
  const outcome = applyEdit(source, edit);
  assert.equal(outcome.ok, false, `accepted: ${JSON.stringify(edit)}`);
  assert.match(outcome.ok ? '' : outcome.reason, pattern);
  assert.match(outcome.ok ? '' : outcome.reason, /the document is unchanged|not a valid edit/);
};

test('replace splices the element and nothing else', () => {
  const out = ok({ op: 'replace', selector: '#intro h1', html: '<h1>New title</h1>' });
  assert.equal(out.source, DOC.replace('<h1>Title</h1>', '<h1>New title</h1>'));
  assert.match(out.summary, /^replaced <h1> at line 9 \(14 B → 18 B\)$/);
  refused({ op: 'replace', selector: 'p', html: '<p>x</p>' }, /"p" matches 2 elements .*pass all: true/);
  const all = ok({ op: 'replace', selector: '#intro p', html: '<p>x</p>', all: true });
  assert.equal((all.source.match(/<p>x<\/p>/g) ?? []).length, 2);
  assert.match(all.summary, /replaced 2 × <p>/);
  refused({ op: 'replace', selector: 'section, h1', html: '', all: true }, /inside one another/);
});

test('replace_inner keeps the tags; broken fragments are refused with the problem', () => {
  const out = ok({ op: 'replace_inner', selector: '.note', html: 'changed <b>bold</b>' });
  assert.equal(out.source, DOC.replace('<p class="note">Note</p>', '<p class="note">changed <b>bold</b></p>'));
  refused({ op: 'replace_inner', selector: '.note', html: '<div><span>' }, /<div> is never closed/);
  refused({ op: 'replace_inner', selector: '.note', html: '</p></div>' }, /<\/p> closes nothing/);
  refused({ op: 'replace_inner', selector: '.note', html: '<a href="x>go</a>' }, /ends inside a tag/);
  refused({ op: 'replace_inner', selector: 'img', html: 'x' }, /void element/);
  // An element whose end tag was left out ends where its content does.
  assert.equal(
    ok({ op: 'replace_inner', selector: 'li:nth-of-type(1)', html: 'uno' }).source,
    DOC.replace('<li>one<li>', '<li>uno<li>'),
  );
  assert.equal(ok({ op: 'remove', selector: 'li:nth-of-type(1)' }).source, DOC.replace('<li>one', ''));
  // Content a <p> cannot hold closes it early: the </p> after it would be stray.
  refused({ op: 'replace_inner', selector: '.note', html: '<div>block</div>' }, /<\/p> closes nothing/);
});

test('insert before, after, prepend and append', () => {
  assert.equal(
    ok({ op: 'insert', selector: '.note', position: 'before', html: '<p>first</p>\n  ' }).source,
    DOC.replace('<p class="note">', '<p>first</p>\n  <p class="note">'),
  );
  assert.equal(
    ok({ op: 'insert', selector: '#intro', position: 'after', html: '\n<p>after</p>' }).source,
    DOC.replace('</section>', '</section>\n<p>after</p>'),
  );
  assert.equal(
    ok({ op: 'insert', selector: 'ul', position: 'append', html: '<li>three' }).source,
    DOC.replace('<li>two</ul>', '<li>two<li>three</ul>'),
  );
  assert.equal(
    ok({ op: 'insert', selector: '#totals tr', position: 'prepend', html: '<td>0</td>' }).source,
    DOC.replace('<tr><td>1</td>', '<tr><td>0</td><td>1</td>'),
  );
  const summary = ok({ op: 'insert', selector: 'ul', position: 'append', html: '<li>three' }).summary;
  assert.equal(summary, 'inserted 9 B at the end of <ul> at line 13');
  refused(
    { op: 'insert', selector: '#totals', position: 'prepend', html: '<div>x</div>' },
    /not allowed directly inside a table/,
  );
  refused({ op: 'insert', selector: 'img', position: 'append', html: 'x' }, /void element/);
  refused(
    { op: 'insert', selector: 'html', position: 'before', html: '<p>x</p>' },
    /nothing goes before or after <html>/,
  );
});

test('an edit that would move elements outside it is refused', () => {
  const doc = clean('<div id="box"><p>text<section id="s">block</section><span id="after">x</span></div>');
  // The <section> closes the <p> implicitly; removing it would pull the <span> into the <p>.
  refused({ op: 'remove', selector: '#s' }, /<span#after> at line 8 would move from <div#box> into <p>/, doc);
});

test('remove, and what cannot be removed', () => {
  assert.equal(ok({ op: 'remove', selector: '.note' }).source, DOC.replace('<p class="note">Note</p>', ''));
  refused({ op: 'remove', selector: 'body' }, /<body> cannot be removed/);
  refused({ op: 'remove', selector: 'head' }, /<head> cannot be removed/);
  refused({ op: 'remove', selector: 'tbody' }, /implied by the parser/);
  refused({ op: 'remove', selector: 'h2' }, /no element matches "h2".*#intro, #totals/);
  refused({ op: 'remove', selector: 'p[' }, /invalid CSS selector/);
});

test('set_attribute sets, escapes, adds and removes', () => {
  assert.equal(
    ok({ op: 'set_attribute', selector: '#intro', name: 'class', value: 'a "b" & c' }).source,
    DOC.replace('class="lead wide"', 'class="a &quot;b&quot; &amp; c"'),
  );
  assert.equal(
    ok({ op: 'set_attribute', selector: '#intro', name: 'class', value: null }).source,
    DOC.replace(' class="lead wide"', ''),
  );
  assert.equal(
    ok({ op: 'set_attribute', selector: 'img', name: 'width', value: '120' }).source,
    DOC.replace('alt="logo">', 'alt="logo" width="120">'),
  );
  assert.equal(
    ok({ op: 'set_attribute', selector: 'h1', name: 'id', value: 'top' }).source,
    DOC.replace('<h1>', '<h1 id="top">'),
  );
  refused({ op: 'set_attribute', selector: 'h1', name: 'bad name', value: 'x' }, /not an attribute name/);
  refused({ op: 'set_attribute', selector: 'h1', name: 'class', value: null }, /has no class attribute/);
});

test('replace_text: exactly once, or refused', () => {
  assert.equal(
    ok({ op: 'replace_text', find: 'Hello &amp; welcome.', replace: 'Hi.' }).source,
    DOC.replace('Hello &amp; welcome.', 'Hi.'),
  );
  refused({ op: 'replace_text', find: '<p', replace: '<q' }, /occurs \d+ times/);
  refused(
    { op: 'replace_text', find: 'Hello & welcome', replace: 'x' },
    /is not in the source; it must match the source exactly/,
  );
  refused({ op: 'replace_text', find: 'class="note">', replace: 'class="note>' }, /would add .*parse error/);
});

test('invalid edits are refused by the schema, which describes every field', () => {
  refused({ op: 'explode' } as unknown as DocEdit, /not a valid edit/);
  refused({ op: 'insert', selector: 'p', position: 'inside', html: 'x' } as unknown as DocEdit, /not a valid edit/);
  const json = JSON.stringify(docEditSchema.toJSONSchema());
  for (const field of ['selector', 'html', 'position', 'name', 'value', 'find', 'replace', 'all'])
    assert.match(json, new RegExp(`"${field}":\\{[^}]*"description"`), field);
});

test('view shows the matching elements with line numbers, cut with a note', () => {
  const shown = view(DOC, '#intro p');
  assert.ok(shown.ok);
  assert.match(shown.text, /<p> lines 10-10 \(27 B\):\n10 {4}<p>Hello &amp; welcome\.<\/p>/);
  assert.match(shown.text, /<p\.note> lines 11-11/);
  const whole = view(DOC);
  assert.ok(whole.ok && whole.text.startsWith(' 1  <!DOCTYPE html>'));
  const cut = view(DOC, undefined, 200);
  assert.ok(cut.ok && cut.text.length <= 200);
  assert.match(cut.ok ? cut.text : '', /… cut at 200 characters \(next line: \d+ of \d+\)/);
  assert.equal(view(DOC, 'p[').ok, false);
  assert.equal(view(DOC, 'h6').ok, false);
});

// ---------------------------------------------------------------------------------------------
// The editor: properties on the shipped templates

const FRAGMENTS = [
  '<p>Hello</p>',
  'plain text',
  '',
  '<div><span>',
  '</p></div>',
  '<a href="x>',
  '<a href="x">link</a>',
  '<strong>bold</strong> and <em>it</em>',
  '<tr><td>1</td><td>2</td></tr>',
  '<td>cell</td>',
  '<li>item</li>',
  '<li>open item',
  '<!-- comment -->',
  '<!-- open comment',
  '<img src="data:image/png;base64,AAAA" alt="">',
  '<table><tr><td>x</td></tr></table>',
  '<p>unclosed',
  '<section><h2>T</h2><p>x</p></section>',
  '<b><i>x</b></i>',
  '<script>var s = "</div>";</script>',
  '<div class="a" class="b">dup</div>',
  '&amp; &lt; &copy',
  '<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  '<br/>',
  '<div/>',
  '</body>',
  '<body>',
  '<style>p { color: #222 }</style>',
  '<textarea>',
  '<title>x</title>',
];
const TOKENS = [
  '<div>',
  '</div>',
  '<p>',
  '</p>',
  '<span>',
  '</span>',
  'text ',
  '"',
  '<',
  '>',
  '<a href="',
  '<!--',
  '-->',
  '<td>',
  '<tr>',
  '</table>',
  '&',
  '<li>',
];
const fragment = fc.oneof(
  fc.constantFrom(...FRAGMENTS),
  fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
);

interface Doc {
  readonly html: string;
  readonly elements: readonly Element[];
  readonly selectors: readonly string[];
}
const docs: Doc[] = TEMPLATES.map((t) => {
  const parsed = parseHtml(t.html);
  const elements = elementsIn(parsed.document).filter((el) => el.sourceCodeLocation);
  return { html: t.html, elements, selectors: elements.map((el) => uniqueSelector(parsed, el)) };
});

/** An edit aimed at one real element of a template (or a loose selector), and the range it may change. */
const aimedEdit = fc
  .record({
    doc: fc.nat({ max: docs.length - 1 }),
    element: fc.nat(),
    kind: fc.constantFrom('replace', 'replace_inner', 'insert', 'remove', 'set_attribute', 'replace_text', 'loose'),
    position: fc.constantFrom('before', 'after', 'prepend', 'append' as const),
    html: fragment,
    attribute: fc.constantFrom('class', 'id', 'style', 'data-x', 'title'),
    value: fc.option(fc.constantFrom('a', 'x y', 'say "hi" & go', ''), { nil: null }),
    loose: fc.constantFrom('p', 'div', 'td', 'section', 'h2', 'p[', '##', 'li:nth-of-type(2)', 'table tr'),
    all: fc.boolean(),
    cut: fc.nat(),
    cutLength: fc.integer({ min: 1, max: 40 }),
  })
  .map((r) => {
    const doc = docs[r.doc]!;
    const index = r.element % doc.elements.length;
    const el = doc.elements[index]!;
    const selector = doc.selectors[index]!;
    const loc = el.sourceCodeLocation!;
    const tag = loc.startTag!;
    let edit: DocEdit;
    let range: [number, number] | undefined; // what an accepted edit may change, in the input
    switch (r.kind) {
      case 'replace':
        edit = { op: 'replace', selector, html: r.html };
        range = [loc.startOffset, loc.endOffset];
        break;
      case 'replace_inner':
        edit = { op: 'replace_inner', selector, html: r.html };
        range = [tag.endOffset, loc.endTag?.startOffset ?? tag.endOffset];
        break;
      case 'insert': {
        edit = { op: 'insert', selector, position: r.position, html: r.html || 'x' };
        const at = {
          before: loc.startOffset,
          after: loc.endOffset,
          prepend: tag.endOffset,
          append: loc.endTag?.startOffset ?? tag.endOffset,
        }[r.position];
        range = [at, at];
        break;
      }
      case 'remove':
        edit = { op: 'remove', selector };
        range = [loc.startOffset, loc.endOffset];
        break;
      case 'set_attribute':
        edit = { op: 'set_attribute', selector, name: r.attribute, value: r.value };
        range = [tag.startOffset, tag.endOffset];
        break;
      case 'replace_text': {
        const start = loc.startOffset + (r.cut % Math.max(1, loc.endOffset - loc.startOffset));
        const find = doc.html.slice(start, Math.min(loc.endOffset, start + r.cutLength));
        edit = { op: 'replace_text', find, replace: r.html };
        const at = doc.html.indexOf(find);
        range = [at, at + find.length];
        break;
      }
      default:
        edit = r.all
          ? { op: 'replace', selector: r.loose, html: r.html, all: true }
          : { op: 'replace_inner', selector: r.loose, html: r.html };
        range = undefined;
    }
    return { html: doc.html, edit, range };
  });

test('property: accepted edits add no parse error and change only the edited range; refused ones change nothing', () => {
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(aimedEdit, ({ html, edit, range }) => {
      const input = html;
      const copy = `${html}`;
      const frozen = structuredClone(edit);
      const outcome = applyEdit(input, edit);
      assert.equal(input, copy);
      assert.deepEqual(edit, frozen, 'the edit object is not mutated');
      if (!outcome.ok) {
        rejected++;
        assert.ok(outcome.reason.length > 10);
        return;
      }
      accepted++;
      assert.notEqual(outcome.source, input);
      assertNoMoreErrors(input, outcome.source);
      assert.deepEqual(
        parseHtml(outcome.source).errors.filter((p) => p.severity === 'error'),
        [],
      );
      assert.ok(outcome.summary.length > 0 && !outcome.summary.includes('\n'));
      if (range) {
        const [a, b] = range;
        assert.equal(outcome.source.slice(0, a), input.slice(0, a), 'prefix before the edited range');
        assert.equal(
          outcome.source.slice(outcome.source.length - (input.length - b)),
          input.slice(b),
          'suffix after it',
        );
      }
    }),
    { numRuns: 400, seed: 20260601 },
  );
  assert.ok(accepted > 40, `only ${accepted} edits accepted`);
  assert.ok(rejected > 40, `only ${rejected} edits refused`);
});

test('property: on a document that already has errors, no error code grows', () => {
  // Each template with a stray </div> and an unclosed <section> planted in its body.
  const broken = docs.map((d) => ({
    ...d,
    html: d.html.replace('<main>', '<main>\n</div>').replace('</main>', '<section><p>x</p>\n</main>'),
  }));
  for (const d of broken) assert.ok(parseHtml(d.html).errors.some((e) => e.code === 'stray-end-tag'));
  fc.assert(
    fc.property(
      fc.nat({ max: broken.length - 1 }),
      fc.nat(),
      fc.constantFrom('replace', 'replace_inner', 'insert', 'remove' as const),
      fragment,
      (which, pick, op, html) => {
        const doc = broken[which]!;
        const parsed = parseHtml(doc.html);
        const elements = elementsIn(parsed.document).filter((el) => el.sourceCodeLocation);
        const selector = uniqueSelector(parsed, elements[pick % elements.length]!);
        const edit: DocEdit =
          op === 'insert'
            ? { op, selector, position: 'after', html: html || 'x' }
            : op === 'remove'
              ? { op, selector }
              : { op, selector, html };
        const outcome = applyEdit(doc.html, edit);
        if (outcome.ok) assertNoMoreErrors(doc.html, outcome.source);
      },
    ),
    { numRuns: 150, seed: 7 },
  );
});

// ---------------------------------------------------------------------------------------------
// Outline

test('the outline lists headings and blocks with selectors the editor accepts', () => {
  const report = library.get('report')!.html;
  const text = outline(report);
  assert.ok(text.length <= 4000);
  assert.match(text, /^document: [\d.]+ kB, \d+ lines, title "Annual Operations Report"/);
  assert.match(text, /\n {2}h1 "Annual Operations Report" \(line \d+\)/);
  assert.match(text, /\n {4}h2 "2\. Results by region"/);
  assert.match(text, /table#regional-results \[[\d.]+ kB\] 6×4 caption "Table 1\./);
  assert.match(text, /figure#figure-volume > svg \[[\d.]+ kB\] inline svg viewBox 0 0 600 260/);
  // Every selector the blocks section names selects exactly one element.
  const parsed = parseHtml(report);
  const blocks = text.slice(text.indexOf('blocks ('));
  const selectors = [...blocks.matchAll(/^\s+(\S.*?) \[/gm)].map((m) => m[1]!);
  assert.ok(selectors.length >= 8);
  for (const selector of selectors) {
    const found = selectAll(parsed, selector);
    assert.ok(found.ok && found.elements.length === 1, selector);
    assert.ok(applyEdit(report, { op: 'set_attribute', selector, name: 'data-checked', value: '1' }).ok, selector);
  }
  const invoice = outline(library.get('invoice')!.html);
  assert.match(invoice, /table#line-items \[[\d.]+ kB\] 5×4/);
  const letter = outline(clean('<p>x</p><img src="data:image/png;base64,AAAAAAAA" alt="dot">'));
  assert.match(letter, /img \[\d+ B\] src="data:image\/png;base64,… \(\d+ B\)" alt="dot"/);
});

test('the outline of a big document stays under maxChars and keeps the outer levels', () => {
  const report = library.get('report')!.html;
  const i = report.indexOf('<section id="findings">');
  const j = report.indexOf('</main>');
  let big = report.slice(0, j);
  for (let k = 0; k < 300; k++)
    big += report
      .slice(i, j)
      .replaceAll('id="findings"', `id="f${k}"`)
      .replaceAll('id="recommendations"', `id="r${k}"`);
  big += report.slice(j);
  assert.ok(big.length > 250_000);
  for (const max of [300, 1000, 4000, 12_000]) {
    const text = outline(big, max);
    assert.ok(text.length <= max, `${text.length} > ${max}`);
    assert.match(text, /headings and blocks left out \(outline limited to \d+ characters\)/);
  }
  const text = outline(big);
  assert.ok(text.length > 3000, 'the budget is used');
  assert.match(text, /h1 "Annual Operations Report"/);
  assert.match(text, /body > main \[[\d.]+ kB\] \(604 section\)/);
  // A small document fits whole, with no note.
  assert.doesNotMatch(outline(DOC), /left out/);
});

// ---------------------------------------------------------------------------------------------
// Templates and retrieval

test('the shipped templates are six clean, self-contained, print-ready documents', () => {
  assert.deepEqual(library.names(), ['invoice', 'letter', 'meeting-minutes', 'newsletter', 'report', 'resume']);
  for (const t of TEMPLATES) {
    assert.deepEqual(parseHtml(t.html).errors, [], t.name);
    assert.ok(t.description.length > 40, `${t.name} description`);
    assert.ok(t.keywords.length >= 8, `${t.name} keywords`);
    assert.match(t.html, /@page \{ size: A4; margin: [\d.]+mm/, `${t.name} @page`);
    assert.doesNotMatch(t.html, /<link\b|<script\b|url\(|(?:src|href)="(?:https?:)?\/\//i, `${t.name} loads nothing`);
    // Headings start at h1 and never skip a level.
    const levels = elementsIn(parseHtml(t.html).document)
      .filter((el) => /^h[1-6]$/.test(el.name))
      .map((el) => Number(el.name[1]));
    assert.equal(levels[0], 1, t.name);
    levels.forEach(
      (level, k) => k > 0 && assert.ok(level <= levels[k - 1]! + 1, `${t.name}: h${level} after h${levels[k - 1]}`),
    );
    // No fixed width wider than the 170 mm a Letter or A4 page leaves.
    for (const m of t.html.matchAll(/(?:^|[^-])width:\s*([\d.]+)mm/g))
      assert.ok(Number(m[1]) <= 170, `${t.name}: ${m[0]}`);
  }
});

test('retrieval ranks the fitting template first', () => {
  const first = (query: string) => library.search(query)[0]?.name;
  assert.equal(first('invoice with line items and totals'), 'invoice');
  assert.equal(first('curriculum vitae experience'), 'resume');
  assert.equal(first('business letter to a client'), 'letter');
  assert.equal(first('minutes of the board meeting with action items'), 'meeting-minutes');
  assert.equal(first('community newsletter with articles in columns'), 'newsletter');
  assert.equal(first('annual report with a chart and a data table'), 'report');
  const hits = library.search('invoice with line items and totals', 3);
  assert.ok(hits.length <= 3 && hits[0]!.score > (hits[1]?.score ?? 0));
  assert.ok(hits[0]!.html.startsWith('<!DOCTYPE html>'));
  assert.match(hits[0]!.description, /line items/);
  assert.deepEqual(library.search('   '), []);
});

test('a library loads from a folder of HTML files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-templates-'));
  try {
    writeFileSync(
      join(dir, 'menu.html'),
      clean(
        '<h1>Menu</h1><p>Starters and mains</p>',
        '<title>Menu</title><meta name="description" content="Restaurant menu with courses and prices"><meta name="keywords" content="menu, restaurant, dishes">',
      ),
    );
    writeFileSync(join(dir, 'notes.txt'), 'not a template');
    const own = await TemplateLibrary.fromFolder(dir);
    assert.deepEqual(own.names(), ['menu']);
    assert.equal(own.search('restaurant dishes')[0]?.name, 'menu');
    assert.equal(own.get('menu')?.description, 'Restaurant menu with courses and prices');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
