/**
 * Judging one query on the SQL pack's checks: its result on the task's database and on each
 * generated one against the reference's; a difference on a generated database is shrunk to
 * the fewest rows on which the two queries still differ (the counterexample a repair round
 * shows the model); and the gated levels — parses → executes → base → generated.
 */
import type { Status, SuiteVerdict, Verdict } from '../../core/verdict.js';
import type { FailureFact } from '../../feedback/facts.js';
import { gatedReward } from '../../rl/gated-reward.js';
import type { SqlLane, SqlRequest, SqlResult, SqlRunner } from '../../runtimes/sql-pool.js';
import { gatedLevels } from '../gated-levels.js';
import type { Report, VerifyOptions } from '../types.js';
import { BASE, GENERATED, type DatabaseCheck, type SqlChecks } from './checks.js';
import { compareToReference, formatRow, type Comparison, type ResultTable } from './compare.js';
import { inlineDatabase, shrinkDatabase, type GeneratedDatabase, type TableInfo } from './generate.js';
import { withEngineOrder } from './sort-keys.js';
import type { SqlDialect } from './task.js';

/** The smallest database found on which the query and the reference differ, as rows a person (or model) reads. */
export interface SqlCounterexample {
  readonly database: Readonly<Record<string, readonly Record<string, unknown>[]>>;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}

export interface SqlReport extends Report {
  readonly counterexample?: SqlCounterexample;
}

/** Engine messages that mean the text is not SQL at all (the first gate), as SQLite words them. */
const SYNTAX = /syntax error|incomplete input|unrecognized token|unterminated/i;
const SHOWN_ROWS = 10;

type Judged = { readonly status: Status; readonly comparison?: Comparison; readonly result: SqlResult };

function judge(check: DatabaseCheck, reference: string, result: SqlResult): Judged {
  if (result.status !== 'ok') return { status: result.status, result };
  const comparison = compareToReference(reference, check.expected, result);
  return { status: comparison.equal ? 'pass' : 'fail', comparison, result };
}

const showRows = (table: Pick<ResultTable, 'rows'>) =>
  table.rows.length === 0
    ? '(no rows)'
    : table.rows.slice(0, SHOWN_ROWS).map(formatRow).join('\n') +
      (table.rows.length > SHOWN_ROWS ? `\n… ${table.rows.length - SHOWN_ROWS} more rows` : '');

const messageOf = (judged: Judged) =>
  judged.comparison && !judged.comparison.equal ? judged.comparison.why : (judged.result.message ?? judged.status);

export async function verifyQuery(
  runner: SqlRunner,
  checks: SqlChecks,
  sql: string,
  options: VerifyOptions & { readonly lane?: SqlLane } = {},
): Promise<SqlReport> {
  const { signal, lane } = options;
  const query = (request: SqlRequest) =>
    runner.run(request, { ...(signal ? { signal } : {}), ...(lane ? { lane } : {}) });
  const run = (check: DatabaseCheck) => query({ database: check.database, sql });
  const reference = checks.task.reference;
  const base = checks.base ? judge(checks.base, reference, await run(checks.base)) : undefined;
  // A query that errs, runs out of time or memory, or floods the output on the task's database would on the others too: they are not run.
  const refused = base !== undefined && base.status !== 'pass' && base.status !== 'fail';
  const generated =
    refused || signal?.aborted
      ? []
      : await Promise.all(checks.generated.map(async (check) => judge(check, reference, await run(check))));
  // Without the reference's result on the task's database nothing can be said of the query: the task is broken (or was not prepared).
  const unjudgeable = checks.base
    ? undefined
    : `not judged: ${checks.referenceProblem ?? checks.incomplete ?? "the reference has no result on the task's database"}`;
  const noVerdict = unjudgeable ?? [base, ...generated].find((j) => j?.status === 'no-verdict')?.result.message;
  const suites: SuiteVerdict[] = [];
  const failures: FailureFact[] = [];
  let counterexample: SqlCounterexample | undefined;
  if (unjudgeable !== undefined)
    suites.push({
      name: BASE,
      status: 'no-verdict',
      passed: 0,
      total: 0,
      firstFailure: { input: null, expected: null, actual: null, message: unjudgeable },
    });
  if (base) {
    suites.push({
      name: BASE,
      status: base.status,
      passed: base.status === 'pass' ? 1 : 0,
      total: 1,
      firstFailure: base.status === 'pass' ? null : failureOf(base, checks.base!, checks.tables),
    });
    if (base.status !== 'pass' && base.status !== 'no-verdict')
      failures.push({ check: "the task's database", ...failureOf(base, checks.base!, checks.tables) });
  }
  if (generated.length > 0) {
    const failedAt = generated.findIndex((j) => j.status !== 'pass');
    const first = generated[failedAt];
    suites.push({
      name: GENERATED,
      status: first?.status ?? 'pass',
      passed: generated.filter((j) => j.status === 'pass').length,
      total: generated.length,
      firstFailure: first ? failureOf(first, checks.generated[failedAt]!, checks.tables) : null,
      ...(failedAt >= 0 ? { failedAt } : {}),
    });
    if (first && first.status !== 'no-verdict') {
      const check = checks.generated[failedAt]!;
      if (options.shrink && first.status === 'fail' && check.rows && !signal?.aborted)
        counterexample = await shrunk(query, checks.task.dialect, checks.tables, reference, sql, check.rows);
      failures.push(
        counterexample
          ? {
              check: 'a generated database',
              input: JSON.stringify(counterexample.database),
              expected: counterexample.expected,
              actual: counterexample.actual,
              message: counterexample.message,
              shrunk: true,
            }
          : { check: 'a generated database', ...failureOf(first, check, checks.tables) },
      );
    }
  }
  const syntax =
    base?.status === 'error' &&
    base.result.phase === 'prepare' &&
    !base.result.refused &&
    SYNTAX.test(base.result.message ?? '');
  const levels = gatedLevels({
    parses: !syntax,
    loads: { loaded: base && base.status !== 'error' ? 1 : 0, of: 1 },
    units: suites.map((s) => ({ status: s.status, passed: s.passed, total: s.total, public: s.name === BASE })),
    ...(noVerdict !== undefined ? { noVerdict } : {}),
  });
  const status: Status =
    noVerdict !== undefined ? 'no-verdict' : (suites.find((s) => s.status !== 'pass')?.status ?? 'pass');
  const verdict: Verdict = {
    status,
    suites,
    firstFailure: suites.find((s) => s.status !== 'pass')?.firstFailure ?? null,
    timeMs: Math.round([base, ...generated].reduce((sum, j) => sum + (j?.result.wallSeconds ?? 0), 0) * 1000),
    ...(base?.status === 'error' ? { loadFailure: base.result.message ?? 'the query does not run' } : {}),
  };
  const unchecked = checks.count === 0;
  return {
    verdict,
    passed: !unchecked && status === 'pass',
    unchecked,
    failures,
    publicChecks: { passed: base?.status === 'pass' ? 1 : 0, total: checks.publicSuites.size },
    levels,
    reward: gatedReward(levels, options.weights),
    ...(noVerdict !== undefined ? { noVerdict } : {}),
    ...(counterexample ? { counterexample } : {}),
  };
}

function failureOf(judged: Judged, check: DatabaseCheck, tables: readonly TableInfo[]) {
  return {
    input: check.rows ? JSON.stringify(rowObjects(check.rows, tables)) : null,
    expected: showRows(check.expected),
    actual: judged.result.status === 'ok' ? showRows(judged.result) : null,
    message: messageOf(judged),
  };
}

/** A generated database as `{TABLE: [{column: value}]}`, the tables with rows only. */
function rowObjects(db: GeneratedDatabase, tables: readonly TableInfo[]): Record<string, Record<string, unknown>[]> {
  const columnsOf = (name: string) => tables.find((t) => t.name === name)?.columns.map((c) => c.name);
  return Object.fromEntries(
    Object.entries(db)
      .filter(([, rows]) => rows.length > 0)
      .map(([name, rows]) => {
        const columns = columnsOf(name);
        return [name, rows.map((row) => Object.fromEntries(row.map((v, i) => [columns?.[i] ?? `column ${i + 1}`, v])))];
      }),
  );
}

async function shrunk(
  query: (request: SqlRequest) => Promise<SqlResult>,
  dialect: SqlDialect,
  tables: readonly TableInfo[],
  reference: string,
  sql: string,
  rows: GeneratedDatabase,
): Promise<SqlCounterexample | undefined> {
  let last: { expected: SqlResult; actual: SqlResult; comparison: Comparison } | undefined;
  const differs = async (db: GeneratedDatabase) => {
    const database = inlineDatabase(dialect, tables, db);
    const [expected, actual] = await Promise.all([
      query({ database, sql: reference }).then((result) =>
        withEngineOrder(
          (keyed, limits) => query({ database, sql: keyed, ...(limits ? { limits } : {}) }),
          reference,
          result,
        ),
      ),
      query({ database, sql }),
    ]);
    if (expected.status !== 'ok' || actual.status !== 'ok') return false;
    const comparison = compareToReference(reference, expected, actual);
    if (!comparison.equal) last = { expected, actual, comparison };
    return !comparison.equal;
  };
  if (!(await differs(rows))) return undefined;
  const { database } = await shrinkDatabase(rows, differs);
  // The last difference seen may be of a larger database: look at the smallest once more.
  if (!(await differs(database)) || !last) return undefined;
  const { expected, actual, comparison } = last;
  return {
    database: rowObjects(database, tables),
    expected: showRows(expected),
    actual: showRows(actual),
    message: comparison.equal ? '' : comparison.why,
  };
}
