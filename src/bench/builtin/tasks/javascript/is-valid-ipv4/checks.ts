import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([s]) => isStr(s),
  properties: [
    p('a valid address has four dotted numbers', ([s], out) => out === false || /^\d+\.\d+\.\d+\.\d+$/.test(s)),
  ],
} satisfies TaskChecks;
