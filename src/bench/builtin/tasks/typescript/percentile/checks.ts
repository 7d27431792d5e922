import { isInt, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([values, pct]) =>
    Array.isArray(values) &&
    values.length > 0 &&
    values.every((v) => typeof v === 'number') &&
    isInt(pct) &&
    pct >= 0 &&
    pct <= 100,
  properties: [p('is one of the values', ([values], out) => values.includes(out))],
} satisfies TaskChecks;
