import { isInt, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([start, txs]) =>
    isInt(start) &&
    start >= 0 &&
    Array.isArray(txs) &&
    txs.every((t) => t && (t.kind === 'deposit' || t.kind === 'withdraw') && isInt(t.amount) && t.amount > 0),
  properties: [
    p('never goes negative', (_, out) => out && out.balance >= 0),
    p(
      'only withdrawals are rejected',
      ([, txs], out) =>
        out && Array.isArray(out.rejected) && out.rejected.every((i: number) => txs[i]?.kind === 'withdraw'),
    ),
  ],
} satisfies TaskChecks;
