import { p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([nums]) => Array.isArray(nums) && nums.every((n) => typeof n === 'number' && Number.isFinite(n)),
  properties: [
    p('lies between the smallest and largest value', ([nums], out) =>
      nums.length === 0 ? out === null : out >= Math.min(...nums) && out <= Math.max(...nums),
    ),
  ],
} satisfies TaskChecks;
