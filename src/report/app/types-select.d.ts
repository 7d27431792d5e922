/**
 * The documents of `crucible select`, `crucible calibrate` and `crucible audit`, as the report
 * reads them (src/cli/select-command.ts, src/cli/calibrate-command.ts, src/cli/audit-command.ts
 * and src/domains/sql/audit.ts write them). Loose like types.d.ts: older documents lack fields.
 * Data only (no DOM types).
 */

export interface ThresholdFacts {
  readonly threshold: number | null;
  readonly alpha: number;
  readonly delta: number;
  readonly calibrationTasks: number;
  readonly answered: number;
  readonly wrong: number;
  readonly errorBound: number;
  readonly score?: string;
}

export interface SelectCandidate {
  readonly index: number;
  readonly public_passed: number;
  readonly public_total: number;
  readonly agreement: number;
  readonly cluster_size: number;
  readonly breaks_property: boolean;
  readonly suspect?: string;
  /** The candidate's program. */
  readonly program?: string;
}

export interface SelectDisagreement {
  readonly input: string;
  readonly groups: readonly { readonly behaviour: string; readonly candidates: readonly number[] }[];
}

export interface SelectTask {
  readonly task_id: string;
  readonly decision: 'answer' | 'abstain';
  readonly selected_index: number | null;
  readonly confidence: number;
  readonly reason?: string;
  readonly why: string;
  readonly public_examples?: number;
  readonly generated_inputs?: number;
  readonly plausible_inputs?: number;
  readonly clusters: readonly (readonly number[])[];
  readonly candidates: readonly SelectCandidate[];
  readonly disagreements: readonly SelectDisagreement[];
}

export interface SelectDocument {
  readonly crucible?: string;
  readonly created?: string;
  readonly dataset?: { readonly name?: string; readonly path?: string | null };
  readonly samples_path?: string | null;
  readonly threshold: ThresholdFacts | null;
  readonly summary: {
    readonly tasks: number;
    readonly answered: number;
    readonly abstained: number;
    readonly seed?: number;
  };
  readonly tasks: readonly SelectTask[];
}

export interface ThresholdLevel {
  readonly threshold: number;
  readonly answered: number;
  readonly wrong: number;
  readonly errorBound: number;
}

export interface CalibrationItem {
  readonly taskId?: string;
  readonly selectedIndex?: number;
  readonly confidence: number;
  readonly correct: boolean;
}

export interface CalibrateDocument extends ThresholdFacts {
  readonly kind: 'crucible-threshold';
  readonly crucible?: string;
  readonly created?: string;
  readonly dataset?: { readonly name?: string; readonly path?: string | null };
  readonly samples_path?: string | null;
  readonly seed?: number;
  /** Every threshold tested (documents before the report have none). */
  readonly levels?: readonly ThresholdLevel[];
  readonly calibration?: readonly CalibrationItem[];
}

export interface AuditFailure {
  readonly input?: string | null;
  readonly expected?: string | null;
  readonly actual?: string | null;
  readonly message?: string | null;
}

export interface AuditEntry {
  readonly task_id: string;
  readonly kind: 'reference' | 'known-wrong';
  readonly label: string;
  readonly status: string;
  readonly first_failure: AuditFailure | null;
  /** The program judged, when the document carries it. */
  readonly program?: string;
}

export interface Survivor {
  readonly operator: string;
  readonly line: number;
  /** A header line ("line N"), then the reference's lines (-) and the mutant's (+). */
  readonly diff: string;
  /** The whole mutant, when the document carries it. */
  readonly program?: string;
}

export interface TaskMutationScore {
  readonly task_id: string;
  readonly mutants: number;
  readonly judged: number;
  readonly killed: number;
  readonly score: number | null;
  readonly no_verdict: number;
  readonly dropped_invalid?: number;
  readonly dropped_duplicate?: number;
  readonly survivors: readonly Survivor[];
  readonly problem?: string;
}

export interface MutationReport {
  readonly mutants_per_task: number;
  readonly seed: number;
  readonly weak_below: number;
  readonly tasks_scored: number;
  readonly mean_score: number | null;
  readonly weak_tasks: number;
  readonly mutants: { readonly judged: number; readonly killed: number; readonly no_verdict: number };
  readonly note?: string;
  readonly tasks: readonly TaskMutationScore[];
}

/** `crucible audit` on a dataset of functions. */
export interface FunctionAuditDocument {
  readonly dataset: string;
  readonly references: { readonly total: number; readonly passed: number; readonly no_verdict: number };
  readonly known_wrong: { readonly total: number; readonly failed: number; readonly no_verdict: number };
  readonly false_negative_rate: number;
  readonly false_positive_rate: number;
  readonly disagreements: readonly AuditEntry[];
  readonly mutation?: MutationReport;
}
