import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([a, b]) => isStr(a) && isStr(b) && a.length <= 300 && b.length <= 300,
  properties: [
    p(
      'is at least the length difference and at most the longer length',
      ([a, b], out) => out >= Math.abs(a.length - b.length) && out <= Math.max(a.length, b.length),
    ),
    p('is zero exactly for equal strings', ([a, b], out) => (out === 0) === (a === b)),
  ],
} satisfies TaskChecks;
