/** `crucible solve`: one task (a function, an SQL query, a game or a document), one model, one strategy, one budget → a verified answer or "abstained: why". */
import { writeFile } from 'node:fs/promises';
import { parseBudget } from '../core/budget.js';
import { storedRunDocument } from '../report/stored-run.js';
import { writeHtmlReport, writeReport } from '../report/write.js';
import { Store } from '../store/index.js';
import {
  codeSubject,
  strategyMisfit,
  prepareCodeChecks,
  solveTask,
  type StrategyResult,
  type Subject,
} from '../strategies/index.js';
import { sqlSubject } from '../strategies/sql-subject.js';
import { gamesSubject } from '../strategies/games-subject.js';
import { docsSubject } from '../strategies/docs-subject.js';
import { docsPack, type DocTask } from '../domains/docs/index.js';
import { BrowserRuntime } from '../browser/runtime.js';
import { gamesPack, type GameTask } from '../domains/games/index.js';
import { writePlan } from '../domains/games/write-plan.js';
import type { Model } from '../models/index.js';
import { sqlPack, type SqlTask } from '../domains/sql/index.js';
import { SqlRunner } from '../runtimes/sql-pool.js';
import type { Harness } from '../verify/harness.js';
import { chooseSeed } from '../core/seed.js';
import { browserFromFlags, harnessFromFlags, sqlRunnerFromFlags } from './harness-from-flags.js';
import { openModel, strategyOptions } from './strategy-flags.js';
import type { SolveFlags, StrategyFlags } from './solve-options.js';
import {
  readDocTaskSource,
  readGameTaskSource,
  readSqlTaskSource,
  readTaskSource,
  type TaskSource,
} from './task-source.js';

export async function runSolve(flags: SolveFlags): Promise<void> {
  const budget = parseBudget(flags.budget);
  const sql = readSqlTaskSource(flags.task);
  const game = sql ? undefined : readGameTaskSource(flags.task);
  const doc = sql || game ? undefined : readDocTaskSource(flags.task);
  const misfit = strategyMisfit(
    flags.strategy,
    sql ? 'sql' : game ? 'games' : doc ? 'docs' : 'code',
    `${sql ? 'an SQL' : game ? 'a games' : doc ? 'a docs' : 'a function'} task`,
  );
  if (misfit) throw new Error(misfit);
  const source = sql || game || doc ? undefined : await readTaskSource(flags.task);
  const label = sql?.label ?? game?.label ?? doc?.label ?? source!.label;
  const options = await strategyOptions(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(
    `crucible: ${flags.strategy} on ${(sql ?? game ?? doc ?? source)!.task.id} with ${flags.model}, seed ${seed} (replay with --seed ${seed}${flags.offline ? '' : ' --offline'})\n`,
  );
  const model = await openModel(flags);
  const runtime = sql ? sqlRunnerFromFlags(flags) : game || doc ? browserFromFlags(flags) : harnessFromFlags(flags);
  const store = new Store(flags.db);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  try {
    const subject =
      runtime instanceof SqlRunner
        ? await sqlTarget(runtime, sql!.task, flags, seed)
        : runtime instanceof BrowserRuntime
          ? doc
            ? await docsTarget(runtime, doc.task)
            : await gamesTarget(runtime, game!.task, flags, seed, model)
          : await codeTarget(runtime, source!, flags, seed);
    process.stderr.write(`crucible: checks: ${subject.checks!.description}\n`);
    const { result, runId } = await solveTask({
      subject,
      strategy: flags.strategy,
      model,
      budget,
      seed,
      store,
      options,
      signal: interrupt.signal,
      taskLabel: label,
    });
    process.stdout.write(formatResult(result, runId) + '\n');
    if (flags.out && result.program !== undefined) await writeFile(flags.out, result.program);
    const document = {
      status: result.status,
      program: result.program ?? null,
      reward: result.reward ?? null,
      reason: result.reason,
      attempts: result.attempts,
      usage: result.usage,
      run: runId ?? null,
      task: label,
      domain: subject.pack.name,
      strategy: flags.strategy,
      model: model.spec,
      seed,
    };
    if (flags.json) await writeFile(flags.json, JSON.stringify(document, null, 1) + '\n');
    if (flags.html) {
      // The run as recorded (read back from the store, with every event), else the document.
      const stored = runId === undefined ? undefined : store.getRun(runId);
      if (stored) await writeReport(flags.html, [storedRunDocument(stored.run, stored.events)]);
      else await writeHtmlReport(flags.html, document);
    }
    if (result.status !== 'verified') process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSigint);
    store.close();
    await Promise.all([runtime.close(), model.close()]);
  }
}

/** A document to write, judged by the reviewer on the task's media and its content assertions. */
async function docsTarget(runtime: BrowserRuntime, task: DocTask): Promise<Subject> {
  const checks = await docsPack(runtime).prepare(task, { audience: 'solver', seed: 0 });
  return docsSubject(runtime, task, checks);
}

/** A function to write, checked on the task file's tests, the prompt's examples and generated inputs. */
async function codeTarget(harness: Harness, source: TaskSource, flags: SolveFlags, seed: number): Promise<Subject> {
  const checks = await prepareCodeChecks(harness, source.task, {
    audience: 'solver',
    seed,
    ...(flags.oracle === false ? { oracle: false } : {}),
    examples: source.examples,
    publicTests: source.publicTests,
    ...(flags.inputs ? { probes: flags.inputs } : {}),
  });
  return codeSubject(harness, source.task, checks);
}

/** A query to write, checked on the task's database and on generated ones (--inputs of them) against the reference. */
async function sqlTarget(runner: SqlRunner, task: SqlTask, flags: SolveFlags, seed: number): Promise<Subject> {
  const checks = await sqlPack(runner).prepare(task, {
    audience: 'solver',
    seed,
    ...(flags.oracle === false ? { oracle: false } : {}),
    ...(flags.inputs ? { probes: flags.inputs } : {}),
  });
  if (checks.incomplete)
    throw new Error(`the sandbox failed while preparing ${task.id}'s checks: ${checks.incomplete}`);
  if (checks.referenceProblem) throw new Error(`${task.id} cannot be checked: ${checks.referenceProblem}`);
  return sqlSubject(runner, task, checks);
}

/** A game to write, played with the task's plan (each case checked on the reference first, when there is one). */
async function gamesTarget(
  runtime: BrowserRuntime,
  given: GameTask,
  flags: SolveFlags,
  seed: number,
  model: Model,
): Promise<Subject> {
  let task = given;
  if (task.plan === undefined) {
    // ALIVE's one-shot planning: the model writes the plan from the prompt, once.
    const written = await writePlan(model, task, { seed });
    if ('error' in written)
      throw new Error(`${task.id} has no plan, and the one the model wrote is not valid: ${written.error}`);
    task = { ...task, plan: written.plan };
    process.stderr.write(
      `crucible: ${task.id} has no plan: the model wrote ${written.plan.length} cases${task.reference === undefined ? ' (no reference to check them on)' : ''}\n`,
    );
  }
  const checks = await gamesPack(runtime).prepare(task, {
    audience: 'solver',
    seed,
    ...(flags.oracle === false ? { oracle: false } : {}),
  });
  if (checks.count === 0)
    throw new Error(
      `${task.id} cannot be checked: ${checks.description}. Give the task a "plan" (src/domains/games/README.md has the format)`,
    );
  return gamesSubject(runtime, task, checks);
}

export function formatResult(result: StrategyResult, runId: string | undefined): string {
  const lines: string[] = [];
  if (result.program !== undefined) lines.push(result.program.trimEnd(), '');
  lines.push(result.status === 'abstained' ? `abstained: ${result.reason}` : `${result.status}: ${result.reason}`);
  lines.push(`cost: ${formatUsage(result)}${runId ? ` · run ${runId} (crucible show ${runId})` : ''}`);
  return lines.join('\n');
}

export function formatUsage(result: Pick<StrategyResult, 'usage' | 'attempts'>): string {
  const u = result.usage;
  const dollars = u.costUsd === null ? 'cost unknown' : `$${u.costUsd.toFixed(4)}`;
  return `${u.calls} model call${u.calls === 1 ? '' : 's'}${u.cachedCalls ? ` (${u.cachedCalls} from the cache)` : ''}, ${u.tokens} tokens (${u.inputTokens} in${u.cachedInputTokens ? `, ${u.cachedInputTokens} of them cached` : ''}, ${u.outputTokens} out), ${dollars}; ${result.attempts} program${result.attempts === 1 ? '' : 's'} judged; ${u.wallSeconds.toFixed(1)} s wall, ${u.sandboxSeconds.toFixed(1)} s sandbox`;
}
