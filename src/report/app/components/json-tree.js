/**
 * Any JSON value as a tree of native <details> (keyboard and screen readers know them
 * already). Long arrays show their first items and a button for the rest, so a 16,024-sample
 * document does not build 16,024 nodes until asked.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

const FIRST_ITEMS = 50;

/** @param {unknown} value */
function preview(value) {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  return '';
}

/** @param {{ value: unknown }} props */
function Leaf({ value }) {
  if (value === null) return html`<span class="j-null">null</span>`;
  if (typeof value === 'string') return html`<span class="j-string">${JSON.stringify(value)}</span>`;
  if (typeof value === 'number') return html`<span class="j-number">${String(value)}</span>`;
  if (typeof value === 'boolean') return html`<span class="j-bool">${String(value)}</span>`;
  return html`<span class="j-null">${String(value)}</span>`;
}

/** @param {{ name: string, value: unknown, open?: boolean }} props */
function Node({ name, value, open = false }) {
  const [limit, setLimit] = useState(FIRST_ITEMS);
  if (value === null || typeof value !== 'object')
    return html`<div class="j-row"><span class="j-key">${name}</span>: <${Leaf} value=${value} /></div>`;
  const entries = Array.isArray(value)
    ? value.slice(0, limit).map((v, i) => /** @type {[string, unknown]} */ ([String(i), v]))
    : Object.entries(value).slice(0, limit);
  const total = Array.isArray(value) ? value.length : Object.keys(value).length;
  return html`<details class="j-node" open=${open}>
    <summary><span class="j-key">${name}</span> <span class="j-preview">${preview(value)}</span></summary>
    <div class="j-children">
      ${entries.map(([key, child]) => html`<${Node} key=${key} name=${key} value=${child} />`)}
      ${
        total > limit &&
        html`<button type="button" class="link" onClick=${() => setLimit(limit * 4)}>
        show ${Math.min(total - limit, limit * 3).toLocaleString('en')} more of ${total.toLocaleString('en')}
      </button>`
      }
    </div>
  </details>`;
}

/** @param {{ value: unknown, name?: string, open?: boolean }} props */
export function JsonTree({ value, name = 'document', open = true }) {
  return html`<div class="json-tree"><${Node} name=${name} value=${value} open=${open} /></div>`;
}
