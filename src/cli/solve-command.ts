/** `crucible solve`: one task, one model, one strategy, one budget → a verified program or "abstained: why". */
import { writeFile } from 'node:fs/promises';
import { parseBudget } from '../core/budget.js';
import { Store } from '../store/index.js';
import { prepareCodeChecks, solveTask, type StrategyResult } from '../strategies/index.js';
import { chooseSeed } from '../core/seed.js';
import { harnessFromFlags } from './harness-from-flags.js';
import { openModel, strategyOptions } from './strategy-flags.js';
import type { SolveFlags, StrategyFlags } from './solve-options.js';
import { readTaskSource } from './task-source.js';

export async function runSolve(flags: SolveFlags): Promise<void> {
  const budget = parseBudget(flags.budget);
  const source = await readTaskSource(flags.task);
  const options = await strategyOptions(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(
    `crucible: ${flags.strategy} on ${source.task.id} with ${flags.model}, seed ${seed} (replay with --seed ${seed}${flags.offline ? '' : ' --offline'})\n`,
  );
  const model = await openModel(flags);
  const harness = harnessFromFlags(flags);
  const store = new Store(flags.db);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  try {
    const view = await prepareCodeChecks(harness, source.task, {
      audience: 'solver',
      seed,
      ...(flags.oracle === false ? { oracle: false } : {}),
      examples: source.examples,
      publicTests: source.publicTests,
      ...(flags.inputs ? { probes: flags.inputs } : {}),
    });
    process.stderr.write(`crucible: checks: ${view.description}\n`);
    const { result, runId } = await solveTask({
      task: source.task,
      strategy: flags.strategy,
      model,
      harness,
      budget,
      seed,
      store,
      options,
      view,
      signal: interrupt.signal,
      taskLabel: source.label,
    });
    process.stdout.write(formatResult(result, runId) + '\n');
    if (flags.out && result.program !== undefined) await writeFile(flags.out, result.program);
    if (flags.json) {
      const document = {
        status: result.status,
        program: result.program ?? null,
        reward: result.reward ?? null,
        reason: result.reason,
        attempts: result.attempts,
        usage: result.usage,
        run: runId ?? null,
        task: source.label,
        strategy: flags.strategy,
        model: model.spec,
        seed,
      };
      await writeFile(flags.json, JSON.stringify(document, null, 1) + '\n');
    }
    if (result.status !== 'verified') process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSigint);
    store.close();
    await Promise.all([harness.close(), model.close()]);
  }
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
  return `${u.calls} model call${u.calls === 1 ? '' : 's'}${u.cachedCalls ? ` (${u.cachedCalls} from the cache)` : ''}, ${u.tokens} tokens (${u.inputTokens} in, ${u.outputTokens} out), ${dollars}; ${result.attempts} program${result.attempts === 1 ? '' : 's'} judged; ${u.wallSeconds.toFixed(1)} s wall, ${u.sandboxSeconds.toFixed(1)} s sandbox`;
}
