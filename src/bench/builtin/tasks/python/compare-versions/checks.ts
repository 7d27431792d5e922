import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([a, b]) => [a, b].every((v) => isStr(v) && /^\d{1,6}(\.\d{1,6})*$/.test(v)),
  properties: [
    p('answers -1, 0 or 1', (_, out) => out === -1 || out === 0 || out === 1),
    p('a version equals itself', ([a, b], out) => a !== b || out === 0),
  ],
} satisfies TaskChecks;
