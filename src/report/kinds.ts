/**
 * Which command wrote a JSON document, told from its fields (the documents carry no common
 * `kind` field: each command's shape grew with it). The report picks its view by this kind;
 * a document that matches none is not one Crucible wrote.
 */
export const DOCUMENT_KINDS = ['eval', 'eval-model', 'select', 'calibrate', 'audit', 'solve', 'run'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function documentKind(value: unknown): DocumentKind | undefined {
  if (!isObject(value)) return undefined;
  // calibrate's threshold file names itself.
  if (value.kind === 'crucible-threshold') return 'calibrate';
  if (typeof value.crucible === 'string' && isObject(value.summary)) {
    // eval and eval --model (src/bench/eval-document.ts): the model variant says how it generated.
    if (Array.isArray(value.samples)) return isObject(value.generation) ? 'eval-model' : 'eval';
    // select (src/cli/select-command.ts): one decision per task.
    if (Array.isArray(value.tasks) && 'threshold' in value) return 'select';
  }
  // audit, functions (src/cli/audit-command.ts) and SQL (src/domains/sql/audit.ts): no version field.
  if ('dataset' in value && isObject(value.references) && (isObject(value.known_wrong) || isObject(value.rewrites)))
    return 'audit';
  // A recorded run with its trace events, as `crucible show --json` prints it (src/store/store.ts getRun).
  if (isObject(value.run) && typeof value.run.id === 'string' && Array.isArray(value.events)) return 'run';
  // solve --json (src/cli/solve-command.ts): one task's answer.
  if (
    typeof value.status === 'string' &&
    'attempts' in value &&
    isObject(value.usage) &&
    typeof value.task === 'string'
  )
    return 'solve';
  return undefined;
}

/** One document as the report embeds it. */
export interface ReportDocument {
  /** What the report calls it: the file's name. */
  readonly name: string;
  readonly kind: DocumentKind;
  readonly document: object;
}
