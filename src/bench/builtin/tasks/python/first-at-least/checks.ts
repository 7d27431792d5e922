import { isInt, ints, sortedAscending, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([xs, target]) => ints(xs) && sortedAscending(xs) && isInt(target),
  properties: [
    p(
      'is the first index whose value reaches the target',
      ([xs, t], i) =>
        isInt(i) && i >= 0 && i <= xs.length && (i === xs.length || xs[i] >= t) && (i === 0 || xs[i - 1] < t),
    ),
  ],
} satisfies TaskChecks;
