/**
 * The shapes the report reads, as loosely as the documents vary: older documents, other
 * domains and future fields must still render, so everything beyond the basics is optional.
 * Data only (no DOM types): the project's own tsconfig sees this file too.
 */

export type Kind = 'eval' | 'eval-model' | 'select' | 'calibrate' | 'audit' | 'solve' | 'run';

export interface ReportDocument {
  readonly name: string;
  readonly kind: Kind;
  readonly document: Record<string, unknown>;
}

export interface Payload {
  readonly format: 1;
  readonly documents: readonly ReportDocument[];
}

export interface Failure {
  readonly input?: string | null;
  readonly expected?: string | null;
  readonly actual?: string | null;
  readonly message?: string | null;
}

export interface SuiteResult {
  readonly status: string;
  readonly passed?: number;
  readonly total?: number;
  readonly failed_at?: number;
  readonly first_failure?: Failure | null;
}

export interface Strategy {
  readonly status?: string;
  readonly reason?: string;
  readonly attempts?: number;
  readonly usage?: Record<string, unknown>;
  readonly run?: string | null;
}

export interface Sample {
  readonly task_id: string;
  readonly index: number;
  readonly status: string;
  readonly suites?: Record<string, SuiteResult>;
  readonly first_failure?: Failure | null;
  readonly time_ms?: number;
  readonly reward?: number | null;
  readonly counterexample?: Record<string, unknown>;
  readonly type_errors?: readonly string[];
  readonly type_check_not_done?: string;
  readonly program?: string;
  readonly solution?: string;
  readonly strategy?: Strategy;
  readonly [field: string]: unknown;
}

export interface EvalSummary {
  readonly tasks?: number;
  readonly samples?: number;
  readonly pass_at_k?: Record<string, Record<string, number>>;
  readonly status_counts?: Record<string, number>;
  readonly seconds?: number;
  readonly samples_per_second?: number;
  readonly interrupted?: boolean;
  readonly labels?: { readonly compared: number; readonly agreement: number; readonly disagreements: number };
  readonly strategy?: Record<string, unknown>;
}

export interface EvalDocument {
  readonly crucible?: string;
  readonly created?: string;
  readonly dataset?: { readonly name?: string; readonly path?: string | null };
  readonly samples_path?: string | null;
  readonly settings?: Record<string, unknown>;
  readonly augment?: Record<string, unknown>;
  readonly generation?: Record<string, unknown>;
  readonly summary: EvalSummary;
  readonly samples: readonly Sample[];
}
