/**
 * The bookkeeping every strategy shares: asking the model within the budget, judging
 * programs, and recording each step as a trace event whose parent is the step it came from.
 */
import type { ChatMessage } from '../models/index.js';
import type { Checks, Report } from '../domains/types.js';
import { BudgetStop, ModelCalls, type AskOptions, type Asked } from '../models/calls.js';
import type { Identified, Subject } from './subject.js';
import type { ResultStatus, StrategyContext, StrategyResult, StrategyUsage } from './types.js';

export { BudgetStop, type Asked } from '../models/calls.js';

export interface Judged {
  readonly program: string;
  readonly report: Report;
  readonly candidateId: number;
  readonly verdictId: number;
}

export class Session<T extends Identified = Identified, C extends Checks<T> = Checks<T>> {
  /** The model calls, the budget and their trace events (shared with agents). */
  private readonly calls: ModelCalls;
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
    this.calls = new ModelCalls(context.model, context.budget, context.trace, {
      seed: context.seed,
      ...(context.signal ? { signal: context.signal } : {}),
      startedAt,
    });
  }

  /** The model calls, for an agent a strategy runs (formact's editing agent) to ask through. */
  get modelCalls(): ModelCalls {
    return this.calls;
  }

  get tracker() {
    return this.calls.tracker;
  }

  get signal(): AbortSignal {
    return this.calls.signal;
  }

  /** Why the run must stop now, or undefined while it may go on. */
  stopReason(): string | undefined {
    return this.calls.stopReason();
  }

  /** How many completions fit the call budget (an endpoint without native n spends one call per completion). */
  affordable(n: number): number {
    return this.calls.affordable(n);
  }

  ask(messages: readonly ChatMessage[], options: AskOptions): Promise<Asked> {
    return this.calls.ask(messages, options);
  }

  /** Times sandbox work and charges it to the budget. Spent model calls do not stop it: a program paid for is judged. */
  sandbox<R>(work: () => Promise<R>): Promise<R> {
    return this.calls.sandbox(work);
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
    return this.calls.usage();
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
