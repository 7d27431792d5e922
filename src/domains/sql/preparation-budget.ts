/**
 * What a task's preparation may spend on the engine: the reference on every generated
 * database, and each of its mutants on each, can be thousands of queries, and a request must
 * not turn them into minutes of everyone's workers. Every query of a preparation goes through
 * one budget: it carries the caller's signal (its requesters are gone: stop), takes the
 * preparation's turn (`lane`), and counts its engine seconds; once they pass `querySeconds`,
 * no more queries start and those running are stopped.
 */
import { setMaxListeners } from 'node:events';
import type { SqlLane, SqlRequest, SqlResult, SqlRunner } from '../../runtimes/sql-pool.js';

export interface SqlPrepareLimits {
  /** Stops every query of the preparation (nobody waits for it any more): the checks come back `incomplete`. */
  readonly signal?: AbortSignal;
  /** The lane its queries take turns in (runtimes/sql-pool.ts `SqlLane`). */
  readonly lane?: SqlLane;
  /** Engine seconds the preparation may spend, summed over its queries; past them the checks are made of what ran. Default: no limit. */
  readonly querySeconds?: number;
  /**
   * A mutant's time limit on a generated database, at least (default 2 s; ten times the
   * reference's own time there when longer, up to the engine's 5 s). The first mutant that
   * runs out of it ends the mutants' part: the databases are then chosen by the reference's
   * results alone, the same whichever mutant ran out first.
   */
  readonly mutantSeconds?: number;
}

export const DEFAULT_MUTANT_SECONDS = 2;

export class PreparationBudget {
  private spent = 0;
  private readonly stop = new AbortController();
  /** Why queries stopped starting: the budget ran out, or the caller's signal aborted. */
  stoppedBecause: string | undefined;
  readonly signal: AbortSignal;

  /** Whether anything can stop the preparation: without a signal or a budget its queries carry none. */
  private readonly stoppable: boolean;

  constructor(
    private readonly runner: SqlRunner,
    private readonly limits: SqlPrepareLimits,
  ) {
    this.signal = limits.signal ? AbortSignal.any([limits.signal, this.stop.signal]) : this.stop.signal;
    // Every query the preparation has queued listens to it: hundreds at once, by design.
    setMaxListeners(0, this.signal);
    this.stoppable = limits.signal !== undefined || limits.querySeconds !== undefined;
  }

  /** The caller abandoned the preparation. */
  get abandoned(): boolean {
    return this.limits.signal?.aborted === true;
  }

  /** One query of the preparation; `signal` stops it too (the mutants' part ending). */
  async run(request: SqlRequest, signal?: AbortSignal): Promise<SqlResult> {
    const own = this.stoppable ? this.signal : undefined;
    const stop = own && signal ? AbortSignal.any([own, signal]) : (own ?? signal);
    const result = await this.runner.run(request, {
      ...(stop ? { signal: stop } : {}),
      ...(this.limits.lane ? { lane: this.limits.lane } : {}),
    });
    this.spent += result.wallSeconds;
    const allowed = this.limits.querySeconds;
    if (allowed !== undefined && this.spent > allowed && !this.stop.signal.aborted) {
      this.stoppedBecause = `the preparation stopped at its budget of ${allowed} engine seconds`;
      this.stop.abort();
    }
    return result;
  }

  /** Why the preparation stopped early, if it did: the caller left, or the budget ran out. */
  get stopped(): string | undefined {
    return this.abandoned ? 'stopped: the request was abandoned' : this.stoppedBecause;
  }
}
