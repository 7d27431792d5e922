/**
 * Parts the select, calibrate and audit views share: their header, their figures, filter
 * chips, a bar for a share, moving between the rows of a list with the arrow keys, a task
 * list's search box and count, and showing more of a long list.
 */
import { html } from 'htm/preact';
import { count } from '../format.js';

/** @typedef {import('preact').ComponentChild} Child */

/**
 * @param {{ title: string, kind: string, file: string, facts: readonly [string, string | null | undefined][] }} props
 *   facts without a value are left out
 */
export function ViewHeader({ title, kind, file, facts }) {
  const shown = facts.filter(([, value]) => value !== null && value !== undefined && value !== '');
  return html`<header class="doc-header">
    <div class="title-line">
      <h1>${title}</h1>
      <span class="kind">${kind}</span>
      <span class="file muted">${file}</span>
    </div>
    ${
      shown.length > 0 &&
      html`<dl class="facts">
      ${shown.map(([k, v]) => html`<div><dt>${k}</dt><dd title=${v}>${v}</dd></div>`)}
    </dl>`
    }
  </header>`;
}

/**
 * The figures of a card, each findable by its key (`data-figure`), with an optional note under it.
 * @param {{ figures: readonly { key: string, label: string, value: Child, note?: Child }[] }} props
 */
export function Figures({ figures }) {
  return html`<dl class="figures">
    ${figures.map(
      (f) => html`<div>
        <dt>${f.label}</dt>
        <dd data-figure=${f.key}>${f.value}</dd>
        ${f.note !== undefined && html`<dd class="figure-note muted small">${f.note}</dd>`}
      </div>`,
    )}
  </dl>`;
}

/**
 * A toggle in a row of filters (the house style: aria-pressed, a count).
 * @param {{ pressed: boolean, onClick: () => void, label: Child, n?: number, glyph?: string, name: string, tone?: string }} props
 */
export function Chip({ pressed, onClick, label, n, glyph, name, tone = '' }) {
  return html`<button
    type="button"
    class="chip ${tone}"
    aria-pressed=${pressed ? 'true' : 'false'}
    data-filter=${name}
    onClick=${onClick}
  >
    ${glyph && html`<span class="glyph" aria-hidden="true">${glyph}</span>`} ${label}
    ${n !== undefined && html`<span class="chip-count">${count(n)}</span>`}
  </button>`;
}

/**
 * A share from 0 to 1 as a small horizontal bar (decoration: the number is always beside it).
 * @param {{ value: number | null | undefined, tone?: string }} props
 */
export function ShareBar({ value, tone = '' }) {
  const share = typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(1, value)) : 0;
  return html`<span class="share-bar ${tone}" aria-hidden="true"><span style=${{ width: `${100 * share}%` }}></span></span>`;
}

/**
 * A number with a fixed count of decimals, or a dash.
 * @param {number | null | undefined} x
 * @param {number} digits
 */
export const fixed = (x, digits = 3) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '—');

/**
 * Arrow keys between the rows of a list: Up/Down to the previous/next row's control marked
 * `data-nav`, Home/End to the first/last, inside the nearest `[data-nav-list]`. Tab still
 * leaves the list; Enter and Space act on the control (a native button).
 * @param {KeyboardEvent} event
 */
export function onRowKeys(event) {
  const target = event.target;
  if (!(target instanceof HTMLElement) || !target.matches('[data-nav]')) return;
  const list = target.closest('[data-nav-list]');
  if (!list) return;
  const controls = /** @type {HTMLElement[]} */ ([...list.querySelectorAll('[data-nav]')]);
  const at = controls.indexOf(target);
  const next =
    event.key === 'ArrowDown'
      ? at + 1
      : event.key === 'ArrowUp'
        ? at - 1
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? controls.length - 1
            : undefined;
  if (next === undefined) return;
  event.preventDefault();
  const control = controls[Math.max(0, Math.min(controls.length - 1, next))];
  control?.focus();
  control?.scrollIntoView({ block: 'nearest' });
}

/** Rows shown at first in a long list; the rest one click away (a select of MBPP has 400 tasks, not 16,000). */
export const FIRST_ROWS = 300;

/**
 * The button under a long list that shows more of it (nothing when all is shown).
 * @param {{ total: number, limit: number, setLimit: (limit: number) => void }} props
 */
export function ShowMore({ total, limit, setLimit }) {
  if (total <= limit) return null;
  return html`<button type="button" class="link more" onClick=${() => setLimit(limit + FIRST_ROWS * 3)}>
    show ${count(Math.min(total - limit, FIRST_ROWS * 3))} more of ${count(total)}
  </button>`;
}

/**
 * The search box of a task list, and how many of its tasks are shown.
 * @param {{ label: string, placeholder: string, query: string, setQuery: (query: string) => void, shown: number, total: number }} props
 */
export function TaskSearch({ label, placeholder, query, setQuery, shown, total }) {
  return html`<label class="field search"
      ><span class="sr-only">${label}</span>
      <input
        type="search"
        placeholder=${placeholder}
        value=${query}
        onInput=${(/** @type {Event} */ e) => setQuery(/** @type {HTMLInputElement} */ (e.target).value)}
    /></label>
    <p class="shown" aria-live="polite"><strong data-shown=${shown}>${count(shown)}</strong> of ${count(total)} tasks</p>`;
}
