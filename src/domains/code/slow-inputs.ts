/**
 * A timeout on a generated input is not always a fault. Generated inputs reach sizes the
 * task's own tests never do (n = 65534 where the examples say 5), and a right program that
 * is slower than the reference (a triple loop where the reference counts) runs out of time
 * there. So a timeout on a generated input is tried once more on the same input cut to a
 * hundredth of its size, and while that times out too, on tenths of it (at most
 * LADDER_STEPS more):
 *   - it answers right on the hundredth, or on a tenth in a time that, grown no faster than
 *     the cube of the size, reaches the time limit one tenfold step up: the input is set aside
 *     as slow (reported in `SuiteVerdict.slow`, not failed), with the generated inputs at least
 *     as large and those its time on the cut, grown as a cube, says it cannot finish in time;
 *     the rest are judged, those no larger than the cut input first;
 *   - it answers wrong, answers only so fast that its growth to the next step must be steeper
 *     than a cube (an exponential, or a loop that ends only below some size), or the input
 *     has nothing large left to cut: the timeout stands, a failure.
 */
import type { SlowInput, SuiteVerdict } from '../../core/verdict.js';
import type { Augmentation } from './differential.js';
import { contractedReference, GENERATED_SUITE } from './differential.js';
import { encodeArgs } from './generate/encode.js';
import type { Harness } from './harness.js';
import { expectedJsonOf, judgeOn, observe, type Observation } from './probe.js';
import { callLimit } from './time-limits.js';

/** A dimension (an integer's magnitude, a string's or container's length) this large is cut. */
const LARGE = 100;
/** Slow inputs set aside at most: each costs the program a whole time limit. */
const MAX_SLOW = 3;
/** Tenfold cuts tried after the hundredth times out: each that times out costs a time limit. */
const LADDER_STEPS = 3;
/** A polynomial program of degree 3 takes 10^3 times longer on a tenfold input; steeper growth is a fault. */
const GROWTH_PER_TENFOLD = 1000;

/** The generated suite's verdict with slow inputs set aside (the verdict itself when there is none). */
export async function settleTimeouts(
  harness: Harness,
  augmentation: Augmentation,
  program: string,
  suite: SuiteVerdict,
): Promise<SuiteVerdict> {
  const { task, inputs, accepts } = augmentation;
  const reference = contractedReference(task);
  if (suite.name !== GENERATED_SUITE || !inputs || reference === undefined) return suite;
  const types = augmentation.space.types;
  const judgeAgainst = (texts: readonly string[], expected: readonly Observation[]) =>
    judgeOn(harness, task, program, {
      name: GENERATED_SUITE,
      texts,
      expectedJson: expectedJsonOf(task, expected),
      limits: expected.map((o) => callLimit(harness.time, o.kind === 'value' ? o.seconds : undefined)),
    });
  /**
   * The input cut to a hundredth, and while that runs out of time too, to tenths of it: the
   * first cut the program answers, with its time there, if it answers right and, below the
   * hundredth, in a time that grown as a cube reaches the time limit one tenfold step up.
   */
  const rightOnACut = async (args: readonly unknown[]) => {
    let step = cutToAHundredth(args);
    let limitAbove: number | undefined;
    for (let k = 0; step && k <= LADDER_STEPS; k++) {
      if (!accepts(step)) return undefined;
      const text = encodeArgs(step, types);
      const [want] = await observe(harness, task, reference, [text], { limit: 2, maxTimeouts: 1 });
      if (want?.kind !== 'value') return undefined;
      const limit = callLimit(harness.time, want.seconds);
      const [got] = await observe(harness, task, program, [text], { limit, maxTimeouts: 1 });
      if (got?.kind === 'timeout') {
        [limitAbove, step] = [limit, cutBy(step, 10)];
        continue;
      }
      if (got?.kind !== 'value') return undefined;
      if (limitAbove !== undefined && got.seconds * GROWTH_PER_TENFOLD < limitAbove) return undefined;
      const judged = await judgeAgainst([text], [want]);
      return judged.status === 'pass' ? { args: step, text, seconds: got.seconds } : undefined;
    }
    return undefined;
  };
  const slow: SlowInput[] = [];
  let current = suite;
  let remaining = inputs.texts.map((_, i) => i); // positions in the generated suite that `current` judged
  let passedBefore = 0;
  // The judge runs on past a wrong answer, which then stays the suite's first failure: only an
  // input that gave no answer (actual null) is the one the time ran out on.
  const ranOutAt = (v: SuiteVerdict) =>
    v.status === 'timeout' && v.failedAt !== undefined && v.firstFailure?.actual == null;
  while (ranOutAt(current) && slow.length < MAX_SLOW) {
    const at = remaining[current.failedAt!]!;
    const cut = await rightOnACut(inputs.args[at]!);
    if (!cut) break;
    const size = sizeOf(inputs.args[at]!);
    const after = remaining.slice(current.failedAt! + 1).filter((i) => sizeOf(inputs.args[i]!) < size);
    const texts = [inputs.texts[at]!, ...after.map((i) => inputs.texts[i]!)];
    const [original, ...expected] = await observe(harness, task, reference, texts, { limit: 2, maxTimeouts: 1 });
    if (original?.kind !== 'value') break;
    // Time fitted against size: grown as a cube from the cut, the program's time on a larger
    // input passes that input's limit, so the input is set aside with the slow one, unjudged.
    const cutSize = Math.max(1, sizeOf(cut.args));
    const inTime = (i: number, want: Observation | undefined) =>
      want?.kind === 'value' &&
      cut.seconds * Math.max(1, sizeOf(inputs.args[i]!) / cutSize) ** 3 < callLimit(harness.time, want.seconds);
    const answered = after.filter((i, j) => inTime(i, expected[j]));
    // Inputs no larger than the cut one first: a wrong answer there is found before another slow input.
    answered.sort((a, b) => Number(sizeOf(inputs.args[a]!) > cutSize) - Number(sizeOf(inputs.args[b]!) > cutSize));
    // Then those the cube says are too slow, smallest first, up to the first that does run out
    // of time: a cube over-estimates a quadratic program, whose answers there still count.
    const tooSlow = after
      .filter((i, j) => expected[j]?.kind === 'value' && !inTime(i, expected[j]))
      .sort((a, b) => sizeOf(inputs.args[a]!) - sizeOf(inputs.args[b]!));
    const order = [...answered, ...tooSlow];
    let setAside = remaining.length - current.failedAt! - 1 - order.length;
    passedBefore += current.failedAt!;
    remaining = order;
    current =
      order.length === 0
        ? { name: GENERATED_SUITE, status: 'pass', passed: 0, total: 0, firstFailure: null }
        : await judgeAgainst(
            order.map((i) => inputs.texts[i]!),
            order.map((i) => expected[after.indexOf(i)]!),
          );
    if (ranOutAt(current) && current.failedAt! >= answered.length) {
      // Out of time where the cube said so: the rest of those are set aside too, unjudged.
      setAside += order.length - current.failedAt!;
      current = {
        name: GENERATED_SUITE,
        status: 'pass',
        passed: current.passed,
        total: current.failedAt!,
        firstFailure: null,
      };
    }
    slow.push({
      input: inputs.texts[at]!,
      smaller: cut.text,
      limitSeconds: callLimit(harness.time, original.seconds),
      referenceSeconds: original.seconds,
      setAside,
    });
  }
  if (slow.length === 0) return suite;
  return {
    ...current,
    passed: passedBefore + current.passed,
    total: passedBefore + current.total,
    ...(current.failedAt !== undefined ? { failedAt: remaining[current.failedAt]! } : {}),
    slow,
  };
}

/**
 * The input with every large dimension cut to a hundredth: integers of magnitude ≥ 100
 * divided (toward zero), strings and containers of length ≥ 100 truncated; undefined when
 * nothing is large.
 */
export function cutToAHundredth(args: readonly unknown[]): unknown[] | undefined {
  return cutBy(args, LARGE);
}

/** Every dimension of at least `factor` divided by it (integers toward zero, lengths up); undefined when none is. */
export function cutBy(args: readonly unknown[], factor: number): unknown[] | undefined {
  let changed = false;
  const big = BigInt(factor);
  const cut = (value: unknown): unknown => {
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= factor) {
      changed = true;
      return Math.trunc(value / factor);
    }
    if (typeof value === 'string' && value.length >= factor) {
      changed = true;
      return value.slice(0, Math.ceil(value.length / factor));
    }
    if (Array.isArray(value)) {
      const kept =
        value.length >= factor ? ((changed = true), value.slice(0, Math.ceil(value.length / factor))) : value;
      return kept.map(cut);
    }
    if (value && typeof value === 'object') {
      const tagged = value as { $t?: string; v?: unknown };
      if (tagged.$t === 'int' && typeof tagged.v === 'string') {
        changed = true;
        const divided = BigInt(tagged.v) / big;
        return Number.isSafeInteger(Number(divided)) ? Number(divided) : { $t: 'int', v: String(divided) };
      }
      if (tagged.$t !== undefined) return Array.isArray(tagged.v) ? { $t: tagged.$t, v: cut(tagged.v) } : value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
    }
    return value;
  };
  const result = args.map(cut);
  return changed ? result : undefined;
}

/** The largest dimension of an input: an integer's magnitude, a string's or container's length. */
export function sizeOf(value: unknown): number {
  if (typeof value === 'number') return Number.isInteger(value) ? Math.abs(value) : 0;
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((largest: number, v) => Math.max(largest, sizeOf(v)), value.length);
  if (value && typeof value === 'object') {
    const tagged = value as { $t?: string; v?: unknown };
    if (tagged.$t === 'int' && typeof tagged.v === 'string') return Math.abs(Number(tagged.v));
    if (tagged.$t !== undefined) return sizeOf(tagged.v);
    return sizeOf(Object.values(value));
  }
  return 0;
}
