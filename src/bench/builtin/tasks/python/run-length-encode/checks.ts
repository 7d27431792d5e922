import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([s]) => isStr(s),
  properties: [
    p(
      'decoding gives back the input (inputs without digits)',
      ([s], out) =>
        /\d/.test(s) ||
        (isStr(out) && [...out.matchAll(/(\D)(\d+)/g)].map(([, c, n]) => c!.repeat(Number(n))).join('') === s),
    ),
  ],
} satisfies TaskChecks;
