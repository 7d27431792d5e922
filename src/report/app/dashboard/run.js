/**
 * A run's page: the run's document in the report's own view (../registry.js), live while the
 * run runs. The server streams what changes (src/server/dashboard.ts, /live): the run's row
 * (status, progress) and its new trace events, which a solve run's tree shows as they come;
 * when the run ends the page reads its whole document again and shows it in its view.
 */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { count } from '../format.js';
import { RunStatus } from '../components/run-parts.js';
import { documentView } from '../registry.js';
import { getRun, liveRun } from './api.js';
import { useHeadingFocus } from './focus.js';
import { ProgressBar, runDuration, started, useNow } from './run-status.js';

/** @typedef {import('./types').ListedRun} ListedRun */
/** @typedef {import('./types').StoredRun} StoredRun */
/** @typedef {import('./types').TraceEvent} TraceEvent */
/** @typedef {import('../types').ReportDocument} ReportDocument */

const COMMAND_RUNS = ['eval', 'select', 'calibrate', 'audit'];

/**
 * A run's document with the live stream's news: the row's fields, and events after the last.
 * @param {ReportDocument} entry
 * @param {ListedRun} run
 * @param {readonly TraceEvent[]} events
 * @returns {ReportDocument}
 */
function withNews(entry, run, events) {
  if (entry.kind !== 'run') return entry;
  const doc = /** @type {{ run?: Record<string, unknown>, events?: TraceEvent[] }} */ (entry.document);
  const { status, finishedAt, progress, usage, headline } = run;
  return {
    ...entry,
    document: {
      ...doc,
      run: { ...doc.run, status, finishedAt, progress, usage, headline, events: run.events },
      events: [...(doc.events ?? []), ...events],
    },
  };
}

/** @param {{ id: string }} props */
export function RunPage({ id }) {
  const [stored, setStored] = useState(/** @type {StoredRun | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [live, setLive] = useState(/** @type {'no' | 'yes' | 'lost'} */ ('no'));
  /** Bumped to read the whole run again (when it has finished). */
  const [version, setVersion] = useState(0);
  /** The run has finished and its whole document is being read. */
  const [reading, setReading] = useState(false);
  const lastSeq = useRef(-1);

  useEffect(() => {
    const controller = new AbortController();
    getRun(id, controller.signal)
      .then((answer) => {
        const events = answer.document.kind === 'run' ? /** @type {any} */ (answer.document.document).events : [];
        lastSeq.current = Array.isArray(events) && events.length > 0 ? events[events.length - 1].seq : -1;
        setStored(answer);
        setReading(false);
        setError(null);
      })
      .catch((/** @type {unknown} */ e) => {
        if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => controller.abort();
  }, [id, version]);

  const running = stored?.run.status === 'running';
  useEffect(() => {
    if (!running) return undefined;
    const source = liveRun(id, lastSeq.current);
    /** @param {Event} event */
    const data = (event) => JSON.parse(/** @type {MessageEvent} */ (event).data);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      source.close();
      setLive('no');
      setReading(true);
      setVersion((n) => n + 1);
    };
    source.addEventListener('open', () => setLive('yes'));
    source.addEventListener('run', (event) => {
      const run = /** @type {ListedRun} */ (data(event));
      setStored((s) => (s ? { run, document: withNews(s.document, run, []) } : s));
      if (run.status !== 'running') end();
    });
    source.addEventListener('events', (event) => {
      // After a reconnection the stream starts again from the first seq asked for: skip what is here.
      const fresh = /** @type {TraceEvent[]} */ (data(event)).filter((e) => e.seq > lastSeq.current);
      if (fresh.length === 0) return;
      lastSeq.current = fresh[fresh.length - 1]?.seq ?? lastSeq.current;
      setStored((s) => (s ? { run: s.run, document: withNews(s.document, s.run, fresh) } : s));
    });
    source.addEventListener('done', end);
    source.addEventListener('gone', (event) => {
      source.close();
      setError(String(data(event).error));
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) setLive('lost');
    });
    return () => source.close();
  }, [id, running]);

  const now = useNow(running);
  useHeadingFocus(stored !== null || error !== null);
  if (error)
    return html`<h1 class="sr-only">Run ${id}</h1>
      <p class="notice" role="alert">Run ${id}: ${error}</p>`;
  if (!stored) return html`<p class="loading">Reading run ${id}…</p>`;
  const { run, document } = stored;
  const command = COMMAND_RUNS.includes(run.strategy);
  const view = documentView(document.kind);
  // The run view (a solve run's, or a command's that wrote no document) shows the run's facts itself.
  const viewHasFacts = document.kind === 'run' && !(running && command);
  /** @type {[string, import('preact').ComponentChild][]} */
  const facts = [['run', html`<code>${run.id}</code>`]];
  if (!viewHasFacts) {
    facts.push(
      ['command', run.command],
      ['model / samples', run.model],
      ['task / dataset', run.task],
      ['started', html`<time datetime=${run.startedAt}>${started(run.startedAt)}</time>`],
      ['duration', html`<span data-testid="run-duration">${runDuration(run, now)}</span>`],
    );
    if (run.usage) {
      facts.push(['tokens', count(run.usage.inputTokens + run.usage.outputTokens)]);
      if (run.usage.costUsd !== null) facts.push(['cost', `$${run.usage.costUsd.toFixed(4)}`]);
    }
  }
  if (!command) facts.push(['events', html`<span data-testid="run-events">${count(run.events)}</span>`]);
  return html`<article class="dash-run" data-run=${run.id} data-status=${run.status} aria-labelledby="run-title">
    <header class="dash-run-head">
      <p class="dash-back"><a href="#/">← All runs</a></p>
      <div class="dash-title-line">
        <h1 id="run-title">${run.command} <span class="muted">·</span> ${run.task}</h1>
        <${RunStatus} status=${run.status} />
        ${live === 'yes' && html`<span class="dash-live" title="this page follows the run as it goes">live</span>`}
      </div>
      <dl class="facts">
        ${facts.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
      </dl>
      ${running && run.progress && html`<${ProgressBar} progress=${run.progress} />`}
      ${run.result && !running && html`<p class="dash-result-line">${run.result}</p>`}
      ${live === 'lost' && html`<p class="notice" role="status">The live updates stopped: reload the page to follow the run again.</p>`}
    </header>
    <div class="dash-view" data-kind=${document.kind}>
      ${
        reading
          ? html`<p class="loading" role="status">The run has finished: reading its results…</p>`
          : running && command
            ? html`<p class="empty" role="status">
              The ${run.strategy} is running; its results appear here, in the same view as its report, when it finishes.
            </p>`
            : html`<${view.render} key=${`${document.kind} ${run.status}`} entry=${document} />`
      }
    </div>
  </article>`;
}
