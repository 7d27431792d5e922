/**
 * Generated values to JSON text in the wire encoding. The text is type-directed so that a
 * Python float stays a float (`2.0`, not `2`) and large or non-finite numbers are tagged.
 */
import type { ValueType } from './types.js';

export function encodeValue(value: unknown, type: ValueType): string {
  if (typeof value === 'number') return encodeNumber(value, type);
  if (Array.isArray(value)) {
    const itemType = (i: number): ValueType =>
      type.kind === 'list' || type.kind === 'set'
        ? type.item
        : type.kind === 'tuple'
          ? (type.items[i] ?? type.rest ?? { kind: 'any' })
          : { kind: 'any' };
    return `[${value.map((v, i) => encodeValue(v, itemType(i))).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const tagged = value as { $t?: string; v?: unknown };
    if ((tagged.$t === 'tuple' || tagged.$t === 'set') && Array.isArray(tagged.v)) {
      const inner: ValueType =
        tagged.$t === 'tuple' && type.kind === 'tuple'
          ? type
          : { kind: 'list', item: type.kind === 'set' ? type.item : { kind: 'any' } };
      return `{"$t":"${tagged.$t}","v":${encodeValue(tagged.v, inner)}}`;
    }
    if (tagged.$t === 'dict' && Array.isArray(tagged.v)) {
      const key = type.kind === 'dict' ? type.key : { kind: 'any' as const };
      const val = type.kind === 'dict' ? type.value : { kind: 'any' as const };
      const pairs = (tagged.v as [unknown, unknown][]).map(
        ([k, v]) => `[${encodeValue(k, key)},${encodeValue(v, val)}]`,
      );
      return `{"$t":"dict","v":[${pairs.join(',')}]}`;
    }
    if (tagged.$t !== undefined) return JSON.stringify(value);
    const val = type.kind === 'dict' ? type.value : { kind: 'any' as const };
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${encodeValue(v, val)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function encodeNumber(n: number, type: ValueType): string {
  if (!Number.isFinite(n)) return `{"$t":"float","v":"${Number.isNaN(n) ? 'nan' : n > 0 ? 'inf' : '-inf'}"}`;
  const float =
    type.kind === 'float' ||
    (type.kind === 'union' &&
      type.options.some((o) => o.kind === 'float') &&
      !type.options.some((o) => o.kind === 'int'));
  if (float) {
    const text = String(n);
    return /[.e]/.test(text) ? text : `${text}.0`;
  }
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return `{"$t":"int","v":"${BigInt(n)}"}`;
  return String(n);
}

/** One argument list as JSON text. */
export function encodeArgs(args: readonly unknown[], types: readonly ValueType[]): string {
  return `[${args.map((a, i) => encodeValue(a, types[i] ?? { kind: 'any' })).join(',')}]`;
}
