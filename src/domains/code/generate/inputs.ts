/**
 * Inputs for a task beyond its tests, from three sources mixed by share: boundary and
 * special values of the whole domain (boundary.ts), type-aware mutation of the examples
 * and of those values (EvalPlus), and fast-check arbitraries built from the signature.
 * Any prefix of the list keeps the shares, so a caller that keeps the first valid ones
 * keeps the mix. Seeded: the same seed, task and examples give the same inputs on every
 * machine.
 */
import fc from 'fast-check';
import type { Task } from '../../../core/task.js';
import { argumentsArbitrary, DEFAULT_ARBITRARY_OPTIONS, type ArbitraryOptions } from './arbitraries.js';
import { boundaryArguments, specialValues, taskConstants, type TaskConstants } from './boundary.js';
import { encodeArgs } from './encode.js';
import { exampleRelations } from './example-relations.js';
import { mutateArgs, type MutationContext } from './mutate.js';
import { seededRandom } from '../../../core/random.js';
import {
  ANY,
  inferType,
  mergeTypes,
  parseKeepingFloats,
  parsePythonSignature,
  parseTypeScriptSignature,
  plainValue,
  refineType,
  type Signature,
  type ValueType,
} from './types.js';

export interface InputSpace {
  readonly types: readonly ValueType[];
  /** Example argument lists (wire values); mutation starts from them. */
  readonly examples: readonly unknown[][];
  readonly arbitrary: ArbitraryOptions;
  readonly fragments: readonly string[];
  /** Numbers and strings the prompt and the reference name: boundary values start from them. */
  readonly constants: TaskConstants;
}

/** Where a generated input came from. */
export type InputSource = 'boundary' | 'mutation' | 'arbitrary';
export const INPUT_SOURCES: readonly InputSource[] = ['boundary', 'mutation', 'arbitrary'];

/** The share of each source; what one cannot fill, the others do. */
export type SourceShares = Readonly<Record<InputSource, number>>;
export const DEFAULT_SHARES: SourceShares = { boundary: 0.4, mutation: 0.35, arbitrary: 0.25 };

export interface GenerateOptions {
  readonly seed: number;
  readonly count: number;
  /** The share of each source (DEFAULT_SHARES); they need not add up to 1. */
  readonly shares?: SourceShares;
  /** Inputs whose JSON text is longer are not kept (they make slow tests and long reports). */
  readonly maxInputChars?: number;
  /** Only inputs it accepts are kept and mutated further (the task's precondition). */
  readonly accept?: (args: readonly unknown[]) => boolean;
}

export interface GeneratedInputs {
  readonly args: readonly unknown[][];
  /** Each argument list as JSON text in the wire encoding. */
  readonly texts: readonly string[];
  /** Which source made each one. */
  readonly sources: readonly InputSource[];
}

export function signatureOf(task: Task): Signature | undefined {
  return task.language === 'python'
    ? parsePythonSignature(task.prompt, task.entryPoint)
    : parseTypeScriptSignature(task.prompt, task.entryPoint);
}

/**
 * What to generate from: the signature's types refined by the examples (JSON text of
 * argument lists, floats kept), their characters and their strings.
 */
export function inputSpace(task: Task, examplesJson: readonly string[]): InputSpace {
  const signature = signatureOf(task);
  const parsed = examplesJson.map((text) => parseKeepingFloats(text)).filter((v): v is unknown[] => Array.isArray(v));
  const arity = signature?.params.length ?? parsed[0]?.length ?? 0;
  const examples = parsed.filter((args) => args.length === arity).map((args) => args.map(plainValue));
  const types = Array.from({ length: arity }, (_, i) => {
    const seen = parsed.filter((args) => args.length === arity).map((args) => inferType(args[i]));
    const observed = seen.length ? seen.reduce(mergeTypes) : ANY;
    const declared = signature?.params[i]?.type ?? ANY;
    return refineType(declared, observed);
  });
  const strings = examples.flatMap((args) => collectStrings(args));
  const ints = examples.flatMap((args) => collectInts(args)).map(Math.abs);
  const alphabet = [...new Set([...strings.join(''), ...DEFAULT_ARBITRARY_OPTIONS.alphabet])].join('');
  const longest = Math.max(0, ...examples.map((args) => Math.max(0, ...args.map(sizeOf))));
  const stated = taskConstants(task.prompt, task.reference, task.contract);
  const constants: TaskConstants = {
    ...stated,
    intScale: Math.max(0, ...ints),
    wideText:
      /[^\x00-\x7f]|[\t\n]/.test(strings.join('')) ||
      /unicode|non-ascii|\btabs?\b|newline|whitespace/i.test(task.prompt),
  };
  const words = strings.flatMap((s) => s.split(/\s+/)).filter((s) => s.length > 0 && s.length <= 12);
  return {
    types,
    examples,
    constants,
    fragments: [...new Set([...words, ...constants.strings.filter((s) => s.trim().length > 0)])].slice(0, 50),
    arbitrary: {
      alphabet,
      maxLength: Math.min(40, Math.max(DEFAULT_ARBITRARY_OPTIONS.maxLength, longest * 2)),
      intRange: Math.min(1_000_000, Math.max(DEFAULT_ARBITRARY_OPTIONS.intRange, ...ints.map((n) => n * 2))),
    },
  };
}

export function generateInputs(space: InputSpace, options: GenerateOptions): GeneratedInputs {
  const maxChars = options.maxInputChars ?? 2000;
  const seen = new Set(space.examples.map((args) => encodeArgs(args, space.types)));
  const made: Record<InputSource, { args: unknown[][]; texts: string[] }> = {
    boundary: { args: [], texts: [] },
    mutation: { args: [], texts: [] },
    arbitrary: { args: [], texts: [] },
  };
  // Relations every example keeps between its arguments: a candidate that breaks one is mended, not lost.
  const relations = exampleRelations(space.examples);
  const keep = (proposed: unknown[], source: InputSource): boolean => {
    const candidate = relations ? relations.restore(proposed) : proposed;
    const text = encodeArgs(candidate, space.types);
    if (text.length > maxChars || seen.has(text)) return false;
    seen.add(text);
    if (options.accept && !options.accept(candidate)) return false;
    made[source].args.push(candidate);
    made[source].texts.push(text);
    return true;
  };
  const shares = options.shares ?? DEFAULT_SHARES;
  const total = INPUT_SOURCES.reduce((sum, s) => sum + Math.max(0, shares[s]), 0) || 1;
  const wanted = (source: InputSource) => Math.round((options.count * Math.max(0, shares[source])) / total);
  const random = seededRandom(options.seed);
  const typed = space.types.length > 0;
  if (typed && wanted('boundary') > 0)
    for (const candidate of boundaryArguments(space.types, space.examples, space.constants, random)) {
      if (made.boundary.args.length >= wanted('boundary')) break;
      keep(candidate, 'boundary');
    }
  // Mutation starts from the examples and the boundary values, and every valid result seeds further ones.
  const pool: unknown[][] = [...space.examples, ...made.boundary.args];
  const mutated = pool.length ? options.count - made.boundary.args.length - (typed ? wanted('arbitrary') : 0) : 0;
  const context: MutationContext = {
    random,
    alphabet: space.arbitrary.alphabet,
    fragments: space.fragments,
    special: (type, value) => specialValues(type, value === undefined ? [] : [value], space.constants, random),
  };
  for (let attempts = 0; made.mutation.args.length < mutated && attempts < mutated * 20; attempts++) {
    const next = mutateArgs(pool[Math.floor(random() * pool.length)]!, space.types, context);
    if (keep(next, 'mutation')) pool.push(next);
  }
  if (typed) {
    const missing = () =>
      options.count - made.boundary.args.length - made.mutation.args.length - made.arbitrary.args.length;
    const drawn = fc.sample(argumentsArbitrary(space.types, space.arbitrary), {
      seed: options.seed,
      numRuns: Math.max(1, missing()) * 4,
    });
    for (const candidate of drawn) {
      if (missing() <= 0) break;
      keep(candidate, 'arbitrary');
    }
  }
  return interleave(made, shares);
}

/** One list from the sources' lists, in proportion to their shares at every prefix (smooth weighted round robin). */
function interleave(
  made: Record<InputSource, { args: unknown[][]; texts: string[] }>,
  shares: SourceShares,
): GeneratedInputs {
  const args: unknown[][] = [];
  const texts: string[] = [];
  const sources: InputSource[] = [];
  const next = Object.fromEntries(INPUT_SOURCES.map((s) => [s, 0])) as Record<InputSource, number>;
  const credit = Object.fromEntries(INPUT_SOURCES.map((s) => [s, 0])) as Record<InputSource, number>;
  for (;;) {
    const open = INPUT_SOURCES.filter((s) => next[s] < made[s].args.length);
    if (open.length === 0) return { args, texts, sources };
    const weight = (s: InputSource) => Math.max(shares[s], 1e-3);
    for (const s of open) credit[s] += weight(s);
    const chosen = open.reduce((best, s) => (credit[s] > credit[best] ? s : best));
    credit[chosen] -= open.reduce((sum, s) => sum + weight(s), 0);
    args.push(made[chosen].args[next[chosen]]!);
    texts.push(made[chosen].texts[next[chosen]]!);
    sources.push(chosen);
    next[chosen]++;
  }
}

function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => (k === '$t' ? [] : [...collectStrings(k), ...collectStrings(v)]));
  return [];
}

function collectInts(value: unknown): number[] {
  if (typeof value === 'number' && Number.isInteger(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(collectInts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(collectInts);
  return [];
}

/** A rough size: string length, list length, or 1 for a scalar. */
function sizeOf(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value && typeof value === 'object' && Array.isArray((value as { v?: unknown }).v))
    return (value as { v: unknown[] }).v.length;
  return 1;
}
