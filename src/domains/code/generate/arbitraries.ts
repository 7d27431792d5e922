/**
 * fast-check arbitraries for value types. Every mapped arbitrary has an unmapper, so a
 * value that did not come from fast-check (a mutated example, a failing input) can still
 * be shrunk: `arbitrary.shrink(value, undefined)`.
 */
import fc from 'fast-check';
import type { ValueType } from './types.js';

export interface ArbitraryOptions {
  /** Characters strings are built from; the examples' own characters belong here. */
  readonly alphabet: string;
  readonly maxLength: number;
  /** Integers are drawn mostly from [-intRange, intRange]. */
  readonly intRange: number;
  /**
   * For shrinking a value that may not have come from these arbitraries: every integer,
   * double and string is in range, so `shrink(value, undefined)` always has a start.
   */
  readonly anyValue?: boolean;
}

const SHRINK_OPTIONS: ArbitraryOptions = { alphabet: '', maxLength: 1 << 20, intRange: 2 ** 31 - 1, anyValue: true };

export const DEFAULT_ARBITRARY_OPTIONS: ArbitraryOptions = {
  alphabet: 'abcdefghijklmnopqrstuvwxyzABC0123 ',
  maxLength: 12,
  intRange: 100,
};

const fail = (): never => {
  throw new Error('not a value of this type');
};

export function arbitraryFor(
  type: ValueType,
  options: ArbitraryOptions = DEFAULT_ARBITRARY_OPTIONS,
): fc.Arbitrary<unknown> {
  const { maxLength, intRange } = options;
  if (options.anyValue && type.kind === 'int') return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
  if (options.anyValue && type.kind === 'float') return fc.double({ noNaN: true, noDefaultInfinity: true });
  if (options.anyValue && type.kind === 'str') return fc.string({ unit: 'binary', maxLength });
  switch (type.kind) {
    case 'int':
      return fc.oneof(
        { arbitrary: fc.integer({ min: -10, max: 10 }), weight: 3 },
        { arbitrary: fc.integer({ min: -intRange, max: intRange }), weight: 3 },
        { arbitrary: fc.integer({ min: -100_000, max: 100_000 }), weight: 1 },
      );
    case 'float':
      // Hundredths keep floats readable in a counterexample and shrink towards whole numbers.
      return fc.integer({ min: -100 * intRange, max: 100 * intRange }).map(
        (n) => n / 100,
        (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) : fail()),
      );
    case 'bool':
      return fc.boolean();
    case 'none':
      return fc.constant(null);
    case 'str':
      return fc.string({ unit: fc.constantFrom(...new Set(options.alphabet)), maxLength });
    case 'list':
      // Items of a type nothing shows (the examples' lists were all empty) would be guesses: keep it empty.
      if (type.item.kind === 'any') return fc.constant([]);
      return fc.array(arbitraryFor(type.item, options), { maxLength });
    case 'set':
      if (type.item.kind === 'any') return fc.constant({ $t: 'set', v: [] });
      return fc.uniqueArray(arbitraryFor(type.item, options), { maxLength, selector: (v) => JSON.stringify(v) }).map(
        (v) => ({ $t: 'set', v }),
        (t) => taggedItems(t, 'set'),
      );
    case 'tuple':
      if (type.rest)
        return fc.array(arbitraryFor(type.rest, options), { maxLength }).map(
          (v) => ({ $t: 'tuple', v }),
          (t) => taggedItems(t, 'tuple'),
        );
      return fc.tuple(...type.items.map((t) => arbitraryFor(t, options))).map(
        (v) => ({ $t: 'tuple', v }),
        (t) => taggedItems(t, 'tuple'),
      );
    case 'dict':
      return fc
        .uniqueArray(fc.tuple(arbitraryFor(type.key, options), arbitraryFor(type.value, options)), {
          maxLength: Math.min(maxLength, 8),
          selector: (entry) => JSON.stringify(entry[0]),
        })
        .map(
          (v) => ({ $t: 'dict', v }),
          (t) => taggedItems(t, 'dict') as [unknown, unknown][],
        );
    case 'union':
      return fc.oneof(...type.options.map((t) => arbitraryFor(t, options)));
    case 'any':
      return fc.oneof(
        fc.integer({ min: -intRange, max: intRange }),
        fc.string({ maxLength }),
        fc.array(fc.integer({ min: -10, max: 10 }), { maxLength }),
      );
  }
}

function taggedItems(value: unknown, tag: string): unknown[] {
  const t = value as { $t?: string; v?: unknown };
  if (value && typeof value === 'object' && t.$t === tag && Array.isArray(t.v)) return t.v;
  // Dataset inputs write tuples as plain lists.
  if (tag === 'tuple' && Array.isArray(value)) return value;
  return fail();
}

/** Whole argument lists. */
export function argumentsArbitrary(types: readonly ValueType[], options?: ArbitraryOptions): fc.Arbitrary<unknown[]> {
  return fc.tuple(...types.map((t) => arbitraryFor(t, options)));
}

/** Simpler argument lists than `args`, simplest first (fast-check's shrink order). */
export function* shrinksOf(args: readonly unknown[], types: readonly ValueType[]): Generator<unknown[]> {
  const arbitrary = argumentsArbitrary(types, SHRINK_OPTIONS);
  if (!arbitrary.canShrinkWithoutContext(args)) return;
  for (const shrunk of arbitrary.shrink([...args], undefined)) yield shrunk.value;
}
