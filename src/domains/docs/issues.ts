/**
 * What the documents reviewer finds (FormAct's review agent, made deterministic): each issue a
 * kind of formatting error a reader would see on a rendered page, where it is and how bad. The
 * reviewer (review.ts), the fault injectors that measure it (fuzz.ts) and the docs pack all
 * speak this shape.
 */

export const ISSUE_TYPES = [
  'overflow',
  'overlap',
  'broken-image',
  'low-contrast',
  'table-too-wide',
  'orphan-heading',
  'parse-error',
  'heading-order',
] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

export type Severity = 'error' | 'warning';

/** Where a document is judged: printed on A4 or US Letter, or on a screen. */
export const MEDIA = ['a4', 'letter', 'screen'] as const;
export type Medium = (typeof MEDIA)[number];

export interface DocIssue {
  readonly type: IssueType;
  readonly severity: Severity;
  /** A CSS selector for the element at fault, unique in the document ('' when none: a parse error). */
  readonly selector: string;
  /** The printed page it is on, from 1 (1 on a screen); null when it is on none (a parse error). */
  readonly page: number | null;
  /** The medium it was seen in; null when it holds in every one (parse errors, heading order, contrast). */
  readonly medium: Medium | null;
  /** For a person and for the model: what is wrong and where. */
  readonly message: string;
}

/** Files a document may load (images, fonts, style sheets), served beside it; the rest is refused. */
export type Assets = ReadonlyMap<string, { readonly contentType: string; readonly body: Uint8Array }>;

export const SEVERITY_RANK: Record<Severity, number> = { warning: 1, error: 2 };
