/**
 * `crucible eval` on SQL tasks (a task file with `"domain": "sql"`, text2sql-data, Spider or
 * BIRD): the samples (or, without --samples, the tasks' references and their known rewrites)
 * judged by the SQL pack on the task's database, and with --augment on generated ones.
 */
import { evalDocument } from '../bench/eval-document.js';
import { evaluateSqlSamples, readSqlSamples, referenceSamples, sqlSuites } from '../bench/evaluate-sql.js';
import { summarize } from '../bench/evaluate.js';
import { formatFirstFailures, formatSamples, formatSummary } from '../bench/report.js';
import { chooseSeed } from '../core/seed.js';
import { readSqlTasks, sqlEngines, sqlPack, type SqlChecks, type SqlTask } from '../domains/sql/index.js';
import { staticJudge } from '../domains/sql/static-judge.js';
import type { Candidate } from '../core/task.js';
import type { SampleResult } from '../bench/evaluate.js';
import { sqlRunnerFromFlags } from './harness-from-flags.js';
import type { EvalFlags } from './eval-command.js';
import { interruptOnSigint } from './interrupt.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import type { CommandResult } from './recording.js';

const SAMPLE_LINES_UP_TO = 100;
const FAILURES_PER_STATUS = 3;

/** Execution-free scoring: equivalent passes, different fails, and what the normalisation cannot tell is no verdict. */
function staticResults(tasks: readonly SqlTask[], samples: readonly Candidate[]): SampleResult[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return samples.map((sample) => {
    const t0 = performance.now();
    const verdict = staticJudge(byId.get(sample.taskId)!.reference, sample.program);
    const status = verdict === 'equivalent' ? 'pass' : verdict === 'different' ? 'fail' : 'no-verdict';
    const message = {
      equivalent: 'the same query as the reference, normalised',
      different: 'differs from the reference where the result must differ',
      unknown: 'the static judge cannot tell: judge by execution (without --judge static)',
    }[verdict];
    const failure = status === 'pass' ? null : { input: null, expected: null, actual: null, message };
    return {
      task_id: sample.taskId,
      index: sample.index,
      program: sample.program,
      status,
      suites: { static: { status, passed: status === 'pass' ? 1 : 0, total: 1, first_failure: failure } },
      first_failure: failure,
      time_ms: performance.now() - t0,
      reward: null,
    };
  });
}

export async function judgeSqlSamples(
  flags: EvalFlags & { readonly dataset: string; readonly judge?: string },
): Promise<CommandResult> {
  const tasks = readSqlTasks(flags.dataset);
  const candidates = flags.samples ? readSqlSamples(flags.samples, tasks) : referenceSamples(tasks);
  const sampled = new Set(candidates.map((c) => c.taskId));
  const judged = tasks.filter((t) => sampled.has(t.id)).slice(0, flags.limit ?? Infinity);
  const kept = new Set(judged.map((t) => t.id));
  const samples = candidates.filter((c) => kept.has(c.taskId));
  if (flags.judge === 'static') {
    const started = performance.now();
    const results = staticResults(judged, samples);
    const summary = summarize(
      judged.map((task) => ({ id: task.id, suites: [{ name: 'static' }] })),
      results,
      (performance.now() - started) / 1000,
    );
    if (results.length <= SAMPLE_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
    process.stdout.write(formatSummary(`${flags.dataset} (static judge)`, summary) + '\n');
    const document = evalDocument(
      {
        dataset: { name: flags.dataset, path: flags.dataset },
        samplesPath: flags.samples ?? null,
        harness: { settings: { judge: 'static' } },
        sandbox: undefined,
        interrupted: false,
      },
      summary,
      results,
    );
    await writeJsonDocument(flags.json, document);
    return { interrupted: false, document, headline: document.summary };
  }
  const runner = sqlRunnerFromFlags(flags);
  const pack = sqlPack(runner);
  const seed = chooseSeed(flags.seed);
  const probes = flags.augment ? (flags.augmentInputs ?? undefined) : 0;
  if (flags.augment)
    process.stderr.write(
      `crucible: generating databases for ${judged.length} tasks with seed ${seed} (replay with --seed ${seed})\n`,
    );
  const preparing = createProgress('databases');
  const progress = createProgress('eval');
  const interrupt = interruptOnSigint('finishing the queries in flight');
  const started = performance.now();
  let results: Awaited<ReturnType<typeof evaluateSqlSamples>>;
  const checks = new Map<string, SqlChecks>();
  try {
    for (const [i, task] of judged.entries()) {
      checks.set(
        task.id,
        await pack.prepare(task, { audience: 'scorer', seed, ...(probes !== undefined ? { probes } : {}) }),
      );
      preparing.update(i + 1, judged.length);
    }
    preparing.stop();
    results = await evaluateSqlSamples(pack, checks, samples, {
      concurrency: 2 * runner.size,
      shrink: flags.augment === true,
      signal: interrupt.signal,
      onResult: (_, done, total) => progress.update(done, total),
    });
  } finally {
    interrupt.dispose();
    preparing.stop();
    progress.stop();
    await runner.close();
  }
  const interrupted = interrupt.signal.aborted;
  if (interrupted) process.exitCode = 130;
  const summary = summarize(
    judged.map((task) => sqlSuites(task, flags.augment === true)),
    results,
    (performance.now() - started) / 1000,
  );
  if (results.length <= SAMPLE_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
  else if (results.some((r) => r.status !== 'pass'))
    process.stdout.write(formatFirstFailures(results, FAILURES_PER_STATUS) + '\n\n');
  const name = `${flags.dataset}${flags.samples ? '' : ' (references and their known rewrites)'}`;
  process.stdout.write(formatSummary(name, summary) + '\n');
  const broken = [...checks.values()].filter((c) => c.referenceProblem !== undefined);
  if (broken.length)
    process.stdout.write(
      `${broken.length} task(s) whose reference does not run, e.g. ${broken[0]!.task.id}: ${broken[0]!.referenceProblem}\n`,
    );
  const document = evalDocument(
    {
      dataset: { name, path: flags.dataset },
      samplesPath: flags.samples ?? null,
      harness: { settings: { engine: sqlEngines(judged), workers: runner.size } },
      sandbox: flags.sandbox,
      interrupted,
      ...(flags.augment
        ? { augment: { seed, databases: Object.fromEntries([...checks].map(([id, c]) => [id, c.generated.length])) } }
        : {}),
    },
    summary,
    results,
  );
  await writeJsonDocument(flags.json, document);
  return { interrupted, document, headline: document.summary };
}
