/**
 * The SQL pack: a query over a task's database (SQLite), judged on real engines — on the
 * task's own database and on databases generated from its schema (test-suite accuracy) —
 * with the smallest distinguishing database as the counterexample.
 */
import { createHash } from 'node:crypto';
import { fencedBlocks } from '../code/extract.js';
import type { SqlRunner } from '../../runtimes/sql-pool.js';
import type { Behaviour, DomainPack, Probe } from '../types.js';
import { prepareSqlChecks, type ProbeDatabase, type SqlChecks } from './checks.js';
import { orderRule } from './order.js';
import type { SqlTask } from './task.js';
import { verifyQuery, type SqlReport } from './verify.js';

export {
  BASE,
  DEFAULT_DATABASES,
  GENERATED,
  prepareSqlChecks,
  type DatabaseCheck,
  type ProbeDatabase,
  type SqlChecks,
} from './checks.js';
export { DEFAULT_MUTANT_SECONDS, type SqlPrepareLimits } from './preparation-budget.js';
export { distinctReferences, isSqlTaskFile, readSqlTasks } from './read-tasks.js';
export { sqlEngines, type SqlDatabase, type SqlTask } from './task.js';
export { verifyQuery, type SqlCounterexample, type SqlReport } from './verify.js';

/** A database to run queries on, as a probe: its text is the database's rows. */
export interface SqlProbe extends Probe {
  readonly check: ProbeDatabase;
}

export type SqlPack = Omit<DomainPack<SqlTask, string, SqlChecks, SqlProbe>, 'verify' | 'prepare'> & {
  /** Preparation with its signal, lane and budget too (preparation-budget.ts). */
  prepare(task: SqlTask, options: Parameters<typeof prepareSqlChecks>[2]): Promise<SqlChecks>;
  verify(checks: SqlChecks, sql: string, options?: Parameters<typeof verifyQuery>[3]): Promise<SqlReport>;
};

/** The query in a reply: an ```sql block, else the first block, else the reply itself; one statement, without its final semicolon. */
export function extractQuery(reply: string): string | undefined {
  const blocks = fencedBlocks(reply);
  const text = (blocks.find((b) => b.lang === 'sql') ?? blocks[0])?.code ?? reply;
  const query = text.trim().replace(/;\s*$/, '').trim();
  return query === '' ? undefined : query;
}

/** The pack bound to the runner whose sandboxed workers run its queries. */
export function sqlPack(runner: SqlRunner): SqlPack {
  return {
    name: 'sql',
    extract(_task, reply) {
      const query = extractQuery(reply);
      return query === undefined ? undefined : { artifact: query, form: 'query' };
    },
    prepare: (task, options) => prepareSqlChecks(runner, task, options),
    verify: (checks, sql, options) => verifyQuery(runner, checks, sql, options),
    probes: (checks) =>
      checks.probeDatabases.map((check) => ({
        check,
        text: check.rows ? JSON.stringify(check.rows) : "the task's database",
      })),
    observe: async (checks, queries, probes): Promise<Behaviour> => ({
      keys: await Promise.all(
        queries.map((sql) =>
          Promise.all(
            probes.map(async ({ check }) => {
              const result = await runner.run({ database: check.database, sql });
              if (result.status === 'no-verdict') return null;
              if (result.status !== 'ok') return `!${result.status}`;
              // Rows compared as a multiset unless the query orders them (as the comparison does).
              const rows = result.rows.map((row) => JSON.stringify(row));
              const ordered = orderRule(sql, result.columns).ordered;
              return `=${createHash('sha256')
                .update(JSON.stringify(ordered ? rows : [...rows].sort()))
                .digest('hex')}`;
            }),
          ),
        ),
      ),
      breaksProperty: queries.map(() => false),
      properties: 0,
    }),
    // New databases come from the generator (a fresh seed), not from mutating one: the hunt adds none.
    neighbours: () => [],
  };
}
