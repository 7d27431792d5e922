import { isInt, ints, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([capacity, requests]) =>
    isInt(capacity) && capacity >= 0 && ints(requests) && requests.every((r) => r >= 0),
  properties: [
    p(
      'every distinct key misses at least once, and no request misses twice',
      ([, requests], out) => isInt(out) && out >= new Set(requests).size && out <= requests.length,
    ),
    p(
      'a cache of size 0 misses every request',
      ([capacity, requests], out) => capacity !== 0 || out === requests.length,
    ),
  ],
} satisfies TaskChecks;
