/**
 * The strategy contract: a task in, a verified artifact or an honest "abstained: why" out,
 * within a budget, with every step recorded as a trace event.
 */
import type { Budget } from '../core/budget.js';
import type { Trace } from '../core/trace.js';
import type { Verdict } from '../core/verdict.js';
import type { StrategyUsage } from '../models/calls.js';
import type { Model } from '../models/index.js';
import type { TemplateLibrary } from '../domains/docs/templates.js';
import type { Threshold } from '../select/abstain.js';
import type { Subject } from './subject.js';

export type { Trace } from '../core/trace.js';
export type { StrategyUsage } from '../models/calls.js';

export interface StrategyContext {
  readonly model: Model;
  readonly budget: Budget;
  readonly trace: Trace;
  readonly seed: number;
  readonly signal?: AbortSignal;
  /** Strategy settings (samples, attempts, threshold, …); each strategy reads its own. */
  readonly options?: StrategyOptions;
}

export interface StrategyOptions {
  /** Programs sampled at once (sample, best-of-n; default 4). */
  readonly samples?: number;
  /** Most program attempts (repair; default 5, as PGS). */
  readonly attempts?: number;
  /** SPADA: ask the model for tests of its own before repairing (default true). */
  readonly modelTests?: boolean;
  /** best-of-n: a calibrated threshold from `crucible calibrate`; below it, abstain. */
  readonly threshold?: Threshold;
  /** advermcts: solver rollouts (default 16). */
  readonly rollouts?: number;
  /** graft: the skeleton library to patch from (default .crucible/skeletons.jsonl). */
  readonly library?: string;
  /** graft: leave out skeletons whose source this says (a benchmark's leave-one-out). */
  readonly excludeSkeleton?: (source: string) => boolean;
  /** formact: the least severe issue that sends the document back to the editing agent (default error). */
  readonly severity?: 'error' | 'warning';
  /** formact: the template library the editing agent retrieves from (default: the shipped templates). */
  readonly templates?: TemplateLibrary;
  readonly temperature?: number;
  /** Most tokens per completion (default: the endpoint's). */
  readonly maxTokens?: number;
}

export type ResultStatus = 'verified' | 'abstained' | 'unverified';

export interface StrategyResult {
  readonly status: ResultStatus;
  /** The answer: verified, or unverified when nothing could check it. Absent when abstained. */
  readonly program?: string;
  /** The answer's verdict on the visible checks. */
  readonly verdict?: Verdict;
  /** The answer's gated reward on the visible checks (null on no-verdict), as /v1/verify computes it. */
  readonly reward?: number | null;
  readonly reason: string;
  /** Programs judged. */
  readonly attempts: number;
  readonly usage: StrategyUsage;
  /** When abstaining: the best program seen, for whoever wants to look (never the answer). */
  readonly bestAttempt?: string;
}

/** A strategy solves a subject: a function to write (`codeSubject`), an SQL query (`sqlSubject`), … */
export type Strategy = (subject: Subject, context: StrategyContext) => Promise<StrategyResult>;
