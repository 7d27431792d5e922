import type { Failure, Status, SuiteVerdict } from '../../core/verdict.js';
import type { CandidateExit, Limits, RawSuiteStatus, Ran, RunResult, SuiteOutcome } from '../../runtimes/runtime.js';

const SIGKILL = 9;
const SIGXFSZ = 25;
const SIGSEGV = 11;

/** Why a candidate's process died, from how it ended and what it used. */
export function statusOfDeath(exit: CandidateExit | undefined, limits: Limits): { status: Status; message: string } {
  if (!exit) return { status: 'error', message: 'the candidate process ended unexpectedly' };
  if (exit.outOfMemory) return { status: 'memory', message: 'memory limit exceeded' };
  if (exit.channelAbuse === 'overlong')
    return {
      status: 'output-limit',
      message:
        "wrote an endless line to file descriptor 1, the worker's channel to Crucible (print with console.log or process.stdout instead)",
    };
  if (exit.channelAbuse === 'malformed')
    return {
      status: 'error',
      message:
        "wrote to file descriptor 1, the worker's channel to Crucible (print with console.log or process.stdout instead)",
    };
  if (exit.signal === SIGXFSZ || exit.outputBytes >= limits.outputBytes)
    // outputBytes also reaches the limit when a file in scratch was cut off at it (the Python worker reports that).
    return { status: 'output-limit', message: `printed or wrote to a file more than ${limits.outputBytes} bytes` };
  if (exit.signal === SIGKILL && exit.cpuSeconds !== undefined && exit.cpuSeconds >= limits.cpuSeconds - 1)
    return { status: 'timeout', message: `CPU time limit of ${limits.cpuSeconds}s exceeded` };
  if (exit.signal === SIGSEGV)
    return { status: 'error', message: 'the candidate crashed (segmentation fault, often unbounded recursion)' };
  if (exit.signal !== null)
    return { status: 'error', message: `the candidate process was killed by signal ${exit.signal}` };
  return { status: 'error', message: `the candidate process exited with code ${exit.code} before its tests finished` };
}

/** Turns the judge's raw outcome into verdicts, attributing process deaths to their cause. */
export function suiteVerdicts(
  result: RunResult,
  limits: Limits,
  totals: ReadonlyMap<string, number>,
  names: readonly string[],
): SuiteVerdict[] {
  const blank = (name: string, status: Status, message: string): SuiteVerdict => ({
    name,
    status,
    passed: 0,
    total: totals.get(name) ?? 0,
    firstFailure: { input: null, expected: null, actual: null, message },
  });
  if (result.kind === 'no-verdict') return names.map((name) => blank(name, 'no-verdict', result.why));
  if (result.kind === 'hung')
    return names.map((name) => blank(name, 'timeout', 'no answer within the time limit; stopped from outside'));
  if (!result.load.ok) {
    const death = result.load.status === 'crashed' ? statusOfDeath(result.exit, limits) : undefined;
    const status = death?.status ?? mapStatus(result.load.status ?? 'error');
    const message = death ? `${death.message} (while loading)` : (result.load.message ?? 'the program did not load');
    return names.map((name) => blank(name, status, message));
  }
  const exit = result.exit;
  if (exit?.channelAbuse) {
    // Whenever the worker's channel was written to, the tests' outcomes are not the candidate's to claim.
    const death = statusOfDeath(exit, limits);
    return names.map((name) => blank(name, death.status, death.message));
  }
  if (exit && exit.outputBytes >= limits.outputBytes) {
    // Output past the cap was cut off: whatever the tests said, the run is not trustworthy.
    const message = `printed or wrote to a file more than ${limits.outputBytes} bytes (output is capped)`;
    return names.map((name) => {
      const outcome = result.suites.find((suite) => suite.name === name);
      return { ...blank(name, 'output-limit', message), passed: outcome?.passed ?? 0 };
    });
  }
  let previous: SuiteVerdict | undefined;
  const verdicts: SuiteVerdict[] = [];
  for (const name of names) {
    const outcome = result.suites.find((suite) => suite.name === name);
    let verdict: SuiteVerdict;
    if (!outcome) verdict = blank(name, 'no-verdict', 'the judge returned no result for this suite');
    else if (outcome.status === 'skipped' && previous)
      verdict = {
        ...blank(
          name,
          previous.status,
          `not run: ${previous.firstFailure?.message ?? 'an earlier suite stopped the candidate'}`,
        ),
      };
    else verdict = fromOutcome(outcome, result, limits, totals);
    verdicts.push(verdict);
    if (verdict.status !== 'pass') previous = verdict;
  }
  return verdicts;
}

function fromOutcome(
  outcome: SuiteOutcome,
  result: Ran,
  limits: Limits,
  totals: ReadonlyMap<string, number>,
): SuiteVerdict {
  let status: Status;
  let failure: Failure | null = outcome.firstFailure;
  if (outcome.status === 'crashed') {
    const death = statusOfDeath(result.exit, limits);
    status = death.status;
    failure = {
      input: failure?.input ?? null,
      expected: failure?.expected ?? null,
      actual: null,
      message: death.message,
    };
  } else {
    status = mapStatus(outcome.status);
  }
  return {
    name: outcome.name,
    status,
    passed: outcome.passed,
    total: Math.max(outcome.total, totals.get(outcome.name) ?? 0),
    firstFailure: failure,
    ...(outcome.inline ? { inline: true } : {}),
    ...(outcome.failedAt !== undefined ? { failedAt: outcome.failedAt } : {}),
  };
}

function mapStatus(raw: RawSuiteStatus): Status {
  switch (raw) {
    case 'crashed':
    case 'skipped':
      return 'error';
    default:
      return raw;
  }
}
