import { ints, sortedAscending, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([nums]) => ints(nums) && sortedAscending(nums),
  properties: [
    p(
      'covers every number',
      ([nums], out) =>
        Array.isArray(out) &&
        nums.every((n: number) =>
          out.some((r: string) => {
            const [a, b = a] = r.split('->').map(Number);
            return a! <= n && n <= b!;
          }),
        ),
    ),
  ],
} satisfies TaskChecks;
