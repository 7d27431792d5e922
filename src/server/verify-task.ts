/**
 * `POST /v1/verify` for function-style tasks: a task written in the request (prompt, entry
 * point, reference, tests, test code) or one record of a dataset (HumanEval, HumanEval+,
 * MBPP+, MultiPL-E, HumanEvalPack, QuixBugs), judged through the code pack
 * (src/domains/code) as a scorer: the prompt's examples (vetted against the reference) and
 * public tests, the hidden tests, and with `augment` generated inputs judged against the
 * reference, a failure shrunk to a minimal counterexample. One shared `Harness` caches the
 * reference's outputs per task object, and the prepared checks are kept per request hash.
 * This file translates requests into tasks and reports into the wire format; each
 * candidate gets the pack's gated reward, and a sandbox failure is `no-verdict` with reward
 * null, never a 0 or a 1.
 */
import pMap from 'p-map';
import { createHash } from 'node:crypto';
import { detectFormat, parseJsonlLine } from '../datasets/index.js';
import { IDENTIFIER } from '../datasets/validate.js';
import { scanTopLevel, topLevelKeys } from '../core/raw-json.js';
import type { Language, ScriptSuite, Suite, Task } from '../core/task.js';
import type { Failure, Status, SuiteVerdict, Verdict } from '../core/verdict.js';
import {
  EXAMPLE_PREFIX,
  generatedSummary,
  prepareCodeChecks,
  verifyProgram,
  type CodeChecks,
  type CodeReport,
} from '../domains/code/index.js';
import { findPromptExamples, publicSuites, type PromptExample } from '../domains/code/generate/examples.js';
import { Harness, type HarnessOptions } from '../domains/code/harness.js';
import type { Metrics } from './metrics.js';
import type { FunctionTask, FunctionVerifyRequest } from './schemas.js';
import { VerifyError, type CandidateVerdictOf, type VerifyProgress } from './verify.js';

const SNIPPET = 2000;
const STOPPED = 'not judged: the request was stopped';
/** Prepared tasks kept (least recently used first out); each holds its reference's outputs through the harness. */
const CACHE_SIZE = 128;

/** A failure (core/verdict.ts) on the wire: with the suite it happened in and its status. */
export interface TaskFailure extends Failure {
  suite: string;
  status: Status;
  /** minimal_failure from shrinking: the shrunk and the original argument lists (JSON), and shrink rounds. */
  arguments?: string;
  original?: string;
  rounds?: number;
}

export interface SuiteSummary {
  name: string;
  /** public tests (prompt examples, public tests) gate the hidden ones in the reward. */
  public: boolean;
  status: Status;
  passed: number;
  total: number;
}

export interface TaskCandidateVerdict extends CandidateVerdictOf<TaskFailure> {
  /** The shrunk counterexample from generated inputs when there is one, else the first failure. */
  minimal_failure: TaskFailure | null;
  suites: SuiteSummary[];
  type_errors?: readonly string[];
  /** TypeScript: why the type check was not done (the compiler ran past its time or heap). */
  type_check_not_done?: string;
}

/** What the response says about the task: where it came from, what checked it. */
export interface TaskInfo {
  id: string;
  language: Language;
  source: string;
  entry_point: string;
  has_reference: boolean;
  suites: string[];
  examples: { used: number; dropped: string[] };
  /** inferred_domain: the task states no contract, so generated inputs were kept only where they look like its examples (this says how). */
  generated?: { seed: number; inputs: number; rejected: number; inferred_domain?: string; skipped?: string };
  cached: boolean;
}

interface Prepared {
  readonly checks: CodeChecks;
  /** Suites made from one test (examples, tests): the test's source text, for failures the judge gives no input for. */
  readonly tests: ReadonlyMap<string, PromptExample>;
  readonly info: Omit<TaskInfo, 'cached'>;
  /** The preparation met a sandbox failure: do not keep it. */
  readonly transient?: boolean;
}

export interface TaskHooks {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: (progress: VerifyProgress) => void;
  readonly onCandidate?: (verdict: TaskCandidateVerdict, index: number) => void;
}

export interface TaskVerifierOptions {
  /** Options of the shared harness (workers, sandbox); it is created at the first function-style request. */
  readonly harness?: HarnessOptions;
  /** A harness to use instead (not closed by close()). */
  readonly sharedHarness?: Harness;
  readonly metrics?: Metrics;
  readonly cacheSize?: number;
}

/** The function-style half of /v1/verify: one per server, owning one Harness. */
export class TaskVerifier {
  private harness: Harness | undefined;
  private readonly cache = new Map<string, Promise<Prepared>>();
  private closed = false;

  constructor(private readonly options: TaskVerifierOptions = {}) {
    this.harness = options.sharedHarness;
  }

  /** The shared harness, created on first use (creating it checks that the sandbox works). */
  getHarness(): Harness {
    if (this.closed) throw new Error('the server is shutting down');
    this.harness ??= new Harness({ typeCheck: true, ...this.options.harness, untrustedTests: true });
    return this.harness;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    if (this.harness && this.harness !== this.options.sharedHarness) await this.harness.close();
    this.harness = undefined;
  }

  /**
   * Reads the task without running anything, so a malformed task is a 400 before any work
   * (and before an event stream starts). Throws VerifyError.
   */
  check(body: FunctionVerifyRequest, rawBody: string): void {
    if (body.dataset_record !== undefined) {
      fromRecord(recordLine(body.dataset_record, rawBody));
      return;
    }
    const t = body.task!;
    const { suites, task } = fromTaskField(t);
    const examples =
      (body.prompt_examples ?? task.reference !== undefined) &&
      findPromptExamples(task.prompt, task.entryPoint, task.language).length > 0;
    const generated = body.augment !== undefined && task.reference !== undefined;
    if (suites.length === 0 && !examples && !generated) {
      throw new VerifyError(
        'nothing to check the candidates against: give task.tests, task.test_code, or task.reference with augment (examples in the prompt count when there is a reference, or with prompt_examples: true)',
      );
    }
    if (
      body.candidates.some((c) => typeof c === 'object' && 'completion' in c) &&
      t.completion_prefix === undefined &&
      !t.prompt
    ) {
      throw new VerifyError(
        'a {completion} candidate is appended to the prompt (or task.completion_prefix): the task has neither',
      );
    }
  }

  async verify(body: FunctionVerifyRequest, rawBody: string, hooks: TaskHooks = {}) {
    const started = performance.now();
    const harness = this.getHarness();
    // Preparation is not abandoned with the request: it is cached and shared, and the client's
    // retry (verl retries a 504) finds it done. Candidates not started when `signal` aborts never start.
    const { prepared, cached } = await this.prepared(body, rawBody);
    const { task } = prepared.checks;
    const candidates = body.candidates.map((c, i) =>
      typeof c === 'string'
        ? { id: String(i), program: c }
        : { id: c.id ?? String(i), program: 'code' in c ? c.code : task.completionPrefix + c.completion },
    );
    const verdicts: TaskCandidateVerdict[] = new Array(candidates.length);
    let done = 0;
    hooks.onProgress?.({ done, total: candidates.length });
    await pMap(
      candidates,
      async (c, i) => {
        if (hooks.signal?.aborted) return;
        const judgeStarted = performance.now();
        verdicts[i] = await this.judgeOne(harness, prepared, c.id, c.program, body, hooks.signal);
        // Work abandoned meanwhile is no outcome to count (nor a sandbox failure).
        if (!hooks.signal?.aborted)
          this.options.metrics?.recordExecution(
            task.language,
            verdicts[i]!.status,
            (performance.now() - judgeStarted) / 1000,
          );
        hooks.onCandidate?.(verdicts[i]!, i);
        hooks.onProgress?.({ done: ++done, total: candidates.length });
      },
      { concurrency: Math.max(1, harness.workerCount) },
    );
    const results = verdicts.map((v, i) => v ?? noVerdictOf(candidates[i]!.id, STOPPED));
    const counts: Record<string, number> = {};
    for (const v of results) counts[v.status] = (counts[v.status] ?? 0) + 1;
    return {
      results,
      summary: {
        candidates: candidates.length,
        task: { ...prepared.info, cached },
        status_counts: counts,
        seconds: (performance.now() - started) / 1000,
      },
    };
  }

  /** The prepared task for this request: from the cache when the same task (and augment options) came before. */
  private async prepared(
    body: FunctionVerifyRequest,
    rawBody: string,
  ): Promise<{ prepared: Prepared; cached: boolean }> {
    const record = body.dataset_record === undefined ? undefined : recordLine(body.dataset_record, rawBody);
    const key = createHash('sha256')
      .update(JSON.stringify([record ?? body.task, body.augment ?? null, body.prompt_examples ?? null]))
      .digest('hex');
    let entry = this.cache.get(key);
    const cached = entry !== undefined;
    if (entry) {
      this.cache.delete(key); // most recently used last
      this.cache.set(key, entry);
    } else {
      entry = this.prepare(body, record);
      this.cache.set(key, entry);
      while (this.cache.size > (this.options.cacheSize ?? CACHE_SIZE))
        this.cache.delete(this.cache.keys().next().value!);
      entry.then(
        (p) => p.transient && this.cache.delete(key),
        () => this.cache.delete(key),
      );
    }
    return { prepared: await entry, cached };
  }

  private async prepare(body: FunctionVerifyRequest, record: string | undefined): Promise<Prepared> {
    const base = record !== undefined ? fromRecord(record) : fromTaskField(body.task!);
    const { task } = base;
    const checks = await prepareCodeChecks(
      this.getHarness(),
      { ...task, suites: base.suites.filter((s) => !base.publicNames.has(s.name)) },
      {
        audience: 'scorer',
        seed: body.augment?.seed ?? 0,
        probes: body.augment?.inputs ?? 0,
        // The prompt's examples as public tests: checked against the reference first, when there is one.
        promptExamples: body.prompt_examples ?? task.reference !== undefined,
        publicTests: base.suites.filter((s) => base.publicNames.has(s.name)),
        // Generation starts from the examples and the tests' inputs (or the dataset's first io suite).
        seedInputs: [...base.tests.values()],
      },
    );
    if (checks.referenceProblem !== undefined) throw new VerifyError(checks.referenceProblem);
    if (checks.count === 0) {
      throw new VerifyError(
        'nothing to check the candidates against: give task.tests, task.test_code, or a reference with augment (a prompt with examples also counts when there is a reference or prompt_examples is true)',
      );
    }
    const generated = generatedSummary(checks);
    const tests = new Map([...base.tests, ...checks.examples.map((e, i) => [`${EXAMPLE_PREFIX}${i + 1}`, e] as const)]);
    return {
      checks,
      tests,
      info: {
        id: task.id,
        language: task.language,
        source: task.source,
        entry_point: task.entryPoint,
        has_reference: task.reference !== undefined,
        suites: checks.task.suites.map((s) => s.name),
        examples: { used: checks.examples.length, dropped: [...checks.droppedExamples] },
        ...(body.augment
          ? {
              generated: {
                seed: body.augment.seed,
                inputs: generated.kept,
                rejected: generated.rejected,
                ...(generated.inferredDomain !== undefined ? { inferred_domain: generated.inferredDomain } : {}),
                ...(generated.skipped !== undefined ? { skipped: generated.skipped } : {}),
              },
            }
          : {}),
      },
      ...(checks.incomplete !== undefined ? { transient: true } : {}),
    };
  }

  /**
   * `signal` aborts when nobody will read the verdict: the judge running is stopped (its
   * workers are replaced), and the runs that would follow it (the load probe, shrinking) do
   * not start; the verdict is then not given.
   */
  private async judgeOne(
    harness: Harness,
    prepared: Prepared,
    id: string,
    program: string,
    body: FunctionVerifyRequest,
    signal?: AbortSignal,
  ): Promise<TaskCandidateVerdict> {
    const { checks } = prepared;
    let report: CodeReport;
    try {
      report = await verifyProgram(harness, checks, program, {
        shrink: !body.stop_on_first_failure,
        ...(signal ? { signal } : {}),
        ...(body.weights ? { weights: body.weights } : {}),
      });
    } catch (error) {
      return noVerdictOf(id, `the judge failed: ${(error as Error).message}`);
    }
    const { verdict, reward } = report;
    if (signal?.aborted) return noVerdictOf(id, STOPPED, verdict);
    if (report.noVerdict !== undefined) return noVerdictOf(id, report.noVerdict, verdict);
    if (reward.reward === null) return noVerdictOf(id, reward.reason, verdict);
    const suites: SuiteSummary[] = verdict.suites.map((s) => ({
      name: s.name,
      public: checks.publicSuites.has(s.name),
      status: s.status,
      passed: s.passed,
      total: s.total,
    }));
    const sum = (f: (s: SuiteVerdict) => number) => verdict.suites.reduce((n, s) => n + f(s), 0);
    const passed = sum((s) => s.passed);
    const total = sum((s) => s.total);
    const failed = verdict.suites.find((s) => s.status !== 'pass');
    const firstFailure = failed
      ? this.failureOf(prepared, failed)
      : verdict.status !== 'pass' && verdict.firstFailure
        ? fromFailure('types', verdict.status, verdict.firstFailure)
        : null;
    const cx = report.counterexample;
    const minimal = cx
      ? {
          ...fromFailure(cx.suite, 'fail', cx),
          arguments: cx.shrunk.slice(0, SNIPPET),
          original: cx.original.slice(0, SNIPPET),
          rounds: cx.rounds,
        }
      : firstFailure;
    return {
      id,
      status: verdict.status,
      passed,
      total,
      pass_rate: total ? passed / total : null,
      reward: reward.reward,
      gates: { ...reward.gates },
      first_failed_level: reward.firstFailed,
      first_failure: firstFailure,
      minimal_failure: minimal,
      suites,
      ...(verdict.typeErrors?.length ? { type_errors: verdict.typeErrors.slice(0, 20) } : {}),
      ...(verdict.typeCheckNotDone ? { type_check_not_done: verdict.typeCheckNotDone } : {}),
    };
  }

  private failureOf(prepared: Prepared, suite: SuiteVerdict): TaskFailure {
    const f = suite.firstFailure ?? { input: null, expected: null, actual: null, message: suite.status };
    // A request's own test names its input and expected output where the judge gave none.
    const test = prepared.tests.get(suite.name);
    return fromFailure(
      suite.name,
      suite.status,
      test ? { ...f, input: f.input ?? test.argsText, expected: f.expected ?? test.outputText } : f,
    );
  }
}

function fromFailure(suite: string, status: Status, f: Failure): TaskFailure {
  const cut = (s: string | null) => (s === null ? null : s.slice(0, SNIPPET));
  return {
    suite,
    status,
    input: cut(f.input),
    expected: cut(f.expected),
    actual: cut(f.actual),
    message: f.message.slice(0, SNIPPET),
  };
}

function noVerdictOf(id: string, reason: string, verdict?: Verdict): TaskCandidateVerdict {
  return {
    id,
    status: 'no-verdict',
    passed: 0,
    total: verdict ? verdict.suites.reduce((n, s) => n + s.total, 0) : 0,
    pass_rate: null,
    reward: null,
    gates: null,
    first_failed_level: null,
    reason: `${reason}; the sandbox failed, not the program (retry or drop this rollout)`.slice(0, SNIPPET),
    first_failure: null,
    minimal_failure: null,
    suites: verdict
      ? verdict.suites.map((s) => ({ name: s.name, public: false, status: s.status, passed: s.passed, total: s.total }))
      : [],
  };
}

interface BaseTask {
  readonly task: Task;
  readonly suites: readonly Suite[];
  readonly publicNames: ReadonlySet<string>;
  readonly tests: ReadonlyMap<string, PromptExample>;
  /** The task has io suites of its own (EvalPlus): generation starts from the first one's inputs. */
  readonly ownIo?: boolean;
}

/** A task written in the request. */
function fromTaskField(t: FunctionTask): BaseTask {
  const language: Language = t.language === 'nodejs' ? 'javascript' : t.language;
  if (t.contract !== undefined && language !== 'python')
    throw new VerifyError('task.contract is for Python tasks (EvalPlus contracts); leave it out');
  const prompt = t.prompt.endsWith('\n') || t.prompt === '' ? t.prompt : `${t.prompt}\n`;
  const task: Task = {
    id: t.id ?? 'task',
    language,
    prompt,
    entryPoint: t.entry_point,
    completionPrefix: t.completion_prefix ?? prompt,
    ...(t.reference !== undefined ? { reference: t.reference } : {}),
    ...(t.contract?.trim() ? { contract: t.contract } : {}),
    knownWrong: [],
    suites: [],
    source: 'request',
  };
  const suites: Suite[] = [];
  const publicNames = new Set<string>();
  const tests = new Map<string, PromptExample>();
  (t.tests ?? []).forEach((test, i) => {
    const example = { argsText: test.input, outputText: test.output };
    const name = `${test.public ? 'public' : 'hidden'}/${i + 1}`;
    suites.push({ ...publicSuites(language, t.entry_point, [example])[0]!, name });
    tests.set(name, example);
    if (test.public) publicNames.add(name);
  });
  if (t.test_code !== undefined && t.test_code.trim()) {
    const check = language === 'python' && /^def\s+check\s*\(/m.test(t.test_code);
    const script: ScriptSuite = {
      kind: 'script',
      name: 'test_code',
      code: t.test_code,
      ...(check ? { invoke: `check(${t.entry_point})` } : {}),
    };
    suites.push(script);
  }
  return { task, suites, publicNames, tests };
}

/** The record's JSONL line: the string itself, or the object's source text in the body (so Python floats such as 1.0 stay floats). */
function recordLine(record: string | Record<string, unknown>, rawBody: string): string {
  if (typeof record === 'string') return record.trim();
  try {
    const field = scanTopLevel(rawBody).find((f) => f.key === 'dataset_record');
    if (field) return rawBody.slice(field.start, field.end);
  } catch {
    // fall through: the parsed object loses only the spelling of floats
  }
  return JSON.stringify(record);
}

/** One dataset record, read by the dataset loaders (the format detected from its fields). */
function fromRecord(line: string): BaseTask {
  let loaded;
  try {
    const spec = detectFormat(topLevelKeys(line), 'dataset_record');
    loaded = spec.load(parseJsonlLine('dataset_record', { lineNo: 1, text: line }, spec.rawFields), 'dataset_record');
  } catch (error) {
    throw new VerifyError(
      `dataset_record: ${(error as Error).message.replace(/^dataset_record(:1)?: /, '').slice(0, 1500)}`,
    );
  }
  const { task } = loaded;
  // The entry point names a function in the judge and in patterns over the prompt: nothing else.
  if (!IDENTIFIER.test(task.entryPoint))
    throw new VerifyError(
      `dataset_record: the entry point ${JSON.stringify(task.entryPoint.slice(0, 100))} is not a function name`,
    );
  const publicTest = loaded.publicTest;
  const suites = [...(publicTest ? [publicTest] : []), ...task.suites];
  return {
    task: { ...task, suites: [] },
    suites,
    publicNames: new Set(publicTest ? [publicTest.name] : []),
    tests: new Map(),
    ownIo: task.suites.some((s) => s.kind === 'io'),
  };
}
