/**
 * Inputs for a task beyond its tests: half by type-aware mutation of the examples
 * (EvalPlus), half drawn from fast-check arbitraries built from the signature. Seeded:
 * the same seed, task and examples give the same inputs on every machine.
 */
import fc from 'fast-check';
import type { Task } from '../../core/task.js';
import { argumentsArbitrary, DEFAULT_ARBITRARY_OPTIONS, type ArbitraryOptions } from './arbitraries.js';
import { encodeArgs } from './encode.js';
import { mutateArgs, seededRandom, type MutationContext } from './mutate.js';
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
}

export interface GenerateOptions {
  readonly seed: number;
  readonly count: number;
  /** Share of inputs made by mutating examples (the rest come from arbitraries); default 0.5. */
  readonly mutationShare?: number;
  /** Inputs whose JSON text is longer are not kept (they make slow tests and long reports). */
  readonly maxInputChars?: number;
  /** Only inputs it accepts are kept and mutated further (the task's precondition). */
  readonly accept?: (args: readonly unknown[]) => boolean;
}

export interface GeneratedInputs {
  readonly args: readonly unknown[][];
  /** Each argument list as JSON text in the wire encoding. */
  readonly texts: readonly string[];
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
  return {
    types,
    examples,
    fragments: [...new Set(strings.flatMap((s) => s.split(/\s+/)).filter((s) => s.length > 0 && s.length <= 12))].slice(
      0,
      50,
    ),
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
  const args: unknown[][] = [];
  const texts: string[] = [];
  const keep = (candidate: unknown[]): boolean => {
    const text = encodeArgs(candidate, space.types);
    if (text.length > maxChars || seen.has(text)) return false;
    seen.add(text);
    if (options.accept && !options.accept(candidate)) return false;
    args.push(candidate);
    texts.push(text);
    return true;
  };
  const mutated = space.examples.length ? Math.round(options.count * (options.mutationShare ?? 0.5)) : 0;
  const random = seededRandom(options.seed);
  const context: MutationContext = { random, alphabet: space.arbitrary.alphabet, fragments: space.fragments };
  const pool: unknown[][] = [...space.examples];
  for (let attempts = 0; args.length < mutated && attempts < mutated * 20; attempts++) {
    const next = mutateArgs(pool[Math.floor(random() * pool.length)]!, space.types, context);
    if (keep(next)) pool.push(next);
  }
  if (space.types.length === 0) return { args, texts };
  const drawn = fc.sample(argumentsArbitrary(space.types, space.arbitrary), {
    seed: options.seed,
    numRuns: (options.count - args.length) * 4,
  });
  for (const candidate of drawn) {
    if (args.length >= options.count) break;
    keep(candidate);
  }
  return { args, texts };
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
