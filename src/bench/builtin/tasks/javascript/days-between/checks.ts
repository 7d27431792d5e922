import { p, isDate, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([a, b]) => isDate(a, 1000) && isDate(b, 1000),
  properties: [
    p('is zero only for the same date', ([a, b], out) => (a === b) === (out === 0)),
    p('is positive when b is later', ([a, b], out) => a === b || a < b === out > 0),
  ],
} satisfies TaskChecks;
