/**
 * run and run_tests as a model's calls reach them: the repository's tests in the sandbox with
 * their counts read from unittest and node:test, the failures cut to the failing tests; and the
 * hostile commands — writing to the repository, reaching the network or the host's files, a
 * runaway, a flood of output — are contained, with the next command run as usual.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { callTool, commandTools, FILE_TOOLS } from '../src/agents/tools.js';
import { defaultTestCommand, summarizeTests } from '../src/agents/test-summary.js';
import { Workspace } from '../src/agents/workspace.js';

const repos = mkdtempSync(join(tmpdir(), 'crucible-agent-commands-'));
const python = join(repos, 'python');
const javascript = join(repos, 'javascript');
let py: Workspace;
let js: Workspace;

before(async () => {
  mkdirSync(python);
  writeFileSync(join(python, 'stack.py'), 'def top(items):\n    return items[0]\n');
  writeFileSync(
    join(python, 'test_stack.py'),
    'import unittest\nfrom stack import top\n\nclass TopTest(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(top([1]), 1)\n\n    def test_last(self):\n        self.assertEqual(top([1, 2, 3]), 3)\n',
  );
  mkdirSync(javascript);
  writeFileSync(join(javascript, 'add.js'), 'exports.add = (a, b) => a - b;\n');
  writeFileSync(
    join(javascript, 'add.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./add.js');\ntest('adds', () => assert.equal(add(2, 3), 5));\ntest('zero', () => assert.equal(add(0, 0), 0));\n",
  );
  [py, js] = await Promise.all([Workspace.open(python), Workspace.open(javascript)]);
});
after(async () => {
  await Promise.all([py.close(), js.close()]);
  rmSync(repos, { recursive: true, force: true });
});

test('the test command is found from the repository', async () => {
  assert.match((await defaultTestCommand(python))!, /^python3 -m unittest discover/);
  assert.equal(await defaultTestCommand(javascript), 'node --test');
  assert.equal(await defaultTestCommand(mkdtempSync(join(repos, 'empty-'))), undefined);
});

test('run_tests counts unittest results and shows the failing test; an edit makes them pass', async () => {
  const tools = [...FILE_TOOLS, ...commandTools({ testCommand: await defaultTestCommand(python) })];
  const before = await callTool(tools, 'run_tests', {}, py);
  assert.equal(before.ok, false);
  assert.match(before.output, /^1 passed, 1 failed \(exit code 1\)\nFAIL: test_last/);
  assert.match(before.output, /AssertionError: 1 != 3/);
  assert.ok(!before.output.includes('Ran 2 tests'), 'the failure is cut to the failing test');
  await callTool(tools, 'edit_file', { path: 'stack.py', old: 'items[0]', new: 'items[-1]' }, py);
  const fixed = await callTool(tools, 'run_tests', {}, py);
  assert.equal(fixed.ok, true, fixed.output);
  assert.equal(fixed.output, '2 passed, 0 failed (exit code 0)');
});

test('run_tests counts node:test results', async () => {
  const tools = commandTools({ testCommand: 'node --test' });
  const r = await callTool(tools, 'run_tests', {}, js);
  assert.equal(r.ok, false);
  assert.match(r.output, /^1 passed, 1 failed/);
  assert.match(r.output, /not ok \d+ - adds/);
  assert.match(r.output, /expected: 5\n\s+actual: -1/);
});

test('commands cannot change the repository, reach the network or see the host, and a runaway is stopped', async () => {
  const tools = commandTools({ testCommand: undefined, limits: { seconds: 3, outputBytes: 4096 } });
  const run = (command: string) => callTool(tools, 'run', { command }, py);
  const writes = await run('echo planted > stack.py && cat stack.py && echo planted > /repo/stack.py');
  assert.equal(writes.ok, false);
  assert.match(writes.output, /planted\n.*Read-only file system/s);
  assert.equal(readFileSync(join(py.root, 'stack.py'), 'utf8').includes('planted'), false);
  const network = await run('python3 -c "import socket; socket.create_connection((\'10.0.0.1\', 80), timeout=2)"');
  assert.equal(network.ok, false);
  assert.match(network.output, /Network is unreachable|OSError/);
  const host = await run(`cat /etc/passwd; ls ${repos}`);
  assert.match(host.output, /No such file or directory[\s\S]*No such file or directory/);
  const runaway = await run('while :; do :; done');
  assert.equal(runaway.ok, false);
  assert.match(runaway.output, /^stopped after 3 s/);
  const flood = await run('yes crucible | head -c 50000000; echo END');
  assert.ok(flood.output.length < 6000, `${flood.output.length} characters`);
  assert.match(flood.output, /bytes of output left out[\s\S]*END\n$/);
  // And the next command runs as usual.
  const next = await run('python3 -c "print(6 * 7)"');
  assert.equal(next.ok, true);
  assert.equal(next.output, 'exit code 0\n42\n');
});

const PIDS_CGROUP = existsSync('/sys/fs/cgroup/pids/cgroup.procs') && process.getuid?.() === 0;

test(
  'a fork bomb stops at the process limit, and the next command runs as usual',
  {
    skip: PIDS_CGROUP
      ? false
      : 'no pids cgroup Crucible may make here (not root, or no pids controller): a fork bomb is ended by the wall-clock limit alone, which is not run here',
  },
  async () => {
    const tools = commandTools({ testCommand: undefined, limits: { seconds: 4, processes: 48 } });
    const run = (command: string) => callTool(tools, 'run', { command }, py);
    const counted = await run(
      'python3 -c "import os, time\nn = 0\nwhile True:\n    try:\n        if os.fork() == 0:\n            time.sleep(30)\n        n += 1\n    except OSError:\n        print(\'forks\', n)\n        break"',
    );
    const forks = Number(/forks (\d+)/.exec(counted.output)?.[1]);
    assert.ok(forks > 0 && forks < 48, counted.output);
    const bomb = await run(':(){ :|:& };:');
    assert.equal(bomb.ok, false);
    const next = await run('python3 -c "print(6 * 7)"');
    assert.equal(next.output, 'exit code 0\n42\n');
    assert.deepEqual(
      readdirSync('/sys/fs/cgroup/pids').filter((name) => name.startsWith(`crucible-command-${process.pid}-`)),
      [],
      'each command removes its cgroup',
    );
  },
);

const MEMORY_CGROUP = existsSync('/sys/fs/cgroup/memory/cgroup.procs') && process.getuid?.() === 0;

test(
  "a command's processes share one memory limit, and the next command runs as usual",
  {
    skip: MEMORY_CGROUP
      ? false
      : 'no memory cgroup Crucible may make here: each process has its address-space limit, not all of them together',
  },
  async () => {
    const tools = commandTools({ testCommand: undefined, limits: { seconds: 20, memoryBytes: 1 << 30 } });
    const run = (command: string) => callTool(tools, 'run', { command }, py);
    // Three processes of 600 MB each: each is under the address-space limit, together they are not.
    const r = await run(
      'python3 -c "import os, time\npids = []\nfor i in range(3):\n    p = os.fork()\n    if p == 0:\n        b = bytearray(600 * 2**20)\n        time.sleep(2)\n        os._exit(0)\n    pids.append(p)\nprint([os.waitpid(p, 0)[1] for p in pids])"',
    );
    const statuses = JSON.parse(/\[[\d, ]+\]/.exec(r.output)?.[0] ?? '[]') as number[];
    assert.ok(statuses.includes(9), `some process was killed for memory: ${r.output}`);
    assert.equal((await run('python3 -c "print(6 * 7)"')).output, 'exit code 0\n42\n');
  },
);

test('run_tests without a command says what to do', async () => {
  const r = await callTool(commandTools({ testCommand: undefined }), 'run_tests', {}, py);
  assert.equal(r.ok, false);
  assert.match(r.output, /no test command/);
});

test('test summaries of pytest are read too', () => {
  const output =
    '============================= FAILURES =============================\n___ test_x ___\n    assert 1 == 2\nE   assert 1 == 2\n=========================== short test summary info ============================\nFAILED test_a.py::test_x - assert 1 == 2\n========================= 1 failed, 4 passed in 0.12s =========================\n';
  const s = summarizeTests(output, 1);
  assert.deepEqual([s.runner, s.passed, s.failed], ['pytest', 4, 1]);
  assert.match(s.failures, /E {3}assert 1 == 2/);
});
