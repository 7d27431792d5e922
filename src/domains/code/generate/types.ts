/**
 * The shape of a task's arguments, read from its signature (Python type hints, TypeScript
 * types) or inferred from example inputs. Generated values are in the wire encoding
 * (runtimes/PROTOCOL.md): tuples, sets and dicts are tagged objects.
 */
import { escapeRegExp } from '../../../core/regexp.js';
export type ValueType =
  | { readonly kind: 'int' | 'float' | 'bool' | 'str' | 'none' | 'any' }
  | { readonly kind: 'list' | 'set'; readonly item: ValueType }
  | { readonly kind: 'tuple'; readonly items: readonly ValueType[]; readonly rest?: ValueType }
  | { readonly kind: 'dict'; readonly key: ValueType; readonly value: ValueType }
  | { readonly kind: 'union'; readonly options: readonly ValueType[] };

export const ANY: ValueType = { kind: 'any' };
const INT: ValueType = { kind: 'int' };
const FLOAT: ValueType = { kind: 'float' };
const STR: ValueType = { kind: 'str' };
const BOOL: ValueType = { kind: 'bool' };
const NONE: ValueType = { kind: 'none' };

export interface Parameter {
  readonly name: string;
  readonly type: ValueType;
}

export interface Signature {
  readonly params: readonly Parameter[];
  readonly returns: ValueType;
  /** The parameter list as written, for building a contract checker with the same names. */
  readonly paramsText: string;
}

/** Splits on commas that are not nested in brackets, parentheses or braces. */
export function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ('[({<'.includes(c)) depth++;
    else if ('])}>'.includes(c) && !(c === '>' && text[i - 1] === '=')) depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Finds `open` at `from` and returns the index just past its matching close. */
function matchClose(text: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return i + 1;
  }
  return -1;
}

// --- Python -------------------------------------------------------------------------------

const PY_SCALARS: Record<string, ValueType> = {
  int: INT,
  float: FLOAT,
  str: STR,
  bool: BOOL,
  None: NONE,
  NoneType: NONE,
  Any: ANY,
  object: ANY,
};

/** Reads a Python annotation such as `List[Tuple[int, str]]`, `Optional[float]` or `int | None`. */
export function parsePythonAnnotation(text: string): ValueType {
  const source = text.trim().replace(/^typing\./, '');
  const union = splitTopLevel(source, '|');
  if (union.length > 1) return unionOf(union.map(parsePythonAnnotation));
  const bracket = source.indexOf('[');
  if (bracket < 0)
    return PY_SCALARS[source] ?? (/^(list|List|Sequence)$/.test(source) ? { kind: 'list', item: ANY } : ANY);
  const head = source
    .slice(0, bracket)
    .trim()
    .replace(/^typing\./, '');
  const args = splitTopLevel(source.slice(bracket + 1, source.lastIndexOf(']')));
  const arg = (i: number) => parsePythonAnnotation(args[i] ?? 'Any');
  switch (head) {
    case 'List':
    case 'list':
    case 'Sequence':
    case 'Iterable':
      return { kind: 'list', item: arg(0) };
    case 'Set':
    case 'set':
    case 'FrozenSet':
      return { kind: 'set', item: arg(0) };
    case 'Tuple':
    case 'tuple':
      return args[1] === '...'
        ? { kind: 'tuple', items: [], rest: arg(0) }
        : { kind: 'tuple', items: args.map(parsePythonAnnotation) };
    case 'Dict':
    case 'dict':
    case 'Mapping':
      return { kind: 'dict', key: arg(0), value: arg(1) };
    case 'Optional':
      return unionOf([arg(0), NONE]);
    case 'Union':
      return unionOf(args.map(parsePythonAnnotation));
    default:
      return ANY;
  }
}

/** The signature of `def entry(...)` in a Python prompt, or undefined when it is not there. */
export function parsePythonSignature(prompt: string, entry: string): Signature | undefined {
  // Horizontal whitespace only: `^\\s*` with the m flag crossed lines, quadratic on blank lines.
  const at = new RegExp(`^[ \\t]*def[ \\t]+${escapeRegExp(entry)}[ \\t]*\\(`, 'm').exec(prompt);
  if (!at) return undefined;
  const open = at.index + at[0].length - 1;
  const close = matchClose(prompt, open, '(', ')');
  if (close < 0) return undefined;
  const paramsText = prompt.slice(open + 1, close - 1);
  const params: Parameter[] = [];
  for (const part of splitTopLevel(paramsText)) {
    if (part.startsWith('*') || part === '/') continue;
    const [nameAndType] = splitTopLevel(part, '=');
    const colon = nameAndType!.indexOf(':');
    const name = (colon < 0 ? nameAndType! : nameAndType!.slice(0, colon)).trim();
    params.push({ name, type: colon < 0 ? ANY : parsePythonAnnotation(nameAndType!.slice(colon + 1)) });
  }
  const arrow = /^\s*->\s*([^:]+):/.exec(prompt.slice(close));
  return { params, returns: arrow ? parsePythonAnnotation(arrow[1]!) : ANY, paramsText };
}

// --- TypeScript ---------------------------------------------------------------------------

const TS_SCALARS: Record<string, ValueType> = {
  number: FLOAT,
  string: STR,
  boolean: BOOL,
  null: NONE,
  undefined: NONE,
  any: ANY,
  unknown: ANY,
};

/** Reads a TypeScript type such as `number[]`, `[string, number]`, `Record<string, number>`. */
export function parseTypeScriptType(text: string): ValueType {
  const source = text.trim();
  const union = splitTopLevel(source, '|');
  if (union.length > 1) return unionOf(union.map(parseTypeScriptType));
  if (source.endsWith('[]')) return { kind: 'list', item: parseTypeScriptType(source.slice(0, -2)) };
  if (source.startsWith('(') && source.endsWith(')')) return parseTypeScriptType(source.slice(1, -1));
  if (source.startsWith('[') && source.endsWith(']'))
    return { kind: 'tuple', items: splitTopLevel(source.slice(1, -1)).map(parseTypeScriptType) };
  const generic = /^(\w+)\s*<(.*)>$/.exec(source);
  if (generic) {
    const args = splitTopLevel(generic[2]!).map(parseTypeScriptType);
    if (generic[1] === 'Array') return { kind: 'list', item: args[0] ?? ANY };
    if (generic[1] === 'Record' || generic[1] === 'Map')
      return { kind: 'dict', key: args[0] ?? STR, value: args[1] ?? ANY };
    return ANY;
  }
  const index = /^\{\s*\[\s*\w+\s*:\s*(\w+)\s*\]\s*:\s*(.+?)\s*;?\s*\}$/.exec(source);
  if (index) return { kind: 'dict', key: parseTypeScriptType(index[1]!), value: parseTypeScriptType(index[2]!) };
  return TS_SCALARS[source] ?? ANY;
}

/** The signature of `function entry(...)` in a JavaScript or TypeScript prompt. */
export function parseTypeScriptSignature(prompt: string, entry: string): Signature | undefined {
  const at = new RegExp(`function\\s+${escapeRegExp(entry)}\\s*\\(`).exec(prompt);
  if (!at) return undefined;
  const open = at.index + at[0].length - 1;
  const close = matchClose(prompt, open, '(', ')');
  if (close < 0) return undefined;
  const paramsText = prompt.slice(open + 1, close - 1);
  const params = splitTopLevel(paramsText).map((part): Parameter => {
    const colon = part.indexOf(':');
    const name = (colon < 0 ? part : part.slice(0, colon)).replace(/[?\s]|=.*$/g, '');
    return { name, type: colon < 0 ? ANY : parseTypeScriptType(part.slice(colon + 1).replace(/=.*$/, '')) };
  });
  const returns = /^\s*:\s*([^{]+)\{/.exec(prompt.slice(close));
  return { params, returns: returns ? parseTypeScriptType(returns[1]!) : ANY, paramsText };
}

// --- Inference from examples ---------------------------------------------------------------

/** A float literal in JSON text keeps its kind (Node's JSON.parse would turn 1.0 into 1). */
export class FloatLiteral {
  constructor(readonly value: number) {}
}

/** The type of one example value, from the float-aware parse (`parseKeepingFloats`). */
export function inferType(value: unknown): ValueType {
  if (value instanceof FloatLiteral) return FLOAT;
  if (typeof value === 'number') return INT;
  if (typeof value === 'boolean') return BOOL;
  if (typeof value === 'string') return STR;
  if (value === null) return NONE;
  if (Array.isArray(value)) return { kind: 'list', item: value.length ? value.map(inferType).reduce(mergeTypes) : ANY };
  if (typeof value === 'object') {
    const tagged = value as { $t?: string; v?: unknown };
    if (tagged.$t === 'tuple' && Array.isArray(tagged.v)) return { kind: 'tuple', items: tagged.v.map(inferType) };
    if (tagged.$t === 'set' && Array.isArray(tagged.v))
      return { kind: 'set', item: tagged.v.length ? tagged.v.map(inferType).reduce(mergeTypes) : ANY };
    if (tagged.$t === 'int') return INT;
    if (tagged.$t === 'float') return FLOAT;
    if (tagged.$t !== undefined) return ANY;
    const entries = Object.values(value);
    return { kind: 'dict', key: STR, value: entries.length ? entries.map(inferType).reduce(mergeTypes) : ANY };
  }
  return ANY;
}

/** The least type that covers both; `any` when they have nothing in common. */
export function mergeTypes(a: ValueType, b: ValueType): ValueType {
  if (a.kind === 'any') return b;
  if (b.kind === 'any') return a;
  if (sameType(a, b)) return a;
  if ((a.kind === 'int' && b.kind === 'float') || (a.kind === 'float' && b.kind === 'int')) return FLOAT;
  if ((a.kind === 'list' || a.kind === 'set') && a.kind === b.kind)
    return { kind: a.kind, item: mergeTypes(a.item, (b as typeof a).item) };
  if (a.kind === 'tuple' && b.kind === 'tuple' && a.items.length === b.items.length)
    return { kind: 'tuple', items: a.items.map((t, i) => mergeTypes(t, b.items[i]!)) };
  if (a.kind === 'dict' && b.kind === 'dict')
    return { kind: 'dict', key: mergeTypes(a.key, b.key), value: mergeTypes(a.value, b.value) };
  return unionOf([a, b]);
}

/** Refines a declared type with what the examples show (e.g. a bare `list` of ints). */
export function refineType(declared: ValueType, observed: ValueType): ValueType {
  if (declared.kind === 'any') return observed;
  if ((declared.kind === 'list' || declared.kind === 'set') && declared.kind === observed.kind)
    return { kind: declared.kind, item: refineType(declared.item, observed.item) };
  if (declared.kind === 'dict' && observed.kind === 'dict')
    return {
      kind: 'dict',
      key: refineType(declared.key, observed.key),
      value: refineType(declared.value, observed.value),
    };
  if (declared.kind === 'tuple' && observed.kind === 'list' && declared.rest)
    return { ...declared, rest: refineType(declared.rest, observed.item) };
  return declared;
}

function unionOf(options: readonly ValueType[]): ValueType {
  const flat: ValueType[] = [];
  for (const option of options) {
    for (const o of option.kind === 'union' ? option.options : [option])
      if (!flat.some((f) => sameType(f, o))) flat.push(o);
  }
  if (flat.some((o) => o.kind === 'any')) return ANY;
  return flat.length === 1 ? flat[0]! : { kind: 'union', options: flat };
}

function sameType(a: ValueType, b: ValueType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Reads JSON text, keeping float literals as `FloatLiteral` so their kind can be inferred. */
export function parseKeepingFloats(text: string): unknown {
  const marked = JSON.parse(
    text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity/g, (token) => {
      if (token.startsWith('"')) return token;
      if (/^-?\d+$/.test(token)) return token;
      return `{"$float":${/^-?\d/.test(token) ? token : JSON.stringify(token)}}`;
    }),
  );
  return unmark(marked);
}

function unmark(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmark);
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (Object.keys(object).length === 1 && '$float' in object) {
      const f = object.$float;
      return new FloatLiteral(typeof f === 'number' ? f : f === 'NaN' ? NaN : f === '-Infinity' ? -Infinity : Infinity);
    }
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, unmark(v)]));
  }
  return value;
}

/** Drops the float markers: plain wire values (non-finite floats tagged as the wire encoding says). */
export function plainValue(value: unknown): unknown {
  if (value instanceof FloatLiteral)
    return Number.isFinite(value.value)
      ? value.value
      : { $t: 'float', v: String(value.value).replace('Infinity', 'inf').replace('NaN', 'nan').toLowerCase() };
  if (Array.isArray(value)) return value.map(plainValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
  return value;
}
