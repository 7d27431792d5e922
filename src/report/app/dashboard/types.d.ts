/**
 * What the dashboard's JSON routes answer (src/server/dashboard.ts): runs as the list shows
 * them, and a run with its report document. Data only, like ../types.d.ts.
 */
import type { ReportDocument } from '../types';

export interface RunProgress {
  readonly done: number;
  readonly total: number;
  readonly label?: string;
  readonly at: string;
}

export interface ListedRun {
  readonly id: string;
  readonly task: string;
  readonly strategy: string;
  readonly model: string;
  readonly status: string;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly usage: {
    readonly modelCalls: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly costUsd: number | null;
  } | null;
  readonly headline: Record<string, unknown> | null;
  readonly progress: RunProgress | null;
  readonly events: number;
  /** `eval`, `solve repair` … */
  readonly command: string;
  /** The run's figures in one line (command runs). */
  readonly result: string;
  /** Why it failed or stopped. */
  readonly reason?: string;
}

export interface RunList {
  readonly store: { readonly path: string | null; readonly exists: boolean };
  readonly runs: readonly ListedRun[];
}

export interface StoredRun {
  readonly run: ListedRun;
  readonly document: ReportDocument;
}

export interface TraceEvent {
  readonly id: number;
  readonly seq: number;
  readonly parentId: number | null;
  readonly kind: string;
  readonly label?: string;
  readonly time: string;
  readonly data: unknown;
}
