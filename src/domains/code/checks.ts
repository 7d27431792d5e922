/**
 * The code pack's checks for a task: the prompt's examples (vetted against the reference
 * once when it may be used: an example the reference fails is dropped, not held against
 * every candidate),
 * public tests the task ships, the task's properties (kept only if no example contradicts
 * them), generated inputs — judged against the reference when it may serve as an oracle —
 * and, for a scorer, the task's hidden suites after all of those.
 */
import type { Property, Suite, Task } from '../../core/task.js';
import {
  augmentTask,
  GENERATED_SUITE,
  NO_REFERENCE,
  type Augmentation,
  type GenerationRecord,
} from './differential.js';
import {
  exampleArgumentTexts,
  findPromptCallArguments,
  findPromptExamples,
  publicSuites,
  type PromptExample,
} from './generate/examples.js';
import { generateInputs, inputSpace, type InputSpace } from './generate/inputs.js';
import { withoutInputs } from './disputed-inputs.js';
import type { Harness } from './harness.js';
import { meetsPrecondition, soundProperties } from './properties.js';
import { inputValidity, type InputValidity } from './valid-inputs.js';
import type { Checks, PrepareOptions } from '../types.js';

export interface CodePrepareOptions extends PrepareOptions {
  /** Read the prompt's examples (default true). */
  readonly promptExamples?: boolean;
  /** Examples beyond the prompt's (a task file's tests): argument text and expected output. */
  readonly examples?: readonly PromptExample[];
  /** Tests a solver may see, kept under their names (HumanEvalPack's docstring examples, a request's public tests). */
  readonly publicTests?: readonly Suite[];
  /** Where generated inputs start from besides the examples (a request's hidden tests' inputs). */
  readonly seedInputs?: readonly PromptExample[];
  /** Mutants of the reference to run so that kept inputs kill them (0: none, the default). */
  readonly mutants?: number;
}

export interface CodeChecks extends Checks<Task> {
  /** The task as judged: its visible suites first, then (for a scorer) its hidden ones. */
  readonly task: Task;
  /** The examples kept, in the order of their suites (`public/1` is the first). */
  readonly examples: readonly PromptExample[];
  /** Examples the reference fails, as `f(args) -> output`: left out. */
  readonly droppedExamples: readonly string[];
  readonly properties: readonly Property[];
  readonly droppedProperties: readonly { readonly property: string; readonly example: string }[];
  readonly oracle: boolean;
  readonly augmentation?: Augmentation;
  readonly space: InputSpace;
  /** Generated inputs within the task's domain (wire values and JSON texts): properties are checked on them. */
  readonly inputs: { readonly args: readonly unknown[][]; readonly texts: readonly string[] };
  /** Which inputs are valid (valid-inputs.ts): shrinking stays among them. */
  readonly accepts: (args: readonly unknown[]) => boolean;
  /** Tests the model wrote and that survived validation (SPADA). */
  readonly modelTests: readonly PromptExample[];
  /** The task's reference does not load: the task is broken, not a candidate. */
  readonly referenceProblem?: string;
  /** The sandbox failed while preparing (the examples are unvetted, or no inputs were generated): do not keep these checks. */
  readonly incomplete?: string;
}

export const EXAMPLE_PREFIX = 'example/';
export const MODEL_TEST_PREFIX = 'model-test/';
export const DEFAULT_PROBES = 50;

export async function prepareCodeChecks(
  harness: Harness,
  task: Task,
  options: CodePrepareOptions,
): Promise<CodeChecks> {
  const oracle = (options.oracle ?? true) && task.reference !== undefined;
  const fromPrompt =
    options.promptExamples === false ? [] : findPromptExamples(task.prompt, task.entryPoint, task.language);
  const offered = [...fromPrompt, ...(options.examples ?? [])];
  const vetted: Vetted = oracle ? await vetExamples(harness, task, offered) : { kept: offered, dropped: [] };
  const { kept: examples, dropped: droppedExamples } = vetted;
  const visible: Task = {
    ...task,
    suites: [...exampleSuites(task, examples), ...(options.publicTests ?? [])],
    knownWrong: [],
  };
  if (!oracle) {
    delete (visible as { reference?: string }).reference;
    delete (visible as { contract?: string }).contract;
  }
  const scorer = options.audience === 'scorer';
  const count = options.probes ?? DEFAULT_PROBES;
  const seeds = generationSeeds(task, scorer, [...examples, ...(options.seedInputs ?? [])]);
  const made =
    oracle && count > 0
      ? await augmentTask(
          harness,
          { ...visible, suites: seeds },
          { seed: options.seed, count, ...(options.mutants ? { mutants: options.mutants } : {}) },
        )
      : undefined;
  const generated = made?.augmented.suites.filter((s) => s.name === GENERATED_SUITE) ?? [];
  // Visible suites first, then (for a scorer) the task's hidden ones, then generated inputs:
  // the first suite that fails decides the status, and public suites gate the rest.
  const judged: Task = {
    ...(scorer ? task : visible),
    knownWrong: [],
    suites: [...visible.suites, ...(scorer ? task.suites : []), ...generated],
  };
  const augmentation = made && generated.length ? { ...made, task: visible, augmented: judged } : made;
  // Without the reference's inputs, every call the prompt shows seeds the space: one shown without its output still shows a valid input.
  const space =
    made?.space ??
    inputSpace(
      visible,
      exampleArgumentTexts(
        task.language,
        options.promptExamples === false ? examples : withPromptCalls(task, examples),
      ),
    );
  const validity: InputValidity =
    options.purpose === 'compare'
      ? { accept: (args) => meetsPrecondition(task, args) }
      : inputValidity(task, space.examples);
  const accepts = made?.accepts ?? ('accept' in validity ? validity.accept : () => false);
  const drawn =
    made?.inputs ??
    ('accept' in validity && count > 0 && (space.types.length || space.examples.length)
      ? generateInputs(space, { seed: options.seed, count, accept: accepts })
      : { args: [], texts: [] });
  const sound = soundProperties(task);
  // The sandbox failed while preparing: the checks work, but should not be kept for reuse.
  const incomplete = vetted.incomplete ?? (made?.transient ? made.reason : undefined);
  return describe({
    task: judged,
    publicSuites: new Set(visible.suites.map((s) => s.name)),
    examples,
    droppedExamples,
    properties: sound.kept,
    droppedProperties: sound.dropped,
    oracle,
    ...(augmentation ? { augmentation } : {}),
    space,
    inputs: { args: drawn.args, texts: drawn.texts },
    accepts,
    modelTests: [],
    ...(vetted.referenceProblem !== undefined ? { referenceProblem: vetted.referenceProblem } : {}),
    ...(incomplete !== undefined ? { incomplete } : {}),
  });
}

/** The examples' argument lists and the prompt's other calls of the entry point, each once, in the prompt's order. */
function withPromptCalls(task: Task, examples: readonly PromptExample[]): PromptExample[] {
  const calls = findPromptCallArguments(task.prompt, task.entryPoint);
  const shown = new Set(calls);
  return [
    ...calls.map((argsText) => ({ argsText, outputText: '' })),
    ...examples.filter((e) => !shown.has(e.argsText)),
  ];
}

/** What generation made for a report: inputs kept and rejected, the inferred domain, and why there are none. */
export interface GeneratedSummary {
  readonly kept: number;
  readonly rejected: number;
  /** Seed, budget, sources and coverage of the kept inputs. */
  readonly record?: GenerationRecord;
  readonly inferredDomain?: string;
  readonly skipped?: string;
}

export function generatedSummary(checks: CodeChecks): GeneratedSummary {
  const made = checks.augmentation;
  const skipped =
    made?.reason ??
    (made === undefined
      ? checks.task.reference === undefined
        ? NO_REFERENCE
        : 'no generated inputs were asked for'
      : made.kept === 0
        ? 'the reference rejected every generated input'
        : undefined);
  return {
    kept: made?.kept ?? 0,
    rejected: made?.rejected ?? 0,
    ...(made?.record ? { record: made.record } : {}),
    ...(made?.inferredDomain !== undefined ? { inferredDomain: made.inferredDomain } : {}),
    ...(skipped !== undefined ? { skipped } : {}),
  };
}

/** One script suite per example: `example/1`, `example/2`, … */
function exampleSuites(task: Task, examples: readonly PromptExample[]): Suite[] {
  return publicSuites(task.language, task.entryPoint, examples).map((s, i) => ({
    ...s,
    name: `${EXAMPLE_PREFIX}${i + 1}`,
  }));
}

/**
 * What generated inputs start from, as an io suite: for a scorer, the task's own first io
 * suite when it has one (EvalPlus's base inputs); otherwise the examples and seed inputs.
 */
function generationSeeds(task: Task, scorer: boolean, examples: readonly PromptExample[]): Suite[] {
  const own = scorer ? task.suites.find((s) => s.kind === 'io') : undefined;
  if (own) return [own];
  const texts = exampleArgumentTexts(task.language, examples);
  return texts.length
    ? [{ kind: 'io', name: 'seeds', entry: task.entryPoint, inputsJson: `[${texts.join(',')}]` }]
    : [];
}

/** A task's own suites as they are, and nothing else: what plain `eval` scores (no sandbox work to prepare). */
export function taskChecks(task: Task): CodeChecks {
  return describe({
    task,
    publicSuites: new Set(),
    examples: [],
    droppedExamples: [],
    properties: [],
    droppedProperties: [],
    oracle: task.reference !== undefined,
    space: inputSpace(task, []),
    inputs: { args: [], texts: [] },
    accepts: () => false,
    modelTests: [],
  });
}

/** The checks with validated model tests added as visible checks (one task object, so the harness caches its baseline once). */
export function withModelTests(checks: CodeChecks, tests: readonly PromptExample[]): CodeChecks {
  if (tests.length === 0) return checks;
  const suites = publicSuites(checks.task.language, checks.task.entryPoint, tests).map((s, i) => ({
    ...s,
    name: `${MODEL_TEST_PREFIX}${i + 1}`,
  }));
  const task: Task = { ...checks.task, suites: [...checks.task.suites, ...suites] };
  // The differential check shrinks against the augmented task: keep it pointing at the new one.
  const augmentation = checks.augmentation ? { ...checks.augmentation, augmented: task } : undefined;
  return describe({
    ...checks,
    task,
    publicSuites: new Set([...checks.publicSuites, ...suites.map((s) => s.name)]),
    modelTests: tests,
    ...(augmentation ? { augmentation } : {}),
  });
}

/**
 * Examples the reference passes (all of them when the sandbox cannot tell, noted in
 * `incomplete`); a reference that does not even load is the task's problem, named in `referenceProblem`.
 */
async function vetExamples(harness: Harness, task: Task, examples: readonly PromptExample[]): Promise<Vetted> {
  if (examples.length === 0 || task.reference === undefined) return { kept: [...examples], dropped: [] };
  const suites = exampleSuites(task, examples);
  const verdict = await harness.judge({ ...task, suites }, task.reference);
  const unvetted = (why: string): Vetted => ({
    kept: [...examples],
    dropped: [],
    incomplete: `the reference could not be run on the prompt's examples: ${why}`,
  });
  if (verdict.status === 'no-verdict') return unvetted(verdict.firstFailure?.message ?? 'the sandbox failed');
  if (verdict.loadFailure !== undefined)
    return {
      kept: [],
      dropped: [],
      referenceProblem: `the task's reference does not load: ${verdict.loadFailure.slice(0, 500)}`,
    };
  const passes = (i: number) => verdict.suites.find((s) => s.name === suites[i]!.name)?.status === 'pass';
  return {
    kept: examples.filter((_, i) => passes(i)),
    dropped: examples.flatMap((e, i) => (passes(i) ? [] : [`${task.entryPoint}(${e.argsText}) -> ${e.outputText}`])),
  };
}

interface Vetted {
  readonly kept: PromptExample[];
  readonly dropped: string[];
  readonly incomplete?: string;
  readonly referenceProblem?: string;
}

type Undescribed = Omit<CodeChecks, 'description' | 'count'>;

/** The checks without some generated inputs (disputed-inputs.ts): the generated suite, the augmentation and the description alike. */
export function withoutGeneratedInputs(checks: CodeChecks, drop: ReadonlySet<string>): CodeChecks {
  if (!checks.augmentation || drop.size === 0) return checks;
  const augmentation = withoutInputs(checks.augmentation, drop);
  return describe({ ...checks, task: augmentation.augmented, augmentation });
}

function describe(checks: Undescribed): CodeChecks {
  return { ...checks, count: checkCount(checks), description: describeChecks(checks) };
}

function propertiesApply(checks: Undescribed): boolean {
  return checks.properties.length > 0 && checks.inputs.texts.length > 0;
}

/** How many checks there are; with none, nothing can be verified. */
function checkCount(checks: Undescribed): number {
  return checks.task.suites.length + (propertiesApply(checks) ? 1 : 0);
}

/** In words: "2 examples, 48 generated inputs against the reference, 1 property on 50 generated inputs". */
function describeChecks(checks: Undescribed): string {
  const parts: string[] = [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (checks.examples.length) parts.push(plural(checks.examples.length, 'example'));
  const publicTests = [...checks.publicSuites].filter(
    (name) => !name.startsWith(EXAMPLE_PREFIX) && !name.startsWith(MODEL_TEST_PREFIX),
  ).length;
  if (publicTests) parts.push(plural(publicTests, 'public test'));
  if (checks.modelTests.length) parts.push(plural(checks.modelTests.length, 'validated model test'));
  const { augmentation } = checks;
  if (augmentation?.kept)
    parts.push(
      `${augmentation.kept} generated inputs against the reference${augmentation.inferredDomain !== undefined ? " (like the prompt's examples: the task states no contract)" : ''}`,
    );
  if (propertiesApply(checks))
    parts.push(
      `${checks.properties.length} propert${checks.properties.length === 1 ? 'y' : 'ies'} on ${checks.inputs.texts.length} generated inputs`,
    );
  const hidden = checks.task.suites.filter(
    (s) => !checks.publicSuites.has(s.name) && s.name !== GENERATED_SUITE,
  ).length;
  if (hidden) parts.push(plural(hidden, 'hidden suite'));
  return parts.join(', ') || 'nothing (no examples, tests, reference or properties)';
}
