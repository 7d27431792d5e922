/**
 * The SQL pack's checks for a task: the reference's result on the task's own database
 * (`base`), and on databases generated from its schema (`generated`, test-suite accuracy) —
 * each database kept only if the reference runs on it, and among those the ones that tell
 * the most results apart. A task has no hidden tests beyond its reference, so a solver and a
 * scorer see the same checks; `base` gates `generated` in the reward.
 */
import { createHash } from 'node:crypto';
import type { SqlRequest, SqlResult, SqlRunner } from '../../runtimes/sql-pool.js';
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
import { impliedUnique, queryOn, readSchema, sampleValues } from './schema.js';
import { withEngineOrder, type RunOnDatabase } from './sort-keys.js';
import type { SqlTask } from './task.js';

export const BASE = 'base';
export const GENERATED = 'generated';
export const DEFAULT_DATABASES = 12;

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
  /** The sandbox failed while preparing: do not keep these checks. */
  readonly incomplete?: string;
}

const digest = (table: ResultTable) => createHash('sha256').update(JSON.stringify(table.rows)).digest('hex');

export async function prepareSqlChecks(runner: SqlRunner, task: SqlTask, options: PrepareOptions): Promise<SqlChecks> {
  const { database } = task;
  const count = options.probes ?? DEFAULT_DATABASES;
  if (options.oracle === false) return unjudged(runner, task, options.seed, count);
  const reference = await runner.run({ database, sql: task.reference });
  if (reference.status !== 'ok') {
    const why = `the reference does not run on the task's database (${reference.status}${reference.message ? `: ${reference.message}` : ''})`;
    return describe(task, {
      generated: [],
      tables: [],
      probeDatabases: [],
      ...(reference.status === 'no-verdict' ? { incomplete: why } : { referenceProblem: why }),
    });
  }
  const base: DatabaseCheck = { database, expected: await expectation(runner, database, task.reference, reference) };
  if (count === 0) return describe(task, { base, generated: [], tables: [], probeDatabases: [base] });
  const schema = await schemaOf(runner, task);
  if ('incomplete' in schema)
    return describe(task, { base, generated: [], tables: [], probeDatabases: [base], incomplete: schema.incomplete });
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
      const result = await runner.run({ database: generated, sql: task.reference });
      return {
        rows,
        database: generated,
        result: await withEngineOrder(onDatabase(runner, generated), task.reference, result),
      };
    }),
  );
  const mutants = [
    ...queryMutants(task.reference),
    ...(await hardCodedValues(
      queryOn((request) => runner.run(request), database),
      task.reference,
    )),
  ];
  const generated = await distil(runner, task.reference, mutants, runs, count);
  return describe(task, { base, generated, tables, probeDatabases: [base, ...generated] });
}

async function schemaOf(
  runner: SqlRunner,
  task: SqlTask,
): Promise<
  | { tables: TableInfo[]; samples: Awaited<ReturnType<typeof sampleValues>>; unique: ImpliedKeys }
  | { incomplete: string }
> {
  try {
    const run = queryOn((request) => runner.run(request), task.database);
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
async function unjudged(runner: SqlRunner, task: SqlTask, seed: number, count: number): Promise<SqlChecks> {
  const schema = await schemaOf(runner, task);
  if ('incomplete' in schema)
    return describe(task, {
      generated: [],
      tables: [],
      probeDatabases: [{ database: task.database }],
      incomplete: schema.incomplete,
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
  return describe(task, { generated: [], tables: schema.tables, probeDatabases });
}

/**
 * The databases to keep (Zhong, Yu & Klein's distillation): greedily, the one that tells the
 * reference from the most of its own mutants (mutants.ts; each kind of fault weighing the
 * same) not yet told apart, until no
 * database tells another; then one per reference result not yet kept, non-empty ones first;
 * then the rest in order. A mutant that does not run, or runs the same everywhere, decides nothing.
 */
async function distil(
  runner: SqlRunner,
  reference: string,
  mutants: readonly QueryMutant[],
  drawn: readonly Run[],
  count: number,
): Promise<DatabaseCheck[]> {
  const ran = drawn.filter((r) => r.result.status === 'ok');
  // Each kind of fault weighs the same in all: a query with many columns has many column swaps,
  // and the databases that catch them must not crowd out those that catch a DISTINCT or a literal.
  const perOperator = new Map<string, number>();
  for (const m of mutants) perOperator.set(m.operator, (perOperator.get(m.operator) ?? 0) + 1);
  const weight = mutants.map((m) => 1 / perOperator.get(m.operator)!);
  // kills[d]: the mutants database d tells from the reference.
  const kills = await Promise.all(
    ran.map(async (run) => {
      const results = await Promise.all(mutants.map((m) => runner.run({ database: run.database, sql: m.sql })));
      return new Set(
        results.flatMap((result, m) =>
          result.status === 'ok' && !compareToReference(reference, run.result, result).equal ? [m] : [],
        ),
      );
    }),
  );
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
  return [...chosen, ...distinct, ...rest].slice(0, count).map((d) => {
    const { rows, database, result } = ran[d]!;
    const { columns, rows: expected, order } = result;
    return { database, rows, expected: { columns, rows: expected, ...(order ? { order } : {}) } };
  });
}

/** Queries on one database. */
const onDatabase =
  (runner: SqlRunner, database: SqlRequest['database']): RunOnDatabase =>
  (sql, limits) =>
    runner.run({ database, sql, ...(limits ? { limits } : {}) });

/** What a candidate's result on a database is compared with: the reference's, ordered as the engine found (sort-keys.ts). */
async function expectation(
  runner: SqlRunner,
  database: SqlRequest['database'],
  reference: string,
  result: SqlResult,
): Promise<ResultTable> {
  const { columns, rows, order } = await withEngineOrder(onDatabase(runner, database), reference, result);
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
