interface Transaction {
  kind: 'deposit' | 'withdraw';
  amount: number;
}

function applyTransactions(start: number, txs: Transaction[]): { balance: number; rejected: number[] } {
  let balance = start;
  const rejected: number[] = [];
  txs.forEach((tx, index) => {
    if (tx.kind === 'deposit') {
      balance += tx.amount;
    } else if (balance - tx.amount > 0) {
      balance -= tx.amount;
    } else {
      rejected.push(index);
    }
  });
  return { balance, rejected };
}
