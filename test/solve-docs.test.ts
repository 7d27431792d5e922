/**
 * Documents (FormAct) as a user solves them: `crucible solve --strategy formact` in a real
 * process against the scripted model server, chromium reviewing the pages. The editing agent
 * takes a template, a broken edit is refused with the document unchanged, the review finds the
 * pale paragraph it added, the next round removes it and the document is verified. Then the
 * edit-triggered compression: many scripted edits, and every request stays under the budget.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { estimateTokens, runAgent } from '../src/agents/agent.js';
import { Workspace } from '../src/agents/workspace.js';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { DocumentState, documentTools } from '../src/domains/docs/agent-tools.js';
import { compressOnEdit } from '../src/domains/docs/compression.js';
import { TemplateLibrary } from '../src/domains/docs/templates.js';
import type { ChatMessage } from '../src/models/index.js';
import { memoryTrace } from '../src/store/trace.js';
import { crucible } from './cli-support.js';
import { scriptedModel, type ModelFixture } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-solve-docs-'));
const fixtures: ModelFixture[] = [];
after(async () => {
  await Promise.all(fixtures.map((f) => f.close()));
  rmSync(dir, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>, id: string) => ({
  toolCalls: [{ id, name, arguments: args }],
});

const task = {
  task_id: 'docs/invoice',
  domain: 'docs',
  prompt: 'An invoice, number INV-42, with its line items and totals, to print on A4 or Letter.',
  expect: [{ selector: 'h1', text_contains: 'INV-42' }],
};

test('solve --strategy formact: a template, a refused edit, a review that finds a pale paragraph, a round that removes it, verified', async () => {
  const script = [
    ['find_templates', { query: 'invoice with line items and totals' }],
    ['use_template', { name: 'invoice' }],
    // Unbalanced: refused, and the document stays as it was.
    ['edit_document', { op: 'replace_inner', selector: 'h1', html: '<div><span>' }],
    ['edit_document', { op: 'replace_inner', selector: 'h1', html: 'Invoice INV-42' }],
    [
      'edit_document',
      {
        op: 'insert',
        selector: 'h1',
        position: 'after',
        html: '<p class="thanks" style="color:#e4e4e4">Thank you for your business.</p>',
      },
    ],
    ['finish', { summary: 'invoice written' }],
    // Round 2, after the review.
    ['render', {}],
    ['edit_document', { op: 'remove', selector: 'p.thanks' }],
    ['finish', { summary: 'the pale paragraph is gone' }],
  ] as const;
  const model = await scriptedModel({ programs: script.map(([name, args], i) => call(name, args, `call_${i}`)) });
  fixtures.push(model);
  const file = join(dir, 'invoice.json');
  writeFileSync(file, JSON.stringify(task));
  const out = join(dir, 'invoice.html');
  const json = join(dir, 'solve.json');
  const run = await crucible(
    [
      'solve',
      '--task',
      file,
      '--strategy',
      'formact',
      '--model',
      `${model.server.url}#fake-model`,
      '--db',
      join(dir, 'runs.db'),
      '--cache-dir',
      join(dir, 'cache'),
      '--budget',
      'calls=20,wall=4min',
      '--out',
      out,
      '--json',
      json,
    ],
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const result = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(result.status, 'verified');
  assert.equal(result.domain, 'docs');
  const document = readFileSync(out, 'utf8');
  assert.match(document, /<h1>Invoice INV-42<\/h1>/);
  assert.doesNotMatch(document, /thanks/);
  assert.equal(model.server.requests.length, script.length);
  const bodies = model.server.requests.map((r) => JSON.stringify(r.messages));
  // The refused edit's answer says so; the next request still has the turns before (nothing was accepted).
  assert.match(bodies[3]!, /refused, the document is unchanged/);
  assert.match(bodies[3]!, /find_templates/);
  // After the accepted edit, the context is the task, the edit log and the document now.
  const compressed = model.server.requests[4]!.messages.filter((m) => m.role !== 'system');
  assert.equal(compressed.length, 1);
  assert.match(String(compressed[0]!.content), /Edits so far \(2\):\n1\. started from the template invoice\n2\. /);
  assert.match(String(compressed[0]!.content), /Invoice INV-42/);
  // Round 2 starts from the review: the pale paragraph's contrast, by its selector.
  assert.match(bodies[6]!, /low-contrast at [^\n]*thanks/);
  assert.match(result.reason, /passes/);
});

test('solve --strategy formact refuses a task that is not a document, and sample refuses none', async () => {
  const file = join(dir, 'function.json');
  writeFileSync(file, JSON.stringify({ language: 'python', prompt: 'def f(x):\n    """x + 1"""\n', entry_point: 'f' }));
  const run = await crucible(['solve', '--task', file, '--strategy', 'formact', '--model', 'http://127.0.0.1:9/v1#m'], {
    cwd: dir,
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--strategy formact writes documents; a function task is solved with --strategy sample/);
});

test('edit-triggered compression: after 60 scripted edits every request stays under the token budget, with the edit log and the document', async () => {
  const budget = 3_000;
  const edits = 60;
  const paragraph = (i: number) =>
    `<p id="p${i}">Paragraph ${i}: ${'the quarterly figures were reviewed by the committee and found in order. '.repeat(4)}</p>`;
  const script = [
    call(
      'write_document',
      {
        html: '<!doctype html><html><head><title>Notes</title></head><body><h1>Notes</h1><main id="notes"></main></body></html>',
      },
      'w',
    ),
    ...Array.from({ length: edits }, (_, i) =>
      call('edit_document', { op: 'insert', selector: '#notes', position: 'append', html: paragraph(i) }, `e${i}`),
    ),
    call('finish', { summary: 'done' }, 'f'),
  ];
  const model = await scriptedModel({ programs: script });
  fixtures.push(model);
  const state = new DocumentState('');
  const holder = mkdtempSync(join(dir, 'ws-'));
  const workspace = await Workspace.open(holder);
  const runtime = new BrowserRuntime();
  try {
    const outcome = await runAgent({
      model: await model.model({ cache: 'off' }),
      workspace,
      task: 'Write the meeting notes.',
      tools: documentTools(state, { runtime, templates: TemplateLibrary.shipped(), media: ['a4'], assets: new Map() }),
      budget: { modelCalls: edits + 5 },
      trace: memoryTrace(),
      system: 'You write documents.',
      maxTurns: edits + 5,
      contextTokens: budget,
      rewriteContext: compressOnEdit(state, 'Write the meeting notes.', budget),
      selfMadeTools: false,
      subAgents: false,
      memory: false,
    });
    assert.equal(outcome.status, 'finished');
  } finally {
    await workspace.close();
    await runtime.close();
  }
  assert.equal(state.edits.length, edits + 1);
  assert.equal((state.source.match(/<p id=/g) ?? []).length, edits);
  const requests = model.server.requests;
  assert.equal(requests.length, edits + 2);
  for (const [i, request] of requests.entries()) {
    const conversation = request.messages.filter((m) => m.role !== 'system') as unknown as ChatMessage[];
    const tokens = estimateTokens(conversation.map((m) => ({ ...m, content: String(m.content ?? '') })));
    assert.ok(tokens <= budget, `request ${i + 1} carries ${tokens} tokens of conversation, over ${budget}`);
  }
  const last = String(requests.at(-1)!.messages.find((m) => m.role === 'user')!.content);
  assert.match(last, new RegExp(`Edits so far \\(${edits + 1}\\):`));
  assert.match(last, /earlier edits not listed/);
  // The document has outgrown the budget: its outline stands for it, with every paragraph counted.
  assert.match(last, /too long to show whole \(\d+ characters\); its outline/);
  assert.match(last, /main#notes \[[\d.]+ kB\] \(60 p\)/);
});

test('eval --model on docs task lines: each document written by the strategy and scored by the reviewer and the content assertions', async () => {
  const page = (body: string) =>
    `\`\`\`html\n<!doctype html><html lang="en"><head><title>Memo</title><style>@page { size: A4; margin: 18mm } body { font: 12pt/1.5 serif; color: #222 }</style></head><body>${body}</body></html>\n\`\`\``;
  // Task 1 gets a clean memo; task 2 one whose table is far wider than any page.
  const wide = `<table style="width:2400px"><tr>${'<td>figure</td>'.repeat(30)}</tr></table>`;
  const model = await scriptedModel({
    programs: [page('<h1>Memo 7</h1><p>The office closes on Friday.</p>'), page(`<h1>Figures</h1>${wide}`)],
  });
  fixtures.push(model);
  const file = join(dir, 'docs-tasks.jsonl');
  const lines = [
    {
      task_id: 'docs/memo',
      domain: 'docs',
      prompt: 'A memo, number 7.',
      expect: [{ selector: 'h1', text_contains: 'Memo 7' }],
    },
    { task_id: 'docs/figures', domain: 'docs', prompt: 'A table of the figures.', media: ['a4'] },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const json = join(dir, 'eval-docs.json');
  const run = await crucible(
    [
      'eval',
      '--dataset',
      file,
      '--strategy',
      'sample',
      '--candidates',
      '1',
      '--model',
      `${model.server.url}#fake-model`,
      '--budget',
      'calls=2,wall=3min',
      '--db',
      join(dir, 'runs.db'),
      '--cache-dir',
      join(dir, 'eval-cache'),
      '--json',
      json,
    ],
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const document = JSON.parse(readFileSync(json, 'utf8'));
  const byTask = new Map(document.samples.map((s: { task_id: string }) => [s.task_id, s]));
  const memo = byTask.get('docs/memo') as { status: string; suites: Record<string, { status: string }> };
  assert.equal(memo.status, 'pass');
  assert.equal(memo.suites.content!.status, 'pass');
  const figures = byTask.get('docs/figures') as { status: string; suites: Record<string, { status: string }> };
  assert.equal(figures.status, 'fail');
  assert.equal(figures.suites['review/a4']!.status, 'fail', 'the table is wider than the A4 page');
  assert.equal(figures.suites['review/screen'], undefined, 'the task is judged on A4 alone');
});

test('eval --samples on docs task lines: documents a user brings, scored with pass@k as functions are', async () => {
  const page = (body: string) =>
    `<!doctype html><html lang="en"><head><title>Memo</title><style>@page { size: A4; margin: 18mm } body { font: 12pt/1.5 serif; color: #222 }</style></head><body>${body}</body></html>`;
  const file = join(dir, 'docs-samples-tasks.jsonl');
  writeFileSync(
    file,
    JSON.stringify({
      task_id: 'docs/memo',
      domain: 'docs',
      prompt: 'A memo, number 7.',
      expect: [{ selector: 'h1', text_contains: 'Memo 7' }],
      media: ['a4'],
    }) + '\n',
  );
  const samples = join(dir, 'docs-samples.jsonl');
  writeFileSync(
    samples,
    [page('<h1>Memo 7</h1><p>The office closes on Friday.</p>'), page('<h1>Memo 8</h1><p>Wrong number.</p>')]
      .map((solution) => JSON.stringify({ task_id: 'docs/memo', solution }))
      .join('\n') + '\n',
  );
  const json = join(dir, 'eval-docs-samples.json');
  const run = await crucible(['eval', '--dataset', file, '--samples', samples, '--json', json, '--no-record'], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const document = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(document.settings.domain, 'docs');
  assert.deepEqual(
    document.samples.map((s: { status: string }) => s.status),
    ['pass', 'fail'],
  );
  assert.equal(document.samples[1].suites.content.status, 'fail', 'the heading says Memo 8');
  assert.equal(document.summary.pass_at_k.content['1'], 0.5);
});
