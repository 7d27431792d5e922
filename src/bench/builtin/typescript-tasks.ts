/**
 * Built-in TypeScript tasks. Written for Crucible (not taken from any dataset): prompts
 * and `base` tests follow the MultiPL-E TypeScript layout (`declare var require: any;`,
 * node:assert), and a "plus" io suite adds edge cases whose expected outputs come from
 * running the reference.
 */
import { code, defineTask, multiplETest, type BuiltinSpec, type BuiltinTask } from './define.js';

const typescriptTask = (spec: BuiltinSpec): BuiltinTask =>
  defineTask('typescript', spec, { code: multiplETest(spec, 'declare var require: any;\n') });

// ---------------------------------------------------------------------------------------

const rotateRight = typescriptTask({
  slug: 'rotate-right',
  entryPoint: 'rotateRight',
  prompt: code`//Return a new array with the elements of xs rotated k places to the right
// (k >= 0; k may be larger than the length). The input is not modified.
// >>> rotateRight([1, 2, 3, 4, 5], 2)
// [4, 5, 1, 2, 3]
// >>> rotateRight([1, 2, 3], 4)
// [3, 1, 2]
function rotateRight(xs: number[], k: number): number[] {
`,
  body: code`  const n = xs.length;
  if (n === 0) return [];
  const shift = k % n;
  return [...xs.slice(n - shift), ...xs.slice(0, n - shift)];
}
`,
  base: code`  assert.deepEqual(candidate([1, 2, 3, 4, 5], 2),[4, 5, 1, 2, 3]);
  assert.deepEqual(candidate([1, 2, 3, 4, 5], 0),[1, 2, 3, 4, 5]);
  assert.deepEqual(candidate([1, 2, 3], 1),[3, 1, 2]);
  assert.deepEqual(candidate([7, 8], 2),[7, 8]);
`,
  plus: [[[1, 2, 3], 4], [[1, 2, 3], 7], [[], 3], [[], 0], [[9], 100], [[1, 2, 3, 4, 5, 6], 6], [[1, 2, 3, 4, 5, 6], 13], [Array.from({ length: 50 }, (_, i) => i), 1234]],
  candidates: [
    {
      label: 'index-map',
      expected: 'pass',
      why: 'Computes each output position from the source index modulo n; map over an empty array never divides by zero.',
      program: code`function rotateRight(xs: number[], k: number): number[] {
  const n = xs.length;
  return xs.map((_, i) => xs[(((i - k) % n) + n) % n]);
}
`,
    },
    {
      label: 'no-modulo',
      expected: 'fail',
      why: 'Uses slice(-k) without reducing k modulo the length: once k exceeds the length it returns the array unrotated. Base never has k > length.',
      program: code`function rotateRight(xs: number[], k: number): number[] {
  return [...xs.slice(-k), ...xs.slice(0, -k)];
}
`,
    },
    {
      label: 'type-error-runs',
      expected: 'pass',
      why: 'Declares the shift as a string, a type error, but the code behaves correctly; type errors are reported, and fail a candidate only with --strict-types.',
      program: code`function rotateRight(xs: number[], k: number): number[] {
  if (xs.length === 0) return [];
  const shift: string = k % xs.length;
  const cut = xs.length - (shift as any);
  return xs.slice(cut).concat(xs.slice(0, cut));
}
`,
    },
  ],
});

const matMul = typescriptTask({
  slug: 'matrix-multiply',
  entryPoint: 'matMul',
  prompt: code`//Multiply an n x m matrix a by an m x p matrix b (arrays of rows) and return
// the n x p product. Matrices need not be square.
// >>> matMul([[1, 2], [3, 4]], [[5, 6], [7, 8]])
// [[19, 22], [43, 50]]
// >>> matMul([[1, 2, 3]], [[1], [2], [3]])
// [[14]]
function matMul(a: number[][], b: number[][]): number[][] {
`,
  body: code`  const inner = b.length;
  const cols = inner === 0 ? 0 : b[0].length;
  return a.map((row) => {
    const out: number[] = new Array(cols).fill(0);
    for (let k = 0; k < inner; k++) {
      for (let j = 0; j < cols; j++) out[j] += row[k] * b[k][j];
    }
    return out;
  });
}
`,
  base: code`  assert.deepEqual(candidate([[1, 2], [3, 4]], [[5, 6], [7, 8]]),[[19, 22], [43, 50]]);
  assert.deepEqual(candidate([[1, 0], [0, 1]], [[4, 1], [2, 2]]),[[4, 1], [2, 2]]);
  assert.deepEqual(candidate([[2]], [[3]]),[[6]]);
  assert.deepEqual(candidate([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),[[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
`,
  plus: [
    [[[1, 2, 3]], [[1], [2], [3]]],
    [[[1], [2], [3]], [[1, 2, 3]]],
    [[[1, 2, 3], [4, 5, 6]], [[7, 8], [9, 10], [11, 12]]],
    [[[0.5, -1]], [[2, 0, 1], [1, 1, 1]]],
    [[[1, 2], [3, 4], [5, 6]], [[1, 0], [0, 1]]],
    [
      Array.from({ length: 6 }, (_, i) => Array.from({ length: 4 }, (_, j) => i - j)),
      Array.from({ length: 4 }, (_, i) => Array.from({ length: 5 }, (_, j) => (i * j) % 3)),
    ],
  ],
  candidates: [
    {
      label: 'transpose-dot',
      expected: 'pass',
      why: 'Transposes b and takes dot products of rows with columns; same product.',
      program: code`function matMul(a: number[][], b: number[][]): number[][] {
  const cols = b.length ? b[0].map((_, j) => b.map((row) => row[j])) : [];
  const dot = (u: number[], v: number[]) => u.reduce((sum, x, i) => sum + x * v[i], 0);
  return a.map((row) => cols.map((col) => dot(row, col)));
}
`,
    },
    {
      label: 'assumes-square',
      expected: 'fail',
      why: 'Uses a.length for every dimension, which is only right for square matrices of the same size (all the base tests).',
      program: code`function matMul(a: number[][], b: number[][]): number[][] {
  const n = a.length;
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    out.push([]);
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += a[i][k] * b[k][j];
      out[i].push(sum);
    }
  }
  return out;
}
`,
    },
  ],
});

const groupAnagrams = typescriptTask({
  slug: 'group-anagrams',
  entryPoint: 'groupAnagrams',
  prompt: code`//Group words that are anagrams of each other (same letters, same counts;
// case-sensitive). Groups appear in the order of their first word, and words
// keep their input order inside a group.
// >>> groupAnagrams(["eat", "tea", "tan", "ate", "nat", "bat"])
// [["eat", "tea", "ate"], ["tan", "nat"], ["bat"]]
function groupAnagrams(words: string[]): string[][] {
`,
  body: code`  const groups = new Map<string, string[]>();
  for (const word of words) {
    const key = [...word].sort().join('');
    const group = groups.get(key);
    if (group) group.push(word);
    else groups.set(key, [word]);
  }
  return [...groups.values()];
}
`,
  base: code`  assert.deepEqual(candidate(["eat", "tea", "tan", "ate", "nat", "bat"]),[["eat", "tea", "ate"], ["tan", "nat"], ["bat"]]);
  assert.deepEqual(candidate(["abc"]),[["abc"]]);
  assert.deepEqual(candidate([]),[]);
  assert.deepEqual(candidate(["listen", "silent", "enlist"]),[["listen", "silent", "enlist"]]);
`,
  plus: [
    [['ad', 'bc']],
    [['ac', 'bb', 'ca']],
    [['', '']],
    [['Tea', 'eat', 'tea']],
    [['aab', 'abb', 'bab', 'baa']],
    [['stop', 'pots', 'tops', 'opts', 'post', 'spot', 'x']],
  ],
  candidates: [
    {
      label: 'letter-count-key',
      expected: 'pass',
      why: 'Keys groups by a letter-count signature instead of the sorted word; the same words share a key.',
      program: code`function groupAnagrams(words: string[]): string[][] {
  const order: string[] = [];
  const groups: Record<string, string[]> = {};
  for (const word of words) {
    const counts = new Map<string, number>();
    for (const ch of word) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    const key = [...counts.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([ch, n]) => ch + n).join('|');
    if (!(key in groups)) {
      groups[key] = [];
      order.push(key);
    }
    groups[key].push(word);
  }
  return order.map((key) => groups[key]);
}
`,
    },
    {
      label: 'char-code-sum',
      expected: 'fail',
      why: 'Keys groups by the sum of character codes, so different letters with equal sums collide ("ad" and "bc"); no base words collide.',
      program: code`function groupAnagrams(words: string[]): string[][] {
  const groups = new Map<number, string[]>();
  for (const word of words) {
    let key = 0;
    for (let i = 0; i < word.length; i++) key += word.charCodeAt(i);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(word);
  }
  return Array.from(groups.values());
}
`,
    },
  ],
});

const parseCsvLine = typescriptTask({
  slug: 'parse-csv-line',
  entryPoint: 'parseCsvLine',
  prompt: code`//Split one line of CSV into its fields. Fields are separated by commas. A
// field may be enclosed in double quotes; inside quotes a comma is literal and
// two double quotes ("") stand for one. The enclosing quotes are removed. An
// empty line has one empty field.
// >>> parseCsvLine('a,"b,c",d')
// ["a", "b,c", "d"]
// >>> parseCsvLine('"say ""hi""",x')
// ['say "hi"', "x"]
function parseCsvLine(line: string): string[] {
`,
  body: code`  const fields: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inQuotes) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      inQuotes = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else {
      field += ch;
    }
  }
  fields.push(field);
  return fields;
}
`,
  base: code`  assert.deepEqual(candidate("a,b,c"),["a", "b", "c"]);
  assert.deepEqual(candidate('"x, y",z'),["x, y", "z"]);
  assert.deepEqual(candidate("one"),["one"]);
  assert.deepEqual(candidate(","),["", ""]);
  assert.deepEqual(candidate('"quoted",plain'),["quoted", "plain"]);
`,
  plus: [
    ['"say ""hi""",x'],
    ['""""'],
    [''],
    ['a,'],
    ['a,,b'],
    ['"a,b",,"c"'],
    ['"",x'],
    ['"he said ""no, never"""'],
    ['1,"two ""2""",3,"4,4"'],
    ['  spaced , kept  '],
  ],
  candidates: [
    {
      label: 'field-scanner',
      expected: 'pass',
      why: 'Scans field by field (quoted or not) instead of one character state machine; same fields.',
      program: code`function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let value = '';
    if (line[i] === '"') {
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else {
          value += line[i++];
        }
      }
    }
    while (i < line.length && line[i] !== ',') value += line[i++];
    out.push(value);
    if (i >= line.length) return out;
    i++;
  }
}
`,
    },
    {
      label: 'no-escaped-quotes',
      expected: 'fail',
      why: 'Toggles the quoted state on every double quote and drops it, so "" inside a quoted field disappears instead of becoming one quote; base has no escaped quotes.',
      program: code`function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      fields.push(current);
      current = '';
    } else current += ch;
  }
  fields.push(current);
  return fields;
}
`,
    },
    {
      label: 'truncated',
      expected: 'error',
      why: 'The answer stops mid-statement (as when a model runs out of tokens): the program does not parse.',
      program: code`function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inQuotes && ch === '"' && line[i + 1] ===
`,
    },
  ],
});

const levenshtein = typescriptTask({
  slug: 'levenshtein',
  entryPoint: 'levenshtein',
  prompt: code`//Return the edit distance between a and b: the least number of single
// character insertions, deletions and substitutions that turn a into b.
// Strings may be a few hundred characters long.
// >>> levenshtein("kitten", "sitting")
// 3
// >>> levenshtein("", "abc")
// 3
function levenshtein(a: string, b: string): number {
`,
  body: code`  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost));
    }
    prev = cur;
  }
  return prev[b.length];
}
`,
  base: code`  assert.deepEqual(candidate("kitten", "sitting"),3);
  assert.deepEqual(candidate("flaw", "lawn"),2);
  assert.deepEqual(candidate("abc", "abc"),0);
  assert.deepEqual(candidate("", "abc"),3);
  assert.deepEqual(candidate("abc", ""),3);
`,
  plus: [
    ['', ''],
    ['a', 'b'],
    ['intention', 'execution'],
    ['sunday', 'saturday'],
    ['abcdefghijklmnopqrstuvwxy', 'yxwvutsrqponmlkjihgfedcba'],
    ['a'.repeat(300), 'b'.repeat(299)],
  ],
  candidates: [
    {
      label: 'full-table',
      expected: 'pass',
      why: 'Fills the whole (n+1) x (m+1) table instead of two rows; same recurrence.',
      program: code`function levenshtein(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push(new Array(b.length + 1).fill(0));
    d[i][0] = i;
  }
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const sub = d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      d[i][j] = Math.min(sub, d[i - 1][j] + 1, d[i][j - 1] + 1);
    }
  }
  return d[a.length][b.length];
}
`,
    },
    {
      label: 'naive-recursion',
      expected: 'timeout',
      why: 'Plain recursion without memoisation is exponential: instant on the short base words, hopeless on the 25-character reversed pair in plus.',
      program: code`function levenshtein(a: string, b: string): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (a[0] === b[0]) return levenshtein(a.slice(1), b.slice(1));
  return 1 + Math.min(levenshtein(a.slice(1), b), levenshtein(a, b.slice(1)), levenshtein(a.slice(1), b.slice(1)));
}
`,
    },
  ],
});

const twelveHour = typescriptTask({
  slug: 'twelve-hour-clock',
  entryPoint: 'toTwelveHour',
  prompt: code`//Convert a 24-hour time "HH:MM" to 12-hour form "h:MM AM" or "h:MM PM",
// without a leading zero on the hour. Midnight is 12:00 AM and noon 12:00 PM.
// >>> toTwelveHour("13:05")
// "1:05 PM"
// >>> toTwelveHour("00:30")
// "12:30 AM"
function toTwelveHour(time: string): string {
`,
  body: code`  const hours = Number(time.slice(0, 2));
  const minutes = time.slice(3, 5);
  const suffix = hours < 12 ? 'AM' : 'PM';
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return hour + ':' + minutes + ' ' + suffix;
}
`,
  base: code`  assert.deepEqual(candidate("13:05"),"1:05 PM");
  assert.deepEqual(candidate("09:15"),"9:15 AM");
  assert.deepEqual(candidate("23:59"),"11:59 PM");
  assert.deepEqual(candidate("11:00"),"11:00 AM");
`,
  plus: [['00:00'], ['00:30'], ['12:00'], ['12:59'], ['01:01'], ['11:59'], ['13:00'], ['10:10'], ['22:45']],
  candidates: [
    {
      label: 'split-and-modulo',
      expected: 'pass',
      why: 'Splits on ":" and maps the hour with h % 12 || 12; same strings.',
      program: code`function toTwelveHour(time: string): string {
  const [h, m] = time.split(':');
  const hour = Number(h);
  return String(hour % 12 || 12) + ':' + m + (hour >= 12 ? ' PM' : ' AM');
}
`,
    },
    {
      label: 'midnight-noon',
      expected: 'fail',
      why: 'Subtracts 12 only above 12 and calls everything up to 12 "AM": 00:30 becomes 0:30 AM and 12:00 becomes 12:00 AM. Base avoids both hours.',
      program: code`function toTwelveHour(time: string): string {
  const [h, m] = time.split(':').map(Number);
  const suffix = h > 12 ? 'PM' : 'AM';
  const hour = h > 12 ? h - 12 : h;
  return hour + ':' + String(m).padStart(2, '0') + ' ' + suffix;
}
`,
    },
  ],
});

const percentileValues = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 10007);

const percentile = typescriptTask({
  slug: 'percentile',
  entryPoint: 'percentile',
  prompt: code`//Return the p-th percentile (0 <= p <= 100, an integer) of a non-empty array
// by the nearest-rank method: sort ascending and take the value at rank
// ceil(p / 100 * n), counting from 1, where rank 0 means rank 1.
// >>> percentile([15, 20, 35, 40, 50], 40)
// 20
// >>> percentile([3, 1, 2], 0)
// 1
function percentile(values: number[], p: number): number {
`,
  body: code`  const sorted = [...values].sort((x, y) => x - y);
  // p * n / 100 keeps the rank exact for integer p; p / 100 * n can land just above an integer.
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1];
}
`,
  base: code`  assert.deepEqual(candidate([15, 20, 35, 40, 50], 40),20);
  assert.deepEqual(candidate([4, 1, 3, 2], 50),2);
  assert.deepEqual(candidate([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90),9);
  assert.deepEqual(candidate([3, 1, 2], 0),1);
  assert.deepEqual(candidate([3, 1, 2], 100),3);
`,
  plus: [
    [Array.from({ length: 100 }, (_, i) => i + 1), 7],
    [Array.from({ length: 25 }, (_, i) => 25 - i), 28],
    [Array.from({ length: 50 }, (_, i) => i * 2), 14],
    [[5], 50],
    [[10, 9, 8, 100], 75],
    [[2, 2, 2, 1], 25],
    [percentileValues, 95],
  ],
  candidates: [
    {
      label: 'integer-rank',
      expected: 'pass',
      why: 'Same nearest-rank rule computed with integer arithmetic ((p * n + 99) / 100, floored).',
      program: code`function percentile(values: number[], p: number): number {
  const sorted = values.slice().sort((x, y) => x - y);
  const rank = Math.floor((p * sorted.length + 99) / 100);
  return sorted[Math.max(rank, 1) - 1];
}
`,
    },
    {
      label: 'float-rank',
      expected: 'fail',
      why: 'Computes the rank as Math.ceil(p / 100 * n): 7 / 100 * 100 is 7.000000000000001, so the rank goes one too high. Exact for every base case.',
      program: code`function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(rank, 1) - 1];
}
`,
    },
    {
      label: 'debug-logging',
      expected: 'output-limit',
      why: 'Insertion sort that logs the partially sorted array after each step; the 3000-value plus input prints tens of megabytes.',
      program: code`function percentile(values: number[], p: number): number {
  const sorted: number[] = [];
  for (const v of values) {
    let i = sorted.length;
    while (i > 0 && sorted[i - 1] > v) i--;
    sorted.splice(i, 0, v);
    console.log('sorted so far: ' + sorted.join(', '));
  }
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1];
}
`,
    },
  ],
});

const ledger = typescriptTask({
  slug: 'apply-transactions',
  entryPoint: 'applyTransactions',
  prompt: code`interface Transaction {
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
`,
  body: code`  let balance = start;
  const rejected: number[] = [];
  txs.forEach((tx, i) => {
    if (tx.kind === 'deposit') balance += tx.amount;
    else if (tx.amount <= balance) balance -= tx.amount;
    else rejected.push(i);
  });
  return { balance, rejected };
}
`,
  base: code`  assert.deepEqual(candidate(100, [{kind: "withdraw", amount: 30}, {kind: "withdraw", amount: 80}, {kind: "deposit", amount: 5}]),{balance: 75, rejected: [1]});
  assert.deepEqual(candidate(0, []),{balance: 0, rejected: []});
  assert.deepEqual(candidate(0, [{kind: "deposit", amount: 50}, {kind: "withdraw", amount: 20}]),{balance: 30, rejected: []});
  assert.deepEqual(candidate(10, [{kind: "withdraw", amount: 11}, {kind: "withdraw", amount: 12}]),{balance: 10, rejected: [0, 1]});
`,
  plus: [
    [100, [{ kind: 'withdraw', amount: 100 }]],
    [0, [{ kind: 'withdraw', amount: 1 }]],
    [50, [{ kind: 'deposit', amount: 50 }, { kind: 'withdraw', amount: 100 }, { kind: 'withdraw', amount: 1 }]],
    [5, []],
    [
      1000,
      Array.from({ length: 40 }, (_, i) => ({ kind: i % 3 === 0 ? 'deposit' : 'withdraw', amount: ((i * 37) % 250) + 1 })),
    ],
  ],
  candidates: [
    {
      label: 'for-of-entries',
      expected: 'pass',
      why: 'Same rule written as a for...of over entries with an early continue.',
      program: code`interface Transaction {
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
`,
    },
    {
      label: 'rejects-exact-balance',
      expected: 'fail',
      why: 'Requires the balance to stay strictly positive, so withdrawing exactly the whole balance is rejected; no base case withdraws the exact balance.',
      program: code`interface Transaction {
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
`,
    },
  ],
});

export const typescriptTasks: readonly BuiltinTask[] = [
  rotateRight,
  matMul,
  groupAnagrams,
  parseCsvLine,
  levenshtein,
  twelveHour,
  percentile,
  ledger,
];
