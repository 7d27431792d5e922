/**
 * Where views plug in. A document's view is chosen by the kind of document (src/report/kinds.ts
 * tells it), a comparison's by the kinds of its two documents, and a counterexample's (or a
 * failing input's) view by its shape: a domain pack's view is one module that registers itself
 * here and is imported once in views/index.js; nothing else changes.
 */

/** @typedef {import('preact').ComponentChild} Child */
/** @typedef {import('./types').ReportDocument} ReportDocument */

/**
 * @typedef {object} DocumentView
 * @property {string} title what the view shows, e.g. "eval"
 * @property {(props: { entry: ReportDocument }) => Child} render
 */

/**
 * @typedef {object} ComparisonView
 * @property {(a: ReportDocument, b: ReportDocument) => boolean} accepts
 * @property {(props: { a: ReportDocument, b: ReportDocument }) => Child} render
 */

/**
 * A pack's view of its own `crucible audit` document (SQL's: references, rewrites, injected bugs).
 * @typedef {object} AuditView
 * @property {string} name
 * @property {(doc: Record<string, unknown>) => boolean} matches
 * @property {(props: { entry: ReportDocument, doc: any }) => Child} render
 */

/**
 * @typedef {object} ShapeView
 * @property {string} name
 * @property {(value: unknown) => boolean} matches
 * @property {(props: { value: any }) => Child} render
 */

/** @type {Map<string, DocumentView>} */
const documentViews = new Map();
/** @type {ComparisonView[]} */
const comparisonViews = [];
/** @type {ShapeView[]} */
const counterexampleViews = [];
/** @type {ShapeView[]} */
const inputViews = [];
/** @type {AuditView[]} */
const auditViews = [];

/**
 * @param {readonly string[]} kinds
 * @param {DocumentView} view
 */
export function registerDocumentView(kinds, view) {
  for (const kind of kinds) documentViews.set(kind, view);
}

/**
 * The view of a kind with none of its own is the generic one, registered as "*".
 * @param {string} kind
 */
export function documentView(kind) {
  const view = documentViews.get(kind) ?? documentViews.get('*');
  if (!view) throw new Error(`no view for ${kind} documents, and no generic view`);
  return view;
}

/** @param {ComparisonView} view */
export function registerComparisonView(view) {
  comparisonViews.push(view);
}

/**
 * @param {ReportDocument} a
 * @param {ReportDocument} b
 */
export const comparisonView = (a, b) => comparisonViews.find((view) => view.accepts(a, b));

/**
 * A counterexample's view, by shape: the first registered whose `matches` accepts it.
 * @param {ShapeView} view
 */
export function registerCounterexampleView(view) {
  counterexampleViews.push(view);
}

/** @param {unknown} value */
export const counterexampleView = (value) => counterexampleViews.find((view) => view.matches(value));

/**
 * A failing input's view, by shape (e.g. an SQL pack's input is a database): tried on the
 * input parsed as JSON; inputs no view accepts are shown as text.
 * @param {ShapeView} view
 */
export function registerInputView(view) {
  inputViews.push(view);
}

/** @param {unknown} value */
export const inputView = (value) => inputViews.find((view) => view.matches(value));

/**
 * An audit document's view, by shape: a pack's own, tried before the functions audit's.
 * @param {AuditView} view
 */
export function registerAuditView(view) {
  auditViews.push(view);
}

/** @param {Record<string, unknown>} doc */
export const auditView = (doc) => auditViews.find((view) => view.matches(doc));
