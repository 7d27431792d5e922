/**
 * Hostile Python programs against the time, memory and output limits: each gets its exact
 * status within a bounded time, and the same worker then judges ordinary candidates right.
 */
import { after, before, describe, it } from 'node:test';
import type { Harness } from '../src/verify/harness.js';
import { expectVerdict, newHarness } from './isolation-python-support.js';

let h: Harness;
before(() => {
  h = newHarness();
});
after(() => h.close());

const fn = (body: string, prelude = '') => `${prelude}\ndef add(a, b):\n${body.replace(/^/gm, '    ')}\n    return a + b\n`;

// A script limit of 1 s, run twice (timeouts are re-run): well under 8 s with the kill.
const TIMEOUT_MS = 8000;

describe('time', () => {
  const cases: Array<[string, string]> = [
    ['an infinite loop', fn('while True:\n    pass')],
    ['a long sleep', fn('time.sleep(1000)', 'import time')],
    ['waiting on an event nobody sets', fn('threading.Event().wait()', 'import threading')],
    ['signal.pause()', fn('signal.pause()', 'import signal')],
    ['reading its own end of the judge channel', fn('os.read(4, 1)\nos.read(4, 1 << 20)', 'import os')],
    ['a loop inside an exception handler', fn('try:\n    1 / 0\nexcept ZeroDivisionError:\n    while True:\n        pass')],
    ['a loop that swallows every exception', fn('while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass')],
    ['a loop in a finally clause', fn('try:\n    return a + b\nfinally:\n    while True:\n        pass')],
    [
      'handlers that ignore SIGXCPU, SIGALRM, SIGTERM, SIGINT, SIGHUP',
      fn(
        'for s in (signal.SIGXCPU, signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):\n' +
          '    signal.signal(s, lambda *args: None)\nsignal.alarm(1)\nwhile True:\n    pass',
        'import signal',
      ),
    ],
    [
      'busy threads joined forever',
      fn('ts = [threading.Thread(target=spin) for _ in range(8)]\nfor t in ts:\n    t.start()\nfor t in ts:\n    t.join()', 'import threading\ndef spin():\n    while True:\n        pass'),
    ],
  ];
  for (const [label, program] of cases) {
    it(`stops ${label}: timeout`, () => expectVerdict(h, program, 'timeout', { withinMs: TIMEOUT_MS }));
  }

  it('stops an infinite loop at load time: timeout', () =>
    expectVerdict(h, 'while True:\n    pass\n' + fn(''), 'timeout', { withinMs: 2 * TIMEOUT_MS }));

  it('times each io call: a loop on one input only is timeout in that suite', () =>
    expectVerdict(h, fn('while a == -3:\n    pass'), 'timeout', { suites: ['pass', 'timeout'], withinMs: TIMEOUT_MS }));

  it('enforces the CPU limit itself even when SIGXCPU is ignored: timeout', async () => {
    // Wall-clock limits far away, so that RLIMIT_CPU (2 s) is what stops it.
    const cpu = newHarness({ time: { scriptFloorSeconds: 30, callFloorSeconds: 30 }, limits: { cpuSeconds: 2 } });
    try {
      const program = fn(
        'signal.signal(signal.SIGXCPU, signal.SIG_IGN)\nfor _ in range(3):\n    threading.Thread(target=spin, daemon=True).start()\nspin()',
        'import signal, threading\ndef spin():\n    while True:\n        pass',
      );
      await expectVerdict(cpu, program, 'timeout', { withinMs: 12000 });
    } finally {
      await cpu.close();
    }
  });
});

describe('memory', () => {
  // Longer time limits here: exhausting 1 GiB takes a moment on a busy machine, and it
  // must be reported as memory, not as the time it took.
  let mem: Harness;
  before(() => {
    mem = newHarness({ time: { scriptFloorSeconds: 10, callFloorSeconds: 10 } });
  });
  after(() => mem.close());

  const cases: Array<[string, string]> = [
    ['a list that doubles', fn('x = [0]\nwhile True:\n    x = x + x')],
    ['a list of strings that grows', fn('x = []\nwhile True:\n    x.append(" " * (1 << 24))')],
    ['bytearray(10**10)', fn('bytearray(10**10)')],
    ['a 10 GB string', fn('" " * 10**10')],
    ['list(range(10**10))', fn('list(range(10**10))')],
    ['an anonymous 10 GB mmap', fn('mmap.mmap(-1, 10**10)', 'import mmap')],
  ];
  for (const [label, program] of cases) {
    it(`reports ${label} as memory`, () => expectVerdict(mem, program, 'memory'));
  }

  it('reports memory exhausted at load time as memory', () => expectVerdict(mem, 'BIG = bytearray(10**10)\n' + fn(''), 'memory'));

  it('treats RecursionError as an ordinary exception: fail', () =>
    expectVerdict(mem, 'def f(n):\n    return f(n + 1)\ndef add(a, b):\n    return f(0)\n', 'fail'));

  it('never passes a C-stack overflow (recursion limit lifted, recursion through C): error', () =>
    expectVerdict(mem, fn('f(0)', 'import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return list(map(f, [n + 1]))'), 'error'));
});

describe('output', () => {
  const big = 'x = "x" * 10**8';
  const cases: Array<[string, string]> = [
    ['print of 100 MB', fn(`${big}\nprint(x)`)],
    ['sys.__stdout__', fn(`${big}\nsys.__stdout__.write(x)\nsys.__stdout__.flush()`, 'import sys')],
    ['sys.stderr', fn(`${big}\nsys.stderr.write(x)\nsys.stderr.flush()`, 'import sys')],
    ['os.write(1, ...)', fn('os.write(1, b"x" * 10**8)', 'import os')],
    ['os.write(2, ...)', fn('os.write(2, b"x" * 10**8)', 'import os')],
    ['many small prints', fn('while True:\n    print("spam")')],
    ['/dev/stdout reopened', fn('with open("/dev/stdout", "wb") as f:\n    f.write(b"x" * 10**8)')],
    [
      'printing that tries to hide its size (truncate, seek back, swallow errors)',
      fn('for _ in range(100):\n    try:\n        os.ftruncate(1, 0)\n        os.lseek(1, 0, 0)\n    except OSError:\n        pass\n    os.write(1, b"x" * ((1 << 20) - 1))', 'import os'),
    ],
    ['a huge file in the scratch directory', fn('with open("big", "wb") as f:\n    f.write(b"x" * 10**8)')],
    [
      'a huge file, SIGXFSZ ignored and the error swallowed',
      fn('signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\ntry:\n    with open("/tmp/big", "wb") as f:\n        f.write(b"x" * 10**8)\nexcept OSError:\n    pass', 'import signal'),
    ],
    [
      'filling the scratch directory with files under the size limit',
      fn('try:\n    for i in range(1000):\n        with open("/tmp/f%d" % i, "wb") as f:\n            f.write(b"x" * 1000000)\nexcept OSError:\n    pass'),
    ],
    ['a 100 MB return value', 'def add(a, b):\n    return "x" * 10**8\n'],
  ];
  for (const [label, program] of cases) {
    it(`caps ${label}: output-limit`, () => expectVerdict(h, program, 'output-limit', { withinMs: 5000 }));
  }

  it('caps printing at load time: output-limit', () => expectVerdict(h, 'print("x" * 10**8)\n' + fn(''), 'output-limit', { withinMs: 5000 }));
});
