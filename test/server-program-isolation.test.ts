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

async function expectStatus(
  language: 'python' | 'javascript',
  request: ProgramRequest,
  status: ProgramStatus,
  check?: (r: Awaited<ReturnType<ProgramRunner['run']>>) => void,
) {
  const started = performance.now();
  const result = await runner.run(language as Language, {
    limits: { wallSeconds: 2, memoryBytes: 512 * 2 ** 20 },
    ...request,
  });
  const ms = performance.now() - started;
  assert.equal(
    result.status,
    status,
    `${JSON.stringify({ ...result, stdout: result.stdout.slice(0, 200), stderr: result.stderr.slice(-500) })}`,
  );
  assert.ok(ms < 15_000, `took ${ms} ms`);
  check?.(result);
  const next = await runner.run(language, { code: NORMAL[language], stdin: '20 22' });
  assert.equal(next.status, 'ok', JSON.stringify(next));
  assert.equal(next.stdout, '42\n', 'the next program in the same worker runs right');
}

describe('time', () => {
  it('python: an infinite loop', () => expectStatus('python', { code: 'while True:\n    pass' }, 'timeout'));
  it('python: sleeping, with SIGXCPU and SIGALRM ignored', () =>
    expectStatus(
      'python',
      {
        code: 'import signal, time\nfor s in (signal.SIGXCPU, signal.SIGALRM, signal.SIGTERM):\n    signal.signal(s, signal.SIG_IGN)\ntime.sleep(1000)',
      },
      'timeout',
    ));
  it('python: busy threads', () =>
    expectStatus(
      'python',
      {
        code: 'import threading\ndef spin():\n    while True: pass\nfor _ in range(4): threading.Thread(target=spin).start()',
      },
      'timeout',
    ));
  it('javascript: an infinite loop', () => expectStatus('javascript', { code: 'for (;;) {}' }, 'timeout'));
  // Each job schedules the next and keeps nothing (a chain of nested promises would run out of memory first).
  it('javascript: endless promise jobs', () =>
    expectStatus('javascript', { code: 'const f = () => { Promise.resolve().then(f); }; f();' }, 'timeout'));
  it('javascript: an interval that never stops', () =>
    expectStatus('javascript', { code: 'setInterval(() => {}, 1);' }, 'timeout'));
});

describe('deferred work ends with the program (javascript)', () => {
  // Garbage that reaches the old generation (only a full GC clears a registry's cells),
  // then a pause without allocation: measured, without it the registry mostly dies with the
  // program's context before its callbacks are due, and the attack does nothing.
  const churn =
    'let keep = []; for (let k = 0; k < 400; k++) { keep.push(new Array(1e5).fill(k)); if (keep.length > 60) keep = []; } keep = null; const t = Date.now(); while (Date.now() - t < 300);';
  it("a FinalizationRegistry callback that loops never runs (it would, from the worker's event loop, untimed)", async () => {
    const registry = `globalThis.fr = new FinalizationRegistry(() => { for (;;); });\nfor (let i = 0; i < 1e4; i++) fr.register({ i }, i);\n${churn}\nconsole.log('done');`;
    // The real constructor, if a patched Reflect.construct could catch it, makes registries of its own.
    const leak = `let Real; const real = Reflect.construct; Reflect.construct = (t, a, n) => { Real = t; return real(t, a, n) };\nnew FinalizationRegistry(() => {});\n${registry.replace('new FinalizationRegistry', 'new (Real || FinalizationRegistry)')}`;
    for (const code of [registry, leak, registry])
      await expectStatus('javascript', { code, limits: { wallSeconds: 5 } }, 'ok', (r) =>
        assert.equal(r.stdout, 'done\n'),
      );
  });
  it('promises settled from outside the program (Atomics.waitAsync) never run their reactions, during or after it', async () => {
    // As in node, where a pending waitAsync does not keep the process alive: the program is over at its last line.
    const code = [
      'const ia = new Int32Array(new SharedArrayBuffer(4));',
      'let resolve; new Promise((r) => (resolve = r)).then(() => { for (;;); });',
      'Atomics.waitAsync(ia, 0, 0, 1).value.then(() => { for (;;); });',
      'Atomics.waitAsync(ia, 0, 0, 50).value.then(resolve);',
      "console.log('end');",
    ].join('\n');
    await expectStatus('javascript', { code }, 'ok', (r) => assert.equal(r.stdout, 'end\n'));
    await new Promise((resolve) => setTimeout(resolve, 100)); // both timeouts are due now
    await expectStatus('javascript', { code: 'console.log(1)' }, 'ok');
  });
  it('WebAssembly is not there (its compile and instantiate promises would settle from the event loop)', () =>
    expectStatus(
      'javascript',
      { code: 'WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { for (;;); });' },
      'error',
      (r) => assert.match(r.stderr, /WebAssembly is not defined/),
    ));
  it('a timeout keeps what was printed, and the promise jobs left queued never run', async () => {
    // Stopped in its synchronous code, the program leaves its jobs queued; stopped in a job, V8 drops the rest.
    for (const code of [
      "console.log('before');\nPromise.resolve().then(() => { for (;;); });\nfor (;;);",
      "console.log('before');\nconst f = () => queueMicrotask(f);\nf();",
    ]) {
      await expectStatus('javascript', { code }, 'timeout', (r) => {
        assert.equal(r.stdout, 'before\n');
        assert.ok(r.wallSeconds < 3, `took ${r.wallSeconds}s`);
      });
    }
  });
  it("the outcome is read without running any of the program's code (patched built-ins, exitCode)", async () => {
    const code =
      "console.log('x');\nrequire('fs').writeFileSync('o.txt', 'hi');\nArray.prototype.join = String.prototype.slice = Object.prototype.toJSON = function () { for (;;); };";
    await expectStatus('javascript', { code, fetchFiles: ['o.txt'] }, 'ok', (r) => {
      assert.equal(r.stdout, 'x\n');
      assert.deepEqual(r.files, { 'o.txt': Buffer.from('hi').toString('base64') });
    });
    // node 20 refuses an exit code that is not an integer when it is set.
    await expectStatus('javascript', { code: 'process.exitCode = { valueOf() { for (;;); } };' }, 'error', (r) =>
      assert.match(r.stderr, /TypeError: The "code" argument must be of type number/),
    );
    await expectStatus('javascript', { code: "process.exitCode = '3';" }, 'error', (r) => assert.equal(r.exitCode, 3));
  });
});

describe('memory', () => {
  it('python: bytearray(10**10) is memory', () => expectStatus('python', { code: 'x = bytearray(10**10)' }, 'memory'));
  it('python: a list that doubles is memory', () =>
    // Each doubling copies the whole list: on a slow machine the last copies take seconds, and memory must win.
    expectStatus(
      'python',
      { code: 'x = [0]\nwhile True:\n    x = x + x', limits: { wallSeconds: 10, memoryBytes: 512 * 2 ** 20 } },
      'memory',
    ));
  it('javascript: an array that grows past the heap is memory (the worker is replaced)', () =>
    expectStatus(
      'javascript',
      { code: 'const a = []; for (;;) a.push(new Array(1e6).fill(1.5));', limits: { wallSeconds: 10 } },
      'memory',
    ));
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
      expectStatus(language, { code }, 'output-limit', (r) =>
        assert.ok(r.stdout.length > 0 && Buffer.byteLength(r.stdout) <= 1 << 20, `kept ${r.stdout.length}`),
      ));
  }
  it('python: stderr counts too', () =>
    expectStatus('python', { code: 'import sys\nwhile True:\n    sys.stderr.write("e" * 4096)' }, 'output-limit'));
  it('python: a file past the cap is output-limit', () =>
    expectStatus('python', { code: `open("big", "wb").write(b"0" * ${tenMiB})` }, 'output-limit'));
});

describe('processes', () => {
  it('python: os.fork is refused', () =>
    expectStatus('python', { code: 'import os\nos.fork()' }, 'error', (r) =>
      assert.match(r.stderr, /PermissionError|Operation not permitted/),
    ));
  it('python: subprocess is refused', () =>
    expectStatus('python', { code: 'import subprocess\nsubprocess.run(["/bin/true"])' }, 'error', (r) =>
      assert.match(r.stderr, /PermissionError|Operation not permitted/),
    ));
  it('javascript: child_process is not there', () =>
    expectStatus('javascript', { code: 'require("child_process").execSync("id")' }, 'error', (r) =>
      assert.match(r.stderr, /Cannot find module 'child_process'/),
    ));
});

describe('network', () => {
  it('python: no route out', () =>
    expectStatus(
      'python',
      { code: 'import socket\ns = socket.socket()\ns.settimeout(1)\ns.connect(("1.1.1.1", 80))' },
      'error',
      (r) => assert.match(r.stderr, /OSError|unreachable|timed out/i),
    ));
  it('javascript: no net module', () =>
    expectStatus('javascript', { code: 'require("net").connect(80, "1.1.1.1")' }, 'error'));
});

describe('files', () => {
  it('python: the system is read-only', () =>
    expectStatus('python', { code: 'open("/usr/evil", "w")' }, 'error', (r) =>
      assert.match(r.stderr, /Read-only file system|Permission denied/),
    ));
  it('python: host secrets are not there', () =>
    expectStatus('python', { code: 'print(open("/etc/shadow").read())' }, 'error', (r) =>
      assert.match(r.stderr, /FileNotFoundError|PermissionError/),
    ));
  // The zygote reads the fetched files after the program: through a link it would read its own.
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  it('python: fetch_files follows no link the program made (a directory linked to /proc/1, a file to /proc/self/environ)', () =>
    expectStatus(
      'python',
      {
        code: 'import os\nos.symlink("/proc/1", "one")\nos.makedirs("d")\nos.symlink("/proc/self/environ", "d/env")\nopen("d/mine.txt", "w").write("mine")\nos.mkfifo("fifo")',
        fetchFiles: ['one/environ', 'one/cmdline', 'd/env', 'fifo', 'd/mine.txt'],
      },
      'ok',
      (r) => assert.deepEqual(r.files, { 'd/mine.txt': b64('mine') }),
    ));
  it("python: nor the working directory replaced by a link; the next request's files land in a fresh one", async () => {
    await expectStatus(
      'python',
      {
        code: 'import os\nos.chdir("..")\nos.rename("work", "old")\nos.symlink("/proc/1", "work")',
        fetchFiles: ['environ', 'cmdline'],
      },
      'ok',
      (r) => assert.deepEqual(r.files, {}),
    );
    await expectStatus(
      'python',
      {
        code: 'import os\nos.makedirs("../elsewhere")\nos.chdir("..")\nos.rename("work", "old")\nos.symlink("elsewhere", "work")',
      },
      'ok',
    );
    const next = await runner.run('python', {
      code: 'import os\nprint(os.path.islink("/tmp/work"), sorted(os.listdir("/tmp")), os.listdir("."))',
      files: { 'x.txt': b64('x') },
    });
    assert.equal(next.stdout, "False ['work'] ['x.txt']\n", JSON.stringify(next));
  });
  it('python: request files stay inside the working directory; one that cannot be made is left out', () =>
    expectStatus(
      'python',
      {
        code: 'import os\nprint(sorted(os.listdir("/tmp")), sorted(os.listdir(".")), open("in/a.txt").read(), open("a").read())',
        files: {
          '../up.txt': b64('x'),
          '/tmp/abs.txt': b64('x'),
          'in/../../up2.txt': b64('x'),
          'in/a.txt': b64('in'),
          a: b64('a'),
          'a/b': b64('b'),
        },
      },
      'ok',
      (r) => assert.equal(r.stdout, "['work'] ['a', 'in'] in a\n"),
    ));
  it('python: what one program writes, the next does not see', async () => {
    const first = await runner.run('python', {
      code: 'open("left.txt", "w").write("secret")\nimport os\nprint(os.listdir("."))',
    });
    assert.match(first.stdout, /left\.txt/);
    const second = await runner.run('python', {
      code: 'import os\nprint(os.listdir("."), os.path.exists("/tmp/work/left.txt"))',
    });
    assert.equal(second.stdout, '[] False\n');
  });
});
