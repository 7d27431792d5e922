import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([name]) => isStr(name) && /^[A-Za-z0-9_]*$/.test(name),
  properties: [
    p('has no capitals', (_, out) => isStr(out) && out === out.toLowerCase()),
    p(
      'keeps the letters in order',
      ([name], out) => isStr(out) && out.replace(/_/g, '') === name.replace(/_/g, '').toLowerCase(),
    ),
  ],
} satisfies TaskChecks;
