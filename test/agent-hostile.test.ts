/**
 * Hostile agent sessions, scripted through the fake OpenAI-compatible server: what a model may
 * send that the simple sessions do not — conflicting edits in one turn, hundreds of calls at once,
 * huge arguments, a regular expression built to backtrack for ever, processes left running,
 * names that are not tools and arguments that are not objects. Each is refused or contained with
 * a message the model can act on, and the session goes on to fix the repository.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAX_CALLS_PER_TURN, runAgent } from '../src/agents/agent.js';
import { defaultTestCommand } from '../src/agents/test-summary.js';
import { runSandboxed } from '../src/runtimes/command.js';
import { commandTools, FILE_TOOLS, MAX_COMMAND_CHARS } from '../src/agents/tools.js';
import { Workspace } from '../src/agents/workspace.js';
import type { FakeChatRequest, FakeReply } from '../src/models/testing/index.js';
import { memoryTrace } from '../src/store/trace.js';
import { stackRepo } from './agent-support.js';
import { fixture } from './models-support.js';

type Call = { name: string; arguments: unknown };
const FIX: Call = { name: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[-1]' } };
const FINISH: Call = { name: 'finish', arguments: { summary: 'fixed' } };

/** Replies by turn; a turn is one call or several at once. */
const byTurn = (turns: ReadonlyArray<Call | readonly Call[]>) => (request: FakeChatRequest) => {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  const calls = turns[turn] ?? FINISH;
  return {
    toolCalls: (Array.isArray(calls) ? calls : [calls]).map((call, i) => ({ ...call, id: `call_${turn}_${i}` })),
  } satisfies FakeReply;
};

async function session(repo: string, turns: Parameters<typeof byTurn>[0], options: { contextTokens?: number } = {}) {
  const fake = await fixture({ script: byTurn(turns) });
  const workspace = await Workspace.open(repo);
  const testCommand = await defaultTestCommand(repo);
  const trace = memoryTrace();
  try {
    const outcome = await runAgent({
      model: await fake.model({ cache: 'off' }),
      workspace,
      task: 'top() must return the last item pushed; fix it.',
      tools: [...FILE_TOOLS, ...commandTools({ testCommand, limits: { seconds: 10 } })],
      budget: { modelCalls: 40 },
      trace,
      testCommand,
      ...options,
    });
    const tools = trace.events.filter((e) => e.kind === 'tool').map((e) => e.data as ToolData);
    return { outcome, tools, requests: fake.server.requests, diff: await workspace.diff() };
  } finally {
    await workspace.close();
    await fake.close();
  }
}
interface ToolData {
  readonly name: string;
  readonly ok: boolean;
  readonly output: string;
}

/** The session ended fixed: the last tests passed and the diff is the one-line fix. */
function assertFixed(result: Awaited<ReturnType<typeof session>>) {
  assert.equal(result.outcome.status, 'finished');
  const tests = result.tools.filter((t) => t.name === 'run_tests').at(-1);
  assert.equal(tests?.output, '1 passed, 0 failed (exit code 0)');
  assert.match(result.diff, /-    return items\[0\]\n\+    return items\[-1\]/);
}

test('conflicting edits in one turn run in order: the first applies, the second finds nothing to replace', async () => {
  const result = await session(stackRepo(), [
    [
      FIX,
      { name: 'edit_file', arguments: { path: 'stack.py', old: 'items[0]', new: 'items[1]' } },
      { name: 'write_file', arguments: { path: 'notes.md', content: 'first\n' } },
      { name: 'write_file', arguments: { path: 'notes.md', content: 'second\n' } },
      { name: 'read_file', arguments: { path: 'notes.md' } },
    ],
    { name: 'run_tests', arguments: {} },
    FINISH,
  ]);
  assertFixed(result);
  assert.deepEqual(
    result.tools.slice(0, 5).map((t) => [t.name, t.ok]),
    [
      ['edit_file', true],
      ['edit_file', false],
      ['write_file', true],
      ['write_file', true],
      ['read_file', true],
    ],
  );
  assert.match(result.tools[1]!.output, /not found|does not occur/i);
  assert.match(result.tools[4]!.output, /second/);
  assert.match(result.diff, /\+second/);
});

test(`a turn of a hundred calls runs ${MAX_CALLS_PER_TURN}; every call is answered, and the session goes on`, async () => {
  const many = Array.from({ length: 100 }, () => ({ name: 'read_file', arguments: { path: 'stack.py' } }));
  const result = await session(stackRepo(), [many, FIX, { name: 'run_tests', arguments: {} }, FINISH]);
  assertFixed(result);
  const first = result.tools.slice(0, 100);
  assert.equal(first.filter((t) => t.ok).length, MAX_CALLS_PER_TURN);
  assert.match(first.at(-1)!.output, new RegExp(`not run: at most ${MAX_CALLS_PER_TURN} tool calls`));
  // The endpoint was given one result per call id (a native protocol refuses a call left unanswered).
  const second = result.requests[1]!.messages;
  assert.equal(second.filter((m) => m.role === 'tool').length, 100);
});

test('huge arguments: a file over the limit is refused; one under it is written, and the context stays in budget', async () => {
  const contextTokens = 4000;
  const result = await session(
    stackRepo(),
    [
      { name: 'write_file', arguments: { path: 'big.txt', content: 'x'.repeat(3 << 20) } },
      { name: 'write_file', arguments: { path: 'data.txt', content: 'y'.repeat(900_000) } },
      FIX,
      { name: 'run_tests', arguments: {} },
      FINISH,
    ],
    { contextTokens },
  );
  assertFixed(result);
  assert.equal(result.tools[0]!.ok, false);
  assert.match(result.tools[0]!.output, /more than the 1048576 bytes/);
  assert.equal(result.tools[1]!.ok, true);
  assert.match(result.diff, /\+\+\+ b\/data.txt/);
  // After the calls that carried them, no request echoes the megabytes back to the model.
  for (const request of result.requests.slice(1)) {
    const chars = JSON.stringify(request.messages).length;
    assert.ok(chars < contextTokens * 4 + 8000, `a request of ${chars} characters`);
  }
});

test('a regular expression built to backtrack runs in linear time; one RE2 cannot run is refused, saying why', async () => {
  const repo = stackRepo();
  writeFileSync(join(repo, 'trap.txt'), `${'a'.repeat(30_000)}!\n`);
  const result = await session(repo, [
    // Exponential on a backtracking engine: this would hold Crucible's event loop for ever.
    { name: 'search', arguments: { query: '(a+)+$', regex: true } },
    { name: 'search', arguments: { query: '(?<=a)b', regex: true } },
    { name: 'search', arguments: { query: 'def \\w+\\(', regex: true } },
    FIX,
    { name: 'run_tests', arguments: {} },
    FINISH,
  ]);
  assertFixed(result);
  assert.equal(result.tools[0]!.ok, true);
  assert.match(result.tools[0]!.output, /^no match for/);
  assert.equal(result.tools[1]!.ok, false);
  assert.match(result.tools[1]!.output, /RE2 syntax: no lookaround or backreferences/);
  assert.match(result.tools[2]!.output, /stack.py:1: def top\(items\):/);
});

test('a command too long for the system is refused by the tool, and cannot crash the runner', async () => {
  const repo = stackRepo();
  const long = `echo ${'a'.repeat(300_000)} | wc -c`;
  const result = await session(repo, [
    { name: 'run', arguments: { command: long } },
    { name: 'run', arguments: { command: 'echo still here' } },
    FIX,
    { name: 'run_tests', arguments: {} },
    FINISH,
  ]);
  assertFixed(result);
  assert.match(result.tools[0]!.output, new RegExp(`at most ${MAX_COMMAND_CHARS} characters: write a script`));
  assert.match(result.tools[1]!.output, /still here/);
  // Past the tool's limit, a command the system cannot start is a result, not an exception.
  const direct = await runSandboxed(repo, long);
  assert.equal(direct.exitCode, null);
  assert.match(direct.output, /could not start the command: spawn E2BIG/);
});

const lingering = (marker: string) => {
  const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return ps.split('\n').filter((line) => line.includes(marker));
};

test('processes a command leaves behind end with it, whichever way they detach', async () => {
  const result = await session(stackRepo(), [
    {
      name: 'run',
      arguments: { command: 'sleep 317 & (setsid sleep 318 &); nohup sleep 319 >/dev/null 2>&1 & echo started' },
    },
    FIX,
    { name: 'run_tests', arguments: {} },
    FINISH,
  ]);
  assertFixed(result);
  assert.equal(result.tools[0]!.ok, true, result.tools[0]!.output);
  assert.match(result.tools[0]!.output, /started/);
  assert.doesNotMatch(result.tools[0]!.output, /stopped after/, 'the command returned; its children did not hold it');
  assert.deepEqual(lingering('sleep 31'), []);
});

test('names that are not tools and arguments that are not objects are refused, and the session goes on', async () => {
  const result = await session(stackRepo(), [
    [
      { name: '__proto__', arguments: {} },
      { name: 'constructor', arguments: {} },
      { name: 'toString', arguments: {} },
      { name: 'read_file', arguments: ['stack.py'] },
      { name: 'read_file', arguments: 'stack.py' },
      { name: 'read_file', arguments: { path: 7 } },
      { name: 'read_file', arguments: { path: 'stack.py', start_line: -5 } },
      { name: 'remember', arguments: { fact: 'top is wrong', about: ['__proto__', 'constructor'] } },
      { name: 'recall', arguments: { query: '__proto__' } },
      { name: 'recall', arguments: { query: 'wrong' } },
    ],
    FIX,
    { name: 'run_tests', arguments: {} },
    FINISH,
  ]);
  assertFixed(result);
  const first = result.tools.slice(0, 10);
  for (const t of first.slice(0, 3)) assert.match(t.output, /there is no tool/);
  for (const t of first.slice(3, 7)) {
    assert.equal(t.ok, false, t.output);
    assert.match(t.output, /bad arguments/);
  }
  // The memory's names are data, not keys of an object: these are facts and queries like any other.
  assert.deepEqual([first[7]!.ok, first[8]!.ok], [true, true]);
  assert.match(first[9]!.output, /\[fact\] top is wrong/);
});

test('a reply that cannot be read (arguments nested past any parser stack) is said so, and the next reply is used', async () => {
  const deep = `{"path": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
  const script = byTurn([FIX, { name: 'run_tests', arguments: {} }, FINISH]);
  let requests = 0;
  const fake = await fixture({
    script: (request) =>
      ++requests === 1 ? { toolCalls: [{ id: 'deep', name: 'read_file', arguments: deep }] } : script(request),
  });
  const workspace = await Workspace.open(stackRepo());
  const trace = memoryTrace();
  try {
    const testCommand = await defaultTestCommand(workspace.root);
    const outcome = await runAgent({
      model: await fake.model({ cache: 'off' }),
      workspace,
      task: 'top() must return the last item pushed; fix it.',
      tools: [...FILE_TOOLS, ...commandTools({ testCommand })],
      budget: { modelCalls: 10 },
      trace,
      testCommand,
    });
    assert.equal(outcome.status, 'finished', outcome.summary);
    const told = trace.events.find((e) => e.kind === 'feedback');
    assert.match(String(told?.data.text), /^Your last reply could not be read \(.*Maximum call stack size exceeded/);
    assert.match(fake.server.requests[1]!.messages.map((m) => String(m.content)).join('\n'), /could not be read/);
    assert.match(await workspace.diff(), /\+    return items\[-1\]/);
  } finally {
    await workspace.close();
    await fake.close();
  }
});
