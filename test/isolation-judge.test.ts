/**
 * The judge decides every verdict, so nothing a request or a candidate sends may change it:
 * - test code Crucible does not trust (a request's, `untrustedTests`) runs in a judge of its
 *   own, filtered like a candidate and gone with the run;
 * - a candidate's value that cannot cross as data never moves the test beside the candidate;
 * - the test's calls to the prompt's helpers reach the prompt's definitions;
 * - decoding a candidate's reply is bounded like the call that produced it.
 * Every attack is followed by ordinary candidates on the same worker (one worker).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Language, Suite, Task } from '../src/core/task.js';
import { Harness } from '../src/verify/harness.js';
import { newHarness, summary } from './isolation-python-support.js';

function task(language: Language, suites: Suite[], extra: Partial<Task> = {}): Task {
  return { id: `judge/${language}`, language, prompt: '', entryPoint: 'add', completionPrefix: '', knownWrong: [], source: 'test', suites, ...extra };
}

const PY = { right: 'def add(a, b):\n    return a + b\n', wrong: 'def add(a, b):\n    return a - b\n' };
const JS = { right: 'function add(a, b) { return a + b; }\n', wrong: 'function add(a, b) { return a - b; }\n' };
const PY_PLAIN = task('python', [{ kind: 'script', name: 'base', code: 'def check(candidate):\n    assert candidate(1, 2) == 3\n', invoke: 'check(add)' }]);
const JS_PLAIN = task('javascript', [{ kind: 'script', name: 'base', code: 'const assert = require("node:assert");\nassert.equal(add(1, 2), 3);\n' }]);

async function expectNextJudged(h: Harness, language: 'python' | 'javascript'): Promise<void> {
  const [plain, programs] = language === 'python' ? [PY_PLAIN, PY] : [JS_PLAIN, JS];
  const right = await h.judge(plain, programs.right);
  assert.equal(right.status, 'pass', `a right candidate after the attack: ${summary(right)}`);
  const wrong = await h.judge(plain, programs.wrong);
  assert.equal(wrong.status, 'fail', `a wrong candidate after the attack: ${summary(wrong)}`);
}

describe("a request's test code cannot outlive its request", () => {
  const h = newHarness({ untrustedTests: true });
  after(() => h.close());
  const script = (language: Language, code: string, invoke?: string) => task(language, [{ kind: 'script', name: 'base', code, ...(invoke ? { invoke } : {}) }]);

  it("python: test code that rewrites the judge's request handler changes no later verdict", async () => {
    const patch = script(
      'python',
      [
        'import sys',
        'judge = sys.modules["__main__"]',
        'real = judge.handle_run',
        'def always_pass(msg):',
        '    result = real(msg)',
        '    for s in result.get("suites", []):',
        '        s.update(status="pass", passed=1, total=1, firstFailure=None)',
        '    return result',
        'judge.handle_run = always_pass',
        'def check(candidate):',
        '    assert candidate(1, 2) == 3',
      ].join('\n'),
      'check(add)',
    );
    assert.equal((await h.judge(patch, PY.right)).status, 'pass');
    await expectNextJudged(h, 'python');
  });

  it('javascript: test code that patches JSON.stringify changes no later verdict', async () => {
    const patch = script(
      'javascript',
      'const real = JSON.stringify;\nJSON.stringify = (v, ...rest) => real(v && v.op === "result" ? { ...v, suites: v.suites.map((s) => ({ ...s, status: "pass", passed: 1, total: 1, firstFailure: null })) } : v, ...rest);\n',
    );
    assert.equal((await h.judge(patch, JS.right)).status, 'pass');
    await expectNextJudged(h, 'javascript');
  });

  it('test code cannot start processes (python subprocess, node execSync)', async () => {
    const python = await h.judge(script('python', 'import subprocess\nsubprocess.run(["/bin/true"])\n'), PY.right);
    assert.equal(python.status, 'fail', summary(python));
    assert.match(python.firstFailure?.message ?? '', /PermissionError|Operation not permitted/);
    const node = await h.judge(script('javascript', 'require("node:child_process").execSync("true");\n'), JS.right);
    assert.equal(node.status, 'fail', summary(node));
    assert.match(node.firstFailure?.message ?? '', /EPERM|EAGAIN|spawn/);
    await expectNextJudged(h, 'python');
    await expectNextJudged(h, 'javascript');
  });

  it('a judge made to write a malformed or extra result gets no verdict, and no later run reads its lines', async () => {
    const pass = '{"op":"result","load":{"ok":true},"suites":[{"name":"base","status":"pass","passed":1,"total":1,"firstFailure":null}]}';
    const forged = script('javascript', `const fs = require("node:fs");\nfs.writeSync(1, '{"op":"result","load":{"ok":true},"suites":"all passed"}\\n' + '${pass}\\n'.repeat(5));\n`);
    const verdict = await h.judge(forged, JS.right);
    assert.equal(verdict.status, 'no-verdict', summary(verdict));
    assert.match(verdict.firstFailure?.message ?? '', /malformed result/);
    await expectNextJudged(h, 'javascript');
    // Python's run is a child of a judge that never runs test code: the judge's own stdout is
    // closed to it, and its result reaches Crucible only once it is dead.
    const viaStdout = script('python', `import os, sys\ntry:\n    os.write(sys.modules["__main__"].PROTO, b'${pass}\\n' * 5)\nexcept OSError:\n    pass\nassert add(1, 2) == 3\n`);
    const wrong = await h.judge(viaStdout, PY.wrong);
    assert.equal(wrong.status, 'fail', summary(wrong));
    const lingering = script('python', 'import os, time\nos.closerange(3, 4096)\ntime.sleep(60)\n');
    const started = performance.now();
    const gone = await h.judge(lingering, PY.right);
    assert.equal(gone.status, 'no-verdict', summary(gone));
    assert.ok(performance.now() - started < 30_000, 'a run that closed its result pipe ends then, not when it would have');
    await expectNextJudged(h, 'python');
  });

  it('python: nothing a run leaves in its sandbox (files in /tmp) reaches the next run', async () => {
    const leave = script('python', 'open("/tmp/left-behind", "w").write("secret")\n');
    assert.equal((await h.judge(leave, PY.right)).status, 'pass');
    const look = script('python', 'import os\nassert not os.path.exists("/tmp/left-behind"), os.listdir("/tmp")\n');
    const seen = await h.judge(look, PY.right);
    assert.equal(seen.status, 'pass', summary(seen));
    await expectNextJudged(h, 'python');
  });

  it('the default judge (trusted datasets) is shared, and would have been changed: the attack is real', async () => {
    const shared = newHarness();
    try {
      const patch = script('python', 'import sys\nsys.modules["__main__"].handle_run = lambda msg: {"op": "result", "load": {"ok": True}, "suites": [{"name": "base", "status": "pass", "passed": 1, "total": 1, "firstFailure": None}]}\n');
      await shared.judge(patch, PY.right);
      assert.equal((await shared.judge(PY_PLAIN, PY.wrong)).status, 'pass', 'a patched shared judge passes a wrong program');
    } finally {
      await shared.close();
    }
  });
});

describe("a candidate's value that cannot cross never moves the test beside the candidate", () => {
  const h = newHarness();
  after(() => h.close());
  const ALWAYS_EQUAL_PY = 'class Yes:\n    def __eq__(self, other):\n        return True\n';

  it('python: a generator the test passes back crosses as its items (right: pass; lying: fail; never inline)', async () => {
    const roundTrip = task('python', [
      { kind: 'script', name: 'base', code: 'def check(candidate):\n    assert candidate(make(3)) == 3\n    assert candidate(make(5)) == 5\n', invoke: 'check(add)' },
    ]);
    const right = await h.judge(roundTrip, 'def make(n):\n    return (i for i in range(n))\ndef add(items):\n    return sum(1 for _ in items)\n');
    assert.equal(right.status, 'pass', summary(right));
    assert.ok(!right.suites[0]!.inline);
    const lying = await h.judge(roundTrip, `${ALWAYS_EQUAL_PY}def make(n):\n    return (i for i in range(n))\ndef add(items):\n    return Yes()\n`);
    assert.equal(lying.status, 'fail', summary(lying));
    assert.ok(!lying.suites[0]!.inline);
    await expectNextJudged(h, 'python');
  });

  it('a value nested just shallow enough to cross, which the test wraps and passes back, is a failure, never inline', async () => {
    const wrapBack = (language: Language, code: string) => task(language, [{ kind: 'script', name: 'base', code }]);
    const python = await h.judge(
      wrapBack('python', 'assert add([make()]) == 3\n'),
      `${ALWAYS_EQUAL_PY}def make():\n    x = []\n    for _ in range(199):\n        x = [x]\n    return x\ndef add(v):\n    return Yes()\n`,
    );
    assert.equal(python.status, 'fail', summary(python));
    assert.ok(!python.suites[0]!.inline);
    const node = await h.judge(
      wrapBack('javascript', 'if (add([make()]) != 3) throw new Error("wrong");\n'),
      'function make() { let x = []; for (let i = 0; i < 199; i++) x = [x]; return x; }\nfunction add(v) { return { valueOf() { return 3; } }; }\n',
    );
    assert.equal(node.status, 'fail', summary(node));
    assert.ok(!node.suites[0]!.inline);
    await expectNextJudged(h, 'python');
    await expectNextJudged(h, 'javascript');
  });

  it('javascript: a function the test passes back is the candidate\'s failure, never inline', async () => {
    const roundTrip = task('javascript', [{ kind: 'script', name: 'base', code: 'const assert = require("node:assert");\nassert.equal(add(make(3)), 3);\n' }]);
    const lying = await h.judge(roundTrip, 'function make(n) { return () => n; }\nfunction add(f) { return { valueOf() { return 3; }, toString() { return "3"; } } ; }\nglobalThis.assert = { equal() {} };\n');
    assert.equal(lying.status, 'fail', summary(lying));
    assert.ok(!lying.suites[0]!.inline);
    assert.match(lying.firstFailure?.message ?? '', /not plain data/);
    await expectNextJudged(h, 'javascript');
  });
});

describe("the tests' helpers come from the prompt", () => {
  const h = newHarness();
  after(() => h.close());

  it('python: a candidate redefining the helper the test calls (poly, as in HumanEval/32) does not change the test', async () => {
    const prompt = 'def poly(xs, x):\n    return sum(c * x ** i for i, c in enumerate(xs))\n\n\ndef add(xs):\n    """A root of poly(xs)."""\n';
    const findZero = task(
      'python',
      [{ kind: 'script', name: 'base', code: 'def check(candidate):\n    for xs in ([-2, 1], [-6, 1, 1]):\n        assert abs(poly(xs, candidate(xs))) < 1e-6\n', invoke: 'check(add)' }],
      { prompt },
    );
    const cheat = await h.judge(findZero, 'def poly(xs, x):\n    return 0\ndef add(xs):\n    return 12345.0\n');
    assert.equal(cheat.status, 'fail', summary(cheat));
    const right = await h.judge(findZero, 'def poly(xs, x):\n    return 0\ndef add(xs):\n    return 2.0\n');
    assert.equal(right.status, 'pass', `its own poly is the candidate's business: ${summary(right)}`);
    // The same with the helper after the entry point's stub in the prompt.
    const after = { ...findZero, prompt: `def add(xs):\n    """A root of poly(xs)."""\n\n\ndef poly(xs, x):\n    return sum(c * x ** i for i, c in enumerate(xs))\n` };
    assert.equal((await h.judge(after, 'def poly(xs, x):\n    return 0\ndef add(xs):\n    return 12345.0\n')).status, 'fail');
    await expectNextJudged(h, 'python');
  });

  it('javascript: a candidate redefining encodeCyclic (HumanEvalPack JS/38) does not change the test', async () => {
    const prompt = 'const encode = (s) => s.split("").reverse().join("");\n\n/* decode what encode made */\nconst add = (s) => {\n';
    const decode = task('javascript', [{ kind: 'script', name: 'base', code: 'for (const s of ["abc", "hello"]) console.assert(add(encode(s)) === s);\n' }], { prompt });
    const cheat = await h.judge(decode, 'const encode = (s) => s;\nconst add = (s) => s;\n');
    assert.equal(cheat.status, 'fail', summary(cheat));
    const right = await h.judge(decode, 'const encode = (s) => s;\nconst add = (s) => s.split("").reverse().join("");\n');
    assert.equal(right.status, 'pass', summary(right));
    await expectNextJudged(h, 'javascript');
  });
});

describe("decoding a candidate's reply is bounded by its call's limit", () => {
  const h = newHarness({ limits: { replyBytes: 64 << 20 } });
  after(() => h.close());

  it('python: a forged reply of 60,000 ints with one hash is a timeout within the limit, not minutes of judge time', async () => {
    const flood = task('python', [{ kind: 'io', name: 'plus', entry: 'add', inputsJson: '[[1, 2]]' }], { reference: 'def add(a, b):\n    return {a, b}\n' });
    // k * (2**61 - 1) all hash to 0; written straight to the reply FIFO (fd 3), as a set.
    const program = [
      'import os',
      'def add(a, b):',
      '    items = ",".join(\'{"$t":"int","x":"%s"}\' % hex(k * (2**61 - 1)) for k in range(1, 60001))',
      '    os.write(3, (\'{"ok":true,"dt":0,"v":{"$t":"set","v":[\' + items + "]}}\\n").encode())',
      '    return {a, b}',
    ].join('\n');
    const started = performance.now();
    const verdict = await h.judge(flood, program);
    assert.equal(verdict.status, 'timeout', summary(verdict));
    assert.match(verdict.firstFailure?.message ?? '', /decoding the output/);
    assert.ok(performance.now() - started < 60_000, 'bounded well below the minutes an unbounded decode takes');
    await expectNextJudged(h, 'python');
  });
});
