/**
 * Differential checking against a reference: generated inputs that the reference accepts
 * (its contract holds and it returns) become a "generated" io suite, judged with the task's
 * own comparison; a candidate that fails one gets it shrunk to a minimal counterexample.
 */
import { escapeRegExp } from '../../core/regexp.js';
import type { IoSuite, Task } from '../../core/task.js';
import type { Failure, Verdict } from '../../core/verdict.js';
import { skipValue } from '../../core/raw-json.js';
import { encodeArgs } from './generate/encode.js';
import { exampleArgumentTexts, findPromptExamples } from './generate/examples.js';
import {
  generateInputs,
  INPUT_SOURCES,
  inputSpace,
  type InputSource,
  type InputSpace,
  type SourceShares,
} from './generate/inputs.js';
import { coverageFigures, coverageMap, referenceArcs, type CoverageFigures } from './coverage.js';
import { chooseInputs, KEPT_REASONS, mutantKills, type KeptReason } from './guided-selection.js';
import type { Harness } from './harness.js';
import { expectedJsonOf, ioTemplate, judgeOn, observe, type Observation } from './probe.js';
import { inputValidity } from './valid-inputs.js';
import { shrinkFailingInput } from './shrink.js';
import { callLimit } from './time-limits.js';

export const GENERATED_SUITE = 'generated';

export interface AugmentOptions {
  readonly seed: number;
  /** Generated inputs to keep per task. */
  readonly count: number;
  /** Seconds the reference may take on one generated input before the input is dropped. */
  readonly referenceLimit?: number;
  /** The share of each source of candidates (generate/inputs.ts DEFAULT_SHARES). */
  readonly shares?: SourceShares;
  /** Keep first the inputs that reach new arcs of the reference (default true). */
  readonly coverage?: boolean;
  /** Run this many mutants of the reference and keep the inputs that kill them (default 0: off). */
  readonly mutants?: number;
}

/** What decided the kept inputs, for the report and for replaying them. */
export interface GenerationRecord {
  readonly seed: number;
  readonly budget: number;
  /** Candidates made, per source, before the reference judged them. */
  readonly candidates: Readonly<Record<InputSource, number>>;
  /** Kept inputs per reason (coverage and mutant-killing first, then their sources). */
  readonly kept: Readonly<Record<KeptReason, number>>;
  /** The reference's line and decision coverage by the kept inputs, or why it is not known. */
  readonly coverage?: CoverageFigures;
  readonly coverageSkipped?: string;
  /** Mutants run for mutant-killing selection, and how many of them the kept inputs kill. */
  readonly mutants?: { readonly run: number; readonly killed: number };
}

export interface Augmentation {
  readonly task: Task;
  /** The task with a "generated" suite added (the task itself when nothing could be generated). */
  readonly augmented: Task;
  readonly space: InputSpace;
  readonly kept: number;
  /** Generated inputs the reference (with its contract) rejected, raised on or timed out on. */
  readonly rejected: number;
  /** The generated inputs kept, as wire values and as JSON text. */
  readonly inputs?: { readonly args: readonly unknown[][]; readonly texts: readonly string[] };
  /** How they were chosen: seed, budget, sources, coverage. */
  readonly record?: GenerationRecord;
  /** The task states no domain: the inputs were kept only where they resemble its examples (in words). */
  readonly inferredDomain?: string;
  /** Which inputs are valid (generated ones and their shrunk forms): valid-inputs.ts. */
  readonly accepts: (args: readonly unknown[]) => boolean;
  /** Why no inputs were generated. */
  readonly reason?: string;
  /** The sandbox failed on the reference: another try may generate them (do not keep these checks). */
  readonly transient?: true;
}

export const NO_REFERENCE = 'the task has no reference solution';

/** Argument lists as JSON texts: the first io suite's inputs, else the prompt's examples. */
export function exampleTexts(task: Task): string[] {
  const io = task.suites.find((s): s is IoSuite => s.kind === 'io');
  if (io) return splitJsonArray(io.inputsJson);
  return exampleArgumentTexts(task.language, findPromptExamples(task.prompt, task.entryPoint, task.language));
}

/** The reference with the task's contract at the start of its body, so invalid inputs raise. */
export function contractedReference(task: Task): string | undefined {
  if (task.reference === undefined) return undefined;
  if (!task.contract?.trim()) return task.reference;
  const defines = new RegExp(`^[ \\t]*def[ \\t]+${escapeRegExp(task.entryPoint)}[ \\t]*\\(`, 'm');
  // HumanEval+: the prompt ends inside the function, so the contract goes right after it.
  if (task.reference.startsWith(task.completionPrefix) && defines.test(task.completionPrefix))
    return (
      task.completionPrefix + task.contract.replace(/^\n/, '') + task.reference.slice(task.completionPrefix.length)
    );
  // MBPP+: the reference holds the whole function; the contract goes after its signature,
  // indented like the body.
  const lines = task.reference.split('\n');
  const start = lines.findIndex((line) => defines.test(line));
  if (start < 0) return task.reference;
  let end = start;
  while (end < lines.length && !/:\s*(#.*)?$/.test(lines[end]!)) end++;
  const body = lines.slice(end + 1).find((line) => line.trim().length > 0);
  if (end >= lines.length || body === undefined) return task.reference;
  const indent = /^\s*/.exec(body)![0];
  const contract = task.contract.split('\n').filter((line) => line.trim().length > 0);
  const common = Math.min(...contract.map((line) => /^\s*/.exec(line)![0].length));
  const reindented = contract.map((line) => indent + line.slice(common));
  return [...lines.slice(0, end + 1), ...reindented, ...lines.slice(end + 1)].join('\n');
}

export async function augmentTask(harness: Harness, task: Task, options: AugmentOptions): Promise<Augmentation> {
  const space = inputSpace(task, exampleTexts(task));
  const reference = contractedReference(task);
  const validity = inputValidity(task, space.examples);
  const accepts = 'accept' in validity ? validity.accept : () => false;
  const none = (reason: string, transient = false): Augmentation => ({
    task,
    augmented: task,
    space,
    kept: 0,
    rejected: 0,
    reason,
    accepts,
    ...(transient ? { transient: true as const } : {}),
  });
  if (reference === undefined) return none(NO_REFERENCE);
  if (space.types.length === 0 && space.examples.length === 0)
    return none('no signature or examples to generate inputs from');
  if ('unknown' in validity) return none(validity.unknown);
  const { inferredDomain } = validity;
  // Ask for more than needed: the contract or the reference rejects some, and selection wants a choice.
  const limit = options.referenceLimit ?? 2;
  const generated = { args: [] as unknown[][], texts: [] as string[], sources: [] as InputSource[] };
  const observed: Observation[] = [];
  for (let round = 0; round < GENERATION_ROUNDS; round++) {
    const answered = observed.flatMap((o, i) => (o.kind === 'value' ? [generated.args[i]!] : []));
    if (round > 0 && (answered.length >= options.count || answered.length === 0)) break;
    // Later rounds mutate the inputs the reference answered, as EvalPlus grows its pool from valid inputs.
    const from = round === 0 ? space : { ...space, examples: [...space.examples, ...answered.slice(-50)] };
    const made = generateInputs(from, {
      seed: options.seed + round * 7919,
      count: Math.ceil(options.count * 2.5),
      accept: accepts,
      ...(options.shares ? { shares: options.shares } : {}),
    });
    const tried = new Set(generated.texts);
    const fresh = made.texts.flatMap((text, i) => (tried.has(text) ? [] : [i]));
    if (fresh.length === 0) break;
    generated.args.push(...fresh.map((i) => made.args[i]!));
    generated.texts.push(...fresh.map((i) => made.texts[i]!));
    generated.sources.push(...fresh.map((i) => made.sources[i]!));
    observed.push(
      ...(await observeInTwoParts(
        harness,
        task,
        reference,
        fresh.map((i) => made.texts[i]!),
        limit,
      )),
    );
  }
  if (generated.texts.length === 0) return none("no generated input met the task's precondition");
  if (observed.every((o) => o.kind === 'unknown'))
    return none(`the reference could not be run: ${(observed[0] as { why?: string })?.why ?? 'no inputs'}`, true);
  const valid = generated.texts.flatMap((_, i) => (observed[i]?.kind === 'value' ? [i] : []));
  const validTexts = valid.map((i) => generated.texts[i]!);
  const measure = options.coverage !== false;
  const arcs = measure ? await referenceArcs(harness, task, reference, validTexts, limit) : undefined;
  const killing =
    options.mutants && valid.length > options.count
      ? await mutantKills(
          harness,
          task,
          validTexts,
          valid.map((i) => observed[i]!),
          { max: options.mutants, seed: options.seed },
        )
      : undefined;
  const chosen = chooseInputs(
    valid.map((i) => generated.sources[i]!),
    options.count,
    arcs,
    killing?.kills,
  );
  const keptAt = chosen.indices.map((j) => valid[j]!);
  const kept = keptAt.map((i) => generated.texts[i]!);
  const map = measure && kept.length ? await coverageMap(harness, task, reference) : undefined;
  const record: GenerationRecord = {
    seed: options.seed,
    budget: options.count,
    candidates: countOf(INPUT_SOURCES, generated.sources),
    kept: countOf(KEPT_REASONS, chosen.reasons),
    ...(map && arcs
      ? {
          coverage: coverageFigures(
            map,
            chosen.indices.map((j) => arcs[j]),
          ),
        }
      : {}),
    ...(!map ? { coverageSkipped: measure ? 'the reference could not be traced' : 'coverage was turned off' } : {}),
    ...(killing
      ? {
          mutants: {
            run: killing.mutants,
            killed: new Set(chosen.indices.flatMap((j) => killing.kills[j] ?? [])).size,
          },
        }
      : {}),
  };
  const suite: IoSuite = { ...ioTemplate(task), name: GENERATED_SUITE, inputsJson: `[${kept.join(',')}]` };
  return {
    task,
    augmented: { ...task, suites: [...task.suites, suite] },
    space,
    kept: kept.length,
    rejected: generated.texts.length - valid.length,
    ...(inferredDomain !== undefined ? { inferredDomain } : {}),
    accepts,
    inputs: { args: keptAt.map((i) => generated.args[i]!), texts: kept },
    record,
  };
}

/** Rounds of generation at most while the reference has answered fewer inputs than the budget. */
const GENERATION_ROUNDS = 3;
/** An input this long, or holding a number this long, is large: it may cost the reference a whole time limit. */
const LARGE_TEXT = 400;
const LONG_NUMBER = /\d{7}/;

/**
 * The reference on the ordinary inputs, then on the large ones: a run of timeouts on large
 * inputs (a factorial of 2^31) stops only the large part, never the ordinary inputs after it.
 */
async function observeInTwoParts(
  harness: Harness,
  task: Task,
  reference: string,
  texts: readonly string[],
  limit: number,
): Promise<Observation[]> {
  const large = (text: string) => text.length > LARGE_TEXT || LONG_NUMBER.test(text);
  const ordinary = texts.flatMap((t, i) => (large(t) ? [] : [i]));
  const big = texts.flatMap((t, i) => (large(t) ? [i] : []));
  const result: Observation[] = new Array(texts.length);
  for (const part of [ordinary, big]) {
    if (part.length === 0) continue;
    const seen = await observe(
      harness,
      task,
      reference,
      part.map((i) => texts[i]!),
      { limit, maxTimeouts: part === big ? 2 : 5 },
    );
    part.forEach((at, j) => (result[at] = seen[j]!));
  }
  return result;
}

function countOf<K extends string>(keys: readonly K[], items: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, items.filter((x) => x === k).length])) as Record<K, number>;
}

export interface Counterexample extends Failure {
  /** JSON text of the argument lists: where the failure was found and the shrunk one. */
  readonly original: string;
  readonly shrunk: string;
  readonly rounds: number;
}

/**
 * When the verdict failed the generated suite, shrinks the failing input against the
 * reference and returns the minimal counterexample (undefined when there is nothing to shrink).
 */
export async function minimalCounterexample(
  harness: Harness,
  augmentation: Augmentation,
  program: string,
  verdict: Pick<Verdict, 'suites'>,
): Promise<Counterexample | undefined> {
  const { augmented: task, space, accepts } = augmentation;
  const suite = verdict.suites.find((s) => s.name === GENERATED_SUITE);
  const io = task.suites.find((s): s is IoSuite => s.kind === 'io' && s.name === GENERATED_SUITE);
  const reference = contractedReference(task);
  if (!suite || suite.status !== 'fail' || suite.failedAt === undefined || !io || reference === undefined)
    return undefined;
  const failingText = splitJsonArray(io.inputsJson)[suite.failedAt];
  if (failingText === undefined) return undefined;
  const failing = JSON.parse(failingText) as unknown[];
  /** Judges the candidate on a batch against the (contracted) reference: the first wrong answer. */
  const firstWrong = async (texts: readonly string[]): Promise<{ at: number; failure: Failure } | undefined> => {
    const expected = await observe(harness, task, reference, texts, { limit: 2, maxTimeouts: 1 });
    const valid = texts.flatMap((text, i) => (expected[i]?.kind === 'value' ? [{ text, i }] : []));
    if (valid.length === 0) return undefined;
    const judged = await judgeOn(harness, task, program, {
      name: 'shrinking',
      texts: valid.map((v) => v.text),
      expectedJson: expectedJsonOf(
        task,
        valid.map(({ i }) => expected[i]!),
      ),
      limits: valid.map(({ i }) => {
        const o = expected[i]!;
        return callLimit(harness.time, o.kind === 'value' ? o.seconds : undefined);
      }),
    });
    // Only a wrong answer counts: a timeout or crash on a variant is a different fault.
    if (judged.status !== 'fail' || judged.failedAt === undefined || !judged.firstFailure) return undefined;
    return { at: valid[judged.failedAt]!.i, failure: judged.firstFailure };
  };
  const shrunk = await shrinkFailingInput(failing, space.types, async (batch, texts) => {
    const valid = batch.flatMap((args, i) => (accepts(args) ? [i] : []));
    const found = valid.length ? await firstWrong(valid.map((i) => texts[i]!)) : undefined;
    return found ? valid[found.at] : undefined;
  });
  // Judge the result once more: the failure reported is exactly this input's, and it must still fail.
  const final = await firstWrong([shrunk.text]);
  if (!final) return undefined;
  return { ...final.failure, original: encodeArgs(failing, space.types), shrunk: shrunk.text, rounds: shrunk.rounds };
}

/** The top-level elements of a JSON array, each as its own text (floats as written). */
export function splitJsonArray(text: string): string[] {
  const items: string[] = [];
  let pos = text.indexOf('[') + 1;
  for (;;) {
    while (pos < text.length && /[\s,]/.test(text[pos]!)) pos++;
    if (pos >= text.length || text[pos] === ']') return items;
    const end = skipValue(text, pos);
    items.push(text.slice(pos, end));
    pos = end;
  }
}
