/** Running one strategy on one task as a recorded run: the store keeps the run and every event. */
import type { Budget } from '../core/budget.js';
import type { Task } from '../core/task.js';
import type { Model } from '../models/index.js';
import type { Store } from '../store/index.js';
import type { Harness } from '../domains/code/harness.js';
import { STRATEGIES, type StrategyName } from './registry.js';
import { memoryTrace, storeTrace } from '../store/trace.js';
import type { StrategyOptions, StrategyResult } from './types.js';
import type { CodeChecks } from '../domains/code/index.js';
import { codeSubject, type Subject } from './subject.js';

/** A function to write (`task`, with the checks solve prepared, if any), or a subject of any domain. */
export type SolveTarget =
  { readonly task: Task; readonly harness: Harness; readonly view?: CodeChecks } | { readonly subject: Subject };

export type SolveOptions = SolveTarget & {
  readonly strategy: StrategyName;
  readonly model: Model;
  readonly budget: Budget;
  readonly seed: number;
  /** Where the run is recorded; without one, events stay in memory. */
  readonly store?: Store;
  readonly options?: StrategyOptions;
  readonly signal?: AbortSignal;
  /** What the run list shows as the task (default: its id). */
  readonly taskLabel?: string;
  readonly meta?: Record<string, unknown>;
};

export interface SolveOutcome {
  readonly result: StrategyResult;
  readonly runId?: string;
}

export async function solveTask(options: SolveOptions): Promise<SolveOutcome> {
  const { store } = options;
  const subject = 'subject' in options ? options.subject : codeSubject(options.harness, options.task, options.view);
  const run = store?.startRun({
    task: options.taskLabel ?? subject.task.id,
    strategy: options.strategy,
    model: options.model.spec,
    budget: options.budget,
    meta: {
      seed: options.seed,
      ...(options.options ? { options: { ...options.options, threshold: options.options.threshold?.threshold } } : {}),
      ...options.meta,
    },
  });
  const trace = store && run ? storeTrace(store, run.id) : memoryTrace();
  try {
    const result = await STRATEGIES[options.strategy](subject, {
      model: options.model,
      budget: options.budget,
      trace,
      seed: options.seed,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.options ? { options: options.options } : {}),
    });
    if (store && run) {
      store.finishRun(run.id, {
        status: result.status,
        summary: {
          reason: result.reason,
          attempts: result.attempts,
          ...(result.program !== undefined ? { program: result.program } : {}),
        },
        usage: {
          modelCalls: result.usage.calls,
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          costUsd: result.usage.costUsd,
          sandboxSeconds: result.usage.sandboxSeconds,
        },
      });
    }
    return { result, ...(run ? { runId: run.id } : {}) };
  } catch (error) {
    if (store && run) {
      const interrupted = options.signal?.aborted;
      store.finishRun(run.id, {
        status: interrupted ? 'interrupted' : 'error',
        summary: { reason: error instanceof Error ? error.message : String(error) },
      });
    }
    throw error;
  }
}
