/**
 * `POST /v1/verify` with stdin tests: many candidates × many stdin/stdout tests in one
 * request, judged by the `program` pack (src/domains/program). This file translates the
 * request into the pack's task and renders each report on the wire: per-test statuses, the
 * first and the smallest failing input, the plain pass rate and the gated reward (parses →
 * loads → runs → public tests → hidden tests). A test the sandbox could not judge makes the
 * candidate `no-verdict` with reward null: never a 0 or a 1 it did not earn.
 */
import pMap from 'p-map';
import { BadRequestError } from '../core/errors.js';
import type { Failure, Status } from '../core/verdict.js';
import { prepareStdinChecks, programPack, type ProgramReport, type StdinTask } from '../domains/program/index.js';
import type { Level } from '../rl/gated-reward.js';
import type { Executor } from '../runtimes/executor.js';
import { runtimeFor, SUPPORTED } from './sandbox-fusion.js';
import type { VerifyRequest } from './schemas.js';

export interface TestVerdict {
  index: number;
  status: Status;
  time_ms: number;
}

/** A failure (core/verdict.ts) on the wire: the stdin test, its status, and the end of what the program wrote to stderr. */
export interface FailingTest extends Failure {
  index: number;
  input: string;
  expected: string;
  actual: string;
  stderr: string;
  status: Status;
}

/** What /v1/verify says about one candidate, whatever form its tests take. */
export interface CandidateVerdictOf<Failure> {
  id: string;
  status: Status;
  passed: number;
  total: number;
  pass_rate: number | null;
  reward: number | null;
  gates: Record<Level, number> | null;
  first_failed_level: Level | null;
  reason?: string;
  first_failure: Failure | null;
  minimal_failure: Failure | null;
}

export interface CandidateVerdict extends CandidateVerdictOf<FailingTest> {
  /** The failing test with the shortest input: the smallest example of the fault among the tests. */
  minimal_failure: FailingTest | null;
  tests: TestVerdict[];
}

import type { VerifyProgress } from '../domains/request.js';

export type { VerifyProgress };

const SNIPPET = 2000;
/**
 * Candidates judged at once. Each runs its tests as one batch that the executor bounds, so
 * this keeps a large pool busy when candidates have one test each without putting every
 * test of a big request in flight (a queue holds what is in flight).
 */
const CANDIDATES_AT_ONCE = 32;

/** A /v1/verify body that cannot be judged as sent (the message says why): a 400. */
export class VerifyError extends BadRequestError {}

/**
 * Runs the whole request through `executor`. `onProgress` is told after every test;
 * `onCandidate` as soon as a candidate has all its verdicts.
 */
export async function verify(
  executor: Executor,
  body: VerifyRequest,
  hooks: {
    onProgress?: (p: VerifyProgress) => void;
    onCandidate?: (v: CandidateVerdict, index: number) => void;
    signal?: AbortSignal;
  } = {},
): Promise<{ results: CandidateVerdict[]; summary: Record<string, unknown> }> {
  const language = runtimeFor(body.language);
  if (!language)
    throw new VerifyError(`language ${body.language} is not run by this server (it runs ${SUPPORTED.join(', ')})`);
  const started = performance.now();
  const task: StdinTask = {
    id: 'request',
    language,
    tests: body.tests.map((t) => ({ stdin: t.stdin, expectedStdout: t.expected_stdout, public: t.public })),
    compare: body.compare,
    limits: {
      ...(body.limits.time_seconds ? { wallSeconds: body.limits.time_seconds } : {}),
      ...(body.limits.memory_mb ? { memoryBytes: body.limits.memory_mb * 2 ** 20 } : {}),
      ...(body.limits.output_bytes ? { outputBytes: body.limits.output_bytes } : {}),
    },
    stopOnFirstFailure: body.stop_on_first_failure,
  };
  const pack = programPack(executor);
  const checks = prepareStdinChecks(task, { audience: 'scorer' });
  const candidates = body.candidates.map((c, i) =>
    typeof c === 'string' ? { id: String(i), code: c } : { id: c.id ?? String(i), code: c.code },
  );
  const total = candidates.length * body.tests.length;
  let done = 0;
  const onTest = () => {
    done++;
    hooks.onProgress?.({ done, total });
  };
  const results = await pMap(
    candidates,
    async (candidate, i) => {
      const report = await pack.verify(checks, candidate.code, {
        onTest,
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        ...(body.weights ? { weights: body.weights } : {}),
      });
      const verdict = candidateVerdict(candidate.id, report, body);
      hooks.onCandidate?.(verdict, i);
      return verdict;
    },
    { concurrency: CANDIDATES_AT_ONCE },
  );
  const counts: Record<string, number> = {};
  for (const v of results) counts[v.status] = (counts[v.status] ?? 0) + 1;
  return {
    results,
    summary: {
      candidates: candidates.length,
      tests: body.tests.length,
      executions: done,
      status_counts: counts,
      seconds: (performance.now() - started) / 1000,
    },
  };
}

/** One candidate's report on the wire. */
function candidateVerdict(id: string, report: ProgramReport, body: VerifyRequest): CandidateVerdict {
  const tests: TestVerdict[] = [];
  let firstFailure: FailingTest | null = null;
  let minimal: FailingTest | null = null;
  report.tests.forEach((run, index) => {
    if (!run) return;
    tests.push({ index, status: run.status, time_ms: Math.round(run.result.wallSeconds * 1e5) / 100 });
    if (run.status === 'pass' || run.status === 'no-verdict') return;
    const test = body.tests[index]!;
    const failing: FailingTest = {
      index,
      input: test.stdin.slice(0, SNIPPET),
      expected: test.expected_stdout.slice(0, SNIPPET),
      actual: run.result.stdout.slice(0, SNIPPET),
      stderr: run.result.stderr.slice(-SNIPPET),
      status: run.status,
      message: run.status === 'fail' ? 'output differs from expected' : (run.result.message ?? run.status),
    };
    firstFailure ??= failing;
    if (!minimal || failing.input.length < minimal.input.length) minimal = failing;
  });
  const passed = tests.filter((t) => t.status === 'pass').length;
  const { reward } = report;
  const common = {
    id,
    status: report.verdict.status,
    passed,
    total: body.tests.length,
    first_failure: firstFailure,
    minimal_failure: minimal,
    tests,
  };
  if (reward.reward === null)
    return { ...common, pass_rate: null, reward: null, gates: null, first_failed_level: null, reason: reward.reason };
  return {
    ...common,
    pass_rate: passed / body.tests.length,
    reward: reward.reward,
    gates: { ...reward.gates },
    first_failed_level: reward.firstFailed,
  };
}
