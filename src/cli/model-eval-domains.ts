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
import { suiteSize } from '../verify/harness.js';
import type { ModelEvalFlags } from './eval-model-options.js';
import { harnessFromFlags, sqlRunnerFromFlags } from './harness-from-flags.js';

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
  return sql ? sqlDomain(flags, flags.dataset!, seed) : codeDomain(flags, seed);
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
