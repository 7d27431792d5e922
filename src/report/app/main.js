/**
 * The report's app: reads the documents the page carries and shows each in the view its kind
 * registered (views/), two documents with a comparison first when one is registered for them.
 */
import { html } from 'htm/preact';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { readPayload } from './payload.js';
import { comparisonView, documentView } from './registry.js';
import './views/index.js';

/** @typedef {import('./types').ReportDocument} ReportDocument */

/**
 * @typedef {object} Tab
 * @property {string} id
 * @property {string} label
 * @property {() => import('preact').ComponentChild} render
 */

/** @param {{ documents: readonly ReportDocument[] }} props */
function App({ documents }) {
  /** @type {Tab[]} */
  const tabs = [];
  const [first, second] = documents;
  const comparison = first && second ? comparisonView(first, second) : undefined;
  if (comparison && first && second)
    tabs.push({
      id: 'compare',
      label: 'Comparison',
      render: () => html`<${comparison.render} a=${first} b=${second} />`,
    });
  documents.forEach((entry, i) => {
    const view = documentView(entry.kind);
    const side = documents.length > 1 ? `${String.fromCharCode(65 + i)}: ` : '';
    tabs.push({ id: `doc-${i}`, label: `${side}${entry.name}`, render: () => html`<${view.render} entry=${entry} />` });
  });
  const [selected, setSelected] = useState(0);
  const tab = tabs[selected] ?? tabs[0];
  if (!tab) return html`<p class="notice">This report has no documents.</p>`;
  return html`<main class="app">
    ${tabs.length > 1 && html`<${Tabs} tabs=${tabs} selected=${selected} onSelect=${setSelected} />`}
    ${
      documents.length > 1 &&
      comparison === undefined &&
      html`<p class="notice">These two documents have no comparison view yet; each is shown on its own.</p>`
    }
    <div
      id="panel"
      role=${tabs.length > 1 ? 'tabpanel' : undefined}
      aria-labelledby=${tabs.length > 1 ? `tab-${tab.id}` : undefined}
    >
      ${tab.render()}
    </div>
    <p class="foot muted small">Made by <code>crucible report</code>. Everything is in this file: it makes no request.</p>
  </main>`;
}

/**
 * The ARIA tabs pattern: arrow keys move between tabs, the selected one is the tab stop.
 * @param {{ tabs: Tab[], selected: number, onSelect: (i: number) => void }} props
 */
function Tabs({ tabs, selected, onSelect }) {
  /** @param {KeyboardEvent} event */
  const onKeyDown = (event) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (selected + step + tabs.length) % tabs.length;
    onSelect(next);
    requestAnimationFrame(() => document.getElementById(`tab-${tabs[next]?.id}`)?.focus());
  };
  return html`<div class="tabs" role="tablist" aria-label="Views" onKeyDown=${onKeyDown}>
    ${tabs.map(
      (tab, i) =>
        html`<button
          type="button"
          role="tab"
          id="tab-${tab.id}"
          aria-selected=${i === selected ? 'true' : 'false'}
          aria-controls="panel"
          tabindex=${i === selected ? 0 : -1}
          onClick=${() => onSelect(i)}
        >
          ${tab.label}
        </button>`,
    )}
  </div>`;
}

async function start() {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  const data = document.getElementById('crucible-report-data');
  try {
    if (!data) throw new Error('this page carries no report data');
    const payload = await readPayload(data);
    root.textContent = '';
    render(html`<${App} documents=${payload.documents} />`, root);
    // For bench/report-bench.ts and the tests: the view is in the DOM (preact renders synchronously).
    performance.mark('crucible-report-shown');
    // …and painted: the task after the next frame.
    requestAnimationFrame(() => setTimeout(() => performance.mark('crucible-report-painted')));
    document.documentElement.dataset.ready = 'true';
  } catch (error) {
    root.textContent = `The report could not be read: ${error instanceof Error ? error.message : String(error)}`;
    throw error;
  }
}

void start();
