/**
 * What the agent makes for itself, scripted through the fake OpenAI-compatible server: a tool it
 * writes is added only when its tests pass in the sandbox, runs only there (on a copy: it cannot
 * change the repository), and cannot take a built-in's name; a sub-agent gets only a subset of
 * its parent's tools (never the tools that make agents or tools), is refused what it was not
 * given, and its answer reaches its parent as the tool result, under the parent's budget.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runAgent } from '../src/agents/agent.js';
import { commandTools, FILE_TOOLS } from '../src/agents/tools.js';
import { Workspace } from '../src/agents/workspace.js';
import type { FakeChatRequest } from '../src/models/testing/index.js';
import { memoryTrace } from '../src/store/trace.js';
import { fixture } from './models-support.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

type Call = { name: string; arguments: unknown };
const turnOf = (request: FakeChatRequest) => request.messages.filter((m) => m.role === 'assistant').length;
const isSubAgent = (request: FakeChatRequest) => String(request.messages[0]?.content ?? '').includes('Your role:');
const reply = (calls: readonly Call[], turn: number) => ({
  toolCalls: [{ ...(calls[turn] ?? { name: 'finish', arguments: { summary: 'out of script' } }), id: `call_${turn}` }],
});

async function session(script: (request: FakeChatRequest) => ReturnType<typeof reply>, budgetCalls = 30) {
  const repo = mkdtempSync(join(tmpdir(), 'crucible-agent-made-'));
  dirs.push(repo);
  writeFileSync(
    join(repo, 'stack.py'),
    'def top(items):\n    return items[0]\n\n\ndef size(items):\n    return len(items)\n',
  );
  const fake = await fixture({ script });
  const workspace = await Workspace.open(repo);
  const trace = memoryTrace();
  try {
    const outcome = await runAgent({
      model: await fake.model({ cache: 'off' }),
      workspace,
      task: 'look at the stack',
      tools: [...FILE_TOOLS, ...commandTools({ testCommand: undefined })],
      budget: { modelCalls: budgetCalls },
      trace,
    });
    const tools = trace.events
      .filter((e) => e.kind === 'tool')
      .map((e) => e.data as { name: string; ok: boolean; output: string });
    return { outcome, tools, trace, root: workspace.root, requests: fake.server.requests };
  } finally {
    await workspace.close();
    await fake.close();
  }
}

const COUNT_DEFS = `import pathlib\n\ndef run(args):\n    text = pathlib.Path(args["path"]).read_text()\n    return str(sum(1 for line in text.splitlines() if line.startswith("def ")))\n`;
const COUNT_TESTS = `import pathlib, tempfile, unittest\nfrom agent_tool import run\n\nclass T(unittest.TestCase):\n    def test_two(self):\n        p = pathlib.Path(tempfile.mkdtemp()) / "m.py"\n        p.write_text("def a():\\n    pass\\ndef b():\\n    pass\\n")\n        self.assertEqual(run({"path": str(p)}), "2")\n`;

test('a tool the agent writes is added only when its tests pass, and runs in the sandbox on a copy', async () => {
  const calls: Call[] = [
    // Wrong code: its own tests fail, so it is not added.
    {
      name: 'create_tool',
      arguments: {
        name: 'count_defs',
        description: 'count functions',
        code: COUNT_DEFS.replace('"def "', '"class "'),
        tests: COUNT_TESTS,
      },
    },
    { name: 'count_defs', arguments: { path: 'stack.py' } },
    {
      name: 'create_tool',
      arguments: { name: 'count_defs', description: 'count functions', code: COUNT_DEFS, tests: COUNT_TESTS },
    },
    { name: 'count_defs', arguments: { path: 'stack.py' } },
    // A built-in's name is not available.
    { name: 'create_tool', arguments: { name: 'read_file', description: 'x', code: COUNT_DEFS, tests: COUNT_TESTS } },
    // A tool that writes and reaches out: it passes its test, but runs on a throwaway copy with no network.
    {
      name: 'create_tool',
      arguments: {
        name: 'plant',
        description: 'writes a file',
        code: 'import pathlib, socket\n\ndef run(args):\n    pathlib.Path("planted.txt").write_text("x")\n    try:\n        socket.create_connection(("10.0.0.1", 80), timeout=2)\n        return "reached the network"\n    except OSError:\n        return "no network"\n',
        tests:
          'import unittest\nfrom agent_tool import run\n\nclass T(unittest.TestCase):\n    def test_runs(self):\n        self.assertEqual(run({}), "no network")\n',
      },
    },
    { name: 'plant', arguments: {} },
    { name: 'finish', arguments: { summary: 'done' } },
  ];
  const { outcome, tools, root } = await session((request) => reply(calls, turnOf(request)));
  assert.equal(outcome.status, 'finished');
  assert.deepEqual(
    tools.map((t) => [t.name, t.ok]),
    [
      ['create_tool', false],
      ['count_defs', false],
      ['create_tool', true],
      ['count_defs', true],
      ['create_tool', false],
      ['create_tool', true],
      ['plant', true],
    ],
  );
  assert.match(tools[0]!.output, /^not added: its tests did not all pass \(0 passed, 1 failed\)/);
  assert.match(tools[1]!.output, /no tool "count_defs"/);
  assert.equal(
    tools[2]!.output,
    'added the tool count_defs (its tests: 1 passed, 0 failed); call it with its arguments',
  );
  assert.equal(tools[3]!.output, '2');
  assert.match(tools[4]!.output, /exists already/);
  assert.equal(tools[6]!.output, 'no network');
  assert.equal(existsSync(join(root, 'planted.txt')), false, 'a self-made tool cannot change the workspace');
});

test("a sub-agent gets a subset of its parent's tools, is refused the rest, and its answer reaches its parent", async () => {
  const parent: Call[] = [
    {
      name: 'create_subagent',
      arguments: { name: 'reader', role: 'a reviewer who only reads', tools: ['read_file', 'delete_all'] },
    },
    {
      name: 'create_subagent',
      arguments: { name: 'reader', role: 'a reviewer who only reads', tools: ['read_file', 'create_tool'] },
    },
    {
      name: 'create_subagent',
      arguments: { name: 'reader', role: 'a reviewer who only reads', tools: ['read_file', 'search'], turns: 4 },
    },
    { name: 'call_subagent', arguments: { name: 'writer', task: 'x' } },
    { name: 'call_subagent', arguments: { name: 'reader', task: 'What does top() return?' } },
    { name: 'finish', arguments: { summary: 'top returns the first item' } },
  ];
  const child: Call[] = [
    { name: 'read_file', arguments: { path: 'stack.py' } },
    { name: 'write_file', arguments: { path: 'stack.py', content: 'x = 1\n' } },
    { name: 'create_subagent', arguments: { name: 'deeper', role: 'r', tools: ['read_file'] } },
    { name: 'finish', arguments: { summary: 'top() returns items[0], the first item' } },
  ];
  const { outcome, tools, requests } = await session((request) =>
    isSubAgent(request) ? reply(child, turnOf(request)) : reply(parent, turnOf(request)),
  );
  assert.equal(outcome.status, 'finished');
  assert.deepEqual(
    tools.map((t) => [t.name, t.ok]),
    [
      ['create_subagent', false],
      ['create_subagent', false],
      ['create_subagent', true],
      ['call_subagent', false],
      // The sub-agent's own calls, then its answer as the parent's tool result.
      ['read_file', true],
      ['write_file', false],
      ['create_subagent', false],
      ['call_subagent', true],
    ],
  );
  assert.match(tools[0]!.output, /delete_all cannot be given/);
  assert.match(tools[1]!.output, /create_tool cannot be given/);
  assert.match(tools[3]!.output, /no sub-agent named writer; yours are reader/);
  assert.match(tools[5]!.output, /no tool "write_file" here; the tools are read_file, search$/);
  assert.match(tools[6]!.output, /no tool "create_subagent"/);
  assert.equal(tools[7]!.output, 'reader answered after 4 turns:\ntop() returns items[0], the first item');
  // The sub-agent was sent only its own tools; the parent's calls and its share one budget.
  const childRequest = requests.find((r) =>
    String(r.messages[0]?.content).includes('Your role: a reviewer who only reads'),
  )!;
  const childTools = (childRequest.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
  assert.deepEqual(childTools.sort(), ['finish', 'read_file', 'search']);
  assert.equal(outcome.usage.calls, requests.length);
});

test('a sub-agent spends its parent’s budget', async () => {
  const parent: Call[] = [
    { name: 'create_subagent', arguments: { name: 'looper', role: 'reads forever', tools: ['read_file'], turns: 12 } },
    { name: 'call_subagent', arguments: { name: 'looper', task: 'read' } },
  ];
  const reads: Call[] = Array.from({ length: 12 }, () => ({ name: 'read_file', arguments: { path: 'stack.py' } }));
  const { outcome, requests } = await session(
    (request) => (isSubAgent(request) ? reply(reads, turnOf(request)) : reply(parent, turnOf(request))),
    6,
  );
  assert.equal(outcome.status, 'stopped');
  assert.match(outcome.summary, /budget spent: 6 of 6 model calls/);
  assert.equal(requests.length, 6);
});
