import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([qs]) => isStr(qs),
  properties: [
    p(
      'a plain word is a key with an empty value',
      ([qs], out) => !/^[a-z]+$/.test(qs) || JSON.stringify(out) === JSON.stringify({ [qs]: '' }),
    ),
  ],
} satisfies TaskChecks;
