import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractHtmlDocument } from './html-document.js';

test('the HTML document in a reply: the longest fenced HTML block, any info line; else the reply when it is HTML', () => {
  const small = '<div>small</div>';
  const page = '<!doctype html><html><body><button>go</button></body></html>';
  const reply = `Here:\n\`\`\`html\n${small}\n\`\`\`\nand the game:\n\`\`\`htm title="game"\n${page}\n\`\`\`\n\`\`\`js\nconsole.log(1)\n\`\`\``;
  assert.equal(extractHtmlDocument(reply), page);
  assert.equal(extractHtmlDocument(`  ${page}  `), page);
  assert.equal(extractHtmlDocument('no document here'), undefined);
  assert.equal(extractHtmlDocument('```python\nprint(1)\n```'), undefined);
});

test(
  'a megabyte of backticks in a reply is scanned once (the regular expression before took 2 s on 40 KB)',
  { timeout: 30_000 },
  () => {
    assert.equal(extractHtmlDocument('```'.repeat(350_000)), undefined);
    assert.equal(extractHtmlDocument('```html\n<div>x</div>\n```' + '`'.repeat(1 << 20)), '<div>x</div>');
  },
);
