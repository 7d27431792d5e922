import { ints, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([ratings]) => ints(ratings) && ratings.every((r) => r >= 1 && r <= 5),
  properties: [
    p(
      'lies between the lowest and highest rating',
      ([rs], out) =>
        typeof out === 'number' && (rs.length === 0 ? out === 0 : out >= Math.min(...rs) && out <= Math.max(...rs)),
    ),
    p('has one decimal place', (_, out) => typeof out === 'number' && Math.abs(out * 10 - Math.round(out * 10)) < 1e-9),
  ],
} satisfies TaskChecks;
