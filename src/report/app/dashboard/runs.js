/**
 * The runs of the store, newest first: status, command, what was judged, the task or dataset,
 * when it started, how long it took and its figures; filtered by status, command and text
 * (the server filters, so older runs are found too). The list reads the store again every few
 * seconds: a run started elsewhere appears, a running one moves.
 */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { RunStatus } from '../components/run-parts.js';
import { listRuns } from './api.js';
import { useHeadingFocus } from './focus.js';
import { ProgressBar, RUN_STATUS_IDS, runDuration, started, useNow } from './run-status.js';

/** @typedef {import('./types').RunList} RunList */
/** @typedef {{ status: string, command: string, q: string }} Filters */

const COMMANDS = ['eval', 'select', 'calibrate', 'audit', 'solve'];
const REFRESH_MS = 2000;
/** Typing pauses this long before the list is asked for again. */
const TYPING_MS = 200;

/** @param {{ initial: Filters, onFilters: (filters: Filters) => void }} props */
export function RunsPage({ initial, onFilters }) {
  const [filters, setFilters] = useState(initial);
  const [query, setQuery] = useState(initial);
  const [list, setList] = useState(/** @type {RunList | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [tick, setTick] = useState(0);
  const typing = useRef(/** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined));

  const change = (/** @type {Partial<Filters>} */ part) => {
    const next = { ...filters, ...part };
    setFilters(next);
    onFilters(next);
    clearTimeout(typing.current);
    if ('q' in part) typing.current = setTimeout(() => setQuery(next), TYPING_MS);
    else setQuery(next);
  };

  useEffect(() => {
    const controller = new AbortController();
    listRuns(query, controller.signal)
      .then((answer) => {
        setList(answer);
        setError(null);
      })
      .catch((/** @type {unknown} */ e) => {
        if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => controller.abort();
  }, [query, tick]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (!document.hidden) setTick((n) => n + 1);
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const runs = list?.runs ?? [];
  const now = useNow(runs.some((r) => r.status === 'running'));
  const filtered = Boolean(filters.status || filters.command || filters.q);
  useHeadingFocus(true);

  return html`<section class="dash-runs" aria-labelledby="runs-title">
    <div class="dash-title-line">
      <h1 id="runs-title">Runs</h1>
      ${list?.store.path && html`<span class="muted small">from <code>${list.store.path}</code></span>`}
    </div>
    <div class="toolbar dash-filters" role="search" aria-label="Filter the runs">
      <label class="field">
        status
        <select value=${filters.status} onChange=${(/** @type {Event} */ e) => change({ status: /** @type {HTMLSelectElement} */ (e.currentTarget).value })} data-testid="filter-status">
          <option value="">any</option>
          ${RUN_STATUS_IDS.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label class="field">
        command
        <select value=${filters.command} onChange=${(/** @type {Event} */ e) => change({ command: /** @type {HTMLSelectElement} */ (e.currentTarget).value })} data-testid="filter-command">
          <option value="">any</option>
          ${COMMANDS.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label class="field search">
        search
        <input
          type="search"
          value=${filters.q}
          placeholder="id, task, model, strategy"
          onInput=${(/** @type {Event} */ e) => change({ q: /** @type {HTMLInputElement} */ (e.currentTarget).value })}
          data-testid="filter-text"
        />
      </label>
      <p class="shown" aria-live="polite" data-shown=${list ? runs.length : ''}>
        ${list ? html`<strong>${runs.length}</strong> ${runs.length === 1 ? 'run' : 'runs'}${filtered ? ' match' : ''}` : 'Loading…'}
      </p>
    </div>
    ${error && html`<p class="notice" role="alert">The runs could not be read: ${error}</p>`}
    ${
      list &&
      runs.length === 0 &&
      html`<p class="empty">
        ${
          !list.store.exists
            ? html`No run store at <code>${list.store.path ?? '(none given)'}</code> yet: runs appear here once
                <code>crucible eval</code>, <code>solve</code>, <code>select</code>, <code>calibrate</code> or
                <code>audit</code> records one there (<code>--db</code>).`
            : filtered
              ? 'No run matches these filters.'
              : 'No runs in the store yet.'
        }
      </p>`
    }
    ${
      runs.length > 0 &&
      html`<div class="card dash-table-card">
        <table class="plain dash-run-table" data-testid="runs">
          <caption class="sr-only">
            Runs, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">run</th>
              <th scope="col">status</th>
              <th scope="col">command</th>
              <th scope="col">model / samples</th>
              <th scope="col">task / dataset</th>
              <th scope="col">started</th>
              <th scope="col" class="num">duration</th>
              <th scope="col">result</th>
            </tr>
          </thead>
          <tbody>
            ${runs.map(
              (run) => html`<tr key=${run.id} data-run=${run.id} data-status=${run.status} data-command=${run.command}>
                <th scope="row"><a class="mono" href=${`#/runs/${encodeURIComponent(run.id)}`}>${run.id}</a></th>
                <td><${RunStatus} status=${run.status} /></td>
                <td>${run.command}</td>
                <td class="dash-clip" title=${run.model}>${run.model}</td>
                <td class="dash-clip" title=${run.task}>${run.task}</td>
                <td class="dash-nowrap"><time datetime=${run.startedAt}>${started(run.startedAt)}</time></td>
                <td class="num dash-nowrap">${runDuration(run, now)}</td>
                <td class="dash-result">
                  ${
                    run.status === 'running' && run.progress
                      ? html`<${ProgressBar} progress=${run.progress} compact=${true} />`
                      : run.result || (run.reason && html`<span class="muted" title=${run.reason}>${run.reason}</span>`)
                  }
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>`
    }
  </section>`;
}
