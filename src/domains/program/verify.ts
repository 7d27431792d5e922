/**
 * Judging one whole program on its stdin tests: each test is its own run (its own load), the
 * first alone — a program that does not compile fails every test the same way, without
 * running them — then the rest side by side on the executor's workers.
 */
import type { Status, SuiteVerdict, Verdict } from '../../core/verdict.js';
import type { FailureFact } from '../../feedback/facts.js';
import { gatedReward } from '../../rl/gated-reward.js';
import type { Executor, ProgramJob } from '../../runtimes/executor.js';
import type { ProgramResult } from '../../runtimes/program-worker.js';
import { gatedLevels } from '../gated-levels.js';
import type { Report, VerifyOptions } from '../types.js';
import { outputMatches, testName, type StdinChecks } from './checks.js';

/** One test's run: its status (the output compared) and what the program did. */
export interface TestRun {
  readonly status: Status;
  readonly result: ProgramResult;
}

export interface ProgramReport extends Report {
  /** Per test of the checks, its run; undefined where it was not run (after a first failure, or abandoned). */
  readonly tests: readonly (TestRun | undefined)[];
}

export interface ProgramVerifyOptions extends VerifyOptions {
  /** Told after every test that got a verdict (progress). */
  readonly onTest?: () => void;
}

/** Where programs run: one job at a time, or a batch side by side. */
export type ProgramExecutor = Pick<Executor, 'run' | 'runBatch'>;

const SNIPPET = 2000;

export async function verifyStdinProgram(
  executor: ProgramExecutor,
  checks: StdinChecks,
  program: string,
  options: ProgramVerifyOptions = {},
): Promise<ProgramReport> {
  const { task, tests } = checks;
  const { signal } = options;
  const runs: (TestRun | undefined)[] = new Array(tests.length);
  let stopped = false;
  const job = (i: number): ProgramJob => ({
    language: task.language,
    request: { code: program, stdin: tests[i]!.stdin, ...(task.limits ? { limits: task.limits } : {}) },
  });
  const record = (i: number, result: ProgramResult) => {
    const status: Status =
      result.status === 'ok'
        ? outputMatches(result.stdout, tests[i]!.expectedStdout, task.compare)
          ? 'pass'
          : 'fail'
        : result.status;
    runs[i] = { status, result };
    if (status !== 'pass' && task.stopOnFirstFailure) stopped = true;
    options.onTest?.();
  };
  if (tests.length > 0 && !signal?.aborted) {
    const first = await executor.run(job(0), { signal });
    if (!first.cancelled) record(0, first);
    const head = runs[0];
    if (head?.result.status === 'error' && head.result.phase === 'compile') {
      for (let i = 1; i < tests.length; i++) record(i, head.result);
    } else if (head && !stopped) {
      const rest = tests.slice(1).map((_, i) => job(i + 1));
      await executor.runBatch(rest, (j, result) => record(j + 1, result), { signal, skip: () => stopped });
    }
  }
  return reportOf(checks, runs, options);
}

function reportOf(checks: StdinChecks, runs: readonly (TestRun | undefined)[], options: VerifyOptions): ProgramReport {
  const suites: SuiteVerdict[] = [];
  const failures: FailureFact[] = [];
  let noVerdict: string | undefined;
  let compileError: string | undefined;
  runs.forEach((run, i) => {
    if (!run) return;
    const test = checks.tests[i]!;
    const message = run.status === 'fail' ? 'output differs from expected' : (run.result.message ?? run.status);
    const failure = {
      input: test.stdin.slice(0, SNIPPET),
      expected: test.expectedStdout.slice(0, SNIPPET),
      actual: run.result.stdout.slice(0, SNIPPET),
      message,
    };
    suites.push({
      name: testName(i),
      status: run.status,
      passed: run.status === 'pass' ? 1 : 0,
      total: 1,
      firstFailure: run.status === 'pass' ? null : failure,
    });
    if (run.status === 'no-verdict') noVerdict ??= run.result.message ?? 'the sandbox failed';
    else if (run.status !== 'pass')
      failures.push({ check: `${test.public ? 'public' : 'hidden'} test ${testName(i)}`, ...failure });
    if (run.result.phase === 'compile')
      compileError ??= `${run.result.message ?? 'the program does not compile'}\n${run.result.stderr}`.trim();
  });
  // Each stdin test is its own run of the program: its own load, a unit of one test.
  const levels = gatedLevels({
    parses: compileError === undefined,
    loads: { loaded: suites.filter((s) => s.status !== 'error').length, of: suites.length },
    units: suites.map((s) => ({
      status: s.status,
      passed: s.passed,
      total: 1,
      public: checks.publicSuites.has(s.name),
    })),
    ...(noVerdict !== undefined ? { noVerdict } : {}),
  });
  const failing = suites.find((s) => s.status !== 'pass' && s.status !== 'no-verdict');
  const status: Status = noVerdict !== undefined ? 'no-verdict' : (failing?.status ?? 'pass');
  const verdict: Verdict = {
    status,
    suites,
    firstFailure: failing?.firstFailure ?? null,
    timeMs: Math.round(runs.reduce((sum, run) => sum + (run?.result.wallSeconds ?? 0), 0) * 1000),
    ...(compileError !== undefined ? { loadFailure: compileError.slice(0, SNIPPET) } : {}),
  };
  const visible = suites.filter((s) => checks.publicSuites.has(s.name));
  const unchecked = checks.count === 0;
  return {
    verdict,
    passed: !unchecked && status === 'pass' && suites.length === checks.tests.length,
    unchecked,
    failures,
    publicChecks: { passed: visible.filter((s) => s.status === 'pass').length, total: checks.publicSuites.size },
    levels,
    reward: gatedReward(levels, options.weights),
    tests: runs,
    ...(noVerdict !== undefined ? { noVerdict } : {}),
  };
}
