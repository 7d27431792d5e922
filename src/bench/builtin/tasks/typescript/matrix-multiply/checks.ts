import { p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([a, b]) =>
    [a, b].every(
      (m) =>
        Array.isArray(m) &&
        m.length > 0 &&
        m.every((row: unknown) => Array.isArray(row) && row.length === m[0].length && row.length > 0),
    ) && a[0].length === b.length,
  properties: [
    p(
      'is n x p',
      ([a, b], out) =>
        Array.isArray(out) && out.length === a.length && out.every((row: unknown[]) => row.length === b[0].length),
    ),
  ],
} satisfies TaskChecks;
