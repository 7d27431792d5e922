/**
 * What the front doors (solve, eval, eval --model) need of a pack beyond judging (types.ts):
 * which task files are its own and how they read, the runtime it judges on, what a solver
 * sees (its subject), what it writes, and how an artifact is scored. A pack that exports one
 * of these and has its line in registry.ts is served by every front door that loops over the
 * registry; nothing outside its folder names it.
 */
import type { Candidate } from '../core/task.js';
import type { Failure, Status } from '../core/verdict.js';
import type { Model } from '../models/index.js';
import type { PackRequests } from './request.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { Identified, Subject } from './subject.js';
import type { Checks, DomainPack, PrepareOptions } from './types.js';

export type { RuntimeOptions };

/** What a pack's artifact is: the strategies that fit a task read this (strategies/registry.ts), not the pack's name. */
export type Writes = 'function' | 'query' | 'game' | 'document';

/** One suite an artifact is scored on (pass@k counts per suite; an abstention fails each). */
export interface ScoredSuite {
  readonly name: string;
  readonly total: number;
}

/** A judge that needs no runtime (`eval --judge NAME`): an answer per artifact, from the task alone. */
export type StaticJudge<T> = (
  task: T,
  artifact: string,
) => Promise<{ readonly status: Status; readonly failure: Failure | null }>;

/**
 * A pack's module. What it needs to read its task files is imported with it; what judges (the
 * engine, the browser, the reviewer) is imported by `open`, so that finding the pack of a file
 * costs a command that judges functions nothing.
 */
export interface PackModule<T extends Identified = Identified, C extends Checks<T> = Checks<T>> {
  /** The `domain` field of its task lines; the pack's name in reports and on the command line. */
  readonly name: string;
  /** Its tasks in words, with the article: "an SQL task", "a games task". */
  readonly taskNoun: string;
  readonly writes: Writes;
  /** What its runtime runs of a model's (the `--sandbox none` warning): "queries", "pages". */
  readonly runs: string;
  /** A file of this pack's tasks (its `domain` on the first line, or a format it owns). */
  isTaskFile(file: string): boolean;
  /** The file's tasks; errors name the line to fix. */
  readTasks(file: string): T[];
  /** What `eval` judges without `--samples` (SQL: the references and their known rewrites); without it, --samples is needed. */
  readonly samplesWithout?: { readonly what: string; of(tasks: readonly T[]): Candidate[] };
  /**
   * How a solver's checks are prepared where the task's reference is kept for scoring (eval
   * --model without --oracle): what must not reach the solver (SQL: the reference's answers on
   * generated databases).
   */
  readonly withoutOracle: Partial<PrepareOptions>;
  /** Probes per task where a command generates them and no number is given (SQL: 12 databases); else the command's default. */
  readonly probes?: number;
  /** Why these tasks cannot be scored at all (games without a plan), or undefined. */
  unscorable?(tasks: readonly T[], file: string): string | undefined;
  /** Before solve: the task made solvable with the model's help (games: the model writes a missing plan). */
  beforeSolve?(task: T, context: { readonly model: Model; readonly seed: number; log(line: string): void }): Promise<T>;
  /** One task from a `/v1/verify` body's task line; errors name `where`. It names no file of this machine (a request's task cannot). */
  requestTaskOf?(value: unknown, where: string): T;
  /** A request form of its own for `/v1/verify`; without it, a body carries a task line (`task`) and candidates. */
  readonly requests?: PackRequests;
  /** What `crucible audit` judges (for the run list); a pack without it is not audited. */
  auditJudges?(mutants: boolean): string;
  /** Judges that need no runtime, by the name `eval --judge` takes. */
  readonly judges?: Readonly<Record<string, StaticJudge<T>>>;
  /**
   * The pack's own views of its counterexamples, failing inputs and audit document in the report
   * and the dashboard: the path of a browser module in the pack's folder whose default export
   * takes the report's kit (`src/report/app/view-kit.js`) and registers views by shape. Without
   * one, they show as JSON and text (an audit document as a functions audit).
   */
  readonly reportView?: string;
  /** The pack on its runtime (sandboxed engine workers, a confined browser), until `close`. */
  open(options: RuntimeOptions): Promise<OpenPack<T, C>>;
}

export interface OpenPack<T extends Identified = Identified, C extends Checks<T> = Checks<T>> {
  readonly pack: DomainPack<T, string, C>;
  /** Samples judged at once: enough to keep the runtime's workers busy. */
  readonly concurrency: number;
  subject(task: T, checks: C): Promise<Subject<T, C>>;
  /** Why the checks cannot judge this task, said to the user (undefined when they can). */
  unusable(checks: C): string | undefined;
  /** The suites an artifact is scored on, in order. */
  suites(checks: C): readonly ScoredSuite[];
  /** What judged, for the eval document's settings. */
  settings(tasks: readonly T[]): object;
  /** `crucible audit`: the judge measured on the dataset itself (SQL: references, rewrites, injected bugs). */
  audit?(tasks: readonly T[], options: AuditOptions): Promise<PackAudit>;
  /** What `--augment` added, for the eval document (SQL: generated databases per task). */
  augmented?(checks: ReadonlyMap<string, C>): object;
  close(): Promise<void>;
}

export interface AuditOptions {
  /** The dataset's name, as the lines say it. */
  readonly name: string;
  readonly limit?: number;
  /** Also inject bugs (or mutants) into the references and count those the checks catch. */
  readonly mutants: boolean;
  readonly onTask?: (done: number, total: number) => void;
}

/** An audit: lines for a person, the document `--json` writes, and the run list's headline. */
export interface PackAudit {
  readonly lines: readonly string[];
  readonly document: Record<string, unknown>;
  readonly headline: Record<string, unknown>;
}

/** A pack module with its types forgotten, as the registry holds it. */
// `any`: each entry keeps its own types; a front door only passes one entry's values between that entry's members.
export type AnyPackModule = PackModule<any, any>;
