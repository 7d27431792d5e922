/**
 * A document of a kind without a view of its own (each kind Crucible writes has one today; a
 * kind added to src/report/kinds.ts shows here until its view is written): its figures as a
 * list, its samples (if any) in the same grid as eval's, and everything else as a JSON tree.
 * `crucible report` must never fail on a document Crucible wrote.
 */
import { html } from 'htm/preact';
import { JsonTree } from '../components/json-tree.js';
import { SamplesExplorer } from '../components/samples-explorer.js';
import { inline } from '../format.js';
import { registerDocumentView } from '../registry.js';

/** @typedef {import('../types').ReportDocument} ReportDocument */
/** @typedef {import('../types').Sample} Sample */

/** @param {unknown} value */
const isScalar = (value) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** @param {unknown} value samples: objects with a task id and a status */
const isSamples = (value) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((s) => s && typeof s === 'object' && typeof s.task_id === 'string' && typeof s.status === 'string');

/** @param {{ entry: ReportDocument }} props */
function GenericView({ entry }) {
  const doc = entry.document;
  const summary =
    doc.summary && typeof doc.summary === 'object' ? /** @type {Record<string, unknown>} */ (doc.summary) : {};
  const facts = [
    ...Object.entries(doc).filter(([key, value]) => key !== 'summary' && isScalar(value)),
    ...Object.entries(summary),
  ];
  const samples = isSamples(doc.samples) ? /** @type {Sample[]} */ (doc.samples) : undefined;
  const rest = Object.fromEntries(
    Object.entries(doc).filter(
      ([key, value]) => key !== 'summary' && !isScalar(value) && !(key === 'samples' && samples),
    ),
  );
  const dataset = doc.dataset;
  const title =
    typeof dataset === 'string'
      ? dataset
      : dataset && typeof dataset === 'object' && 'name' in dataset
        ? String(dataset.name)
        : typeof doc.task === 'string'
          ? doc.task
          : entry.name;
  return html`<div class="view generic-view">
    <header class="doc-header">
      <div class="title-line">
        <h1>${title}</h1>
        <span class="kind">${entry.kind}</span>
        <span class="file muted">${entry.name}</span>
      </div>
      <p class="muted small">A plain view of this ${entry.kind} document: its figures, then all of it as a tree.</p>
    </header>
    ${
      facts.length > 0 &&
      html`<section class="card">
      <h2>Summary</h2>
      <dl class="kv summary-list">
        ${facts.map(([key, value]) => html`<dt>${key}</dt><dd>${isScalar(value) ? inline(value) : html`<code>${JSON.stringify(value)}</code>`}</dd>`)}
      </dl>
    </section>`
    }
    ${samples && html`<${SamplesExplorer} samples=${samples} name=${entry.name} />`}
    ${
      Object.keys(rest).length > 0 &&
      html`<section class="card">
      <h2>Everything else</h2>
      <${JsonTree} value=${rest} name=${entry.kind} />
    </section>`
    }
  </div>`;
}

registerDocumentView(['*'], { title: 'document', render: GenericView });
