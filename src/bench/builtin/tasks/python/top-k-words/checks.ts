import { isInt, isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([words, k]) => Array.isArray(words) && words.every(isStr) && isInt(k) && k >= 0,
  properties: [
    p(
      'returns min(k, distinct words) words',
      ([words, k], out) => Array.isArray(out) && out.length === Math.min(k, new Set(words).size),
    ),
    p(
      'returns distinct words from the input',
      ([words], out) =>
        Array.isArray(out) && new Set(out).size === out.length && out.every((w: string) => words.includes(w)),
    ),
  ],
} satisfies TaskChecks;
