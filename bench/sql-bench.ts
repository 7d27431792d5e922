/**
 * `npm run bench:sql`: the SQL pack on GeoQuery (text2sql-data; ../shared/datasets), one task
 * per gold query (its first sentence):
 *   1. preparing: the time to generate and distil the databases per task (median, max);
 *   2. the known rewrites (`sql[1:]`) judged against `sql[0]` on the task's database and the
 *      generated ones — each that differs listed with why; and right rewrites that only reorder
 *      tied rows (a tie-breaker appended to each ordered gold's ORDER BY), every sentence;
 *   3. injected bugs (src/domains/sql/mutants.ts and hard-coded.ts): per query how many, the share the engine
 *      rejects, the share `base` alone catches and the share `base + generated` catches;
 *   4. speed: queries judged per second on `base` and on `generated`, against a baseline
 *      measured in the same run that opens the database in a fresh process per query.
 * BENCH_LIMIT (queries, default all 246), BENCH_SEED (1), BENCH_DATABASES (12).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pMap from 'p-map';
import { readSqlTasks, sqlPack, type SqlChecks, type SqlTask } from '../src/domains/sql/index.js';
import { hardCodedValues } from '../src/domains/sql/hard-coded.js';
import { queryMutants } from '../src/domains/sql/mutants.js';
import { orderRule } from '../src/domains/sql/order.js';
import { queryOn } from '../src/domains/sql/schema.js';
import { staticJudge } from '../src/domains/sql/static-judge.js';
import { resolvePython } from '../src/runtimes/recipes.js';
import { SqlRunner } from '../src/runtimes/sql-pool.js';

const run = promisify(execFile);
const DATA = join(
  import.meta.dirname,
  '..',
  '..',
  'shared',
  'datasets',
  'text2sql-geoquery-restaurants',
  'geography.json',
);
if (!existsSync(DATA)) {
  console.error(`bench:sql needs ${DATA}`);
  process.exit(1);
}
const LIMIT = Number(process.env.BENCH_LIMIT ?? Infinity);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const DATABASES = Number(process.env.BENCH_DATABASES ?? 12);
const cores = availableParallelism();
const log = (text: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

const tasks: SqlTask[] = readSqlTasks(DATA)
  .filter((t) => t.id.endsWith('/0'))
  .slice(0, LIMIT);
const runner = new SqlRunner();
const pack = sqlPack(runner);
log(`${tasks.length} GeoQuery queries, ${DATABASES} databases each, seed ${SEED}, ${runner.size} workers`);

// 1. Preparing.
const checks = new Map<string, SqlChecks>();
const prepareSeconds: number[] = [];
for (const task of tasks) {
  const t0 = performance.now();
  checks.set(task.id, await pack.prepare(task, { audience: 'scorer', seed: SEED, probes: DATABASES }));
  prepareSeconds.push((performance.now() - t0) / 1000);
}
const usable = tasks.filter((t) => checks.get(t.id)!.base !== undefined);
const broken = tasks.filter((t) => checks.get(t.id)!.referenceProblem !== undefined);
const incomplete = tasks.filter((t) => checks.get(t.id)!.incomplete !== undefined);
log('prepared');

// 2. Known rewrites.
const rewrites: string[] = [];
let rewriteCount = 0;
for (const task of usable) {
  for (const [i, sql] of task.equivalents.entries()) {
    rewriteCount++;
    const report = await pack.verify(checks.get(task.id)!, sql, { shrink: true });
    if (!report.passed) {
      const why = report.counterexample
        ? `${report.counterexample.message} on ${JSON.stringify(report.counterexample.database)}`
        : (report.verdict.firstFailure?.message ?? report.verdict.status);
      rewrites.push(
        `- ${task.id} sql[${i + 1}]: ${report.verdict.status} (${report.verdict.suites.map((s) => `${s.name} ${s.status}`).join(', ')}): ${why.slice(0, 300)}`,
      );
    }
  }
}
log('rewrites judged');

// 2b. Right rewrites that only reorder tied rows: every sentence of a gold that orders at its top
// level, with a tie-breaker appended to its ORDER BY (`, 1 ASC` and `, 1 DESC`: the first output
// column), which with LIMIT may keep another row of the group it cuts. All are right; the
// injected `order` bugs (ASC <-> DESC, below) are the control that a wrong order still fails.
const ordered = readSqlTasks(DATA)
  .filter((t) => orderRule(t.reference, []).ordered)
  .slice(0, LIMIT);
const tieBreaking: string[] = [];
let tieRewrites = 0;
for (const task of ordered) {
  const tieChecks = await pack.prepare(task, { audience: 'scorer', seed: SEED, probes: DATABASES });
  if (tieChecks.base === undefined) continue;
  // GeoQuery's top-level ORDER BY ends the query, before its LIMIT and the final semicolon.
  const tail = /(\s+LIMIT\s+\d+)?\s*;?\s*$/i.exec(task.reference)!;
  for (const direction of ['ASC', 'DESC']) {
    const sql = `${task.reference.slice(0, tail.index)}, 1 ${direction}${tail[0]}`;
    tieRewrites++;
    const report = await pack.verify(tieChecks, sql);
    if (!report.passed)
      tieBreaking.push(
        `- ${task.id} (, 1 ${direction}): ${report.verdict.suites.map((s) => `${s.name} ${s.status}`).join(', ')}: ${(report.verdict.firstFailure?.message ?? report.verdict.status).slice(0, 200)}`,
      );
  }
}
log('tie-breaking rewrites judged');

// 3 and 4. Injected bugs, judged on base alone and on base + generated, timed.
interface BugOutcome {
  readonly rejected: boolean;
  readonly base: boolean;
  readonly full: boolean;
}
const mutantsOf = new Map(
  await Promise.all(
    usable.map(
      async (task) =>
        [
          task.id,
          [
            ...queryMutants(task.reference),
            ...(await hardCodedValues(
              queryOn((request) => runner.run(request), task.database),
              task.reference,
            )),
          ],
        ] as const,
    ),
  ),
);
const bugs = usable.flatMap((task) => mutantsOf.get(task.id)!.map((m) => ({ task, sql: m.sql, operator: m.operator })));
const baseOnly = (c: SqlChecks): SqlChecks => ({ ...c, generated: [], count: 1 });
let t0 = performance.now();
const onBase = await pMap(bugs, (bug) => pack.verify(baseOnly(checks.get(bug.task.id)!), bug.sql), {
  concurrency: 2 * runner.size,
});
const baseSeconds = (performance.now() - t0) / 1000;
t0 = performance.now();
const onAll = await pMap(bugs, (bug) => pack.verify(checks.get(bug.task.id)!, bug.sql), {
  concurrency: 2 * runner.size,
});
const allSeconds = (performance.now() - t0) / 1000;
const generatedRuns = bugs.reduce(
  (n, bug, i) => n + (onAll[i]!.verdict.suites.find((s) => s.name === 'generated')?.total ?? 0) + 1,
  0,
);
const outcomes: BugOutcome[] = bugs.map((_, i) => ({
  rejected: onBase[i]!.verdict.status === 'error',
  base: !onBase[i]!.passed,
  full: !onAll[i]!.passed,
}));
const byOperator = new Map<string, { n: number; base: number; full: number }>();
bugs.forEach((bug, i) => {
  const row = byOperator.get(bug.operator) ?? { n: 0, base: 0, full: 0 };
  row.n++;
  if (outcomes[i]!.base) row.base++;
  if (outcomes[i]!.full) row.full++;
  byOperator.set(bug.operator, row);
});
log('bugs judged');

// The execution-free judge against the execution verdicts (base + generated), on the bugs and the rewrites.
const judgedPairs = [
  ...bugs.map((bug, i) => ({ reference: bug.task.reference, sql: bug.sql, passes: onAll[i]!.passed })),
  ...usable.flatMap((task) => task.equivalents.map((sql) => ({ reference: task.reference, sql, passes: true }))),
];
t0 = performance.now();
const staticVerdicts = judgedPairs.map((p) => staticJudge(p.reference, p.sql));
const staticMicros = ((performance.now() - t0) * 1000) / Math.max(1, judgedPairs.length);
const decided = judgedPairs.flatMap((p, i) =>
  staticVerdicts[i] === 'unknown' ? [] : [{ agrees: (staticVerdicts[i] === 'equivalent') === p.passes }],
);

// The baseline: a fresh process per query that opens the database and fetches the rows.
const python = resolvePython();
const file = (usable[0]!.database as { path: string }).path;
const script =
  'import sqlite3, sys\nc = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)\ntry:\n    print(len(c.execute(sys.argv[2]).fetchall()))\nexcept Exception as e:\n    print("error", e)\n';
t0 = performance.now();
await pMap(bugs, (bug) => run(python, ['-c', script, file, bug.sql], { timeout: 10_000 }).catch(() => undefined), {
  concurrency: cores,
});
const freshSeconds = (performance.now() - t0) / 1000;
await runner.close();

const n = outcomes.length;
const rejected = outcomes.filter((o) => o.rejected).length;
const runs = n - rejected;
console.log(
  `\n## bench:sql — GeoQuery (${tasks.length} queries, seed ${SEED}, ${DATABASES} databases per task, ${cores} cores)\n`,
);
console.log(
  `preparing: generate and distil ${DATABASES} databases per task: median ${median(prepareSeconds).toFixed(2)} s, max ${Math.max(...prepareSeconds).toFixed(2)} s; ${broken.length} references do not run${broken.length ? ` (${broken.map((t) => t.id).join(', ')})` : ''}`,
);
console.log(
  `generated databases kept per task: median ${median(usable.map((t) => checks.get(t.id)!.generated.length))}, fewest ${Math.min(...usable.map((t) => checks.get(t.id)!.generated.length))}; ${incomplete.length} tasks not prepared in full (the sandbox failed)${incomplete.length ? `: ${checks.get(incomplete[0]!.id)!.incomplete}` : ''}`,
);
console.log(
  `\nknown rewrites: ${rewriteCount} judged against sql[0], ${rewrites.length} differ${rewrites.length ? ':\n' + rewrites.join('\n') : ''}`,
);
console.log(
  `\nright rewrites that reorder tied rows (a tie-breaker appended to the ORDER BY of the ${ordered.length} ordered golds' sentences): ${tieRewrites - tieBreaking.length} of ${tieRewrites} pass${tieBreaking.length ? ':\n' + tieBreaking.slice(0, 20).join('\n') + (tieBreaking.length > 20 ? `\n… ${tieBreaking.length - 20} more` : '') : ''}`,
);
console.log(
  `\ninjected bugs: ${n} over ${usable.length} queries (median ${median(usable.map((t) => mutantsOf.get(t.id)!.length))} per query); the engine rejects ${rejected} (${pct(rejected, n)})`,
);
console.log(
  `of the ${runs} that run: caught by base alone ${outcomes.filter((o) => !o.rejected && o.base).length} (${pct(outcomes.filter((o) => !o.rejected && o.base).length, runs)}), by base + generated ${outcomes.filter((o) => !o.rejected && o.full).length} (${pct(outcomes.filter((o) => !o.rejected && o.full).length, runs)})`,
);
console.log('\n| mutation | bugs | caught by base | by base + generated |\n|---|---|---|---|');
for (const [operator, row] of [...byOperator].sort((a, b) => b[1].n - a[1].n))
  console.log(`| ${operator} | ${row.n} | ${pct(row.base, row.n)} | ${pct(row.full, row.n)} |`);
console.log(
  `\nexecution-free judge (normalised tokens) on ${judgedPairs.length} pairs (the bugs and the rewrites): decides ${decided.length} (${pct(decided.length, judgedPairs.length)}), agrees with execution on ${decided.filter((d) => d.agrees).length} of them (${pct(decided.filter((d) => d.agrees).length, decided.length)}); ${staticMicros.toFixed(0)} µs per pair`,
);
console.log(
  `\nspeed: base ${(n / baseSeconds).toFixed(0)} queries/s | a fresh process per query ${(n / freshSeconds).toFixed(0)} queries/s | ratio ${(n / baseSeconds / (n / freshSeconds)).toFixed(1)}x`,
);
console.log(
  `speed: base + generated ${(generatedRuns / allSeconds).toFixed(0)} query runs/s (${(n / allSeconds).toFixed(0)} queries/s, each on its task's database and the generated ones)`,
);
