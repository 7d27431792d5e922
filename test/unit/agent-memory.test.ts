/**
 * The agent's graph memory: files, their symbols, failing tests, edits, facts and the turns that
 * left the context, as nodes with typed edges; recall by text and by neighbourhood; filled by
 * the loop from what the tools return, through a scripted session (fake OpenAI-compatible
 * server), and kept with the run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runAgent } from '../../src/agents/agent.js';
import { MemoryGraph } from '../../src/agents/memory.js';
import { defaultTestCommand } from '../../src/agents/test-summary.js';
import { commandTools, FILE_TOOLS } from '../../src/agents/tools.js';
import { Workspace } from '../../src/agents/workspace.js';
import { memoryTrace } from '../../src/store/trace.js';
import { fixture } from '../models-support.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('nodes, typed edges and recall by text then neighbourhood', async () => {
  const memory = new MemoryGraph();
  await memory.file('stack.py', 'def top(items):\n    return items[0]\n\n\ndef size(items):\n    return len(items)\n');
  memory.failingTest('test_last', 'AssertionError: 1 != 3', ['stack.py']);
  memory.edited('stack.py', 'edited stack.py at line 2');
  memory.fact('top must return the last item pushed', ['top']);
  const { nodes, edges } = memory.toJSON();
  assert.deepEqual(nodes.map((n) => n.kind).sort(), ['edit', 'fact', 'file', 'symbol', 'symbol', 'test']);
  assert.deepEqual(edges.map((e) => `${e.from} -${e.kind}-> ${e.to}`).sort(), [
    'fact:1 -explains-> symbol:stack.py:top',
    'file:stack.py -changed-by-> edit:1',
    'file:stack.py -defines-> symbol:stack.py:size',
    'file:stack.py -defines-> symbol:stack.py:top',
    'test:test_last -tests-> file:stack.py',
  ]);
  // The fact is found by its words; the symbol it explains comes with it, as its neighbour.
  const found = memory.recall('pushed');
  assert.equal(found[0]!.id, 'fact:1');
  assert.ok(
    found.some((n) => n.id === 'symbol:stack.py:top' && n.via === 'explains fact:1'),
    JSON.stringify(found),
  );
  // Adding the same file again replaces its nodes, it does not repeat them.
  await memory.file('stack.py', 'def top(items):\n    return items[-1]\n');
  assert.equal(memory.toJSON().nodes.filter((n) => n.kind === 'file').length, 1);
  assert.deepEqual(memory.recall('no-such-thing-anywhere'), []);
});

test('a scripted session fills the memory from its tools, keeps what leaves the context, and recall finds it', async () => {
  const repo = mkdtempSync(join(tmpdir(), 'crucible-agent-memory-'));
  dirs.push(repo);
  writeFileSync(join(repo, 'stack.py'), 'def top(items):\n    """The last item pushed."""\n    return items[0]\n');
  writeFileSync(
    join(repo, 'test_stack.py'),
    'import unittest\nfrom stack import top\n\nclass TopTest(unittest.TestCase):\n    def test_last(self):\n        self.assertEqual(top([1, 2, 3]), 3)\n',
  );
  writeFileSync(
    join(repo, 'notes.py'),
    Array.from({ length: 200 }, (_, i) => `NOTE_${i} = ${i}  # padding`).join('\n'),
  );
  const calls = [
    { name: 'read_file', arguments: { path: 'stack.py' } },
    { name: 'run_tests', arguments: {} },
    { name: 'remember', arguments: { fact: 'top returns the first item; it must return the last', about: ['top'] } },
    ...Array.from({ length: 6 }, () => ({ name: 'read_file', arguments: { path: 'notes.py' } })),
    { name: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[-1]' } },
    { name: 'recall', arguments: { query: 'top' } },
    { name: 'recall', arguments: { query: 'NOTE_7' } },
    { name: 'recall', arguments: { query: 'stack.py' } },
    { name: 'finish', arguments: { summary: 'done' } },
  ];
  const fake = await fixture({
    script: (request) => {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      return { toolCalls: [{ ...calls[Math.min(turn, calls.length - 1)]!, id: `call_${turn}` }] };
    },
  });
  const workspace = await Workspace.open(repo);
  try {
    const trace = memoryTrace();
    const testCommand = await defaultTestCommand(repo);
    const outcome = await runAgent({
      model: await fake.model({ cache: 'off' }),
      workspace,
      task: 'fix top()',
      tools: [...FILE_TOOLS, ...commandTools({ testCommand })],
      budget: { modelCalls: 30 },
      trace,
      testCommand,
      contextTokens: 4000,
    });
    assert.equal(outcome.status, 'finished');
    const results = trace.events
      .filter((e) => e.kind === 'tool')
      .map((e) => e.data as { name: string; output: string });
    const [recallTop, recallNote, recallFile] = results.filter((r) => r.name === 'recall');
    // What the session read, failed, recorded and changed, found by a name and its neighbours.
    assert.match(recallTop!.output, /\[fact\] top returns the first item; it must return the last/);
    assert.match(recallTop!.output, /\[symbol\] top in stack.py, lines 1-3/);
    assert.match(recallTop!.output, /\[test\] test_last/);
    assert.match(recallFile!.output, /\[edit\] stack.py: "items\[0\]" → "items\[-1\]" \(edited stack.py at line 3\)/);
    // A result that left the context is in the memory as a turn.
    assert.match(recallNote!.output, /\[turn\] read_file \{"path":"notes.py"\} returned: {3}1 {2}NOTE_0 = 0/);
    const kinds = new Set(outcome.memory!.edges.map((e) => e.kind));
    assert.deepEqual([...kinds].sort(), ['changed-by', 'defines', 'explains', 'mentions', 'tests']);
  } finally {
    await workspace.close();
    await fake.close();
  }
});
