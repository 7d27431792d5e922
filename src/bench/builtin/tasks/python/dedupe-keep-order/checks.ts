import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([items]) => Array.isArray(items) && items.every((x) => isStr(x) || typeof x === 'number'),
  properties: [
    p(
      'has no repeats',
      (_, out) => Array.isArray(out) && new Set(out.map((x: unknown) => JSON.stringify(x))).size === out.length,
    ),
    p(
      'keeps every distinct item',
      ([items], out) => Array.isArray(out) && new Set(items.map((x: unknown) => JSON.stringify(x))).size === out.length,
    ),
  ],
} satisfies TaskChecks;
