/**
 * `crucible agent` as a user runs it: a real process against the fake OpenAI-compatible server
 * scripting the model's tool calls. It prints the tests before and after, the diff and the run
 * id; --json writes the documented fields; the folder changes only with --apply; the run is in
 * the store with every tool call; mistakes in the command line say what to do.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../src/models/testing/index.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';
import { crucible } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-agent-cli-'));
const BUGGY = 'def top(items):\n    """The last item pushed."""\n    return items[0]\n';
let server: FakeOpenAIServer;

/** The model: reads the file, fixes it, runs the tests, finishes (by the number of its turns so far). */
const FIX = [
  { name: 'read_file', arguments: { path: 'stack.py' } },
  { name: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[-1]' } },
  { name: 'run_tests', arguments: {} },
  { name: 'finish', arguments: { summary: 'top() returns the last item' } },
];

before(async () => {
  server = await startFakeOpenAIServer({
    script: (request) => {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      return { toolCalls: [{ ...FIX[Math.min(turn, FIX.length - 1)]!, id: `call_${turn}` }] };
    },
  });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function repo(name: string): string {
  const root = mkdtempSync(join(dir, `${name}-`));
  writeFileSync(join(root, 'stack.py'), BUGGY);
  writeFileSync(
    join(root, 'test_stack.py'),
    'import unittest\nfrom stack import top\n\nclass TopTest(unittest.TestCase):\n    def test_last(self):\n        self.assertEqual(top([1, 2, 3]), 3)\n',
  );
  return root;
}

const agent = (args: string[]) =>
  crucible([
    'agent',
    '--model',
    `${server.url}#fake-model`,
    '--db',
    join(dir, 'runs.db'),
    '--cache-dir',
    join(dir, 'cache'),
    ...args,
  ]);

test('the agent fixes the repository: tests before and after, the diff, the run; the folder is untouched without --apply', async () => {
  const root = repo('plain');
  const json = join(dir, 'agent.json');
  const r = await agent(['--repo', root, '--task', 'top() must return the last item', '--json', json, '--seed', '3']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /^tests before: 0 passed, 1 failed$/m);
  assert.match(r.stdout, /-    return items\[0\]\n\+    return items\[-1\]/);
  assert.match(r.stdout, /^tests after: 1 passed, 0 failed$/m);
  const run = /^verified; run (\S+) \(crucible show \1\)$/m.exec(r.stdout)?.[1];
  assert.ok(run, r.stdout);
  assert.equal(readFileSync(join(root, 'stack.py'), 'utf8'), BUGGY, 'without --apply the folder is as it was');
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(doc.status, 'verified');
  assert.deepEqual(doc.tests.before, { passed: 0, failed: 1 });
  assert.deepEqual(doc.tests.after, { passed: 1, failed: 0 });
  assert.equal(doc.run_id, run);
  assert.match(doc.diff, /^--- a\/stack.py\n\+\+\+ b\/stack.py/);
  assert.equal(doc.applied, false);
  // The run is recorded with every tool call.
  const shown = await crucible(['show', run!, '--db', join(dir, 'runs.db'), '--json']);
  const { run: stored, events } = JSON.parse(shown.stdout);
  assert.equal(stored.status, 'verified');
  assert.deepEqual(
    events.filter((e: { kind: string }) => e.kind === 'tool').map((e: { data: { name: string } }) => e.data.name),
    ['read_file', 'edit_file', 'run_tests'],
  );
  const tree = await crucible(['show', run!, '--db', join(dir, 'runs.db')]);
  assert.match(tree.stdout, /tool \[turn 2\]  edit_file "\{\\"path\\":\\"stack.py\\",.* → "edited stack.py at line 3"/);
});

test("the agent run's report shows its changes, its tests before and after, and every tool call (chromium)", async () => {
  const root = repo('report');
  const json = join(dir, 'agent-report.json');
  const r = await agent(['--repo', root, '--task', 'top() must return the last item', '--json', json]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  const html = join(dir, 'agent-run.html');
  const written = await crucible(['report', '--run', doc.run_id, '--db', join(dir, 'runs.db'), '--out', html]);
  assert.equal(written.code, 0, written.stderr);
  const browser = await launchChromium();
  try {
    const { page, requests, errors } = await openPage(browser, pathToFileURL(html));
    const shown = (await page.locator('[data-testid="agent-diff"] .unified-diff').textContent()) ?? '';
    // The diff as stored, line by line (each line is its own block).
    assert.equal(shown, doc.diff.replace(/\n$/, '').split('\n').join(''));
    assert.match(
      (await page.locator('[data-testid="agent-tests"]').textContent()) ?? '',
      /0 passed, 1 failed before → 1 passed, 0 failed after/,
    );
    const kinds = await page.locator('[data-kind="tool"]').count();
    assert.equal(kinds, 3, 'one node per tool call');
    // The memory as stored: the file read, the function it defines, the edit that changed it.
    const stored = JSON.parse((await crucible(['show', doc.run_id, '--db', join(dir, 'runs.db'), '--json'])).stdout);
    const memory = stored.run.summary.memory as { nodes: unknown[] };
    assert.equal(await page.locator('[data-testid="agent-memory"] [data-node]').count(), memory.nodes.length);
    assert.match(
      (await page.locator('[data-memory-kind="edit"]').textContent()) ?? '',
      /stack\.py: [\s\S]*← changed-by stack\.py/,
    );
    await page.locator('[data-memory-kind="symbol"] summary').click();
    assert.match(
      (await page.locator('[data-node="symbol:stack.py:top"]').innerText()) ?? '',
      /top in stack\.py, lines 1-3[\s\S]*← defines stack\.py/,
    );
    await screenshot(page, 'agent-run', 'report-agent');
    await screenshot(page, 'agent-run-full', undefined, { fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    assert.ok(
      requests.every((url) => url.startsWith('file:')),
      requests.join('\n'),
    );
  } finally {
    await browser.close();
  }
});

test("a verified agent run's changed functions join the skeleton library; its untouched functions and its tests do not", async () => {
  const root = repo('skeletons');
  writeFileSync(join(root, 'stack.py'), `${BUGGY}\n\ndef push(items, x):\n    items.append(x)\n`);
  const json = join(dir, 'agent-skeletons.json');
  const r = await agent(['--repo', root, '--task', 'top() must return the last item', '--json', json]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const { run_id: run } = JSON.parse(readFileSync(json, 'utf8'));
  const library = join(dir, 'agent-skeletons.jsonl');
  const added = await crucible(['skeletons', 'add', '--run', run, '--db', join(dir, 'runs.db'), '--library', library]);
  assert.equal(added.code, 0, added.stderr);
  assert.match(added.stdout, /^added 1 skeleton \(0 already there\)/);
  const [skeleton, ...rest] = readFileSync(library, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(rest.length, 0);
  assert.equal(skeleton.name, 'top');
  assert.match(skeleton.program, /return items\[-1\]/, 'the function as the run left it');
  assert.equal(skeleton.source, `run ${run} stack.py`);
  assert.match(skeleton.verdict.checks, /the repository's 1 tests pass after the change/);
  const again = await crucible(['skeletons', 'add', '--run', run, '--db', join(dir, 'runs.db'), '--library', library]);
  assert.match(again.stdout, /^added 0 skeletons \(1 already there\)/);
  const found = await crucible(['skeletons', 'search', 'last item pushed', '--library', library, '--json']);
  assert.equal(JSON.parse(found.stdout)[0].skeleton.name, 'top');
});

test('--apply writes the change into the folder; --issue reads the task from a file', async () => {
  const root = repo('apply');
  const issue = join(dir, 'issue.md');
  writeFileSync(issue, '# top() is wrong\n\nIt returns the first item; it must return the last.\n');
  const r = await agent(['--repo', root, '--issue', issue, '--apply']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /^applied to .*: stack.py$/m);
  assert.equal(readFileSync(join(root, 'stack.py'), 'utf8'), BUGGY.replace('items[0]', 'items[-1]'));
});

test('command-line mistakes say what to do', async () => {
  const root = repo('mistakes');
  const none = await agent(['--repo', root]);
  assert.notEqual(none.code, 0);
  assert.match(none.stderr, /say what to do: --task TEXT, or --issue FILE/);
  const missing = await agent(['--repo', join(dir, 'no-such-folder'), '--task', 'x']);
  assert.match(missing.stderr, /is not a folder: give the repository's folder/);
  const issue = await agent(['--repo', root, '--issue', join(dir, 'nothing.md')]);
  assert.match(issue.stderr, /cannot read --issue .*: no such file/);
});
