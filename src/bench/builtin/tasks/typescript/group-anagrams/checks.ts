import { isStr, sameMultiset, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([words]) => Array.isArray(words) && words.every(isStr),
  properties: [
    p('the groups hold every word once', ([words], out) => Array.isArray(out) && sameMultiset(out.flat(), words)),
    p(
      'each group is one set of letters',
      (_, out) =>
        Array.isArray(out) && out.every((g: string[]) => new Set(g.map((w) => [...w].sort().join(''))).size === 1),
    ),
  ],
} satisfies TaskChecks;
