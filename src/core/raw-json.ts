/**
 * Reading one JSON object (one JSONL line) while keeping chosen top-level values as their
 * source text. EvalPlus inputs must reach Python untouched: Node's JSON.parse turns 1.0
 * into 1 and cannot read NaN/Infinity, which Python's json module writes and reads.
 */

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number | null,
  ) {
    super(position === null ? message : `${message} at position ${position}`);
    this.name = 'JsonSyntaxError';
  }
}

export interface TopLevelField {
  readonly key: string;
  /** Where the value's text starts and ends (exclusive) in the line. */
  readonly start: number;
  readonly end: number;
}

export interface SplitLine {
  /** Source text of the requested fields that are present. */
  readonly raw: Record<string, string>;
  /** Every other field, parsed (NaN and ±Infinity allowed). */
  readonly values: Record<string, unknown>;
  /** All top-level keys in file order. */
  readonly keys: readonly string[];
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWs(text: string, pos: number): number {
  while (pos < text.length && WS.has(text.charCodeAt(pos))) pos++;
  return pos;
}

/** Position just after the string literal that starts at `pos` (a `"`). */
function skipString(text: string, pos: number): number {
  for (let i = pos + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c)
      i++; // backslash: skip the escaped character
    else if (c === 0x22) return i + 1;
  }
  throw new JsonSyntaxError('unterminated string', pos);
}

/** Position just after the JSON value that starts at `pos`, without building it. */
export function skipValue(text: string, pos: number): number {
  const first = text[pos];
  if (first === undefined) throw new JsonSyntaxError('expected a value, found the end', pos);
  if (first === '"') return skipString(text, pos);
  if (first === '[' || first === '{') {
    const stack: string[] = [first === '[' ? ']' : '}'];
    let i = pos + 1;
    while (stack.length > 0) {
      const c = text[i];
      if (c === undefined) throw new JsonSyntaxError(`unclosed '${first}'`, pos);
      if (c === '"') {
        i = skipString(text, i);
        continue;
      }
      if (c === '[') stack.push(']');
      else if (c === '{') stack.push('}');
      else if (c === ']' || c === '}') {
        if (stack.pop() !== c) throw new JsonSyntaxError(`unexpected '${c}'`, i);
      }
      i++;
    }
    return i;
  }
  // A scalar: number, true, false, null, NaN, Infinity, -Infinity.
  let i = pos;
  while (i < text.length && !',]}:'.includes(text[i]!) && !WS.has(text.charCodeAt(i))) i++;
  if (i === pos) throw new JsonSyntaxError(`unexpected '${first}'`, pos);
  return i;
}

/** The top-level fields of a JSON object, with the text span of each value. */
export function scanTopLevel(text: string): TopLevelField[] {
  const fields: TopLevelField[] = [];
  let pos = skipWs(text, 0);
  if (text[pos] !== '{') throw new JsonSyntaxError('expected a JSON object', pos);
  pos = skipWs(text, pos + 1);
  if (text[pos] === '}') return endOfObject(text, pos, fields);
  for (;;) {
    if (text[pos] !== '"') throw new JsonSyntaxError('expected a field name', pos);
    const keyEnd = skipString(text, pos);
    const key = JSON.parse(text.slice(pos, keyEnd)) as string;
    pos = skipWs(text, keyEnd);
    if (text[pos] !== ':') throw new JsonSyntaxError("expected ':'", pos);
    const start = skipWs(text, pos + 1);
    const end = skipValue(text, start);
    fields.push({ key, start, end });
    pos = skipWs(text, end);
    if (text[pos] === '}') return endOfObject(text, pos, fields);
    if (text[pos] !== ',') throw new JsonSyntaxError("expected ',' or '}'", pos);
    pos = skipWs(text, pos + 1);
  }
}

function endOfObject(text: string, pos: number, fields: TopLevelField[]): TopLevelField[] {
  const after = skipWs(text, pos + 1);
  if (after !== text.length) throw new JsonSyntaxError('unexpected text after the object', after);
  return fields;
}

/** Keys of the top-level object, in file order (duplicates kept once). */
export function topLevelKeys(text: string): string[] {
  return [...new Set(scanTopLevel(text).map((f) => f.key))];
}

/** Splits a JSON object line: `rawKeys` values stay text, the rest is parsed. */
export function splitJsonLine(text: string, rawKeys: Iterable<string>): SplitLine {
  const wanted = new Set(rawKeys);
  if (wanted.size === 0) {
    const fast = tryParseObject(text);
    if (fast) return { raw: {}, values: fast, keys: Object.keys(fast) };
  }
  const raw: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const { key, start, end } of scanTopLevel(text)) {
    if (!keys.includes(key)) keys.push(key);
    const source = text.slice(start, end);
    if (wanted.has(key)) {
      parseJsonLoose(source); // a malformed value must fail here, not in a worker
      defineField(raw, key, source);
    } else {
      defineField(values, key, parseJsonLoose(source));
    }
  }
  return { raw, values, keys };
}

function tryParseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a "__proto__" key must stay an ordinary field.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** JSON.parse that also accepts NaN, Infinity and -Infinity (as Python's json module writes them). */
export function parseJsonLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) {
      throw new JsonSyntaxError(error instanceof Error ? error.message : String(error), null);
    }
  }
  const parser = new LooseParser(text);
  const value = parser.value();
  parser.end();
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPECIAL: ReadonlyArray<readonly [string, number]> = [
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
];

class LooseParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  end(): void {
    this.pos = skipWs(this.text, this.pos);
    if (this.pos !== this.text.length) throw new JsonSyntaxError('unexpected text after the value', this.pos);
  }

  value(): unknown {
    const t = this.text;
    this.pos = skipWs(t, this.pos);
    const c = t[this.pos];
    if (c === '"') {
      const end = skipString(t, this.pos);
      const s = JSON.parse(t.slice(this.pos, end)) as string;
      this.pos = end;
      return s;
    }
    if (c === '[') return this.array();
    if (c === '{') return this.object();
    for (const [word, v] of [...SPECIAL, ['true', true], ['false', false], ['null', null]] as const) {
      if (t.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(t);
    if (!m) throw new JsonSyntaxError(`unexpected ${c === undefined ? 'end' : `'${c}'`}`, this.pos);
    this.pos += m[0].length;
    return Number(m[0]);
  }

  private punct(expected: string): boolean {
    this.pos = skipWs(this.text, this.pos);
    if (this.text[this.pos] !== expected) return false;
    this.pos++;
    return true;
  }

  private array(): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    if (this.punct(']')) return out;
    do out.push(this.value());
    while (this.punct(','));
    if (!this.punct(']')) throw new JsonSyntaxError("expected ',' or ']'", this.pos);
    return out;
  }

  private object(): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    if (this.punct('}')) return out;
    do {
      this.pos = skipWs(this.text, this.pos);
      if (this.text[this.pos] !== '"') throw new JsonSyntaxError('expected a field name', this.pos);
      const key = this.value() as string;
      if (!this.punct(':')) throw new JsonSyntaxError("expected ':'", this.pos);
      defineField(out, key, this.value());
    } while (this.punct(','));
    if (!this.punct('}')) throw new JsonSyntaxError("expected ',' or '}'", this.pos);
    return out;
  }
}
