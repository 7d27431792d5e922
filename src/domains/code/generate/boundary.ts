/**
 * Boundary and special values of a task's whole input domain, the inputs mutation and
 * random draws rarely build: 0, ±1, powers of two, the limits of 32- and 64-bit integers
 * and of exact doubles, Python integers far past 2^53; floats at and near whole numbers and
 * halves; the examples' strings in upper, lower and swapped case, with non-ASCII letters,
 * whitespace runs, empty; containers empty, of one element, long, with duplicates, sorted
 * and reversed; and the constants the prompt and the reference compare against, each with
 * its neighbours. Which of them are valid is for the task's precondition (or the reference's
 * contract) to say: nothing here filters.
 */
import { unique } from './mutate.js';
import { shuffle, type Random } from '../../../core/random.js';
import type { ValueType } from './types.js';

/** Numbers and strings the task's own text names: comparison operands first. */
export interface TaskConstants {
  readonly numbers: readonly number[];
  readonly strings: readonly string[];
  /** NaN and the infinities are tried only where the task speaks of them. */
  readonly nonFinite: boolean;
  /**
   * The largest integer magnitude the examples show. Integers beyond 10^4 times it (at
   * least 10^4) are tried only where the examples already reach 2^20: elsewhere an integer
   * is mostly a count or a loop bound, and a right program slower than the reference (O(n)
   * where the reference is O(1)) only times out there. Measured on HumanEval+: without the
   * cap, 18 right programs of HumanEval/147 and 18 of /24 timed out at n = 10^6..10^10.
   */
  readonly intScale?: number;
  /**
   * Non-ASCII letters, tabs and newlines are tried only where the examples hold some or the
   * task speaks of them: elsewhere right programs differ on them (HumanEval/89, /93, /125
   * are about ASCII letters and spaces, and their contracts do not say so).
   */
  readonly wideText?: boolean;
}

const NUMBER_LITERAL = /(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?(?![\w.])/gi;
const COMPARED = /(?:[<>]=?|[!=]=)\s*(-?\d+(?:\.\d+)?)|(-?\d+(?:\.\d+)?)\s*(?:[<>]=?|[!=]=)/g;
const STRING_LITERAL = /(['"])((?:\\.|(?!\1)[^\\\n]){1,24})\1/g;

/** Constants read from source text (the prompt and the reference). */
export function taskConstants(...texts: readonly (string | undefined)[]): TaskConstants {
  const text = texts.filter((t): t is string => t !== undefined).join('\n');
  const compared = [...text.matchAll(COMPARED)].map((m) => Number(m[1] ?? m[2]));
  const named = [...text.matchAll(NUMBER_LITERAL)].map((m) => Number(m[0]));
  const numbers = [...new Set([...compared, ...named])].filter((n) => Number.isFinite(n) && Math.abs(n) <= 2 ** 64);
  const strings = [...new Set([...text.matchAll(STRING_LITERAL)].map((m) => m[2]!))].filter(
    (s) => !/^\s*$/.test(s) || s.length <= 3,
  );
  return {
    numbers: numbers.slice(0, 40),
    strings: strings.slice(0, 40),
    nonFinite: /\b(nan|inf|infinity|isfinite|isinf|isnan)\b/i.test(text),
  };
}

/** A Python integer beyond exact doubles, in the wire encoding (generated values are wire values). */
export function bigInt(value: bigint): unknown {
  return { $t: 'int', v: value.toString() };
}

const INT_LIMITS = [2n ** 31n, 2n ** 32n, 2n ** 53n, 2n ** 63n, 2n ** 64n];

/** Integers where behaviour tends to change, nearest the examples' scale first. */
export function specialInts(constants: TaskConstants, seen: readonly number[]): unknown[] {
  const around = (n: number) => [n, n - 1, n + 1, -n];
  const small = [0, 1, -1, 2, -2, 3, 10, -10, 100, 255, 256, 1000, 1024, 65535, 65536, 10 ** 6, -(10 ** 6)];
  const fromTask = constants.numbers.filter(Number.isInteger).flatMap(around);
  const scale = constants.intScale;
  const cap = scale === undefined || scale >= 2 ** 20 ? Infinity : Math.max(10 ** 4, scale * 10 ** 4);
  const within = (n: number) => Math.abs(n) <= cap;
  const scaled = seen.flatMap((n) => [n * 10, n * 1000, n * 10 ** 9, -n]).filter(within);
  if (cap !== Infinity) return [...fromTask.filter(within), ...small.filter(within), ...scaled];
  const limits = INT_LIMITS.flatMap((l) => [l - 1n, l, l + 1n, -l, -l - 1n]).map((b) =>
    b <= BigInt(Number.MAX_SAFE_INTEGER) && b >= BigInt(-Number.MAX_SAFE_INTEGER) ? Number(b) : bigInt(b),
  );
  const huge = [bigInt(10n ** 20n), bigInt(-(10n ** 20n)), bigInt(10n ** 30n + 7n)];
  return [...fromTask, ...small, ...scaled, ...limits, ...huge];
}

/** Floats near and at the places rounding and comparison change. */
export function specialFloats(constants: TaskConstants, seen: readonly number[]): number[] {
  const fromTask = constants.numbers.flatMap((n) => [n, n + 1e-9, n - 1e-9, n + 0.5, -n]);
  const near = seen.flatMap((x) => [Math.round(x), Math.round(x) + 0.5, x + 1e-9, x * 1e6, -x, x / 1e6]);
  const fixed = [
    0,
    -0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    0.1,
    1e-9,
    1e-300,
    1e15 + 0.5,
    2 ** 53,
    1e300,
    -1e300,
    0.30000000000000004,
  ];
  const nonFinite = constants.nonFinite ? [NaN, Infinity, -Infinity] : [];
  return [...fromTask, ...fixed, ...near, ...nonFinite];
}

const NON_ASCII = ['é', 'ß', 'Ω', 'ñ', 'İ', 'ǅ', '中', 'ﬁ'];

/** Strings from the examples' own: case, script, whitespace, repetition, emptiness. */
export function specialStrings(constants: TaskConstants, seen: readonly string[], random: Random): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const wide = constants.wideText !== false;
  const out: string[] = [
    '',
    ' ',
    '   ',
    ...(wide ? ['\t', '\n'] : []),
    'a',
    'A',
    'aaaa',
    'AbCd',
    ' a ',
    'a  b',
    ...constants.strings,
  ];
  for (const s of seen.slice(0, 12)) {
    const at = Math.floor(random() * (s.length + 1));
    out.push(
      s.toUpperCase(),
      s.toLowerCase(),
      swapCase(s),
      s.slice(0, 1),
      s.replace(/ /g, '   '),
      s.slice(0, 1).toUpperCase() + s.slice(1),
      flipOneCase(s, random),
      ` ${s} `,
      s.repeat(Math.max(2, Math.ceil(120 / Math.max(1, s.length)))).slice(0, 200),
      [...s].reverse().join(''),
      s.length ? s[0]!.repeat(s.length + 3) : 'zz',
    );
  }
  return out;
}

/** The string with the case of one of its letters changed. */
function flipOneCase(s: string, random: Random): string {
  const letters = [...s].flatMap((c, i) => (c.toLowerCase() !== c.toUpperCase() ? [i] : []));
  if (letters.length === 0) return s;
  const at = letters[Math.floor(random() * letters.length)]!;
  const chars = [...s];
  chars[at] = swapCase(chars[at]!);
  return chars.join('');
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** Whole containers built from an example's elements: empty, single, long, sorted, reversed, with duplicates. */
export function specialLists(seen: readonly (readonly unknown[])[], random: Random): unknown[][] {
  const out: unknown[][] = [[]];
  for (const items of seen.slice(0, 8)) {
    if (items.length === 0) continue;
    const sorted = sortedCopy(items);
    const one = items[Math.floor(random() * items.length)];
    out.push(
      [one],
      [one, one],
      sorted,
      [...sorted].reverse(),
      [...items, ...items],
      Array.from({ length: items.length + 3 }, () => one),
      Array.from({ length: Math.max(60, items.length * 4) }, (_, i) => items[i % items.length]),
      [...items.slice(1), items[0]],
    );
  }
  return out;
}

/** At most `n` of `items`, evenly spread over the list (each kind of special value gets its turn). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function sortedCopy(items: readonly unknown[]): unknown[] {
  const numeric = items.every((i) => typeof i === 'number');
  const strings = items.every((i) => typeof i === 'string');
  if (!numeric && !strings) return [...items];
  return [...items].sort((a, b) => (numeric ? (a as number) - (b as number) : String(a) < String(b) ? -1 : 1));
}

/**
 * Special values for one argument of `type`, given the values the examples put there (wire
 * values). Values are of the type, or the type's container shape, never checked further.
 */
export function specialValues(
  type: ValueType,
  seen: readonly unknown[],
  constants: TaskConstants,
  random: Random,
): unknown[] {
  const numbers = seen.flatMap((v) => leavesOf(v)).filter((v): v is number => typeof v === 'number');
  const strings = seen.flatMap((v) => leavesOf(v)).filter((v): v is string => typeof v === 'string');
  switch (type.kind) {
    case 'int':
      return specialInts(constants, numbers.filter(Number.isInteger));
    case 'float':
      return specialFloats(constants, numbers);
    case 'str':
      return specialStrings(constants, strings, random);
    case 'bool':
      return [true, false];
    case 'none':
      return [null];
    case 'list': {
      const lists = seen.filter((v): v is unknown[] => Array.isArray(v));
      // Only empty lists were seen and no hint names the items: anything put in them would be a guess.
      if (type.item.kind === 'any' && lists.every((l) => l.length === 0)) return [[]];
      const items = specialValues(type.item, lists.flat(), constants, random);
      // Each special item alone, among the example's items, and as the whole list's elements.
      const withItems = spread(items, 24).flatMap((item, i) => {
        const base = lists[i % Math.max(1, lists.length)] ?? [];
        return [[item], [...base, item], base.length ? base.map(() => item) : [item, item]];
      });
      return [...specialLists(lists, random), ...withItems];
    }
    case 'set':
    case 'tuple': {
      const inner = seen.flatMap((v) => (isTagged(v, type.kind) ? [v.v] : Array.isArray(v) ? [v] : []));
      if (type.kind === 'tuple' && !type.rest)
        return type.items.length ? tupleSpecials(type.items, inner, constants, random) : [{ $t: 'tuple', v: [] }];
      const item: ValueType =
        type.kind === 'set' ? type.item : type.kind === 'tuple' ? (type.rest ?? { kind: 'any' }) : { kind: 'any' };
      return specialValues({ kind: 'list', item }, inner, constants, random).map((v) => ({
        $t: type.kind,
        v: type.kind === 'set' ? unique(v as unknown[]) : v,
      }));
    }
    case 'dict': {
      const entries = seen.flatMap((v) =>
        isTagged(v, 'dict')
          ? [v.v as [unknown, unknown][]]
          : v && typeof v === 'object' && !Array.isArray(v)
            ? [Object.entries(v)]
            : [],
      );
      const keys = specialValues(
        type.key,
        entries.flat().map(([k]) => k),
        constants,
        random,
      ).slice(0, 12);
      const values = specialValues(
        type.value,
        entries.flat().map(([, v]) => v),
        constants,
        random,
      ).slice(0, 12);
      const base = entries[0] ?? [];
      return [
        { $t: 'dict', v: [] },
        ...keys.map((k, i) => ({ $t: 'dict', v: [[k, values[i % Math.max(1, values.length)] ?? null]] })),
        ...values.map((v) => ({ $t: 'dict', v: base.map(([k]) => [k, v]) })),
      ];
    }
    case 'union':
      // Booleans and None sit beside any union: in Python, True is also an int.
      return [
        true,
        false,
        null,
        ...type.options.flatMap((o) => specialValues(o, seen, constants, random).slice(0, 20)),
      ];
    case 'any':
      return [
        true,
        false,
        null,
        0,
        '',
        [],
        ...seen.flatMap((v) => specialValues(typeOfValue(v), [v], constants, random).slice(0, 10)),
      ];
  }
}

function tupleSpecials(
  items: readonly ValueType[],
  seen: readonly unknown[],
  constants: TaskConstants,
  random: Random,
): unknown[] {
  const tuples = seen.filter((v): v is unknown[] => Array.isArray(v) && v.length === items.length);
  const base = tuples[0];
  if (!base) return [];
  return items.flatMap((type, i) =>
    specialValues(
      type,
      tuples.map((t) => t[i]),
      constants,
      random,
    )
      .slice(0, 12)
      .map((value) => ({ $t: 'tuple', v: base.map((b, j) => (j === i ? value : b)) })),
  );
}

function isTagged(value: unknown, tag: string): value is { $t: string; v: unknown[] } {
  return Boolean(
    value &&
    typeof value === 'object' &&
    (value as { $t?: unknown }).$t === tag &&
    Array.isArray((value as { v?: unknown }).v),
  );
}

function typeOfValue(value: unknown): ValueType {
  if (typeof value === 'number') return { kind: Number.isInteger(value) ? 'int' : 'float' };
  if (typeof value === 'string') return { kind: 'str' };
  if (typeof value === 'boolean') return { kind: 'bool' };
  if (Array.isArray(value)) return { kind: 'list', item: value.length ? typeOfValue(value[0]) : { kind: 'any' } };
  return { kind: 'none' };
}

function leavesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leavesOf);
  if (value && typeof value === 'object') {
    const tagged = value as { $t?: unknown; v?: unknown };
    if (tagged.$t === 'int' || tagged.$t === 'float') return [];
    if (tagged.$t !== undefined) return leavesOf(tagged.v);
    return Object.entries(value).flatMap(([k, v]) => [k, ...leavesOf(v)]);
  }
  return [value];
}

/**
 * Argument lists with one argument replaced by a special value, the others kept from an
 * example, cycling through positions and examples so that any prefix of the list is varied.
 */
export function boundaryArguments(
  types: readonly ValueType[],
  examples: readonly (readonly unknown[])[],
  constants: TaskConstants,
  random: Random,
): unknown[][] {
  if (types.length === 0) return [];
  const perPosition = types.map((type, i) =>
    shuffled(
      specialValues(
        type,
        examples.map((args) => args[i]),
        constants,
        random,
      ),
      random,
    ),
  );
  const bases = examples.length ? examples : [types.map((_, i) => perPosition[i]![0] ?? null)];
  const out: unknown[][] = [];
  const longest = Math.max(...perPosition.map((v) => v.length));
  for (let k = 0; k < longest; k++)
    for (let i = 0; i < types.length; i++) {
      const value = perPosition[i]![k];
      if (value === undefined) continue;
      const base = bases[(k + i) % bases.length]!;
      out.push(types.map((_, j) => (j === i ? value : base[j])));
    }
  return out;
}

/** The first few (the task's own constants, the simplest values) stay first; the rest are shuffled. */
function shuffled<T>(items: readonly T[], random: Random, keep = 6): T[] {
  return [...items.slice(0, keep), ...shuffle(items.slice(keep), random)];
}
