import { isInt, sameMultiset, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([xs, k]) => Array.isArray(xs) && xs.every((x) => typeof x === 'number') && isInt(k) && k >= 0,
  properties: [
    p('is a permutation of the input', ([xs], out) => Array.isArray(out) && sameMultiset(out, xs)),
    p('the first element moves k places', ([xs, k], out) => xs.length === 0 || out[k % xs.length] === xs[0]),
  ],
} satisfies TaskChecks;
