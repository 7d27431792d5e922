/**
 * The samples of a document to explore: the filters (status, suite, a search over task ids and
 * failure messages), the grid they narrow, and the detail of the sample opened.
 */
import { html } from 'htm/preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { count } from '../format.js';
import { countStatuses, filterRows, indexSamples } from '../sample-index.js';
import { STATUSES, statusClass, statusInfo } from '../status.js';
import { Drawer } from './drawer.js';
import { SampleGrid } from './grid.js';
import { SampleDetail } from './sample-detail.js';

/** @typedef {import('../types').Sample} Sample */

/** @param {{ samples: readonly Sample[], name: string }} props */
export function SamplesExplorer({ samples, name }) {
  const index = useMemo(() => indexSamples(samples), [samples]);
  const totals = useMemo(() => {
    /** @type {Map<string, { pass: number, total: number }>} */
    const map = new Map();
    for (const task of index.tasks)
      map.set(task.id, {
        pass: task.positions.filter((p) => samples[p]?.status === 'pass').length,
        total: task.positions.length,
      });
    return map;
  }, [index]);
  const [statuses, setStatuses] = useState(/** @type {ReadonlySet<string>} */ (new Set()));
  const [suite, setSuite] = useState('');
  const [query, setQuery] = useState('');
  const [active, setActive] = useState({ row: 0, cell: 0 });
  const [focusRequest, setFocusRequest] = useState(0);
  const [open, setOpen] = useState(/** @type {number | null} */ (null));

  const { rows, shown } = useMemo(() => filterRows(index, { statuses, suite, query }), [index, statuses, suite, query]);
  const counts = useMemo(() => countStatuses(index, suite), [index, suite]);
  // A narrower grid starts again at its first cell.
  useEffect(() => setActive({ row: 0, cell: 0 }), [rows]);

  const toggle = (/** @type {string} */ status) => {
    const next = new Set(statuses);
    if (next.has(status)) next.delete(status);
    else next.add(status);
    setStatuses(next);
  };
  const known = STATUSES.map((s) => s.id);
  const listed = [...known.filter((id) => counts.has(id)), ...[...counts.keys()].filter((id) => !known.includes(id))];
  const close = useCallback(() => {
    setOpen(null);
    setFocusRequest((n) => n + 1);
  }, []);
  const onActive = useCallback((/** @type {{ row: number, cell: number }} */ next, /** @type {boolean} */ focus) => {
    setActive(next);
    if (focus) setFocusRequest((n) => n + 1);
  }, []);
  const opened = open === null ? undefined : samples[open];

  return html`<section class="explorer" aria-label="Samples">
    <div class="toolbar" role="search" aria-label="Filter the samples">
      <div class="chips" role="group" aria-label="Status">
        ${listed.map((id) => {
          const info = statusInfo(id);
          return html`<button
            type="button"
            class="chip ${statusClass(id)}"
            aria-pressed=${statuses.has(id) ? 'true' : 'false'}
            data-status=${id}
            onClick=${() => toggle(id)}
          >
            <span class="glyph" aria-hidden="true">${info.glyph}</span> ${info.label}
            <span class="chip-count">${count(counts.get(id))}</span>
          </button>`;
        })}
      </div>
      ${
        index.suites.length > 0 &&
        html`<label class="field"
        >status in
        <select value=${suite} onChange=${(/** @type {Event} */ e) => setSuite(/** @type {HTMLSelectElement} */ (e.target).value)}>
          <option value="">all suites (overall)</option>
          ${index.suites.map((s) => html`<option value=${s}>${s}</option>`)}
        </select></label
      >`
      }
      <label class="field search"
        ><span class="sr-only">Search task ids and failure messages</span>
        <input
          type="search"
          placeholder="Search tasks and failures…"
          value=${query}
          onInput=${(/** @type {Event} */ e) => setQuery(/** @type {HTMLInputElement} */ (e.target).value)}
      /></label>
      <p class="shown" aria-live="polite">
        <strong data-shown=${shown}>${count(shown)}</strong>${` of ${count(samples.length)} samples, `}${count(rows.length)}${` of ${count(index.tasks.length)} tasks`}
      </p>
    </div>
    ${
      rows.length === 0
        ? html`<p class="empty">No sample matches these filters.</p>`
        : html`<${SampleGrid}
          samples=${samples}
          rows=${rows}
          totals=${totals}
          suite=${suite}
          active=${active}
          onActive=${onActive}
          onOpen=${setOpen}
          focusRequest=${focusRequest}
          label="Samples of ${name}, one row per task"
        />`
    }
    ${
      opened &&
      html`<${Drawer}
      title=${html`<span class="mono">${opened.task_id}</span> <span class="muted">#${opened.index}</span>`}
      onClose=${close}
    >
      <${SampleDetail} sample=${opened} />
    </${Drawer}>`
    }
  </section>`;
}
