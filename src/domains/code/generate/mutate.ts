/**
 * Type-aware mutation of example inputs, EvalPlus's way of reaching inputs a random
 * generator rarely builds: start from the examples, change one part of one argument in a
 * way that keeps its type, and let every result seed further mutations.
 */
import { type Random } from '../../../core/random.js';
import type { ValueType } from './types.js';

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const index = (random: Random, length: number) => Math.floor(random() * length);

export interface MutationContext {
  readonly random: Random;
  /** Characters and pieces of text seen in the examples. */
  readonly alphabet: string;
  readonly fragments: readonly string[];
  /**
   * Boundary and special values for a scalar of a type (given the value being changed):
   * a mutation sometimes jumps to one, and a list sometimes grows by one.
   */
  readonly special?: (type: ValueType, value: unknown) => readonly unknown[];
}

const SCALAR_KINDS = new Set(['int', 'float', 'str', 'bool', 'none', 'union', 'any']);

/** A special value for `type` from the context, or undefined (no provider, a container type, none to offer). */
function specialOf(type: ValueType, value: unknown, context: MutationContext): unknown {
  if (!context.special || !SCALAR_KINDS.has(type.kind)) return undefined;
  const values = context.special(type, value);
  return values.length ? pick(context.random, values) : undefined;
}

/** One argument list changed in one place. */
export function mutateArgs(args: readonly unknown[], types: readonly ValueType[], context: MutationContext): unknown[] {
  if (args.length === 0) return [];
  const at = index(context.random, args.length);
  return args.map((a, i) => (i === at ? mutateValue(a, types[i] ?? { kind: 'any' }, context) : a));
}

export function mutateValue(value: unknown, type: ValueType, context: MutationContext): unknown {
  const { random } = context;
  if (context.special && random() < 0.2) {
    const special = specialOf(type, value, context);
    if (special !== undefined) return special;
  }
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return mutateNumber(value, type.kind === 'float' || !Number.isInteger(value), random);
  if (typeof value === 'string') return mutateString(value, context);
  if (Array.isArray(value))
    return mutateList(
      value,
      type.kind === 'list' || type.kind === 'set'
        ? type.item
        : type.kind === 'tuple' && type.rest
          ? type.rest
          : undefined,
      type,
      context,
    );
  if (value && typeof value === 'object') {
    const tagged = value as { $t?: string; v?: unknown };
    if ((tagged.$t === 'tuple' || tagged.$t === 'set') && Array.isArray(tagged.v)) {
      if (tagged.$t === 'tuple' && type.kind === 'tuple' && !type.rest)
        return { $t: 'tuple', v: mutateArgs(tagged.v, type.items, context) };
      const item =
        type.kind === 'set' ? type.item : type.kind === 'tuple' && type.rest ? type.rest : { kind: 'any' as const };
      const v = mutateList(tagged.v, item, type, context);
      return { $t: tagged.$t, v: tagged.$t === 'set' ? unique(v) : v };
    }
    if (tagged.$t === 'dict' && Array.isArray(tagged.v))
      return { $t: 'dict', v: mutateEntries(tagged.v as [unknown, unknown][], type, context) };
    if (tagged.$t === undefined) {
      const entries = mutateEntries(Object.entries(value), type, context).filter(([k]) => typeof k === 'string');
      return Object.fromEntries(entries);
    }
  }
  return value;
}

function mutateNumber(n: number, float: boolean, random: Random): number {
  const choices = float
    ? [n + 1, n - 1, n / 2, n * 2, -n, 0, n + Math.round((random() - 0.5) * 200) / 100, Math.round(n)]
    : [n + 1, n - 1, -n, n * 2, Math.trunc(n / 2), 0, 1, n + Math.round((random() - 0.5) * 20)];
  return pick(random, choices);
}

function mutateString(s: string, { random, alphabet, fragments }: MutationContext): string {
  const at = index(random, s.length + 1);
  const char = () => pick(random, alphabet.length ? [...alphabet] : ['a']);
  switch (index(random, 8)) {
    case 6:
    case 7: {
      // Same kind of character (digit for digit, letter for letter): keeps formats such as dates valid.
      if (!s.length) return char();
      const i = Math.min(at, s.length - 1);
      const c = s[i]!;
      const kind = /\d/.test(c)
        ? '0123456789'
        : /[a-z]/.test(c)
          ? 'abcdefghijklmnopqrstuvwxyz'
          : /[A-Z]/.test(c)
            ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
            : alphabet || 'a';
      return s.slice(0, i) + pick(random, [...kind]) + s.slice(i + 1);
    }
    case 0:
      return s.slice(0, at) + char() + s.slice(at); // insert
    case 1:
      return s.length ? s.slice(0, at) + s.slice(at + 1) : char(); // delete
    case 2:
      return s.length ? s.slice(0, at) + char() + s.slice(at + 1) : char(); // replace
    case 3:
      return fragments.length ? s.slice(0, at) + pick(random, fragments) + s.slice(at) : s + s; // splice in a known piece
    case 4: {
      const end = at + index(random, s.length - at + 1);
      return s.slice(0, end) + s.slice(at, end) + s.slice(end); // repeat a piece
    }
    default:
      return s.length > 1 ? s.slice(0, at) + s.slice(at + Math.max(1, index(random, s.length - at))) : char(); // cut a piece
  }
}

function mutateList(
  items: readonly unknown[],
  item: ValueType | undefined,
  type: ValueType,
  context: MutationContext,
): unknown[] {
  const { random } = context;
  const copy = [...items];
  const at = index(random, copy.length);
  const itemType = item ?? (type.kind === 'tuple' ? (type.items[at] ?? { kind: 'any' }) : { kind: 'any' as const });
  switch (copy.length ? index(random, 6) : 5) {
    case 0:
      copy.splice(at, 1); // remove
      return copy;
    case 1:
      copy.splice(at, 0, copy[at]); // duplicate
      return copy;
    case 2:
      copy[at] = mutateValue(copy[at], itemType, context); // change one
      return copy;
    case 3: {
      const other = index(random, copy.length);
      [copy[at], copy[other]] = [copy[other], copy[at]]; // swap
      return copy;
    }
    case 4:
      return copy.length > 1 ? copy.slice(0, at) : []; // truncate
    default:
      // Grow: a special value of the item type, or a changed copy of an existing element, so its type stays right.
      if (copy.length === 0) {
        if (itemType.kind === 'any') return copy; // nothing shows what its items would be
        const special = specialOf(itemType, undefined, context);
        return special === undefined ? copy : [special];
      }
      copy.splice(
        index(random, copy.length + 1),
        0,
        (random() < 0.5 ? specialOf(itemType, copy[0], context) : undefined) ??
          mutateValue(copy[index(random, copy.length)], itemType, context),
      );
      return copy;
  }
}

function mutateEntries(
  entries: readonly [unknown, unknown][],
  type: ValueType,
  context: MutationContext,
): [unknown, unknown][] {
  const { random } = context;
  const keyType = type.kind === 'dict' ? type.key : { kind: 'any' as const };
  const valueType = type.kind === 'dict' ? type.value : { kind: 'any' as const };
  const copy = entries.map(([k, v]) => [k, v] as [unknown, unknown]);
  if (copy.length === 0) return copy;
  const at = index(random, copy.length);
  switch (index(random, 3)) {
    case 0:
      copy.splice(at, 1);
      return copy;
    case 1:
      copy[at] = [copy[at]![0], mutateValue(copy[at]![1], valueType, context)];
      return copy;
    default: {
      const key = mutateValue(copy[at]![0], keyType, context);
      if (!copy.some(([k]) => JSON.stringify(k) === JSON.stringify(key))) copy.push([key, copy[at]![1]]);
      return copy;
    }
  }
}

/** The items without repeats (by JSON text), first occurrences in order. */
export function unique(items: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = JSON.stringify(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
