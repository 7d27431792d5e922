/**
 * Judging one game: load it (the `load` suite: it loads, with no uncaught error and nothing
 * refused), then play every case of the plan from a fresh load (a suite per case). The gated
 * reward follows ALIVE's order — the scripts parse → the page loads cleanly → the plan's cases —
 * and a case's first failure is the feedback: which case, which step, and what the DOM showed
 * instead, the case's actions cut to the fewest that still fail when `shrink` is asked.
 */
import type { Status, SuiteVerdict, Verdict } from '../../core/verdict.js';
import type { FailureFact } from '../../feedback/facts.js';
import { gatedReward } from '../../rl/gated-reward.js';
import type { Abort, BrowserRuntime, BrowserSession } from '../../browser/runtime.js';
import { gatedLevels } from '../gated-levels.js';
import type { Checks, Report, VerifyOptions } from '../types.js';
import { describeStep, type PlanCase, type Step } from './plan.js';
import { playCase, type CaseOutcome } from './play.js';
import type { GameTask } from './task.js';

export interface GameProbe {
  readonly text: string;
  /** What is played (a case's actions, or a mutation of them). */
  readonly actions: readonly Step[];
}

export interface GameChecks extends Checks<GameTask> {
  readonly cases: readonly PlanCase[];
  readonly probes: readonly GameProbe[];
}

export const LOAD_SUITE = 'load';
/** The suite of case `i` (from 0). */
export const caseSuite = (c: PlanCase, i: number) => `plan/${i + 1} ${c.name}`;

/** Most plays spent shrinking a failing case. */
const SHRINK_PLAYS = 12;

export async function verifyGame(
  runtime: BrowserRuntime,
  checks: GameChecks,
  html: string,
  options: VerifyOptions = {},
): Promise<Report> {
  const started = performance.now();
  if (!/<[a-z!]/i.test(html))
    return reportOf(
      checks,
      { parses: false, load: { status: 'error', message: 'this is not an HTML document' }, cases: [] },
      started,
      options,
    );
  let judged;
  try {
    judged = await runtime.judge(html, (session) => play(runtime, session, checks, options));
  } catch (error) {
    return noVerdict(checks, `the browser failed: ${(error as Error).message}`, started);
  }
  if ('abort' in judged) {
    // Only a load can be aborted outside a case: the page never finished loading.
    return reportOf(
      checks,
      { parses: true, load: { status: judged.abort.status, message: judged.abort.message }, cases: [] },
      started,
      options,
    );
  }
  return reportOf(checks, judged.value, started, options);
}

interface Played {
  readonly parses: boolean;
  readonly load: { readonly status: Status; readonly message?: string };
  /** Per case that was played, in order; the rest were not (a load that failed, or time ran out). */
  readonly cases: ReadonlyArray<CaseOutcome & { readonly shrunkTo?: readonly Step[] }>;
}

async function play(
  runtime: BrowserRuntime,
  session: BrowserSession,
  checks: GameChecks,
  options: VerifyOptions,
): Promise<Played> {
  await session.load();
  const syntax = session.pageErrors.find((e) => e.startsWith('SyntaxError'));
  // A refused request is named before the page's errors: it is often their cause (a fetch
  // refused rejects as "Failed to fetch"), and it is recorded before the page learns of it.
  const conduct = session.misconduct[0]?.detail;
  const error = session.pageErrors[0];
  if (conduct !== undefined || error !== undefined)
    return {
      parses: syntax === undefined,
      load: {
        status: 'error',
        message:
          conduct !== undefined
            ? `while loading, the page ${conduct} (games are judged offline: inline every script and style)`
            : `uncaught error while loading: ${error}`,
      },
      cases: [],
    };
  const cases: Array<CaseOutcome & { shrunkTo?: readonly Step[] }> = [];
  let shrinking = options.shrink === true;
  for (const c of checks.cases) {
    if (options.signal?.aborted) break;
    const outcome = await guarded(session, () => playCase(session, c.steps));
    if ('abort' in outcome) {
      cases.push({ status: outcome.abort.status as CaseOutcome['status'], message: outcome.abort.message });
      break;
    }
    if (outcome.status === 'fail' && shrinking) {
      // The first failing case is the one fed back: it alone is shrunk.
      shrinking = false;
      const reference = checks.task.reference;
      const shrunk =
        reference === undefined
          ? await shrinkCase(session, undefined, c.steps, outcome)
          : await runtime
              .judge(reference, (valid) => shrinkCase(session, valid, c.steps, outcome))
              .then((r) => ('value' in r ? r.value : { steps: c.steps, outcome }));
      cases.push({ ...shrunk.outcome, shrunkTo: shrunk.steps });
    } else cases.push(outcome);
  }
  return { parses: true, load: { status: 'pass' }, cases };
}

/** A case's play, with the session's aborts (time, memory) as data: later cases are not played. */
async function guarded(
  session: BrowserSession,
  work: () => Promise<CaseOutcome>,
): Promise<CaseOutcome | { abort: Abort }> {
  try {
    return await work();
  } catch (error) {
    const abort = (error as { abort?: Abort }).abort;
    if (abort) return { abort };
    throw error;
  }
}

/**
 * The fewest actions before the failing assertion that still make it fail the same way: the
 * steps after it are dropped, then each earlier step is tried without, last first (a greedy
 * one-minimal cut, at most SHRINK_PLAYS trials). A cut case must stay a right test: the
 * reference still passes it (without [one], the game must show the very same thing), or "reset
 * starts over" would shrink to a case that no longer resets.
 */
async function shrinkCase(
  session: BrowserSession,
  reference: BrowserSession | undefined,
  steps: readonly Step[],
  failed: CaseOutcome,
): Promise<{ steps: readonly Step[]; outcome: CaseOutcome }> {
  const at = failed.failedStep ?? steps.length - 1;
  let kept = steps.slice(0, at + 1);
  let keptOutcome = failed;
  for (let i = kept.length - 2, trials = 0; i >= 0 && trials < SHRINK_PLAYS; i--, trials++) {
    const trial = [...kept.slice(0, i), ...kept.slice(i + 1)];
    if (reference) {
      const right = await guarded(reference, () => playCase(reference, trial));
      if ('abort' in right || right.status !== 'pass') continue;
    }
    const outcome = await guarded(session, () => playCase(session, trial));
    if ('abort' in outcome) break;
    const same =
      outcome.status === 'fail' &&
      outcome.failedStep === trial.length - 1 &&
      outcome.expected === failed.expected &&
      (reference !== undefined || outcome.actual === failed.actual);
    if (same) [kept, keptOutcome] = [trial, outcome];
  }
  return { steps: kept, outcome: keptOutcome };
}

function reportOf(checks: GameChecks, played: Played, started: number, options: VerifyOptions): Report {
  const suites: SuiteVerdict[] = [];
  const failures: FailureFact[] = [];
  const loadOk = played.load.status === 'pass';
  const loadFailure = loadOk
    ? null
    : { input: null, expected: null, actual: null, message: played.load.message ?? played.load.status };
  suites.push({
    name: LOAD_SUITE,
    status: played.load.status,
    passed: loadOk ? 1 : 0,
    total: 1,
    firstFailure: loadFailure,
  });
  if (loadFailure) failures.push({ check: 'the page loads', ...loadFailure });
  played.cases.forEach((outcome, i) => {
    const c = checks.cases[i]!;
    const steps = outcome.shrunkTo ?? c.steps.slice(0, (outcome.failedStep ?? c.steps.length - 1) + 1);
    const failure =
      outcome.status === 'pass'
        ? null
        : {
            input: steps.map(describeStep).join('; ') || 'loading the page',
            expected: outcome.expected ?? null,
            actual: outcome.actual ?? null,
            message: `case "${c.name}": ${outcome.message ?? outcome.status}`,
          };
    suites.push({
      name: caseSuite(c, i),
      status: outcome.status,
      passed: failure ? 0 : 1,
      total: 1,
      firstFailure: failure,
    });
    if (failure)
      failures.push({ check: `plan case "${c.name}"`, ...failure, ...(outcome.shrunkTo ? { shrunk: true } : {}) });
  });
  const levels = gatedLevels({
    parses: played.parses,
    loads: { loaded: loadOk ? 1 : 0, of: 1 },
    units: suites
      .filter((s) => s.name !== LOAD_SUITE)
      .map((s) => ({ status: s.status, passed: s.passed, total: 1, public: checks.publicSuites.has(s.name) })),
  });
  const failing = suites.find((s) => s.status !== 'pass');
  const status: Status = failing?.status ?? 'pass';
  const verdict: Verdict = {
    status,
    suites,
    firstFailure: failing?.firstFailure ?? null,
    timeMs: Math.round(performance.now() - started),
    ...(loadFailure ? { loadFailure: loadFailure.message } : {}),
  };
  const unchecked = checks.count === 0;
  const visible = suites.filter((s) => checks.publicSuites.has(s.name));
  return {
    verdict,
    passed: !unchecked && status === 'pass' && played.cases.length === checks.cases.length,
    unchecked,
    failures,
    publicChecks: { passed: visible.filter((s) => s.status === 'pass').length, total: checks.publicSuites.size },
    levels,
    reward: gatedReward(levels, options.weights),
  };
}

function noVerdict(checks: GameChecks, reason: string, started: number): Report {
  const levels = gatedLevels({ parses: true, loads: { loaded: 0, of: 1 }, units: [], noVerdict: reason });
  return {
    verdict: { status: 'no-verdict', suites: [], firstFailure: null, timeMs: Math.round(performance.now() - started) },
    passed: false,
    unchecked: checks.count === 0,
    failures: [],
    publicChecks: { passed: 0, total: checks.publicSuites.size },
    levels,
    reward: gatedReward(levels),
    noVerdict: reason,
  };
}
