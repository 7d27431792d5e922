import { ints, sameMultiset, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([m]) => Array.isArray(m) && m.every((row) => ints(row) && row.length === m[0].length),
  properties: [
    p('is a permutation of the cells', ([m], out) => Array.isArray(out) && sameMultiset(out, m.flat())),
    p(
      'starts with the first row',
      ([m], out) => m.length === 0 || JSON.stringify(out.slice(0, m[0].length)) === JSON.stringify(m[0]),
    ),
  ],
} satisfies TaskChecks;
