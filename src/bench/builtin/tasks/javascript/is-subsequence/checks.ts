import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([needle, haystack]) => isStr(needle) && isStr(haystack),
  properties: [
    p('a substring is a subsequence', ([n, h], out) => !h.includes(n) || out === true),
    p('a longer needle is not', ([n, h], out) => n.length <= h.length || out === false),
  ],
} satisfies TaskChecks;
