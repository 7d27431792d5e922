/**
 * Small pieces of the run view (views/run.js): how a run's status, its money and its times are
 * shown, and a run's events as a tree (children under their parent, in the order they happened).
 */
import { html } from 'htm/preact';
import { count, duration } from '../format.js';

/** @typedef {import('../types-run').TraceEvent} TraceEvent */
/** @typedef {import('../types-run').EventNode} EventNode */

/** What each run status means, as `crucible runs` and the README say. */
const RUN_STATUSES = /** @type {Record<string, { glyph: string, description: string }>} */ ({
  verified: { glyph: '✓', description: 'the program passed every visible check' },
  unverified: {
    glyph: '~',
    description: 'a program was returned without passing every visible check (nothing could check it)',
  },
  abstained: { glyph: '∅', description: 'no program was returned: the reason says why' },
  finished: { glyph: '✓', description: 'the command finished and wrote its document' },
  error: { glyph: '!', description: 'the run failed: the reason says why' },
  interrupted: { glyph: '■', description: 'the run was stopped before it finished' },
  running: { glyph: '…', description: 'the run had not finished when this report was made' },
});

/** @param {{ status: string | null | undefined }} props */
export function RunStatus({ status }) {
  const known = status ? RUN_STATUSES[status] : undefined;
  return html`<span
    class="badge rs rs-${known ? status : 'other'}"
    data-status=${status ?? ''}
    title=${known?.description ?? status ?? ''}
    ><span class="glyph" aria-hidden="true">${known?.glyph ?? '•'}</span> ${status ?? '—'}</span
  >`;
}

/**
 * Dollars: cents and more to four decimals, less to three significant digits (a call of a small
 * model costs a fraction of a cent). The exact figure is in the title.
 * @param {number | null | undefined} usd
 */
export function dollars(usd) {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return 'unknown';
  if (usd === 0) return '$0';
  if (usd >= 0.01) return `$${usd.toFixed(4)}`;
  const decimals = Math.min(12, 2 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(decimals)}`;
}

/** @param {{ usd: number | null | undefined, field?: string }} props */
export function Cost({ usd, field }) {
  return html`<span
    class="rt-cost"
    data-field=${field}
    data-value=${usd === null || usd === undefined ? '' : String(usd)}
    title=${usd === null || usd === undefined ? 'no price known for this model' : `$${usd}`}
    >${dollars(usd)}</span
  >`;
}

/**
 * Milliseconds between two ISO times, or undefined when either is missing or unreadable.
 * @param {string | null | undefined} from
 * @param {string | null | undefined} to
 */
export function between(from, to) {
  if (!from || !to) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms : undefined;
}

/** @param {number | undefined} ms time since the run started */
export const since = (ms) => (ms === undefined ? '' : `+${duration(Math.max(0, ms))}`);

/** @param {number | undefined} n */
export const tokens = (n) => count(n);

/**
 * The events as a forest: each under its parent (an event whose parent is not in the run is a
 * root), children in the order they happened (by seq).
 * @param {readonly TraceEvent[]} events
 * @returns {EventNode[]}
 */
export function eventForest(events) {
  const ordered = [...events].sort((a, b) => a.seq - b.seq);
  /** @type {Map<number, EventNode>} */
  const nodes = new Map(ordered.map((event) => [event.id, { event, children: [] }]));
  /** @type {EventNode[]} */
  const roots = [];
  for (const event of ordered) {
    const node = /** @type {EventNode} */ (nodes.get(event.id));
    const parent = event.parentId === null ? undefined : nodes.get(event.parentId);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/**
 * The first line of a text that has any, shortened.
 * @param {string} text
 * @param {number} [max]
 */
export function firstLine(text, max = 120) {
  const line = (text.split('\n').find((l) => l.trim()) ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
