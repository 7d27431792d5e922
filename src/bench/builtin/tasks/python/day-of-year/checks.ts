import { isInt, p, isDate, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([date]) => isDate(date),
  properties: [
    p('is between 1 and 366', (_, out) => isInt(out) && out >= 1 && out <= 366),
    p(
      'a January date is its own day number',
      ([date], out) => !date.slice(5).startsWith('01-') || out === Number(date.slice(8)),
    ),
  ],
} satisfies TaskChecks;
