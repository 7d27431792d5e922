/**
 * Wrong Python programs that try to be judged `pass` anyway: exiting early, lying values,
 * patched builtins and modules, forged protocol lines, killing their worker, ptrace... and
 * programs that try to leave something behind for the next candidate in the same worker.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Task } from '../src/core/task.js';
import type { Harness } from '../src/verify/harness.js';
import { expectNextJudged, expectVerdict, newHarness, RIGHT, summary, TASK } from './isolation-python-support.js';

let h: Harness;
before(() => {
  h = newHarness();
});
after(() => h.close());

const WRONG_ADD = 'def add(a, b):\n    return a - b\n';

describe('exiting early', () => {
  const cases: Array<[string, string, 'fail' | 'error']> = [
    ['sys.exit(0) at import', 'import sys\nsys.exit(0)\n' + RIGHT, 'error'],
    ['os._exit(0) at import', 'import os\nos._exit(0)\n' + RIGHT, 'error'],
    ['raise SystemExit at import', 'raise SystemExit(0)\n' + RIGHT, 'error'],
    ['sys.exit(0) in the function', 'import sys\ndef add(a, b):\n    sys.exit(0)\n', 'fail'],
    ['os._exit(0) in the function', 'import os\ndef add(a, b):\n    os._exit(0)\n', 'error'],
    ['raise KeyboardInterrupt', 'def add(a, b):\n    raise KeyboardInterrupt\n', 'fail'],
    ['raise GeneratorExit', 'def add(a, b):\n    raise GeneratorExit\n', 'fail'],
    ['raise StopIteration', 'def add(a, b):\n    raise StopIteration\n', 'fail'],
    ['an exception named like a judge signal', 'class Timeout(BaseException):\n    pass\ndef add(a, b):\n    raise Timeout()\n', 'fail'],
    ['closing every file descriptor at import', 'import os\nos.closerange(0, 1024)\n' + RIGHT, 'error'],
    ['closing every file descriptor in the function', 'import os\ndef add(a, b):\n    os.closerange(0, 1024)\n    return a + b\n', 'error'],
  ];
  for (const [label, program, status] of cases) {
    it(`${label}: ${status}`, () => expectVerdict(h, program, status));
  }
});

describe('lying values', () => {
  const cases: Array<[string, string]> = [
    ['an object equal to everything', 'class Yes:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\ndef add(a, b):\n    return Yes()\n'],
    ['an int subclass with a lying __eq__', 'class I(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\ndef add(a, b):\n    return I(0)\n'],
    ['a float subclass with a lying __eq__ and __sub__', 'class F(float):\n    def __eq__(self, o):\n        return True\n    def __sub__(self, o):\n        return 0.0\n    __hash__ = float.__hash__\ndef add(a, b):\n    return F(0)\n'],
    ['a str subclass with a lying __eq__', 'class S(str):\n    def __eq__(self, other):\n        return True\n    __hash__ = str.__hash__\ndef add(a, b):\n    return S("")\n'],
    ['a list subclass with a lying __eq__', 'class L(list):\n    def __eq__(self, other):\n        return True\ndef add(a, b):\n    return L()\n'],
    [
      'a numpy-like object (a fake numpy module)',
      'import sys, types\nnp = types.ModuleType("numpy")\nclass generic:\n    def item(self):\n        return self\n    def __eq__(self, o):\n        return True\ngeneric.__module__ = "numpy"\nnp.generic = generic\nnp.ndarray = generic\nsys.modules["numpy"] = np\ndef add(a, b):\n    return generic()\n',
    ],
    ['an object whose repr and encoding raise', 'class Bad:\n    def __repr__(self):\n        raise RuntimeError\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return [Bad()]\n'],
    ['a value that contains itself', 'def add(a, b):\n    x = []\n    x.append(x)\n    return x\n'],
  ];
  for (const [label, program] of cases) {
    it(`${label}: fail`, () => expectVerdict(h, program, 'fail'));
  }

  it('an opaque value the test passes back does not move the test into its process: fail', async () => {
    // A value that cannot cross would run the test inline, beside the candidate, which
    // then decides the outcome: here it answers its own Box with the expected 3.
    const roundTrip: Task = {
      ...TASK,
      id: 'isolation/round-trip',
      suites: [{ kind: 'script', name: 'base', code: 'def check(candidate):\n    r = candidate(1, 2)\n    assert candidate(r, 0) == 3\n', invoke: 'check(add)' }],
    };
    const program = 'class Box:\n    pass\ndef add(a, b):\n    return 3 if isinstance(a, Box) else Box()\n';
    const verdict = await h.judge(roundTrip, program);
    assert.equal(verdict.status, 'fail', summary(verdict));
    assert.equal(verdict.suites[0]?.inline, undefined, summary(verdict));
    assert.equal((await h.judge(roundTrip, RIGHT)).status, 'pass');
    await expectNextJudged(h);
  });
});

describe('patching', () => {
  const cases: Array<[string, string]> = [
    ['builtins in its own process', 'import builtins\nbuiltins.abs = lambda x: 0\nbuiltins.round = lambda *a: 0\nbuiltins.AssertionError = type("N", (Exception,), {})\n' + WRONG_ADD],
    // Top-level names reach the test code's namespace; builtins must not be replaced there.
    [
      'top-level functions named abs, isinstance, len, AssertionError',
      'def abs(x):\n    return 0\ndef isinstance(*a):\n    return True\ndef len(x):\n    return 1\nclass AssertionError(Exception):\n    pass\ndef add(a, b):\n    return 0 if type(a) is float else a + b\n',
    ],
    ['the wire module (encode everything as 3)', 'import wire\nwire.encode = lambda x, *a, **k: 3\n' + WRONG_ADD],
    ['the json module of its worker', 'import json\njson.dumps = lambda *a, **k: \'{"ok": true, "v": 3}\'\n' + WRONG_ADD],
  ];
  for (const [label, program] of cases) {
    it(`${label}: fail`, () => expectVerdict(h, program, 'fail', { suites: ['fail', 'fail'] }));
  }

  // The worker's own code (its replies, json) keeps the originals: the program is judged on what it returns.
  it('builtins its own worker code uses (len, isinstance): judged on what it returns', async () => {
    await expectVerdict(h, 'import builtins\nbuiltins.len = lambda x: 1\n' + WRONG_ADD, 'fail');
    await expectVerdict(h, 'import builtins\nbuiltins.isinstance = lambda *a: True\n' + WRONG_ADD, 'fail');
    await expectVerdict(h, 'import builtins\nbuiltins.len = lambda x: 1\nbuiltins.isinstance = lambda *a: True\n' + RIGHT, 'pass');
  });

  it('the wire module (unknown tags): error, not a judge failure', () =>
    expectVerdict(h, 'import wire\nwire.encode = lambda x, *a, **k: {"$t": "evil"}\n' + RIGHT, 'error'));
});

describe('forged protocol lines', () => {
  const cases: Array<[string, string, 'fail' | 'error' | 'output-limit']> = [
    ['a forged load reply and answers at import', 'import os\nos.write(3, b\'{"ok":true,"names":["add"]}\\n\' + b\'{"ok":true,"v":3}\\n\' * 50)\n' + WRONG_ADD, 'fail'],
    ['forged answers in the function', 'import os\ndef add(a, b):\n    os.write(3, b\'{"ok":true,"v":3}\\n\' * 50)\n    return a - b\n', 'fail'],
    ['a forged pass result on stdout', 'import os\nos.write(1, b\'{"op":"result","load":{"ok":true},"suites":[{"name":"base","status":"pass","passed":1,"total":1}]}\\n\')\n' + WRONG_ADD, 'fail'],
    ['a reply that is not JSON', 'import os\ndef add(a, b):\n    os.write(3, b"garbage\\n")\n    return a - b\n', 'error'],
    ['a reply that is not an object', 'import os\ndef add(a, b):\n    os.write(3, b"[1, 2]\\n")\n    return a - b\n', 'error'],
    ['a reply nested 100000 deep', 'import os\ndef add(a, b):\n    os.write(3, b\'{"ok":true,"v":\' + b"[" * 100000 + b"]" * 100000 + b"}\\n")\n    return a - b\n', 'error'],
    ['a reply with an absurd int', 'import os\ndef add(a, b):\n    os.write(3, b\'{"ok":true,"v":{"$t":"int","v":"\' + b"9" * 100000 + b\'"}}\\n\')\n    return a - b\n', 'error'],
    ['an endless reply line', 'import os\ndef add(a, b):\n    while True:\n        os.write(3, b"x" * (1 << 20))\n', 'output-limit'],
    ['a load reply with bad names', 'import os\nos.write(3, b\'{"ok":true,"names":5}\\n\')\n' + WRONG_ADD, 'error'],
    // The real load reply then arrives as the first call's reply: a reply without a value.
    ['a load reply naming dunders', 'import os\nos.write(3, b\'{"ok":true,"names":["__builtins__","add","abs"]}\\n\')\n' + WRONG_ADD, 'error'],
  ];
  for (const [label, program, status] of cases) {
    it(`${label}: ${status}`, () => expectVerdict(h, program, status, { withinMs: 5000 }));
  }
});

describe('forged protocol lines in io calls only', () => {
  // Right on the script suite's inputs; on the io suite's last input (-3, 1) it writes a
  // forged line first. The io suite has its own reply path (byte comparison, digests).
  const forged: Array<[string, string]> = [
    ['not JSON', 'b"garbage\\n"'],
    ['not an object', 'b"[1, 2]\\n"'],
    ['an unknown tag', 'b\'{"ok":true,"dt":0,"v":{"$t":"evil"}}\\n\''],
    ['no value', 'b\'{"ok":true,"dt":0}\\n\''],
    ['an absurd int', 'b\'{"ok":true,"v":{"$t":"int","v":"\' + b"9" * 100000 + b\'"}}\\n\''],
    ['nesting 100000 deep', 'b\'{"ok":true,"v":\' + b"[" * 100000 + b"]" * 100000 + b"}\\n"'],
    ['an unhashable key', 'b\'{"ok":true,"v":{"$t":"dict","v":[[[1],2]]}}\\n\''],
    ['packed floats that are not base64', 'b\'{"ok":true,"v":{"$t":"f64","ints":[],"v":"!!"}}\\n\''],
    ['packed floats cut mid-double', 'b\'{"ok":true,"v":{"$t":"f64","ints":[],"v":"AAAA"}}\\n\''],
    ['packed floats with an int position past the end', 'b\'{"ok":true,"v":{"$t":"f64","ints":[9],"v":"AAAAAAAA8D8="}}\\n\''],
    ['packed floats whose int position holds nan', 'b\'{"ok":true,"v":{"$t":"f64","ints":[0],"v":"AAAAAAAA+H8="}}\\n\''],
  ];
  for (const [label, line] of forged) {
    it(`${label}: error in that suite`, () =>
      expectVerdict(h, `import os\ndef add(a, b):\n    if a == -3:\n        os.write(3, ${line})\n    return a + b\n`, 'error', {
        suites: ['pass', 'error'],
      }));
  }
});

describe('its worker, other processes, signals', () => {
  const cases: Array<[string, string, 'fail' | 'error' | 'timeout']> = [
    ['os.kill(os.getppid(), SIGKILL)', 'import os, signal\ndef add(a, b):\n    os.kill(os.getppid(), signal.SIGKILL)\n    return a - b\n', 'fail'],
    ['os.kill(1, SIGKILL)', 'import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGKILL)\n    return a - b\n', 'fail'],
    ['SIGSTOP to its worker', 'import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGSTOP)\n    return a - b\n', 'fail'],
    ['SIGINT and SIGTERM to its worker', 'import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGINT)\n    os.kill(1, signal.SIGTERM)\n    return a - b\n', 'fail'],
    ['kill(-1, SIGKILL): every process it may signal', 'import os, signal\ndef add(a, b):\n    os.kill(-1, signal.SIGKILL)\n    return a - b\n', 'fail'],
    // Its process group is its worker's: refused (PermissionError), as signals to PID 1 are.
    ['kill(0, SIGKILL): its process group', 'import os, signal\ndef add(a, b):\n    os.kill(0, signal.SIGKILL)\n    return a - b\n', 'fail'],
    ['ptrace of its worker', 'import ctypes, os\ndef add(a, b):\n    if ctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0) != 0:\n        return a - b\n    return a + b\n', 'fail'],
    ['catching every signal while looping', 'import signal\nfor s in signal.valid_signals():\n    try:\n        signal.signal(s, lambda *a: None)\n    except (OSError, ValueError):\n        pass\ndef add(a, b):\n    while True:\n        pass\n', 'timeout'],
  ];
  for (const [label, program, status] of cases) {
    it(`${label}: ${status}`, () => expectVerdict(h, program, status, { withinMs: 8000 }));
  }
});

describe('leftovers for the next candidate', () => {
  // The first program leaves something behind and is judged; the second, a right answer
  // only if nothing is left, must pass in the same worker.
  const cases: Array<[string, string, 'pass' | 'fail' | 'error' | 'output-limit', string]> = [
    [
      'files in scratch, /tmp and the home directory, some made hard to remove',
      'import os\nfor p in ("left", "/tmp/left", os.path.expanduser("~/left")):\n    open(p, "w").write("x")\nos.mkdir("/tmp/locked", 0o300)\nopen("/tmp/locked/f", "w").write("x")\nos.mkdir("/tmp/locked/inner", 0)\n' + RIGHT,
      'pass',
      'import os\nLEFT = sorted(os.listdir("/tmp")) + sorted(os.listdir("."))\ndef add(a, b):\n    return a + b if LEFT == ["work"] else LEFT\n',
    ],
    [
      // Scratch that looks untouched is not wiped: an empty working directory must still be checked.
      'its working directory left empty but locked (chmod 0, where it is allowed)',
      'import os\ntry:\n    os.chmod(".", 0)\nexcept OSError:\n    pass\n' + RIGHT,
      'pass',
      'import os\nopen("f", "w").write("x")\nassert os.getcwd() == "/tmp/work"\n' + RIGHT,
    ],
    [
      'an extended attribute or a time set on its working directory, which it then left empty',
      'import os\ntry:\n    os.setxattr(".", "user.note", b"1")\nexcept OSError:\n    pass\nos.utime(".", (1, 1))\n' + RIGHT,
      'pass',
      'import os\ntry:\n    NOTE = os.getxattr(".", "user.note")\nexcept OSError:\n    NOTE = None\ndef add(a, b):\n    return a + b if NOTE is None and os.stat(".").st_mtime > 1 else None\n',
    ],
    [
      'its working directory swapped for a link to elsewhere',
      'import os\nos.chdir("/tmp")\nos.rmdir("work")\nos.symlink("/tmp/elsewhere", "work")\n' + RIGHT,
      'pass',
      'import os\nopen("f", "w").write("x")\nassert not os.path.islink("/tmp/work") and os.path.exists("/tmp/work/f")\n' + RIGHT,
    ],
    [
      'a full scratch directory',
      'try:\n    for i in range(1000):\n        open("/tmp/f%d" % i, "wb").write(b"x" * 1000000)\nexcept OSError:\n    pass\n' + RIGHT,
      'output-limit', // the full /tmp is a write cut off (see the output tests)
      'open("/tmp/work/need", "wb").write(b"x" * 500000)\n' + RIGHT,
    ],
    [
      'threads still running (writing files, printing)',
      'import threading, time\ndef busy():\n    i = 0\n    while True:\n        i += 1\n        open("/tmp/t%d" % (i % 5), "w").write("x")\n        print("noise")\n        time.sleep(0.001)\nfor _ in range(4):\n    threading.Thread(target=busy, daemon=True).start()\n' + RIGHT,
      'pass',
      'import os, time\ntime.sleep(0.05)\nLEFT = [f for f in os.listdir("/tmp") if f != "work"]\ndef add(a, b):\n    return a + b if not LEFT else LEFT\n',
    ],
    [
      'monkeypatched modules and builtins, its environment, umask, limits',
      'import builtins, json, os, resource, sys, wire\nbuiltins.abs = lambda x: 0\njson.dumps = None\nwire.encode = None\nsys.modules["math"] = None\nos.environ["EVIL"] = "1"\nos.umask(0o777)\nresource.setrlimit(resource.RLIMIT_NOFILE, (8, 8))\n' + RIGHT,
      'fail', // its values can no longer be encoded (wire.encode is gone): opaque, equal to nothing
      'import math, os\nassert abs(-2) == 2 and "EVIL" not in os.environ and math.sqrt(4) == 2\nopen("/tmp/work/f", "w").write("x")\nassert os.stat("/tmp/work/f").st_mode & 0o600 == 0o600\nfds = [os.open("/dev/null", 0) for _ in range(20)]\n' + RIGHT,
    ],
    [
      'patched modules its worker imported ahead (math, typing, random) and state left in them',
      'import math, random, typing\nmath.sqrt = lambda x: 0\ntyping.List = None\nrandom.seed(7)\nrandom.random = lambda: 0.5\nmath.LEFT = 1\n' + RIGHT,
      'pass',
      'import math, random\nfrom typing import List\nassert math.sqrt(4) == 2 and List is not None and not hasattr(math, "LEFT") and random.random() != 0.5\n' + RIGHT,
    ],
    [
      'modules imported ahead are not names in the next program',
      'import math\n' + RIGHT,
      'pass',
      'try:\n    math\n    LEAKED = True\nexcept NameError:\n    LEAKED = False\ndef add(a, b):\n    return None if LEAKED else a + b\n',
    ],
    [
      "lowered limits of its worker (prlimit)",
      'import os, resource\nfor pid in (os.getppid(), 1):\n    for r in (resource.RLIMIT_AS, resource.RLIMIT_NOFILE, resource.RLIMIT_CPU, resource.RLIMIT_NPROC):\n        try:\n            resource.prlimit(pid, r, (1, 1))\n        except OSError:\n            pass\n' + RIGHT,
      'pass',
      RIGHT,
    ],
  ];
  it('a flood of empty files (inodes are not bounded by the scratch size) does not delay the next candidate', async () => {
    const flood = 'import os\nos.makedirs("/tmp/many")\ndef add(a, b):\n    i = 0\n    while True:\n        i += 1\n        os.close(os.open("/tmp/many/%d" % i, os.O_CREAT | os.O_WRONLY))\n';
    await expectVerdict(h, flood, 'timeout');
    await h.judge(TASK, flood);
    const started = performance.now();
    const verdict = await h.judge(TASK, RIGHT);
    assert.equal(verdict.status, 'pass', summary(verdict));
    assert.ok(performance.now() - started < 1000, `the next candidate took ${Math.round(performance.now() - started)} ms`);
  });

  for (const [label, first, firstStatus, second] of cases) {
    it(`${label}: the next candidate passes`, async () => {
      await expectVerdict(h, first, firstStatus);
      await expectVerdict(h, second, 'pass');
    });
  }
});
