/**
 * Wire-encoded values (runtimes/PROTOCOL.md) as plain JavaScript data for properties and
 * preconditions: tuples and sets become arrays, dicts and objects become plain objects
 * (a Map when a key is not a string), big integers numbers, non-finite floats numbers.
 */
export function decodeWire(value: unknown): any {
  if (Array.isArray(value)) return value.map(decodeWire);
  if (value === null || typeof value !== 'object') return value;
  const tagged = value as { $t?: string; v?: unknown };
  switch (tagged.$t) {
    case undefined:
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeWire(v)]));
    case 'tuple':
    case 'set':
    case 'frozenset':
      return (tagged.v as unknown[]).map(decodeWire);
    case 'dict':
    case 'map':
    case 'object': {
      const entries = (tagged.v as [unknown, unknown][]).map(([k, v]) => [decodeWire(k), decodeWire(v)] as const);
      return entries.every(([k]) => typeof k === 'string') ? Object.fromEntries(entries) : new Map(entries);
    }
    case 'int':
    case 'bigint':
      return Number(tagged.v);
    case 'float':
      return tagged.v === 'nan'
        ? NaN
        : tagged.v === 'inf'
          ? Infinity
          : tagged.v === '-inf'
            ? -Infinity
            : tagged.v === '-0'
              ? -0
              : Number(tagged.v);
    case 'f64': // a long list of floats, packed by the Python runtime (PROTOCOL.md)
      return unpackDoubles(tagged.v as string); // its `ints` positions: JavaScript numbers do not tell ints apart
    case 'undefined':
      return undefined;
    default:
      return value; // opaque, bytes, dates: kept as their tagged form
  }
}

function unpackDoubles(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: Math.floor(bytes.byteLength / 8) }, (_, i) => view.getFloat64(8 * i, true));
}
