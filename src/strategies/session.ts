/**
 * The bookkeeping every strategy shares: asking the model within the budget, judging
 * programs, and recording each step as a trace event whose parent is the step it came from.
 */
import { BudgetTracker, describeExhaustion } from '../core/budget.js';
import type { ChatMessage, Completion, GenerateRequest } from '../models/index.js';
import { promptEventData, responseEventData } from '../models/index.js';
import type { Checks, Report } from '../domains/types.js';
import type { Identified, Subject } from './subject.js';
import type { ResultStatus, StrategyContext, StrategyResult, StrategyUsage } from './types.js';

/** Thrown when a resource of the budget is spent (or the run was cancelled); strategies turn it into a result. */
export class BudgetStop extends Error {
  override readonly name = 'BudgetStop';
}

export interface Asked {
  readonly completions: readonly Completion[];
  /** The response event's id: the parent of what is read from it. */
  readonly eventId: number;
}

export interface Judged {
  readonly program: string;
  readonly report: Report;
  readonly candidateId: number;
  readonly verdictId: number;
}

export class Session<T extends Identified = Identified, C extends Checks<T> = Checks<T>> {
  readonly tracker: BudgetTracker;
  readonly signal: AbortSignal;
  private readonly wallTimer?: AbortSignal;
  private calls = 0;
  private cachedCalls = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private costUsd: number | null = 0;
  attempts = 0;
  /** The best program judged so far (`better`): the one shown when the run abstains. */
  best: Judged | undefined;

  /** Builds the solver's view of the task (unless the subject brings one) and starts the budget's clock before it. */
  static async open<T extends Identified, C extends Checks<T>>(
    subject: Subject<T, C>,
    context: StrategyContext,
  ): Promise<Session<T, C>> {
    const started = performance.now();
    const view =
      subject.checks ?? (await subject.pack.prepare(subject.task, { audience: 'solver', seed: context.seed }));
    const session = new Session(subject, view, context, started);
    // Running the reference on generated inputs is sandbox time too.
    if (!subject.checks) session.tracker.recordSandbox((performance.now() - started) / 1000);
    return session;
  }

  constructor(
    readonly subject: Subject<T, C>,
    readonly view: C,
    readonly context: StrategyContext,
    startedAt: number = performance.now(),
  ) {
    // The tracker reads its start from the clock's first call: make that the session's start.
    let first = true;
    this.tracker = new BudgetTracker(context.budget, () => (first ? ((first = false), startedAt) : performance.now()));
    // Wall time also bounds a model call in flight: it is cancelled when the budget's time is up.
    const wall = context.budget.wallSeconds;
    if (wall !== undefined) this.wallTimer = AbortSignal.timeout(Math.max(1, Math.round(wall * 1000)));
    const signals = [context.signal, this.wallTimer].filter((s): s is AbortSignal => s !== undefined);
    this.signal = signals.length ? AbortSignal.any(signals) : new AbortController().signal;
  }

  /** Why the run must stop now, or undefined while it may go on. */
  stopReason(): string | undefined {
    if (this.context.signal?.aborted) return 'cancelled';
    const spent = this.tracker.exhausted();
    if (spent) return describeExhaustion(spent);
    if (this.wallTimer?.aborted) return `budget spent: ${this.context.budget.wallSeconds} seconds of wall time`;
    return undefined;
  }

  private ensureBudget(calls = 1): void {
    const reason = this.stopReason();
    if (reason) throw new BudgetStop(reason);
    if (!this.tracker.fits({ modelCalls: calls }))
      throw new BudgetStop(`budget spent: ${this.context.budget.modelCalls} model calls used`);
  }

  /** How many completions fit the call budget (an endpoint without native n spends one call per completion). */
  affordable(n: number): number {
    if (this.context.model.capabilities.nativeN) return n;
    const left = this.tracker.remaining().modelCalls;
    return left === undefined ? n : Math.max(0, Math.min(n, Math.floor(left)));
  }

  async ask(
    messages: readonly ChatMessage[],
    options: { label: string; parent: number | null; n?: number } & Omit<
      GenerateRequest,
      'messages' | 'n' | 'label' | 'signal'
    >,
  ): Promise<Asked> {
    const { label, parent, n = 1, ...rest } = options;
    this.ensureBudget(this.context.model.capabilities.nativeN ? 1 : n);
    const request: GenerateRequest = {
      ...rest,
      messages,
      n,
      label,
      seed: rest.seed ?? this.context.seed,
      signal: this.signal,
    };
    const promptId = this.context.trace.emit({
      kind: 'prompt',
      parentId: parent,
      label,
      data: promptEventData(this.context.model, request),
    });
    let result;
    try {
      result = await this.context.model.generate(request);
    } catch (error) {
      if (this.signal.aborted) throw new BudgetStop(this.stopReason() ?? 'cancelled');
      throw error;
    }
    for (const call of result.calls) {
      this.tracker.recordModelCall(call.usage.inputTokens + call.usage.outputTokens, call.costUsd);
      this.calls++;
      if (call.cached) this.cachedCalls++;
      this.inputTokens += call.usage.inputTokens;
      this.outputTokens += call.usage.outputTokens;
      this.costUsd = this.costUsd === null || call.costUsd === null ? null : this.costUsd + call.costUsd;
    }
    const eventId = this.context.trace.emit({
      kind: 'response',
      parentId: promptId,
      label,
      data: responseEventData(this.context.model, result),
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

  /** Reads the artifact from a reply, records it, judges it on the visible checks and records the verdict. */
  async judgeReply(
    text: string,
    parent: number,
    label: string,
    options: { shrink?: boolean; view?: C } = {},
  ): Promise<Judged | undefined> {
    const extracted = this.subject.pack.extract(this.subject.task, text);
    if (!extracted) {
      this.decision(
        'skip',
        `the reply holds no ${this.subject.pack.name === 'code' ? 'code' : 'answer'}`,
        parent,
        label,
      );
      return undefined;
    }
    return this.judgeProgram(extracted.artifact, parent, label, { ...options, form: extracted.form });
  }

  async judgeProgram(
    program: string,
    parent: number | null,
    label: string,
    options: { shrink?: boolean; view?: C; form?: string } = {},
  ): Promise<Judged> {
    const candidateId = this.context.trace.emit({
      kind: 'candidate',
      parentId: parent,
      label,
      data: { program, ...(options.form ? { form: options.form } : {}) },
    });
    const view = options.view ?? this.view;
    const report = await this.sandbox(() =>
      this.subject.pack.verify(view, program, { shrink: options.shrink ?? false }),
    );
    this.attempts++;
    const verdictId = this.context.trace.emit({
      kind: 'verdict',
      parentId: candidateId,
      label,
      data: {
        status: report.unchecked ? 'unchecked' : report.verdict.status,
        passed: report.verdict.suites.filter((s) => s.status === 'pass').length,
        total: report.verdict.suites.length,
        firstFailure: report.failures[0] ?? report.verdict.firstFailure,
        suites: report.verdict.suites.map((s) => ({
          name: s.name,
          status: s.status,
          passed: s.passed,
          total: s.total,
        })),
        ...(report.noVerdict ? { noVerdict: report.noVerdict } : {}),
      },
    });
    const judged = { program, report, candidateId, verdictId };
    this.best = better(this.best, judged);
    return judged;
  }

  /** Runs a strategy's body; a spent budget (or a cancellation) ends it as an abstention with the best program seen. */
  async run(body: () => Promise<StrategyResult>): Promise<StrategyResult> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof BudgetStop) return this.conclude(undefined, this.best, error.message);
      throw error;
    }
  }

  feedback(text: string, parent: number, label: string, data: Record<string, unknown> = {}): number {
    return this.context.trace.emit({ kind: 'feedback', parentId: parent, label, data: { ...data, text } });
  }

  decision(
    action: string,
    reason: string,
    parent: number | null,
    label?: string,
    data: Record<string, unknown> = {},
  ): number {
    return this.context.trace.emit({
      kind: 'decision',
      parentId: parent,
      ...(label ? { label } : {}),
      data: { ...data, action, reason },
    });
  }

  usage(): StrategyUsage {
    const spent = this.tracker.usage();
    return {
      calls: this.calls,
      cachedCalls: this.cachedCalls,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      tokens: this.inputTokens + this.outputTokens,
      costUsd: this.costUsd,
      wallSeconds: spent.wallSeconds,
      sandboxSeconds: spent.sandboxSeconds,
    };
  }

  /** The result, with a final decision event. */
  finish(status: ResultStatus, reason: string, answer?: Judged, best?: Judged): StrategyResult {
    const action = status === 'verified' ? 'answer' : status === 'unverified' ? 'answer-unverified' : 'abstain';
    this.decision(action, reason, answer?.verdictId ?? best?.verdictId ?? null, 'result');
    return {
      status,
      reason,
      attempts: this.attempts,
      usage: this.usage(),
      ...(answer
        ? { program: answer.program, verdict: answer.report.verdict, reward: answer.report.reward.reward }
        : {}),
      ...(status === 'abstained' && best ? { bestAttempt: best.program } : {}),
    };
  }

  /** The usual ending: verified when the answer passed, unverified when nothing could check it, else abstained. */
  conclude(answer: Judged | undefined, best: Judged | undefined, otherwise: string): StrategyResult {
    if (answer?.report.passed) return this.finish('verified', `passes ${describeReport(answer.report)}`, answer);
    if (answer?.report.unchecked)
      return this.finish(
        'unverified',
        'nothing to check the program against: the task has no examples, tests, reference or properties',
        answer,
      );
    return this.finish('abstained', otherwise, undefined, best);
  }
}

export function describeReport(report: Report): string {
  const suites = report.verdict.suites;
  const counted = suites.reduce((n, s) => n + s.total, 0);
  return `all ${suites.length} visible checks (${counted} tests)`;
}

/** The better of two judged programs: more checks passed, then the earlier. */
function better(a: Judged | undefined, b: Judged): Judged {
  if (!a) return b;
  const score = (j: Judged) => j.report.verdict.suites.filter((s) => s.status === 'pass').length;
  return score(b) > score(a) ? b : a;
}
