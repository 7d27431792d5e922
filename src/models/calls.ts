/**
 * Asking the model within a budget, each call recorded as a prompt event and a response event
 * (its child), and its tokens, cost and calls counted: what every strategy's Session does and
 * what an agent's loop does, written once.
 */
import { BudgetTracker, describeExhaustion, type Budget } from '../core/budget.js';
import type { ChatMessage, Completion, GenerateRequest, Model } from './index.js';
import { promptEventData, responseEventData } from './index.js';
import type { Trace } from '../core/trace.js';

/** Thrown when a resource of the budget is spent (or the run was cancelled); strategies turn it into a result. */
/** What a run spent: model calls and tokens, money, wall and sandbox time. */
export interface StrategyUsage {
  readonly calls: number;
  readonly cachedCalls: number;
  readonly inputTokens: number;
  /** Of inputTokens, those read from a prompt or KV cache (a local model's shared prefix). */
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  readonly tokens: number;
  readonly costUsd: number | null;
  readonly wallSeconds: number;
  readonly sandboxSeconds: number;
}

export class BudgetStop extends Error {
  override readonly name = 'BudgetStop';
}

export interface Asked {
  readonly completions: readonly Completion[];
  /** The response event's id: the parent of what is read from it. */
  readonly eventId: number;
}

export type AskOptions = { label: string; parent: number | null; n?: number } & Omit<
  GenerateRequest,
  'messages' | 'n' | 'label' | 'signal'
>;

export class ModelCalls {
  readonly tracker: BudgetTracker;
  readonly signal: AbortSignal;
  private readonly wallTimer?: AbortSignal;
  private calls = 0;
  private cachedCalls = 0;
  private inputTokens = 0;
  private cachedInputTokens = 0;
  private outputTokens = 0;
  private costUsd: number | null = 0;

  constructor(
    readonly model: Model,
    readonly budget: Budget,
    readonly trace: Trace,
    private readonly options: {
      readonly seed?: number;
      readonly signal?: AbortSignal;
      readonly startedAt?: number;
    } = {},
  ) {
    // The tracker reads its start from the clock's first call: make that the given start.
    let first = true;
    const startedAt = options.startedAt ?? performance.now();
    this.tracker = new BudgetTracker(budget, () => (first ? ((first = false), startedAt) : performance.now()));
    // Wall time also bounds a model call in flight: it is cancelled when the budget's time is up.
    const wall = budget.wallSeconds;
    if (wall !== undefined) this.wallTimer = AbortSignal.timeout(Math.max(1, Math.round(wall * 1000)));
    const signals = [options.signal, this.wallTimer].filter((s): s is AbortSignal => s !== undefined);
    this.signal = signals.length ? AbortSignal.any(signals) : new AbortController().signal;
  }

  /** Why the run must stop now, or undefined while it may go on. */
  stopReason(): string | undefined {
    if (this.options.signal?.aborted) return 'cancelled';
    const spent = this.tracker.exhausted();
    if (spent) return describeExhaustion(spent);
    if (this.wallTimer?.aborted) return `budget spent: ${this.budget.wallSeconds} seconds of wall time`;
    return undefined;
  }

  private ensureBudget(calls = 1): void {
    const reason = this.stopReason();
    if (reason) throw new BudgetStop(reason);
    if (!this.tracker.fits({ modelCalls: calls }))
      throw new BudgetStop(`budget spent: ${this.budget.modelCalls} model calls used`);
  }

  /** How many completions fit the call budget (an endpoint without native n spends one call per completion). */
  affordable(n: number): number {
    if (this.model.capabilities.nativeN) return n;
    const left = this.tracker.remaining().modelCalls;
    return left === undefined ? n : Math.max(0, Math.min(n, Math.floor(left)));
  }

  async ask(messages: readonly ChatMessage[], options: AskOptions): Promise<Asked> {
    const { label, parent, n = 1, ...rest } = options;
    this.ensureBudget(this.model.capabilities.nativeN ? 1 : n);
    const request: GenerateRequest = {
      ...rest,
      messages,
      n,
      label,
      ...((rest.seed ?? this.options.seed) !== undefined ? { seed: rest.seed ?? this.options.seed } : {}),
      signal: this.signal,
    };
    const promptId = this.trace.emit({
      kind: 'prompt',
      parentId: parent,
      label,
      data: promptEventData(this.model, request),
    });
    let result;
    try {
      result = await this.model.generate(request);
    } catch (error) {
      if (this.signal.aborted) throw new BudgetStop(this.stopReason() ?? 'cancelled');
      throw error;
    }
    for (const call of result.calls) {
      this.tracker.recordModelCall(call.usage.inputTokens + call.usage.outputTokens, call.costUsd);
      this.calls++;
      if (call.cached) this.cachedCalls++;
      this.inputTokens += call.usage.inputTokens;
      this.cachedInputTokens += call.usage.cachedInputTokens ?? 0;
      this.outputTokens += call.usage.outputTokens;
      this.costUsd = this.costUsd === null || call.costUsd === null ? null : this.costUsd + call.costUsd;
    }
    const eventId = this.trace.emit({
      kind: 'response',
      parentId: promptId,
      label,
      data: responseEventData(this.model, result),
    });
    return { completions: result.completions, eventId };
  }

  /** Times sandbox work and charges it to the budget. Spent model calls do not stop it: a program paid for is judged. */
  async sandbox<T>(work: () => Promise<T>): Promise<T> {
    const reason = this.stopReason();
    const spent = this.tracker.exhausted();
    if (reason && (!spent || spent.resource === 'sandboxSeconds' || spent.resource === 'wallSeconds'))
      throw new BudgetStop(reason);
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.tracker.recordSandbox((performance.now() - started) / 1000);
    }
  }

  usage(): StrategyUsage {
    const spent = this.tracker.usage();
    return {
      calls: this.calls,
      cachedCalls: this.cachedCalls,
      inputTokens: this.inputTokens,
      cachedInputTokens: this.cachedInputTokens,
      outputTokens: this.outputTokens,
      tokens: this.inputTokens + this.outputTokens,
      costUsd: this.costUsd,
      wallSeconds: spent.wallSeconds,
      sandboxSeconds: spent.sandboxSeconds,
    };
  }
}
