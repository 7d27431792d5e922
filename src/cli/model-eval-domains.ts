/**
 * What `eval --model` needs of a domain: its tasks, what a solver of each may see (a
 * subject), and how an answer is scored on what the solver never saw. Functions are scored
 * on the dataset's hidden tests; SQL queries on the task's database and on generated ones
 * (test-suite accuracy), with the reference as the oracle.
 */
import { builtinDataset } from '../bench/builtin/index.js';
import { loadDataset } from '../bench/datasets/index.js';
import { toSampleResult, type SampleResult } from '../bench/evaluate.js';
import { toSqlSampleResult } from '../bench/evaluate-sql.js';
import type { DocumentSource } from '../bench/eval-document.js';
import { taskChecks } from '../domains/code/index.js';
import {
  BASE,
  GENERATED,
  readSqlTasks,
  sqlEngines,
  sqlPack,
  type SqlChecks,
  type SqlTask,
} from '../domains/sql/index.js';
import { codeSubject, prepareCodeChecks, verifyProgram, type Identified, type Subject } from '../strategies/index.js';
import { sqlSubject } from '../strategies/sql-subject.js';
import { gamesSubject } from '../strategies/games-subject.js';
import { docsSubject } from '../strategies/docs-subject.js';
import type { BrowserRuntime } from '../browser/runtime.js';
import { CHROMIUM } from '../browser/chromium.js';
import { caseSuite, gamesPack, isGameTaskFile, LOAD_SUITE, readGameTasks } from '../domains/games/index.js';
import { CONTENT_SUITE, docsPack, isDocTaskFile, readDocTasks } from '../domains/docs/index.js';
import type { Checks, Report } from '../domains/types.js';
import { suiteSize } from '../verify/harness.js';
import type { ModelEvalFlags } from './eval-model-options.js';
import { browserFromFlags, harnessFromFlags, sqlRunnerFromFlags } from './harness-from-flags.js';

export interface ScoredSuite {
  readonly name: string;
  readonly total: number;
}

export interface ModelEvalDomain<T extends Identified = Identified> {
  /** The pack's name: `code`, `sql`. */
  readonly domain: string;
  /** The dataset's name, as reports show it. */
  readonly dataset: string;
  readonly tasks: readonly T[];
  /** What judged the answers, for the document. */
  readonly judge: DocumentSource['harness'];
  /** The task as a solver sees it: without the reference as an oracle unless --oracle. */
  subject(task: T): Promise<Subject>;
  /** The answer scored on the checks the solver never saw. */
  score(task: T, answer: string): Promise<SampleResult>;
  /** The suites an answer is scored on (an abstention fails each). */
  suites(task: T): Promise<readonly ScoredSuite[]>;
  close(): Promise<void>;
}

/** The domain of `--dataset` (the built-in tasks without one), with its tasks cut to `--limit`. */
export async function modelEvalDomain(flags: ModelEvalFlags, seed: number): Promise<ModelEvalDomain> {
  const sql =
    flags.dataset !== undefined && (await import('../domains/sql/read-tasks.js')).isSqlTaskFile(flags.dataset);
  if (sql) return sqlDomain(flags, flags.dataset!, seed);
  if (flags.dataset !== undefined && isGameTaskFile(flags.dataset)) return gamesDomain(flags, flags.dataset, seed);
  if (flags.dataset !== undefined && isDocTaskFile(flags.dataset)) return docsDomain(flags, flags.dataset);
  return codeDomain(flags, seed);
}

async function codeDomain(flags: ModelEvalFlags, seed: number): Promise<ModelEvalDomain> {
  const dataset = flags.dataset ? await loadDataset(flags.dataset) : builtinDataset();
  const harness = harnessFromFlags(flags);
  const tasks = dataset.tasks.slice(0, flags.limit ?? dataset.tasks.length);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const task = (id: Identified) => byId.get(id.id)!;
  const publicTests = 'publicTests' in dataset ? dataset.publicTests : undefined;
  return {
    domain: 'code',
    dataset: dataset.name,
    tasks,
    judge: harness,
    async subject(t) {
      const publicTest = publicTests?.get(t.id);
      const view = await prepareCodeChecks(harness, task(t), {
        audience: 'solver',
        seed,
        ...(flags.oracle ? {} : { oracle: false }),
        ...(publicTest ? { publicTests: [publicTest] } : {}),
      });
      return codeSubject(harness, task(t), view);
    },
    // The dataset's own (hidden) tests, which the strategy never saw.
    score: async (t, program) =>
      toSampleResult({ taskId: t.id, index: 0, program }, await verifyProgram(harness, taskChecks(task(t)), program)),
    suites: async (t) => task(t).suites.map((s) => ({ name: s.name, total: suiteSize(s) })),
    close: () => harness.close(),
  };
}

/** Games: written by the solver against the plan's visible cases, scored on every case (hidden ones too). */
function gamesDomain(flags: ModelEvalFlags, file: string, seed: number): ModelEvalDomain {
  const tasks = readGameTasks(file).slice(0, flags.limit ?? Infinity);
  const planless = tasks.filter((t) => t.plan === undefined).map((t) => t.id);
  if (planless.length)
    throw new Error(
      `${file}: ${planless.slice(0, 3).join(', ')}${planless.length > 3 ? ` and ${planless.length - 3} more` : ''} have no plan, so nothing scores them; give each task a "plan" (crucible solve writes one with the model)`,
    );
  const runtime = browserFromFlags(flags);
  const pack = gamesPack(runtime);
  return browserDomain('games', file, tasks, runtime, {
    subject: async (t) =>
      gamesSubject(runtime, t, await pack.prepare(t, { audience: flags.oracle ? 'scorer' : 'solver', seed })),
    scorer: (t) => pack.prepare(t, { audience: 'scorer', seed }),
    verify: (checks, html) => pack.verify(checks, html),
    suites: (checks) => [LOAD_SUITE, ...checks.cases.map(caseSuite)].map((name) => ({ name, total: 1 })),
  });
}

/** Documents: the reviewer and the task's content assertions, the same for the solver and the score. */
function docsDomain(flags: ModelEvalFlags, file: string): ModelEvalDomain {
  const tasks = readDocTasks(file).slice(0, flags.limit ?? Infinity);
  const runtime = browserFromFlags(flags);
  const pack = docsPack(runtime);
  return browserDomain('docs', file, tasks, runtime, {
    subject: async (t) => docsSubject(runtime, t, await pack.prepare(t, { audience: 'solver', seed: 0 })),
    scorer: (t) => pack.prepare(t, { audience: 'scorer', seed: 0 }),
    verify: (checks, html) => pack.verify(checks, html),
    suites: (checks) =>
      [...checks.publicSuites].map((name) => ({ name, total: name === CONTENT_SUITE ? checks.expect.length : 1 })),
  });
}

/** A domain judged in the browser: the scorer's checks prepared once per task, each suite one check. */
function browserDomain<T extends Identified, C extends Checks<T>>(
  domain: string,
  file: string,
  tasks: readonly T[],
  runtime: BrowserRuntime,
  how: {
    subject(task: T): Promise<Subject>;
    scorer(task: T): Promise<C>;
    verify(checks: C, html: string): Promise<Report>;
    suites(checks: C): readonly ScoredSuite[];
  },
): ModelEvalDomain {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const task = (id: Identified): T => byId.get(id.id)!;
  const scoring = new Map<string, Promise<C>>();
  const scorerChecks = (t: T) => {
    let checks = scoring.get(t.id);
    if (!checks) scoring.set(t.id, (checks = how.scorer(t)));
    return checks;
  };
  return {
    domain,
    dataset: file,
    tasks,
    judge: { settings: { browser: CHROMIUM, ...runtime.limits } },
    subject: (t) => how.subject(task(t)),
    score: async (t, html) =>
      toSqlSampleResult({ taskId: t.id, index: 0, program: html }, await how.verify(await scorerChecks(task(t)), html)),
    suites: async (t) => how.suites(await scorerChecks(task(t))),
    close: () => runtime.close(),
  };
}

function sqlDomain(flags: ModelEvalFlags, file: string, seed: number): ModelEvalDomain {
  const tasks = readSqlTasks(file).slice(0, flags.limit ?? Infinity);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const task = (id: Identified): SqlTask => byId.get(id.id)!;
  const runner = sqlRunnerFromFlags(flags);
  const pack = sqlPack(runner);
  // The scorer's checks (the task's database and generated ones), prepared once per task.
  const scoring = new Map<string, Promise<SqlChecks>>();
  const scorerChecks = (t: SqlTask) => {
    let checks = scoring.get(t.id);
    if (!checks) scoring.set(t.id, (checks = pack.prepare(t, { audience: 'scorer', seed })));
    return checks;
  };
  return {
    domain: 'sql',
    dataset: file,
    tasks,
    judge: { settings: { engine: sqlEngines(tasks), workers: runner.size } },
    async subject(t) {
      const checks = flags.oracle
        ? await scorerChecks(task(t))
        : await pack.prepare(task(t), { audience: 'solver', seed, oracle: false });
      return sqlSubject(runner, task(t), checks);
    },
    score: async (t, query) =>
      toSqlSampleResult(
        { taskId: t.id, index: 0, program: query },
        await pack.verify(await scorerChecks(task(t)), query),
      ),
    suites: async (t) => {
      const checks = await scorerChecks(task(t));
      return [
        { name: BASE, total: 1 },
        ...(checks.generated.length ? [{ name: GENERATED, total: checks.generated.length }] : []),
      ];
    },
    close: () => runner.close(),
  };
}
