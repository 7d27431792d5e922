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
import type { Harness } from '../domains/code/harness.js';
import { chooseSeed } from '../core/seed.js';
import { harnessFromFlags, openPackFromFlags } from './harness-from-flags.js';
import { openModel, strategyOptions } from './strategy-flags.js';
import type { SolveFlags } from './flags.js';
import { readPackTaskSource, readTaskSource, type PackTaskSource, type TaskSource } from './task-source.js';
import { installedPacks, type OpenPack } from '../domains/registry.js';
import type { Model } from '../models/index.js';

export async function runSolve(flags: SolveFlags): Promise<void> {
  const budget = parseBudget(flags.budget);
  // A task file of a pack (domains/registry.ts), else a function.
  const packed = readPackTaskSource(flags.task, await installedPacks());
  const misfit = strategyMisfit(
    flags.strategy,
    packed?.module.writes ?? 'function',
    packed ? packed.module.taskNoun : 'a function task',
  );
  if (misfit) throw new Error(misfit);
  const source = packed ? undefined : await readTaskSource(flags.task);
  const label = packed?.label ?? source!.label;
  const options = await strategyOptions(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(
    `crucible: ${flags.strategy} on ${(packed ?? source)!.task.id} with ${flags.model}, seed ${seed} (replay with --seed ${seed}${flags.offline ? '' : ' --offline'})\n`,
  );
  const model = await openModel(flags);
  const runtime = packed ? await openPackFromFlags(packed.module, flags) : harnessFromFlags(flags);
  const store = new Store(flags.db);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  try {
    const subject = packed
      ? await packTarget(runtime as OpenPack, packed, flags, seed, model)
      : await codeTarget(runtime as Harness, source!, flags, seed);
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

/** A task of a pack: made solvable first where the pack says how (games: a plan), then its solver's checks. */
async function packTarget(
  open: OpenPack,
  source: PackTaskSource,
  flags: SolveFlags,
  seed: number,
  model: Model,
): Promise<Subject> {
  const task = source.module.beforeSolve
    ? await source.module.beforeSolve(source.task, {
        model,
        seed,
        log: (line: string) => process.stderr.write(`crucible: ${line}\n`),
      })
    : source.task;
  const checks = await open.pack.prepare(task, {
    audience: 'solver',
    seed,
    ...(flags.oracle === false ? { oracle: false } : {}),
    ...(flags.inputs ? { probes: flags.inputs } : {}),
  });
  const unusable = open.unusable(checks);
  if (unusable) throw new Error(unusable);
  return open.subject(task, checks);
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
