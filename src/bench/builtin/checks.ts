/**
 * Hand-written preconditions and properties of the built-in tasks (PGS). A precondition
 * keeps generated inputs inside what the prompt promises; a property is a fact about
 * every right output that needs no reference ("the output is a permutation of the input").
 */
import type { Property } from '../../core/task.js';

export interface TaskChecks {
  readonly precondition: (args: readonly any[]) => boolean;
  readonly properties: readonly Property[];
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const ints = (xs: unknown): xs is number[] => Array.isArray(xs) && xs.every(isInt);
const sortedAscending = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);
const sameMultiset = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && JSON.stringify(a.map((x) => JSON.stringify(x)).sort()) === JSON.stringify(b.map((x) => JSON.stringify(x)).sort());
const p = (name: string, holds: Property['holds']): Property => ({ name, holds });
const isDate = (s: unknown, minYear = 1, maxYear = 9999) => {
  if (!isStr(s) || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return y >= minYear && y <= maxYear && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};
const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
const fromRoman = (s: string) => [...s].reduce((sum, c, i) => sum + (ROMAN[c]! < (ROMAN[s[i + 1] ?? ''] ?? 0) ? -ROMAN[c]! : ROMAN[c]!), 0);
const CSV_LINE = /^(?:[^",]*|"(?:[^"]|"")*")(?:,(?:[^",]*|"(?:[^"]|"")*"))*$/;

export const BUILTIN_CHECKS: Readonly<Record<string, TaskChecks>> = {
  'builtin/py/run-length-encode': {
    precondition: ([s]) => isStr(s),
    properties: [
      p('decoding gives back the input (inputs without digits)', ([s], out) => /\d/.test(s) || (isStr(out) && [...out.matchAll(/(\D)(\d+)/g)].map(([, c, n]) => c!.repeat(Number(n))).join('') === s)),
    ],
  },
  'builtin/py/merge-intervals': {
    precondition: ([xs]) => Array.isArray(xs) && xs.every((iv) => ints(iv) && iv.length === 2 && iv[0]! <= iv[1]!),
    properties: [
      p('output is sorted and its intervals are disjoint', (_, out) => Array.isArray(out) && out.every((iv: number[], i: number) => i === 0 || out[i - 1][1] < iv[0]!)),
      p('every input interval lies inside an output interval', ([xs], out) => Array.isArray(out) && xs.every(([a, b]: number[]) => out.some(([c, d]: number[]) => c! <= a! && b! <= d!))),
    ],
  },
  'builtin/py/roman-numerals': {
    precondition: ([n]) => isInt(n) && n >= 1 && n <= 3999,
    properties: [
      p('uses only roman digits', (_, out) => isStr(out) && /^[MDCLXVI]+$/.test(out)),
      p('reads back as the number', ([n], out) => isStr(out) && fromRoman(out) === n),
    ],
  },
  'builtin/py/balanced-brackets': {
    precondition: ([s]) => isStr(s),
    properties: [p('text without brackets is balanced', ([s], out) => /[()[\]{}]/.test(s) || out === true)],
  },
  'builtin/py/top-k-words': {
    precondition: ([words, k]) => Array.isArray(words) && words.every(isStr) && isInt(k) && k >= 0,
    properties: [
      p('returns min(k, distinct words) words', ([words, k], out) => Array.isArray(out) && out.length === Math.min(k, new Set(words).size)),
      p('returns distinct words from the input', ([words], out) => Array.isArray(out) && new Set(out).size === out.length && out.every((w: string) => words.includes(w))),
    ],
  },
  'builtin/py/first-at-least': {
    precondition: ([xs, target]) => ints(xs) && sortedAscending(xs) && isInt(target),
    properties: [
      p('is the first index whose value reaches the target', ([xs, t], i) => isInt(i) && i >= 0 && i <= xs.length && (i === xs.length || xs[i] >= t) && (i === 0 || xs[i - 1] < t)),
    ],
  },
  'builtin/py/word-wrap': {
    precondition: ([text, width]) => isStr(text) && isInt(width) && width >= 1,
    properties: [
      p('keeps every word in order', ([text], out) => Array.isArray(out) && out.join(' ').split(/\s+/).filter(Boolean).join(' ') === text.split(/\s+/).filter(Boolean).join(' ')),
      p('lines fit the width unless they hold one long word', ([, width], out) => Array.isArray(out) && out.every((line: string) => line.length <= width || !line.includes(' '))),
    ],
  },
  'builtin/py/compare-versions': {
    precondition: ([a, b]) => [a, b].every((v) => isStr(v) && /^\d{1,6}(\.\d{1,6})*$/.test(v)),
    properties: [
      p('answers -1, 0 or 1', (_, out) => out === -1 || out === 0 || out === 1),
      p('a version equals itself', ([a, b], out) => a !== b || out === 0),
    ],
  },
  'builtin/py/day-of-year': {
    precondition: ([date]) => isDate(date),
    properties: [
      p('is between 1 and 366', (_, out) => isInt(out) && out >= 1 && out <= 366),
      p('a January date is its own day number', ([date], out) => !date.slice(5).startsWith('01-') || out === Number(date.slice(8))),
    ],
  },
  'builtin/py/spiral-order': {
    precondition: ([m]) => Array.isArray(m) && m.every((row) => ints(row) && row.length === m[0].length),
    properties: [
      p('is a permutation of the cells', ([m], out) => Array.isArray(out) && sameMultiset(out, m.flat())),
      p('starts with the first row', ([m], out) => m.length === 0 || JSON.stringify(out.slice(0, m[0].length)) === JSON.stringify(m[0])),
    ],
  },
  'builtin/py/dedupe-keep-order': {
    precondition: ([items]) => Array.isArray(items) && items.every((x) => isStr(x) || typeof x === 'number'),
    properties: [
      p('has no repeats', (_, out) => Array.isArray(out) && new Set(out.map((x: unknown) => JSON.stringify(x))).size === out.length),
      p('keeps every distinct item', ([items], out) => Array.isArray(out) && new Set(items.map((x: unknown) => JSON.stringify(x))).size === out.length),
    ],
  },
  'builtin/py/json-path-get': {
    precondition: ([data, path]) => data !== undefined && isStr(path) && /^(?:(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*)?$/.test(path),
    properties: [p('the empty path returns the data', ([data, path], out) => path !== '' || JSON.stringify(out) === JSON.stringify(data))],
  },
  'builtin/py/lru-misses': {
    precondition: ([capacity, requests]) => isInt(capacity) && capacity >= 0 && ints(requests) && requests.every((r) => r >= 0),
    properties: [
      p('every distinct key misses at least once, and no request misses twice', ([, requests], out) => isInt(out) && out >= new Set(requests).size && out <= requests.length),
      p('a cache of size 0 misses every request', ([capacity, requests], out) => capacity !== 0 || out === requests.length),
    ],
  },
  'builtin/py/average-rating': {
    precondition: ([ratings]) => ints(ratings) && ratings.every((r) => r >= 1 && r <= 5),
    properties: [
      p('lies between the lowest and highest rating', ([rs], out) => typeof out === 'number' && (rs.length === 0 ? out === 0 : out >= Math.min(...rs) && out <= Math.max(...rs))),
      p('has one decimal place', (_, out) => typeof out === 'number' && Math.abs(out * 10 - Math.round(out * 10)) < 1e-9),
    ],
  },
  'builtin/js/chunk-array': {
    precondition: ([arr, size]) => Array.isArray(arr) && isInt(size) && size >= 1,
    properties: [
      p('the chunks joined are the input', ([arr], out) => Array.isArray(out) && JSON.stringify(out.flat()) === JSON.stringify(arr)),
      p('every chunk but the last is full', ([, size], out) => Array.isArray(out) && out.every((c: unknown[], i: number) => c.length > 0 && (i === out.length - 1 ? c.length <= size : c.length === size))),
    ],
  },
  'builtin/js/median': {
    precondition: ([nums]) => Array.isArray(nums) && nums.every((n) => typeof n === 'number' && Number.isFinite(n)),
    properties: [p('lies between the smallest and largest value', ([nums], out) => (nums.length === 0 ? out === null : out >= Math.min(...nums) && out <= Math.max(...nums)))],
  },
  'builtin/js/to-snake-case': {
    precondition: ([name]) => isStr(name) && /^[A-Za-z0-9_]*$/.test(name),
    properties: [
      p('has no capitals', (_, out) => isStr(out) && out === out.toLowerCase()),
      p('keeps the letters in order', ([name], out) => isStr(out) && out.replace(/_/g, '') === name.replace(/_/g, '').toLowerCase()),
    ],
  },
  'builtin/js/parse-query-string': {
    precondition: ([qs]) => isStr(qs),
    properties: [p('a plain word is a key with an empty value', ([qs], out) => !/^[a-z]+$/.test(qs) || JSON.stringify(out) === JSON.stringify({ [qs]: '' }))],
  },
  'builtin/js/summarize-ranges': {
    precondition: ([nums]) => ints(nums) && sortedAscending(nums),
    properties: [
      p('covers every number', ([nums], out) => Array.isArray(out) && nums.every((n: number) => out.some((r: string) => {
        const [a, b = a] = r.split('->').map(Number);
        return a! <= n && n <= b!;
      }))),
    ],
  },
  'builtin/js/days-between': {
    precondition: ([a, b]) => isDate(a, 1000) && isDate(b, 1000),
    properties: [
      p('is zero only for the same date', ([a, b], out) => (a === b) === (out === 0)),
      p('is positive when b is later', ([a, b], out) => a === b || (a < b) === (out > 0)),
    ],
  },
  'builtin/js/is-subsequence': {
    precondition: ([needle, haystack]) => isStr(needle) && isStr(haystack),
    properties: [
      p('a substring is a subsequence', ([n, h], out) => !h.includes(n) || out === true),
      p('a longer needle is not', ([n, h], out) => n.length <= h.length || out === false),
    ],
  },
  'builtin/js/is-valid-ipv4': {
    precondition: ([s]) => isStr(s),
    properties: [p('a valid address has four dotted numbers', ([s], out) => out === false || /^\d+\.\d+\.\d+\.\d+$/.test(s))],
  },
  'builtin/ts/rotate-right': {
    precondition: ([xs, k]) => Array.isArray(xs) && xs.every((x) => typeof x === 'number') && isInt(k) && k >= 0,
    properties: [
      p('is a permutation of the input', ([xs], out) => Array.isArray(out) && sameMultiset(out, xs)),
      p('the first element moves k places', ([xs, k], out) => xs.length === 0 || out[k % xs.length] === xs[0]),
    ],
  },
  'builtin/ts/matrix-multiply': {
    precondition: ([a, b]) =>
      [a, b].every((m) => Array.isArray(m) && m.length > 0 && m.every((row: unknown) => Array.isArray(row) && row.length === m[0].length && row.length > 0)) &&
      a[0].length === b.length,
    properties: [p('is n x p', ([a, b], out) => Array.isArray(out) && out.length === a.length && out.every((row: unknown[]) => row.length === b[0].length))],
  },
  'builtin/ts/group-anagrams': {
    precondition: ([words]) => Array.isArray(words) && words.every(isStr),
    properties: [
      p('the groups hold every word once', ([words], out) => Array.isArray(out) && sameMultiset(out.flat(), words)),
      p('each group is one set of letters', (_, out) => Array.isArray(out) && out.every((g: string[]) => new Set(g.map((w) => [...w].sort().join(''))).size === 1)),
    ],
  },
  'builtin/ts/parse-csv-line': {
    precondition: ([line]) => isStr(line) && CSV_LINE.test(line),
    properties: [p('a line without quotes splits on commas', ([line], out) => line.includes('"') || JSON.stringify(out) === JSON.stringify(line.split(',')))],
  },
  'builtin/ts/levenshtein': {
    precondition: ([a, b]) => isStr(a) && isStr(b) && a.length <= 300 && b.length <= 300,
    properties: [
      p('is at least the length difference and at most the longer length', ([a, b], out) => out >= Math.abs(a.length - b.length) && out <= Math.max(a.length, b.length)),
      p('is zero exactly for equal strings', ([a, b], out) => (out === 0) === (a === b)),
    ],
  },
  'builtin/ts/twelve-hour-clock': {
    precondition: ([time]) => isStr(time) && /^([01]\d|2[0-3]):[0-5]\d$/.test(time),
    properties: [p('keeps the minutes and says AM or PM', ([time], out) => isStr(out) && new RegExp(`^(1[0-2]|[1-9]):${time.slice(3)} (AM|PM)$`).test(out))],
  },
  'builtin/ts/percentile': {
    precondition: ([values, pct]) => Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'number') && isInt(pct) && pct >= 0 && pct <= 100,
    properties: [p('is one of the values', ([values], out) => values.includes(out))],
  },
  'builtin/ts/apply-transactions': {
    precondition: ([start, txs]) =>
      isInt(start) && start >= 0 && Array.isArray(txs) && txs.every((t) => t && (t.kind === 'deposit' || t.kind === 'withdraw') && isInt(t.amount) && t.amount > 0),
    properties: [
      p('never goes negative', (_, out) => out && out.balance >= 0),
      p('only withdrawals are rejected', ([, txs], out) => out && Array.isArray(out.rejected) && out.rejected.every((i: number) => txs[i]?.kind === 'withdraw')),
    ],
  },
};
