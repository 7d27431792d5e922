/**
 * `POST /v1/verify`: many candidates × many stdin/stdout tests in one request. Each
 * candidate gets per-test statuses, its first and its smallest failing input, the plain
 * pass rate and the gated reward of rl/gated-reward.ts (parses → loads → runs → public
 * tests → hidden tests). A test the sandbox could not judge makes the candidate
 * `no-verdict` with reward null: never a 0 or a 1 it did not earn.
 */
import { BadRequestError } from '../core/errors.js';
import type { Language } from '../core/task.js';
import type { Status } from '../core/verdict.js';
import type { ProgramResult } from '../runtimes/program-worker.js';
import { gatedReward, type Level } from '../rl/gated-reward.js';
import { gatedLevels } from '../verify/gated-levels.js';
import type { Executor, ProgramJob } from './executor.js';
import { runtimeFor, SUPPORTED } from './sandbox-fusion.js';
import type { VerifyRequest } from './schemas.js';

export interface TestVerdict {
  index: number;
  status: Status;
  time_ms: number;
}

export interface FailingTest {
  index: number;
  input: string;
  expected: string;
  actual: string;
  stderr: string;
  status: Status;
  message: string;
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

export interface VerifyProgress {
  done: number;
  total: number;
}

const SNIPPET = 2000;

function compare(actual: string, expected: string, mode: VerifyRequest['compare']): boolean {
  if (mode === 'exact') return actual === expected;
  if (mode === 'whitespace') return actual.trim().split(/\s+/).join(' ') === expected.trim().split(/\s+/).join(' ');
  return actual.replace(/\n+$/, '') === expected.replace(/\n+$/, '');
}

function testStatus(result: ProgramResult, expected: string, mode: VerifyRequest['compare']): Status {
  if (result.status === 'ok') return compare(result.stdout, expected, mode) ? 'pass' : 'fail';
  return result.status;
}

/** A /v1/verify body that cannot be judged as sent (the message says why): a 400. */
export class VerifyError extends BadRequestError {}

/**
 * Runs the whole request through `executor`. `onProgress` is told after every test;
 * `onCandidate` as soon as a candidate has all its verdicts.
 */
export async function verify(
  executor: Executor,
  body: VerifyRequest,
  hooks: { onProgress?: (p: VerifyProgress) => void; onCandidate?: (v: CandidateVerdict, index: number) => void; signal?: AbortSignal } = {},
): Promise<{ results: CandidateVerdict[]; summary: Record<string, unknown> }> {
  const language = runtimeFor(body.language);
  if (!language) throw new VerifyError(`language ${body.language} is not run by this server (it runs ${SUPPORTED.join(', ')})`);
  const started = performance.now();
  const candidates = body.candidates.map((c, i) => (typeof c === 'string' ? { id: String(i), code: c } : { id: c.id ?? String(i), code: c.code }));
  const limits = {
    ...(body.limits.time_seconds ? { wallSeconds: body.limits.time_seconds } : {}),
    ...(body.limits.memory_mb ? { memoryBytes: body.limits.memory_mb * 2 ** 20 } : {}),
    ...(body.limits.output_bytes ? { outputBytes: body.limits.output_bytes } : {}),
  };
  const tests = body.tests;
  const results: Array<Array<{ status: Status; result: ProgramResult } | undefined>> = candidates.map(() => new Array(tests.length));
  const remaining = candidates.map(() => tests.length);
  const stopped = candidates.map(() => false);
  const total = candidates.length * tests.length;
  let done = 0;
  const verdicts: CandidateVerdict[] = new Array(candidates.length);

  const finishOne = (c: number) => {
    verdicts[c] = candidateVerdict(candidates[c]!.id, results[c]!, body);
    hooks.onCandidate?.(verdicts[c]!, c);
  };
  const record = (c: number, t: number, result: ProgramResult | undefined) => {
    if (result) results[c]![t] = { status: testStatus(result, tests[t]!.expected_stdout, body.compare), result };
    const status = results[c]![t]?.status;
    if (status && status !== 'pass' && body.stop_on_first_failure) stopped[c] = true;
    done++;
    hooks.onProgress?.({ done, total });
    remaining[c] = remaining[c]! - 1;
    if (remaining[c] === 0) finishOne(c);
  };

  // The first test of every candidate runs alone: a program that does not compile fails
  // every test the same way, without running them.
  const first: ProgramJob[] = candidates.map((c) => ({ language, request: { code: c.code, stdin: tests[0]!.stdin, limits } }));
  await executor.runBatch(first, (c, result) => record(c, 0, result), { signal: hooks.signal });
  const rest: Array<{ c: number; t: number }> = [];
  candidates.forEach((_, c) => {
    const head = results[c]![0];
    const compileError = head?.result.status === 'error' && head.result.phase === 'compile';
    for (let t = 1; t < tests.length; t++) {
      if (compileError) {
        results[c]![t] = head;
        record(c, t, undefined);
      } else rest.push({ c, t });
    }
  });
  const jobs = rest.map(({ c, t }): ProgramJob => ({ language: language as Language, request: { code: candidates[c]!.code, stdin: tests[t]!.stdin, limits } }));
  await executor.runBatch(jobs, (j, result) => record(rest[j]!.c, rest[j]!.t, result), { signal: hooks.signal, skip: (j) => stopped[rest[j]!.c]! });
  // Tests skipped after a first failure (stop_on_first_failure) have no verdict entry.
  candidates.forEach((_, c) => {
    if (!verdicts[c]) finishOne(c);
  });
  const counts: Record<string, number> = {};
  for (const v of verdicts) counts[v.status] = (counts[v.status] ?? 0) + 1;
  return {
    results: verdicts,
    summary: {
      candidates: candidates.length,
      tests: tests.length,
      executions: done,
      status_counts: counts,
      seconds: (performance.now() - started) / 1000,
    },
  };
}

function failing(index: number, body: VerifyRequest, entry: { status: Status; result: ProgramResult }): FailingTest {
  const test = body.tests[index]!;
  return {
    index,
    input: test.stdin.slice(0, SNIPPET),
    expected: test.expected_stdout.slice(0, SNIPPET),
    actual: entry.result.stdout.slice(0, SNIPPET),
    stderr: entry.result.stderr.slice(-SNIPPET),
    status: entry.status,
    message: entry.status === 'fail' ? 'output differs from expected' : (entry.result.message ?? entry.status),
  };
}

export function candidateVerdict(id: string, entries: ReadonlyArray<{ status: Status; result: ProgramResult } | undefined>, body: VerifyRequest): CandidateVerdict {
  const tests: TestVerdict[] = [];
  let firstFailure: FailingTest | null = null;
  let minimal: FailingTest | null = null;
  let passed = 0;
  let noVerdict: string | undefined;
  let compiles = true;
  entries.forEach((entry, index) => {
    if (!entry) return;
    tests.push({ index, status: entry.status, time_ms: Math.round(entry.result.wallSeconds * 1e5) / 100 });
    if (entry.status === 'no-verdict') noVerdict ??= entry.result.message ?? 'the sandbox failed';
    if (entry.result.phase === 'compile') compiles = false;
    if (entry.status === 'pass') passed++;
    else if (entry.status !== 'no-verdict') {
      const f = failing(index, body, entry);
      firstFailure ??= f;
      if (!minimal || f.input.length < minimal.input.length) minimal = f;
    }
  });
  // Each stdin test is its own run of the program: its own load, a unit of one test.
  const levels = gatedLevels({
    parses: compiles,
    loads: { loaded: tests.filter((t) => t.status !== 'error').length, of: tests.length },
    units: tests.map((t) => ({ status: t.status, passed: t.status === 'pass' ? 1 : 0, total: 1, public: body.tests[t.index]!.public })),
    ...(noVerdict !== undefined ? { noVerdict } : {}),
  });
  const reward = gatedReward(levels, body.weights);
  const status: Status = noVerdict ? 'no-verdict' : ((firstFailure as FailingTest | null)?.status ?? 'pass');
  const common = { id, status, passed, total: body.tests.length, first_failure: firstFailure, minimal_failure: minimal, tests };
  if (reward.reward === null) return { ...common, pass_rate: null, reward: null, gates: null, first_failed_level: null, reason: reward.reason };
  return { ...common, pass_rate: passed / body.tests.length, reward: reward.reward, gates: { ...reward.gates }, first_failed_level: reward.firstFailed };
}
