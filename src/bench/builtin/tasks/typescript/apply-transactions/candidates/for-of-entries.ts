interface Transaction {
  kind: 'deposit' | 'withdraw';
  amount: number;
}

function applyTransactions(start: number, txs: Transaction[]): { balance: number; rejected: number[] } {
  let balance = start;
  const rejected: number[] = [];
  for (const [i, { kind, amount }] of txs.entries()) {
    if (kind === 'withdraw' && balance - amount < 0) {
      rejected.push(i);
      continue;
    }
    balance += kind === 'deposit' ? amount : -amount;
  }
  return { balance, rejected };
}
