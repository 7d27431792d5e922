/**
 * A timeout on a generated input that a hundredth of the input does not repeat is set aside
 * as slow, not failed; an endless loop, and a wrong answer beside a slow input, still fail.
 * Judged through the code pack, as `eval --augment` judges a sample.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Task } from '../src/core/task.js';
import { prepareCodeChecks, verifyProgram } from '../src/domains/code/index.js';
import { GENERATED_SUITE } from '../src/domains/code/differential.js';
import { Harness } from '../src/domains/code/harness.js';
import { cutBy, cutToAHundredth, settleTimeouts, sizeOf } from '../src/domains/code/slow-inputs.js';

test('a hundredth of an input: large integers, strings and containers are cut, small ones kept', () => {
  assert.deepEqual(cutToAHundredth([65534, 7]), [655, 7]);
  assert.deepEqual(cutToAHundredth([-25000]), [-250]);
  assert.deepEqual(cutToAHundredth(['x'.repeat(250)]), ['xxx']);
  assert.deepEqual(cutToAHundredth([Array.from({ length: 300 }, (_, i) => i * 100)]), [[0, 1, 2]]);
  assert.deepEqual(cutToAHundredth([{ $t: 'int', v: '123456789012345678901' }]), [
    { $t: 'int', v: '1234567890123456789' },
  ]);
  assert.deepEqual(cutToAHundredth([{ $t: 'tuple', v: [500, 2] }]), [{ $t: 'tuple', v: [5, 2] }]);
  assert.equal(cutToAHundredth([5, 'abc', [1, 2, 99]]), undefined, 'nothing is large');
  assert.deepEqual(cutBy([655, 7, 'x'.repeat(25)], 10), [65, 7, 'xxx'], 'a tenth');
  assert.equal(sizeOf([3, [1, 2, 400], 'ab']), 400);
  assert.equal(sizeOf([{ $t: 'int', v: '-900719925474099300' }]), 900719925474099300);
});

const harness = new Harness();
after(() => harness.close());

const prompt =
  'def triangular(n: int) -> int:\n    """The sum 0 + 1 + ... + n.\n    >>> triangular(3)\n    6\n    """\n';
const task: Task = {
  id: 'slow/triangular',
  language: 'python',
  prompt,
  entryPoint: 'triangular',
  completionPrefix: prompt,
  reference: `${prompt}    return n * (n + 1) // 2\n`,
  contract: '\n    assert isinstance(n, int) and n >= 0, "invalid inputs"\n',
  knownWrong: [],
  suites: [{ kind: 'io', name: 'base', entry: 'triangular', inputsJson: '[[3], [5], [10], [40]]' }],
  source: 'test',
};
// Right, but quadratic: it runs out of time on the large generated n where the reference does not.
const QUADRATIC = 'def triangular(n):\n    return sum(1 for i in range(n + 1) for _ in range(i))\n';

test('a right but slower program is set aside as slow on large generated inputs, not failed; an endless loop and a wrong answer still fail', async () => {
  const checks = await prepareCodeChecks(harness, task, { audience: 'scorer', seed: 3 });
  assert.ok(checks.augmentation?.inputs, checks.augmentation?.reason);
  const large = checks.augmentation.inputs.args.filter(([n]) => typeof n === 'number' && n >= 5000);
  assert.ok(large.length > 0, 'the generated inputs reach sizes the examples do not');

  const slow = await verifyProgram(harness, checks, QUADRATIC);
  const suite = slow.verdict.suites.find((s) => s.name === GENERATED_SUITE)!;
  assert.equal(slow.passed, true, JSON.stringify(suite));
  assert.ok(suite.slow?.length, 'the slow input is reported');
  const first = suite.slow[0]!;
  const [n] = JSON.parse(first.input) as [number];
  assert.deepEqual(JSON.parse(first.smaller), [Math.trunc(n / 100)]);
  assert.ok(first.limitSeconds >= first.referenceSeconds);

  // Endless from 30 up: a hundredth of a large n is still past 30, so the timeout stands.
  const endless = await verifyProgram(
    harness,
    checks,
    'def triangular(n):\n    while n >= 30:\n        pass\n    return n * (n + 1) // 2\n',
  );
  assert.equal(endless.verdict.status, 'timeout');
  assert.equal(endless.passed, false);

  // Quadratic and wrong at 0: slowness never hides a wrong answer.
  const wrong = await verifyProgram(
    harness,
    checks,
    'def triangular(n):\n    return 1 if n == 0 else sum(1 for i in range(n + 1) for _ in range(i))\n',
  );
  assert.equal(wrong.passed, false);
  const wrongAnswer = wrong.verdict.suites.find((s) => s.name === GENERATED_SUITE)!.firstFailure;
  assert.deepEqual([wrongAnswer?.expected, wrongAnswer?.actual], ['0', '1'], JSON.stringify(wrong.verdict.suites));

  // The next program is judged right.
  assert.equal(
    (await verifyProgram(harness, checks, 'def triangular(n):\n    return sum(range(n + 1))\n')).passed,
    true,
  );
});

// Right, but cubic: a hundredth of n = 65534 still runs out of time, a tenth of that does not.
const CUBIC =
  'def triangular(n):\n    return sum(1 for i in range(n + 1) for _ in range(i) for _ in range(n)) // n if n else 0\n';

test('a cubic program is set aside on a tenth of the hundredth; a loop that ends only on small inputs still fails', async () => {
  const checks = await prepareCodeChecks(harness, task, { audience: 'scorer', seed: 3 });
  // The generated suite made to hold n = 65534 first: its hundredth, 655, is still too large for a cube.
  const settleOn = async (texts: string[], program: string) => {
    const augmentation = { ...checks.augmentation!, inputs: { args: texts.map((t) => JSON.parse(t)), texts } };
    const generated: Task = {
      ...task,
      suites: [{ kind: 'io', name: GENERATED_SUITE, entry: 'triangular', inputsJson: `[${texts.join(',')}]` }],
    };
    return settleTimeouts(harness, augmentation, program, (await harness.judge(generated, program)).suites[0]!);
  };
  const settle = (program: string) => settleOn(['[65534]', '[40]', '[7]'], program);

  const cubic = await settle(CUBIC);
  assert.equal(cubic.status, 'pass', JSON.stringify(cubic));
  assert.deepEqual(
    cubic.slow?.map((s) => [s.input, s.smaller]),
    [['[65534]', '[65]']],
  );
  assert.equal(cubic.passed, 2, 'the smaller inputs are judged');

  // Quick below 30 and endless from there: on 6 it answers in microseconds, far too fast for
  // any polynomial to need more than the time limit on 65. The timeout stands.
  const steep = await settle('def triangular(n):\n    while n >= 30:\n        pass\n    return n * (n + 1) // 2\n');
  assert.equal(steep.status, 'timeout');
  assert.equal(steep.slow, undefined);
  // Cubic and wrong on 65: the cut's wrong answer keeps the timeout.
  const wrong = await settle(CUBIC.replace('// n if n', '// n + (n == 65) if n'));
  assert.equal(wrong.status, 'timeout');
  // Quadratic, and wrong (at once) from 2000 to 10000: the cube says n = 5000 is past its
  // limit from the cut's time, but it is judged before it is set aside, and fails.
  const quick = 'def triangular(n):\n    if 2000 <= n < 10000:\n        return 0\n';
  const largeWrong = await settleOn(['[65534]', '[5000]', '[7]'], QUADRATIC.replace('def triangular(n):\n', quick));
  assert.equal(largeWrong.status, 'fail', JSON.stringify(largeWrong));
  assert.deepEqual(
    largeWrong.slow?.map((s) => s.smaller),
    ['[655]'],
  );
  // The next program is judged right.
  assert.equal((await settle('def triangular(n):\n    return sum(range(n + 1))\n')).status, 'pass');
});
