/**
 * Judging one program on the code pack's checks: the verdict of its suites and properties,
 * every failing fact (a failing generated input or property violation shrunk to a minimal
 * counterexample when asked), and the gated levels and reward an RL trainer gets.
 */
import { combineStatuses, type SuiteVerdict, type Verdict } from '../../core/verdict.js';
import type { FailureFact } from '../../feedback/index.js';
import { gatedReward } from '../../rl/gated-reward.js';
import { GENERATED_SUITE, minimalCounterexample, type Counterexample } from './differential.js';
import { gatedLevels } from '../gated-levels.js';
import type { Harness } from './harness.js';
import { checkProperties, PROPERTIES_SUITE, shrinkPropertyViolation } from './properties.js';
import { settleTimeouts } from './slow-inputs.js';
import type { Report, VerifyOptions } from '../types.js';
import { EXAMPLE_PREFIX, MODEL_TEST_PREFIX, type CodeChecks } from './checks.js';

const SYNTAX = /^(SyntaxError|IndentationError|TabError)\b/;
const STOPPED = 'not judged: the request was stopped';

/** A code report also carries the minimal counterexample, when a failing generated input or property violation was shrunk. */
export interface CodeReport extends Report {
  readonly counterexample?: Counterexample & { readonly suite: string };
}

export async function verifyProgram(
  harness: Harness,
  checks: CodeChecks,
  program: string,
  options: VerifyOptions = {},
): Promise<CodeReport> {
  const { signal } = options;
  const judged = await settleSlowInputs(
    harness,
    checks,
    program,
    await harness.judge(checks.task, program, signal ? { signal } : {}),
  );
  if (signal?.aborted) return noVerdict(checks, judged, STOPPED, options);
  if (judged.status === 'no-verdict')
    return noVerdict(checks, judged, judged.firstFailure?.message ?? 'the sandbox failed', options);
  const suites: SuiteVerdict[] = [...judged.suites];
  const failures: FailureFact[] = [];
  let counterexample: CodeReport['counterexample'];
  // A suite that errored is fed back as "running the program", as a load failure is.
  const errored = judged.suites.find((s) => s.status === 'error');
  const { loadFailure } = judged;
  if (loadFailure !== undefined || errored) {
    const message = loadFailure ?? errored?.firstFailure?.message ?? 'the program does not load';
    failures.push({ check: 'running the program', input: null, expected: null, actual: null, message });
  } else {
    for (const suite of judged.suites) {
      if (suite.status === 'pass') continue;
      const shrunk =
        options.shrink &&
        !signal?.aborted &&
        suite.name === GENERATED_SUITE &&
        suite.status === 'fail' &&
        checks.augmentation
          ? await minimalCounterexample(harness, checks.augmentation, program, judged)
          : undefined;
      if (shrunk) counterexample = { ...shrunk, suite: suite.name };
      failures.push(factOf(checks, suite, shrunk));
    }
    if (checks.properties.length && checks.inputs.texts.length && !signal?.aborted) {
      const verdict = await checkProperties(harness, checks.task, program, checks.properties, checks.inputs);
      suites.push({
        name: PROPERTIES_SUITE,
        status: verdict.status,
        passed: verdict.passed,
        total: verdict.total,
        firstFailure: verdict.firstFailure,
        ...(verdict.failedAt !== undefined ? { failedAt: verdict.failedAt } : {}),
      });
      if (verdict.status === 'fail' && verdict.failedAt !== undefined) {
        const property = checks.properties.find((p) => p.name === verdict.property)!;
        const shrunk =
          options.shrink && !signal?.aborted
            ? await shrinkPropertyViolation(
                harness,
                checks.task,
                program,
                property,
                checks.inputs.args[verdict.failedAt]!,
                checks.space.types,
                checks.accepts,
              )
            : undefined;
        if (shrunk) counterexample ??= { ...shrunk, suite: PROPERTIES_SUITE };
        const found = shrunk ?? verdict.firstFailure!;
        failures.push({
          check: `property: ${property.name}`,
          input: shrunk ? shrunk.shrunk : checks.inputs.texts[verdict.failedAt]!,
          expected: null,
          actual: found.actual,
          message: `the output breaks the property "${property.name}"`,
          ...(shrunk ? { shrunk: true } : {}),
        });
      }
    }
  }
  const status = combineStatuses(suites);
  const verdict: Verdict = {
    ...judged,
    status,
    suites,
    firstFailure: suites.find((s) => s.status !== 'pass')?.firstFailure ?? judged.firstFailure,
  };
  const levels = gatedLevels({
    parses: loadFailure === undefined || !SYNTAX.test(loadFailure),
    loads: { loaded: loadFailure === undefined ? 1 : 0, of: 1 },
    // Properties are judged on generated inputs: a hidden level, as the generated suite.
    units: suites.map((s) => ({
      status: s.status,
      passed: s.passed,
      total: s.total,
      public: checks.publicSuites.has(s.name),
    })),
  });
  const unchecked = checks.count === 0;
  const visible = suites.filter((s) => checks.publicSuites.has(s.name));
  return {
    verdict,
    passed: !unchecked && status === 'pass' && failures.length === 0,
    unchecked,
    failures,
    publicChecks: { passed: visible.filter((s) => s.status === 'pass').length, total: visible.length },
    levels,
    reward: gatedReward(levels, options.weights),
    ...(counterexample ? { counterexample } : {}),
  };
}

/** A timeout on a generated input that a hundredth of it does not repeat is set aside as slow (verify/slow-inputs.ts). */
async function settleSlowInputs(
  harness: Harness,
  checks: CodeChecks,
  program: string,
  judged: Verdict,
): Promise<Verdict> {
  const at = judged.suites.findIndex((s) => s.name === GENERATED_SUITE && s.status === 'timeout');
  if (at < 0 || !checks.augmentation) return judged;
  const settled = await settleTimeouts(harness, checks.augmentation, program, judged.suites[at]!);
  if (settled === judged.suites[at]) return judged;
  const suites = judged.suites.map((s, i) => (i === at ? settled : s));
  return {
    ...judged,
    suites,
    status: combineStatuses(suites),
    firstFailure: suites.find((s) => s.status !== 'pass')?.firstFailure ?? null,
  };
}

function noVerdict(checks: CodeChecks, judged: Verdict, why: string, options: VerifyOptions): Report {
  const levels = gatedLevels({ parses: true, loads: { loaded: 0, of: 1 }, units: [], noVerdict: why });
  return {
    verdict: { ...judged, status: 'no-verdict' },
    passed: false,
    unchecked: checks.count === 0,
    failures: [],
    publicChecks: { passed: 0, total: checks.publicSuites.size },
    levels,
    reward: gatedReward(levels, options.weights),
    noVerdict: why,
  };
}

function factOf(checks: CodeChecks, suite: SuiteVerdict, counterexample: Counterexample | undefined): FailureFact {
  const failure = suite.firstFailure;
  const message =
    suite.status === 'timeout'
      ? `timed out: ${failure?.message ?? 'the time limit was reached'}`
      : (failure?.message ?? suite.status);
  const example = exampleOf(checks, suite.name);
  if (example) {
    // A fact's input is an argument list; an example's text is what goes inside the call.
    return {
      check: example.check,
      input: `[${example.example.argsText}]`,
      expected: example.example.outputText,
      actual: failure?.actual ?? null,
      message,
    };
  }
  if (suite.name === GENERATED_SUITE) {
    // Without a contract the input's validity is a guess from the examples: the user reading an abstention should know.
    const check = `a generated input${checks.augmentation?.inferredDomain !== undefined ? " like the prompt's examples (the task states no contract)" : ''}, expected output from the reference solution`;
    if (counterexample) {
      return {
        check,
        input: counterexample.shrunk,
        expected: counterexample.expected,
        actual: counterexample.actual,
        message: counterexample.message,
        shrunk: true,
      };
    }
    return {
      check,
      input: failure?.input ?? null,
      expected: failure?.expected ?? null,
      actual: failure?.actual ?? null,
      message,
    };
  }
  const kind = checks.publicSuites.has(suite.name) ? 'public test' : 'hidden test';
  return {
    check: `${kind} ${suite.name}`,
    input: failure?.input ?? null,
    expected: failure?.expected ?? null,
    actual: failure?.actual ?? null,
    message,
  };
}

function exampleOf(
  checks: CodeChecks,
  suite: string,
): { check: string; example: CodeChecks['examples'][number] } | undefined {
  if (suite.startsWith(EXAMPLE_PREFIX)) {
    const n = Number(suite.slice(EXAMPLE_PREFIX.length));
    const example = checks.examples[n - 1];
    return example ? { check: `example ${n}`, example } : undefined;
  }
  if (suite.startsWith(MODEL_TEST_PREFIX)) {
    const n = Number(suite.slice(MODEL_TEST_PREFIX.length));
    const example = checks.modelTests[n - 1];
    return example ? { check: `your own test ${n}`, example } : undefined;
  }
  return undefined;
}
