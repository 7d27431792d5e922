/**
 * Agent sessions scripted through the fake OpenAI-compatible server, through the production
 * provider code (native tool calls over HTTP, and structured output for an endpoint without
 * tools): a session that reads, edits, runs the tests and finishes leaves a repository whose
 * tests pass and a trace with every step; hostile calls are refused and the session goes on;
 * a long session keeps its context under budget.
 */
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAgent } from '../../src/agents/agent.js';
import { defaultTestCommand } from '../../src/agents/test-summary.js';
import { commandTools, FILE_TOOLS } from '../../src/agents/tools.js';
import { Workspace } from '../../src/agents/workspace.js';
import { createModel } from '../../src/models/index.js';
import type { FakeChatRequest, FakeReply } from '../../src/models/testing/index.js';
import { memoryTrace } from '../../src/store/trace.js';
import { stackRepo, tempDir } from '../agent-support.js';
import { fixture } from '../models-support.js';

/** Replies by turn: the n-th request gets the n-th call. */
const byTurn = (calls: ReadonlyArray<{ name: string; arguments: unknown }>) => (request: FakeChatRequest) => {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  const call = calls[turn] ?? { name: 'finish', arguments: { summary: 'out of script' } };
  return { toolCalls: [{ ...call, id: `call_${turn}` }] } satisfies FakeReply;
};

const session = async (repo: string, calls: Parameters<typeof byTurn>[0], options: { contextTokens?: number } = {}) => {
  const fake = await fixture({ script: byTurn(calls) });
  const workspace = await Workspace.open(repo);
  const testCommand = await defaultTestCommand(repo);
  const trace = memoryTrace();
  try {
    const outcome = await runAgent({
      model: await fake.model({ cache: 'off' }),
      workspace,
      task: 'top() must return the last item pushed; fix it.',
      tools: [...FILE_TOOLS, ...commandTools({ testCommand })],
      budget: { modelCalls: 40 },
      trace,
      testCommand,
      ...options,
    });
    return { outcome, trace, requests: fake.server.requests, diff: await workspace.diff(), root: workspace.root };
  } finally {
    await workspace.close();
    await fake.close();
  }
};

test('a scripted session reads, edits, runs the tests and finishes: the tests pass and every step is traced', async () => {
  const repo = stackRepo();
  const { outcome, trace, requests, diff } = await session(repo, [
    { name: 'list_files', arguments: {} },
    { name: 'read_file', arguments: { path: 'stack.py' } },
    { name: 'run_tests', arguments: {} },
    { name: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[-1]' } },
    { name: 'run_tests', arguments: {} },
    { name: 'finish', arguments: { summary: 'top returns the last item' } },
  ]);
  assert.equal(outcome.status, 'finished');
  assert.equal(outcome.summary, 'top returns the last item');
  assert.equal(outcome.turns, 6);
  const tools = trace.events.filter((e) => e.kind === 'tool');
  assert.deepEqual(
    tools.map((e) => [e.data.name, e.data.ok]),
    [
      ['list_files', true],
      ['read_file', true],
      ['run_tests', false],
      ['edit_file', true],
      ['run_tests', true],
    ],
  );
  assert.match(String(tools[2]!.data.output), /^0 passed, 1 failed/);
  assert.equal(tools[4]!.data.output, '1 passed, 0 failed (exit code 0)');
  assert.equal(trace.events.filter((e) => e.kind === 'prompt').length, 6);
  assert.equal(trace.events.at(-1)!.kind, 'decision');
  // The model was sent its calls and their results natively (OpenAI tool messages).
  const last = requests.at(-1)!.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>;
  const results = last.filter((m) => m.role === 'tool');
  assert.equal(results.length, 5);
  assert.equal(results[4]!.tool_call_id, 'call_4');
  assert.match(JSON.stringify(results[1]!.content), /return items\[0\]/);
  // The diff is the fix; the user's folder is untouched.
  assert.match(diff, /-    return items\[0\]\n\+    return items\[-1\]/);
  assert.match(readFileSync(join(repo, 'stack.py'), 'utf8'), /items\[0\]/);
});

test('hostile calls are refused with a message and the session goes on to finish', async () => {
  const repo = stackRepo();
  const outsideDir = tempDir('crucible-agent-outside-');
  symlinkSync(outsideDir, join(repo, 'escape'));
  const { outcome, trace } = await session(repo, [
    { name: 'read_file', arguments: { path: '/etc/passwd' } },
    { name: 'write_file', arguments: { path: '../outside.txt', content: 'x' } },
    { name: 'write_file', arguments: { path: 'escape/planted.txt', content: 'x' } },
    { name: 'delete_everything', arguments: {} },
    { name: 'read_file', arguments: '{"path": ' },
    { name: 'edit_file', arguments: { path: 'stack.py', old: 'return items[0]', new: 'return items[-1' } },
    { name: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[-1]' } },
    { name: 'run_tests', arguments: {} },
    { name: 'finish', arguments: { summary: 'fixed' } },
  ]);
  assert.equal(outcome.status, 'finished');
  const tools = trace.events.filter((e) => e.kind === 'tool').map((e) => [e.data.name, e.data.ok, e.data.output]);
  assert.equal(tools.length, 8);
  assert.deepEqual(
    tools.map(([name, ok]) => [name, ok]),
    [
      ['read_file', false],
      ['write_file', false],
      ['write_file', false],
      ['delete_everything', false],
      ['read_file', false],
      ['edit_file', false],
      ['edit_file', true],
      ['run_tests', true],
    ],
  );
  assert.match(String(tools[0]![2]), /absolute/);
  assert.match(String(tools[2]![2]), /symbolic link/);
  assert.match(String(tools[3]![2]), /no tool "delete_everything"/);
  assert.match(String(tools[4]![2]), /bad arguments/);
  assert.match(String(tools[5]![2]), /unparseable/);
  assert.deepEqual([existsIn(outsideDir, 'planted.txt'), existsIn(join(repo, '..'), 'outside.txt')], [false, false]);
});

const existsIn = (dir: string, name: string) => {
  try {
    readFileSync(join(dir, name));
    return true;
  } catch {
    return false;
  }
};

test('over a long session the context stays under its budget, older results elided with a note', async () => {
  const repo = stackRepo();
  writeFileSync(
    join(repo, 'big.py'),
    Array.from({ length: 300 }, (_, i) => `X${i} = ${i}  # a long line of padding`).join('\n'),
  );
  const reads = Array.from({ length: 24 }, () => ({ name: 'read_file', arguments: { path: 'big.py' } }));
  const budget = 8000;
  const { outcome, requests } = await session(repo, reads, { contextTokens: budget });
  assert.equal(outcome.status, 'finished');
  const sizes = requests.map((r) => JSON.stringify(r.messages).length / 4);
  // Each request: the system prompt and tool schemas aside, the conversation stays near its budget.
  assert.ok(Math.max(...sizes) < budget * 1.6, `largest request ~${Math.round(Math.max(...sizes))} tokens`);
  const last = JSON.stringify(requests.at(-1)!.messages);
  assert.match(last, /\[elided to keep the context short: 300 lines of read_file's result; call it again to see it\]/);
});

test('an endpoint without native tools gets the same tools through structured output', async () => {
  const repo = stackRepo();
  const replies = [
    { tool: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[-1]' } },
    { tool: 'run_tests', arguments: {} },
    { tool: 'finish', arguments: { summary: 'done without tools' } },
  ];
  const fake = await fixture({
    script: (request) => {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      return JSON.stringify(replies[turn] ?? replies.at(-1));
    },
  });
  const workspace = await Workspace.open(repo);
  const trace = memoryTrace();
  try {
    const outcome = await runAgent({
      // The same fake endpoint, declared in the config as one without tool calls.
      model: await createModel('plain', {
        config: { models: { plain: { spec: fake.spec, capabilities: { tools: false } } }, prices: {} },
        env: {},
        cache: 'off',
      }),
      workspace,
      task: 'fix top()',
      tools: [...FILE_TOOLS, ...commandTools({ testCommand: await defaultTestCommand(repo) })],
      budget: { modelCalls: 10 },
      trace,
    });
    assert.equal(outcome.status, 'finished');
    assert.equal(outcome.summary, 'done without tools');
    assert.deepEqual(
      trace.events.filter((e) => e.kind === 'tool').map((e) => [e.data.name, e.data.ok]),
      [
        ['edit_file', true],
        ['run_tests', true],
      ],
    );
    // No tools were sent: the request asked for JSON instead.
    assert.ok(fake.server.requests.every((r) => !('tools' in r.body)));
  } finally {
    await workspace.close();
    await fake.close();
  }
});
