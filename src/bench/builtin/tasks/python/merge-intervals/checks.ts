import { ints, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([xs]) => Array.isArray(xs) && xs.every((iv) => ints(iv) && iv.length === 2 && iv[0]! <= iv[1]!),
  properties: [
    p(
      'output is sorted and its intervals are disjoint',
      (_, out) => Array.isArray(out) && out.every((iv: number[], i: number) => i === 0 || out[i - 1][1] < iv[0]!),
    ),
    p(
      'every input interval lies inside an output interval',
      ([xs], out) =>
        Array.isArray(out) && xs.every(([a, b]: number[]) => out.some(([c, d]: number[]) => c! <= a! && b! <= d!)),
    ),
  ],
} satisfies TaskChecks;
