/**
 * The SQL pack's checks for a task: the reference's result on the task's own database
 * (`base`), and on databases generated from its schema (`generated`, test-suite accuracy) —
 * each database kept only if the reference runs on it, and among those the ones that tell
 * the most results apart. A task has no hidden tests beyond its reference, so a solver and a
 * scorer see the same checks; `base` gates `generated` in the reward.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { DEFAULT_SQL_LIMITS, type SqlRequest, type SqlResult, type SqlRunner } from '../../runtimes/sql-pool.js';
import type { Checks, PrepareOptions } from '../types.js';
import { compareToReference, type ResultTable } from './compare.js';
import {
  generateDatabases,
  inlineDatabase,
  referenceLiterals,
  type GeneratedDatabase,
  type ImpliedKeys,
  type TableInfo,
} from './generate.js';
import { hardCodedValues } from './hard-coded.js';
import { queryMutants, type QueryMutant } from './mutants.js';
import { DEFAULT_MUTANT_SECONDS, PreparationBudget, type SqlPrepareLimits } from './preparation-budget.js';
import { impliedUnique, queryOn, readSchema, sampleValues } from './schema.js';
import { withEngineOrder, type RunOnDatabase } from './sort-keys.js';
import { BASE, DEFAULT_DATABASES, GENERATED, type SqlTask } from './task.js';

export { BASE, DEFAULT_DATABASES, GENERATED } from './task.js';

/** One database the reference ran on, and its result. */
export interface DatabaseCheck {
  readonly database: SqlRequest['database'];
  /** Generated databases: their rows, to shrink and to show. */
  readonly rows?: GeneratedDatabase;
  readonly expected: ResultTable;
}

/** A database queries are run on to compare them with one another (selection), judged or not. */
export interface ProbeDatabase {
  readonly database: SqlRequest['database'];
  readonly rows?: GeneratedDatabase;
}

export interface SqlChecks extends Checks<SqlTask> {
  readonly base?: DatabaseCheck;
  readonly generated: readonly DatabaseCheck[];
  /** The task's database and the generated ones; without the oracle (`oracle: false`) they are generated from the schema alone and judged by nobody. */
  readonly probeDatabases: readonly ProbeDatabase[];
  readonly tables: readonly TableInfo[];
  /** The reference does not run on the task's database: the task is broken, not a candidate. */
  readonly referenceProblem?: string;
  /** The sandbox failed while preparing, or nobody waits for it any more: do not keep these checks. */
  readonly incomplete?: string;
  /** The preparation stopped early (its budget, a runaway mutant), and says so: the checks are what ran. */
  readonly stopped?: string;
}

const digest = (table: ResultTable) => createHash('sha256').update(JSON.stringify(table.rows)).digest('hex');

export async function prepareSqlChecks(
  runner: SqlRunner,
  task: SqlTask,
  options: PrepareOptions & SqlPrepareLimits,
): Promise<SqlChecks> {
  const { database } = task;
  const count = options.probes ?? DEFAULT_DATABASES;
  const budget = new PreparationBudget(runner, options);
  const run: Query = (request, signal) => budget.run(request, signal);
  if (options.oracle === false) return unjudged(run, task, options.seed, count, budget);
  const reference = await run({ database, sql: task.reference });
  if (reference.status !== 'ok') {
    const why = `the reference does not run on the task's database (${reference.status}${reference.message ? `: ${reference.message}` : ''})`;
    return describe(task, {
      generated: [],
      tables: [],
      probeDatabases: [],
      ...(reference.status === 'no-verdict' ? { incomplete: budget.stopped ?? why } : { referenceProblem: why }),
    });
  }
  const base: DatabaseCheck = { database, expected: await expectation(run, database, task.reference, reference) };
  if (count === 0) return describe(task, { base, generated: [], tables: [], probeDatabases: [base], ...ended(budget) });
  const schema = await schemaOf(run, task);
  if ('incomplete' in schema)
    return describe(task, {
      base,
      generated: [],
      tables: [],
      probeDatabases: [base],
      ...(budget.stopped !== undefined ? ended(budget) : { incomplete: schema.incomplete }),
    });
  const { tables, samples, unique } = schema;
  // Three times the databases asked for: some the reference cannot run on, many give the same result.
  const drawn = generateDatabases(tables, {
    seed: options.seed,
    count: count * 3,
    literals: referenceLiterals(task.reference),
    samples,
    unique,
  });
  const runs = await Promise.all(
    drawn.map(async (rows) => {
      const generated = inlineDatabase(task.dialect, tables, rows);
      const result = await run({ database: generated, sql: task.reference });
      return {
        rows,
        database: generated,
        result: await withEngineOrder(onDatabase(run, generated), task.reference, result),
      };
    }),
  );
  const mutants = [
    ...queryMutants(task.reference),
    ...(await hardCodedValues(
      queryOn((request) => run(request), database),
      task.reference,
    )),
  ];
  const { generated, mutantsStopped } = await distil(run, task.reference, mutants, runs, count, options, budget);
  return describe(task, {
    base,
    generated,
    tables,
    probeDatabases: [base, ...generated],
    ...(budget.stopped !== undefined ? ended(budget) : mutantsStopped ? { stopped: mutantsStopped } : {}),
  });
}

/** One query of a preparation (preparation-budget.ts), stopped by `signal` too. */
type Query = (request: SqlRequest, signal?: AbortSignal) => Promise<SqlResult>;

/** How the preparation ended early, as the checks say it: abandoned (not to be kept), or at its budget. */
function ended(budget: PreparationBudget): Pick<SqlChecks, 'incomplete' | 'stopped'> {
  const stopped = budget.stopped;
  if (stopped === undefined) return {};
  return budget.abandoned ? { incomplete: stopped } : { stopped };
}

async function schemaOf(
  query: Query,
  task: SqlTask,
): Promise<
  | { tables: TableInfo[]; samples: Awaited<ReturnType<typeof sampleValues>>; unique: ImpliedKeys }
  | { incomplete: string }
> {
  try {
    const run = queryOn((request) => query(request), task.database);
    const tables = await readSchema(run, task.dialect);
    const [samples, unique] = await Promise.all([sampleValues(run, tables), impliedUnique(run, tables)]);
    return { tables, samples, unique };
  } catch (error) {
    return { incomplete: (error as Error).message };
  }
}

/**
 * The values a question names: its numbers and quoted words ("more than 500 people" → 500).
 * Without the reference, they are what puts generated rows on both sides of the queries' predicates.
 */
export function questionLiterals(question: string): (string | number)[] {
  const numbers = [...question.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g)].map((m) => Number(m[0]));
  const quoted = [...question.matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => (m[1] ?? m[2])!);
  return [...new Set<string | number>([...numbers, ...quoted])];
}

/** Without the oracle: the task's database and databases generated from its schema and the question's values (no literal of the reference), for comparing queries. */
async function unjudged(
  run: Query,
  task: SqlTask,
  seed: number,
  count: number,
  budget: PreparationBudget,
): Promise<SqlChecks> {
  const schema = await schemaOf(run, task);
  if ('incomplete' in schema)
    return describe(task, {
      generated: [],
      tables: [],
      probeDatabases: [{ database: task.database }],
      ...(budget.stopped !== undefined ? ended(budget) : { incomplete: schema.incomplete }),
    });
  const drawn =
    count > 0
      ? generateDatabases(schema.tables, {
          seed,
          count,
          literals: questionLiterals(task.question),
          samples: schema.samples,
          unique: schema.unique,
        })
      : [];
  const probeDatabases = [
    { database: task.database },
    ...drawn.map((rows) => ({ rows, database: inlineDatabase(task.dialect, schema.tables, rows) })),
  ];
  return describe(task, { generated: [], tables: schema.tables, probeDatabases, ...ended(budget) });
}

/**
 * The databases to keep (Zhong, Yu & Klein's distillation): greedily, the one that tells the
 * reference from the most of its own mutants (mutants.ts; each kind of fault weighing the
 * same) not yet told apart, until no
 * database tells another; then one per reference result not yet kept, non-empty ones first;
 * then the rest in order. A mutant that does not run, or runs the same everywhere, decides nothing.
 */
async function distil(
  run: Query,
  reference: string,
  mutants: readonly QueryMutant[],
  drawn: readonly Run[],
  count: number,
  limits: SqlPrepareLimits,
  budget: PreparationBudget,
): Promise<{ generated: DatabaseCheck[]; mutantsStopped?: string }> {
  const ran = drawn.filter((r) => r.result.status === 'ok');
  // Each kind of fault weighs the same in all: a query with many columns has many column swaps,
  // and the databases that catch them must not crowd out those that catch a DISTINCT or a literal.
  const perOperator = new Map<string, number>();
  for (const m of mutants) perOperator.set(m.operator, (perOperator.get(m.operator) ?? 0) + 1);
  const weight = mutants.map((m) => 1 / perOperator.get(m.operator)!);
  // A mutant past its short limit (a runaway: a bound dropped, AND made OR) would be one on the
  // other databases too: the first ends the mutants' part, and none of them decides anything.
  const floor = limits.mutantSeconds ?? DEFAULT_MUTANT_SECONDS;
  const stop = new AbortController();
  // Every mutant query listens to it: hundreds at once, by design.
  setMaxListeners(0, stop.signal);
  let mutantsStopped: string | undefined;
  // kills[d]: the mutants database d tells from the reference.
  let kills = await Promise.all(
    ran.map(async (r) => {
      const wallSeconds = Math.min(
        DEFAULT_SQL_LIMITS.wallSeconds,
        Math.max(floor, MUTANT_TIMES_REFERENCE * r.result.wallSeconds),
      );
      const results = await Promise.all(
        mutants.map(async (m) => {
          const result = await run({ database: r.database, sql: m.sql, limits: { wallSeconds } }, stop.signal);
          if (result.status === 'timeout' && !stop.signal.aborted) {
            mutantsStopped = `the mutants were stopped at the first that ran past ${wallSeconds} s (${m.operator}): the generated databases were chosen by the reference's results alone`;
            stop.abort();
          }
          return result;
        }),
      );
      return new Set(
        results.flatMap((result, m) =>
          result.status === 'ok' && !compareToReference(reference, r.result, result).equal ? [m] : [],
        ),
      );
    }),
  );
  // Stopped part way (a runaway, or the budget), which mutants ran depends on timing: none decides.
  if (mutantsStopped !== undefined || budget.stopped !== undefined) kills = kills.map(() => new Set());
  const chosen: number[] = [];
  const killed = new Set<number>();
  while (chosen.length < count) {
    let best = -1;
    let gain = 0;
    kills.forEach((set, d) => {
      if (chosen.includes(d)) return;
      const fresh = [...set].filter((m) => !killed.has(m)).reduce((sum, m) => sum + weight[m]!, 0);
      if (fresh > gain) [best, gain] = [d, fresh];
    });
    if (best < 0) break;
    chosen.push(best);
    for (const m of kills[best]!) killed.add(m);
  }
  const seen = new Set(chosen.map((d) => digest(ran[d]!.result)));
  const distinct = ran.flatMap((run, d) =>
    chosen.includes(d) || seen.has(digest(run.result)) ? [] : (seen.add(digest(run.result)), [d]),
  );
  distinct.sort((a, b) => Number(ran[b]!.result.rows.length > 0) - Number(ran[a]!.result.rows.length > 0) || a - b);
  const rest = ran.flatMap((_, d) => (chosen.includes(d) || distinct.includes(d) ? [] : [d]));
  const generated = [...chosen, ...distinct, ...rest].slice(0, count).map((d) => {
    const { rows, database, result } = ran[d]!;
    const { columns, rows: expected, order } = result;
    return { database, rows, expected: { columns, rows: expected, ...(order ? { order } : {}) } };
  });
  return { generated, ...(mutantsStopped ? { mutantsStopped } : {}) };
}

/** A mutant's time limit on a database, in times the reference's own there (at least `mutantSeconds`). */
const MUTANT_TIMES_REFERENCE = 10;

/** Queries on one database. */
const onDatabase =
  (run: Query, database: SqlRequest['database']): RunOnDatabase =>
  (sql, limits) =>
    run({ database, sql, ...(limits ? { limits } : {}) });

/** What a candidate's result on a database is compared with: the reference's, ordered as the engine found (sort-keys.ts). */
async function expectation(
  run: Query,
  database: SqlRequest['database'],
  reference: string,
  result: SqlResult,
): Promise<ResultTable> {
  const { columns, rows, order } = await withEngineOrder(onDatabase(run, database), reference, result);
  return { columns, rows, ...(order ? { order } : {}) };
}

interface Run {
  readonly rows: GeneratedDatabase;
  readonly database: SqlRequest['database'];
  /** The reference's result, with its order from the engine. */
  readonly result: SqlResult & Pick<ResultTable, 'order'>;
}

function describe(task: SqlTask, parts: Omit<SqlChecks, 'task' | 'publicSuites' | 'description' | 'count'>): SqlChecks {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const described = [
    parts.base ? "the reference's result on the task's database" : '',
    parts.generated.length ? `${plural(parts.generated.length, 'generated database')}` : '',
  ].filter(Boolean);
  return {
    task,
    publicSuites: new Set(parts.base ? [BASE] : []),
    description:
      described.join(', ') || `nothing (${parts.referenceProblem ?? parts.incomplete ?? 'no reference result'})`,
    count: (parts.base ? 1 : 0) + (parts.generated.length ? 1 : 0),
    ...parts,
  };
}
