/**
 * Hostile whole programs on the /run_code path (runtimes/program-*.ts): each limit —
 * time, memory, output, processes, network, files — stops the program with its exact
 * status in bounded time, and the same single worker then runs an ordinary program right.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProgramRunner } from '../src/runtimes/program-pool.js';
import type { ProgramRequest, ProgramStatus } from '../src/runtimes/program-worker.js';
import type { Language } from '../src/core/task.js';

let runner: ProgramRunner;
before(() => {
  runner = new ProgramRunner({ workers: 1, javascriptHeapBytes: 256 * 2 ** 20 });
});
after(() => runner.close());

const NORMAL: Record<'python' | 'javascript', string> = {
  python: 'print(sum(map(int, input().split())))',
  javascript: 'console.log(require("fs").readFileSync(0, "utf8").split(" ").map(Number).reduce((a, b) => a + b));',
};

async function expectStatus(language: 'python' | 'javascript', request: ProgramRequest, status: ProgramStatus, check?: (r: Awaited<ReturnType<ProgramRunner['run']>>) => void) {
  const started = performance.now();
  const result = await runner.run(language as Language, { limits: { wallSeconds: 2, memoryBytes: 512 * 2 ** 20 }, ...request });
  const ms = performance.now() - started;
  assert.equal(result.status, status, `${JSON.stringify({ ...result, stdout: result.stdout.slice(0, 200), stderr: result.stderr.slice(-500) })}`);
  assert.ok(ms < 15_000, `took ${ms} ms`);
  check?.(result);
  const next = await runner.run(language, { code: NORMAL[language], stdin: '20 22' });
  assert.equal(next.status, 'ok', JSON.stringify(next));
  assert.equal(next.stdout, '42\n', 'the next program in the same worker runs right');
}

describe('time', () => {
  it('python: an infinite loop', () => expectStatus('python', { code: 'while True:\n    pass' }, 'timeout'));
  it('python: sleeping, with SIGXCPU and SIGALRM ignored', () =>
    expectStatus('python', { code: 'import signal, time\nfor s in (signal.SIGXCPU, signal.SIGALRM, signal.SIGTERM):\n    signal.signal(s, signal.SIG_IGN)\ntime.sleep(1000)' }, 'timeout'));
  it('python: busy threads', () =>
    expectStatus('python', { code: 'import threading\ndef spin():\n    while True: pass\nfor _ in range(4): threading.Thread(target=spin).start()' }, 'timeout'));
  it('javascript: an infinite loop', () => expectStatus('javascript', { code: 'for (;;) {}' }, 'timeout'));
  // Each job schedules the next and keeps nothing (a chain of nested promises would run out of memory first).
  it('javascript: endless promise jobs', () => expectStatus('javascript', { code: 'const f = () => { Promise.resolve().then(f); }; f();' }, 'timeout'));
  it('javascript: an interval that never stops', () => expectStatus('javascript', { code: 'setInterval(() => {}, 1);' }, 'timeout'));
});

describe('memory', () => {
  it('python: bytearray(10**10) is memory', () => expectStatus('python', { code: 'x = bytearray(10**10)' }, 'memory'));
  it('python: a list that doubles is memory', () => expectStatus('python', { code: 'x = [0]\nwhile True:\n    x = x + x' }, 'memory', undefined));
  it('javascript: an array that grows past the heap is memory (the worker is replaced)', () =>
    expectStatus('javascript', { code: 'const a = []; for (;;) a.push(new Array(1e6).fill(1.5));', limits: { wallSeconds: 10 } }, 'memory'));
});

describe('output', () => {
  const tenMiB = 10 * 2 ** 20;
  for (const [language, code] of [
    ['python', `import sys\nsys.stdout.write("x" * ${tenMiB})`],
    ['javascript', `process.stdout.write("x".repeat(${tenMiB}))`],
    ['python', 'while True:\n    print("y" * 1000)'],
    ['javascript', 'for (;;) console.log("y".repeat(1000));'],
  ] as const) {
    it(`${language}: printing without end is cut at the cap: output-limit`, () =>
      expectStatus(language, { code }, 'output-limit', (r) => assert.ok(r.stdout.length > 0 && Buffer.byteLength(r.stdout) <= 1 << 20, `kept ${r.stdout.length}`)));
  }
  it('python: stderr counts too', () => expectStatus('python', { code: 'import sys\nwhile True:\n    sys.stderr.write("e" * 4096)' }, 'output-limit'));
  it('python: a file past the cap is output-limit', () => expectStatus('python', { code: `open("big", "wb").write(b"0" * ${tenMiB})` }, 'output-limit'));
});

describe('processes', () => {
  it('python: os.fork is refused', () => expectStatus('python', { code: 'import os\nos.fork()' }, 'error', (r) => assert.match(r.stderr, /PermissionError|Operation not permitted/)));
  it('python: subprocess is refused', () => expectStatus('python', { code: 'import subprocess\nsubprocess.run(["/bin/true"])' }, 'error', (r) => assert.match(r.stderr, /PermissionError|Operation not permitted/)));
  it('javascript: child_process is not there', () => expectStatus('javascript', { code: 'require("child_process").execSync("id")' }, 'error', (r) => assert.match(r.stderr, /Cannot find module 'child_process'/)));
});

describe('network', () => {
  it('python: no route out', () =>
    expectStatus('python', { code: 'import socket\ns = socket.socket()\ns.settimeout(1)\ns.connect(("1.1.1.1", 80))' }, 'error', (r) => assert.match(r.stderr, /OSError|unreachable|timed out/i)));
  it('javascript: no net module', () => expectStatus('javascript', { code: 'require("net").connect(80, "1.1.1.1")' }, 'error'));
});

describe('files', () => {
  it('python: the system is read-only', () => expectStatus('python', { code: 'open("/usr/evil", "w")' }, 'error', (r) => assert.match(r.stderr, /Read-only file system|Permission denied/)));
  it('python: host secrets are not there', () => expectStatus('python', { code: 'print(open("/etc/shadow").read())' }, 'error', (r) => assert.match(r.stderr, /FileNotFoundError|PermissionError/)));
  it('python: what one program writes, the next does not see', async () => {
    const first = await runner.run('python', { code: 'open("left.txt", "w").write("secret")\nimport os\nprint(os.listdir("."))' });
    assert.match(first.stdout, /left\.txt/);
    const second = await runner.run('python', { code: 'import os\nprint(os.listdir("."), os.path.exists("/tmp/work/left.txt"))' });
    assert.equal(second.stdout, '[] False\n');
  });
});
