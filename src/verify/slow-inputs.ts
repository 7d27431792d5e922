/**
 * A timeout on a generated input is not always a fault. Generated inputs reach sizes the
 * task's own tests never do (n = 65534 where the examples say 5), and a right program that
 * is slower than the reference (a triple loop where the reference counts) runs out of time
 * there. So a timeout on a generated input is tried once more on the same input cut to a
 * hundredth of its size:
 *   - the program times out or answers wrong there too (an endless or exponential loop), or
 *     the input has nothing large to cut: the timeout stands, a failure;
 *   - it answers right: the input is set aside as slow (reported in `SuiteVerdict.slow`, not
 *     failed), with the generated inputs at least as large, and the rest are judged, those no
 *     larger than the cut input first.
 */
import type { SlowInput, SuiteVerdict } from '../core/verdict.js';
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
    const smaller = cutToAHundredth(inputs.args[at]!);
    if (!smaller || !accepts(smaller)) break;
    const size = sizeOf(inputs.args[at]!);
    const after = remaining.slice(current.failedAt! + 1).filter((i) => sizeOf(inputs.args[i]!) < size);
    const smallerText = encodeArgs(smaller, types);
    const texts = [inputs.texts[at]!, smallerText, ...after.map((i) => inputs.texts[i]!)];
    const expected = await observe(harness, task, reference, texts, { limit: 2, maxTimeouts: 1 });
    const [original, cut] = expected;
    if (original?.kind !== 'value' || cut?.kind !== 'value') break;
    const onSmaller = await judgeAgainst([smallerText], [cut]);
    if (onSmaller.status !== 'pass') break;
    // Inputs no larger than the cut one first: a wrong answer there is found before another slow input.
    const answered = after.filter((_, j) => expected[j + 2]?.kind === 'value');
    const cutSize = sizeOf(smaller);
    answered.sort((a, b) => Number(sizeOf(inputs.args[a]!) > cutSize) - Number(sizeOf(inputs.args[b]!) > cutSize));
    slow.push({
      input: inputs.texts[at]!,
      smaller: smallerText,
      limitSeconds: callLimit(harness.time, original.seconds),
      referenceSeconds: original.seconds,
      setAside: remaining.length - current.failedAt! - 1 - answered.length,
    });
    passedBefore += current.failedAt!;
    remaining = answered;
    current =
      answered.length === 0
        ? { name: GENERATED_SUITE, status: 'pass', passed: 0, total: 0, firstFailure: null }
        : await judgeAgainst(
            answered.map((i) => inputs.texts[i]!),
            answered.map((i) => expected[after.indexOf(i) + 2]!),
          );
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
  let changed = false;
  const cut = (value: unknown): unknown => {
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= LARGE) {
      changed = true;
      return Math.trunc(value / 100);
    }
    if (typeof value === 'string' && value.length >= LARGE) {
      changed = true;
      return value.slice(0, Math.ceil(value.length / 100));
    }
    if (Array.isArray(value)) {
      const kept = value.length >= LARGE ? ((changed = true), value.slice(0, Math.ceil(value.length / 100))) : value;
      return kept.map(cut);
    }
    if (value && typeof value === 'object') {
      const tagged = value as { $t?: string; v?: unknown };
      if (tagged.$t === 'int' && typeof tagged.v === 'string') {
        changed = true;
        const divided = BigInt(tagged.v) / 100n;
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
