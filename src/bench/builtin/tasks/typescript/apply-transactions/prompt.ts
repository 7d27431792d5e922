interface Transaction {
  kind: 'deposit' | 'withdraw';
  amount: number;
}

//Apply transactions (amounts in cents, positive integers) to a starting
// balance in order. A withdrawal that would make the balance negative is
// rejected and skipped; withdrawing the whole balance is allowed. Return the
// final balance and the indexes of the rejected transactions.
// >>> applyTransactions(100, [{kind: "withdraw", amount: 30}, {kind: "withdraw", amount: 80}, {kind: "deposit", amount: 5}])
// {balance: 75, rejected: [1]}
function applyTransactions(start: number, txs: Transaction[]): { balance: number; rejected: number[] } {
