/**
 * What a solver may check a program against, and the check itself. Visible: the prompt's
 * examples, public tests the task ships, the task's properties (kept only if no example
 * contradicts them), generated inputs, and the reference as an oracle when the task ships
 * one and the caller allows it. Never the dataset's hidden suites: those score, in eval.
 */
import type { Property, ScriptSuite, Task } from '../core/task.js';
import { combineStatuses, type SuiteVerdict, type Verdict } from '../core/verdict.js';
import type { FailureFact } from '../feedback/index.js';
import { augmentTask, GENERATED_SUITE, minimalCounterexample, type Augmentation } from '../verify/differential.js';
import { exampleArgumentTexts, findPromptExamples, publicSuites, type PromptExample } from '../verify/generate/examples.js';
import { generateInputs, inputSpace, type InputSpace } from '../verify/generate/inputs.js';
import type { Harness } from '../verify/harness.js';
import { inputValidity } from '../verify/valid-inputs.js';
import { checkProperties, PROPERTIES_SUITE, shrinkPropertyViolation, soundProperties } from '../verify/properties.js';

export interface SolverViewOptions {
  readonly seed: number;
  /** Use the task's reference as an oracle on generated inputs (default: when it has one). */
  readonly oracle?: boolean;
  /** Examples beyond the prompt's (a task file's tests): argument text and expected output. */
  readonly examples?: readonly PromptExample[];
  /** Script tests a model may see (HumanEvalPack's docstring examples). */
  readonly publicTests?: readonly ScriptSuite[];
  /** Generated inputs (default 50). */
  readonly inputs?: number;
}

export interface SolverView {
  /** The task as the solver sees it: suites are the visible checks only. */
  readonly task: Task;
  readonly examples: readonly PromptExample[];
  readonly properties: readonly Property[];
  readonly droppedProperties: readonly { readonly property: string; readonly example: string }[];
  readonly oracle: boolean;
  readonly augmentation?: Augmentation;
  readonly space: InputSpace;
  /** Generated inputs within the task's domain (wire values and JSON texts). */
  readonly inputs: { readonly args: readonly unknown[][]; readonly texts: readonly string[] };
  /** Which inputs are valid (valid-inputs.ts): shrinking stays among them. */
  readonly accepts: (args: readonly unknown[]) => boolean;
  /** Tests the model wrote and that survived validation (SPADA). */
  readonly modelTests: readonly PromptExample[];
}

export const MODEL_TEST_PREFIX = 'model-test/';

export async function buildSolverView(harness: Harness, task: Task, options: SolverViewOptions): Promise<SolverView> {
  const examples = [...findPromptExamples(task.prompt, task.entryPoint, task.language), ...(options.examples ?? [])];
  const oracle = (options.oracle ?? true) && task.reference !== undefined;
  const visible: Task = {
    ...task,
    suites: [...publicSuites(task.language, task.entryPoint, examples), ...(options.publicTests ?? [])],
    knownWrong: [],
  };
  if (!oracle) {
    delete (visible as { reference?: string }).reference;
    delete (visible as { contract?: string }).contract;
  }
  const count = options.inputs ?? 50;
  const augmentation = oracle ? await augmentTask(harness, visible, { seed: options.seed, count }) : undefined;
  const space = augmentation?.space ?? inputSpace(visible, exampleArgumentTexts(task.language, examples));
  const validity = inputValidity(task, space.examples);
  const accepts = augmentation?.accepts ?? ('accept' in validity ? validity.accept : () => false);
  let inputs = augmentation?.inputs;
  if (!inputs) {
    const drawn = 'accept' in validity && (space.types.length || space.examples.length) ? generateInputs(space, { seed: options.seed, count, accept: accepts }) : { args: [], texts: [] };
    inputs = { args: drawn.args, texts: drawn.texts };
  }
  const sound = soundProperties(task);
  return {
    task: augmentation?.augmented ?? visible,
    examples,
    properties: sound.kept,
    droppedProperties: sound.dropped,
    oracle,
    ...(augmentation ? { augmentation } : {}),
    space,
    inputs,
    accepts,
    modelTests: [],
  };
}

/** The view with validated model tests added as visible checks (one task object, so the harness caches its baseline once). */
export function withModelTests(view: SolverView, tests: readonly PromptExample[]): SolverView {
  if (tests.length === 0) return view;
  const suites = publicSuites(view.task.language, view.task.entryPoint, tests).map((s, i) => ({ ...s, name: `${MODEL_TEST_PREFIX}${i + 1}` }));
  const task: Task = { ...view.task, suites: [...view.task.suites, ...suites] };
  // The differential check shrinks against the augmented task: keep it pointing at the new one.
  const augmentation = view.augmentation ? { ...view.augmentation, augmented: task } : undefined;
  return { ...view, task, modelTests: tests, ...(augmentation ? { augmentation } : {}) };
}

/** How many checks the view has; with none, nothing can be verified. */
export function checkCount(view: SolverView): number {
  return view.task.suites.length + (view.properties.length && view.inputs.texts.length ? 1 : 0);
}

/** In words: "2 prompt examples, 48 generated inputs against the reference, 1 property". */
export function describeChecks(view: SolverView): string {
  const parts: string[] = [];
  if (view.examples.length) parts.push(`${view.examples.length} example${view.examples.length === 1 ? '' : 's'}`);
  const others = view.task.suites.filter((s) => !s.name.startsWith('public/') && !s.name.startsWith(MODEL_TEST_PREFIX) && s.name !== GENERATED_SUITE).length;
  if (others) parts.push(`${others} public test${others === 1 ? '' : 's'}`);
  if (view.modelTests.length) parts.push(`${view.modelTests.length} validated model test${view.modelTests.length === 1 ? '' : 's'}`);
  if (view.augmentation?.kept) parts.push(`${view.augmentation.kept} generated inputs against the reference${view.augmentation.inferredDomain !== undefined ? " (like the prompt's examples: the task states no contract)" : ''}`);
  if (view.properties.length && view.inputs.texts.length) parts.push(`${view.properties.length} propert${view.properties.length === 1 ? 'y' : 'ies'} on ${view.inputs.texts.length} generated inputs`);
  return parts.join(', ') || 'nothing (no examples, tests, reference or properties)';
}

export interface CheckReport {
  /** Every visible check passed (and there was at least one). */
  readonly passed: boolean;
  /** The view had no checks at all. */
  readonly unchecked: boolean;
  readonly verdict: Verdict;
  /** Examples and public tests (not generated inputs): AdverMCTS's reward and selection key. */
  readonly publicPassed: number;
  readonly publicTotal: number;
  /** Every failing fact found; `minimal` is the one to feed back. */
  readonly failures: readonly FailureFact[];
  /** The sandbox failed: says nothing about the program. */
  readonly noVerdict?: string;
}

/**
 * Judges a program on the visible checks. With `shrink`, a failing generated input or a
 * property violation is shrunk to a minimal counterexample (costs sandbox time).
 */
export async function checkProgram(harness: Harness, view: SolverView, program: string, options: { shrink?: boolean } = {}): Promise<CheckReport> {
  const judged = await harness.judge(view.task, program);
  const suites: SuiteVerdict[] = [...judged.suites];
  const failures: FailureFact[] = [];
  const loadFailure = judged.suites.find((s) => s.status === 'error');
  if (judged.status === 'no-verdict') {
    return report(view, { ...judged }, [], judged.firstFailure?.message ?? 'the sandbox failed');
  }
  if (loadFailure) {
    failures.push({ check: 'running the program', input: null, expected: null, actual: null, message: loadFailure.firstFailure?.message ?? 'the program does not load' });
  } else {
    for (const suite of judged.suites) {
      if (suite.status === 'pass') continue;
      const fact = await factOf(harness, view, program, suite, judged, options.shrink === true);
      if (fact) failures.push(fact);
    }
    if (view.properties.length && view.inputs.texts.length) {
      const verdict = await checkProperties(harness, view.task, program, view.properties, view.inputs);
      suites.push({ name: PROPERTIES_SUITE, status: verdict.status, passed: verdict.passed, total: verdict.total, firstFailure: verdict.firstFailure, ...(verdict.failedAt !== undefined ? { failedAt: verdict.failedAt } : {}) });
      if (verdict.status === 'fail' && verdict.failedAt !== undefined) {
        const property = view.properties.find((p) => p.name === verdict.property)!;
        const shrunk = options.shrink ? await shrinkPropertyViolation(harness, view.task, program, property, view.inputs.args[verdict.failedAt]!, view.space.types, view.accepts) : undefined;
        const found = shrunk ?? verdict.firstFailure!;
        failures.push({
          check: `property: ${property.name}`,
          input: shrunk ? shrunk.shrunk : view.inputs.texts[verdict.failedAt]!,
          expected: null,
          actual: found.actual,
          message: `the output breaks the property "${property.name}"`,
          ...(shrunk ? { shrunk: true } : {}),
        });
      }
    }
  }
  const status = combineStatuses(suites);
  return report(view, { ...judged, status, suites, firstFailure: suites.find((s) => s.status !== 'pass')?.firstFailure ?? null }, failures);
}

function report(view: SolverView, verdict: Verdict, failures: FailureFact[], noVerdict?: string): CheckReport {
  const visible = verdict.suites.filter((s) => s.name !== GENERATED_SUITE && s.name !== PROPERTIES_SUITE);
  const unchecked = checkCount(view) === 0;
  return {
    passed: !unchecked && noVerdict === undefined && verdict.status === 'pass' && failures.length === 0,
    unchecked,
    verdict,
    publicPassed: visible.filter((s) => s.status === 'pass').length,
    publicTotal: visible.length,
    failures,
    ...(noVerdict !== undefined ? { noVerdict } : {}),
  };
}

async function factOf(harness: Harness, view: SolverView, program: string, suite: SuiteVerdict, judged: Verdict, shrink: boolean): Promise<FailureFact | undefined> {
  const failure = suite.firstFailure;
  const message = suite.status === 'timeout' ? `timed out: ${failure?.message ?? 'the time limit was reached'}` : (failure?.message ?? suite.status);
  const example = exampleOf(view, suite.name);
  if (example) {
    return { check: example.check, input: example.example.argsText, expected: example.example.outputText, actual: failure?.actual ?? null, message };
  }
  if (suite.name === GENERATED_SUITE) {
    // Without a contract the input's validity is a guess from the examples: the user reading an abstention should know.
    const check = `a generated input${view.augmentation?.inferredDomain !== undefined ? " like the prompt's examples (the task states no contract)" : ''}, expected output from the reference solution`;
    const counterexample = shrink && view.augmentation && suite.status === 'fail' ? await minimalCounterexample(harness, view.augmentation, program, judged) : undefined;
    if (counterexample) {
      return { check, input: counterexample.shrunk, expected: counterexample.expected, actual: counterexample.actual, message: counterexample.message, shrunk: true };
    }
    return { check, input: failure?.input ?? null, expected: failure?.expected ?? null, actual: failure?.actual ?? null, message };
  }
  return { check: `public test ${suite.name}`, input: failure?.input ?? null, expected: failure?.expected ?? null, actual: failure?.actual ?? null, message };
}

function exampleOf(view: SolverView, suite: string): { check: string; example: PromptExample } | undefined {
  const publicAt = /^public\/(\d+)$/.exec(suite);
  if (publicAt) {
    const example = view.examples[Number(publicAt[1]) - 1];
    return example ? { check: `example ${publicAt[1]}`, example } : undefined;
  }
  if (suite.startsWith(MODEL_TEST_PREFIX)) {
    const n = Number(suite.slice(MODEL_TEST_PREFIX.length));
    const example = view.modelTests[n - 1];
    return example ? { check: `your own test ${n}`, example } : undefined;
  }
  return undefined;
}
