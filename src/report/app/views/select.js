/**
 * The view of `crucible select --json` documents: how many tasks were answered and under which
 * threshold, the tasks' confidences against it, and every task's decision to explore — its
 * behaviour clusters (which sample was picked and why), its divisive inputs and, for an
 * abstention, the reason.
 */
import { html } from 'htm/preact';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { Drawer } from '../components/drawer.js';
import { DecisionBadge, SelectTaskDetail } from '../components/select-detail.js';
import {
  Chip,
  Figures,
  FIRST_ROWS,
  ShowMore,
  TaskSearch,
  fixed,
  onRowKeys,
  ShareBar,
  ViewHeader,
} from '../components/select-parts.js';
import { count, date, percent } from '../format.js';
import { registerDocumentView } from '../registry.js';

/** @typedef {import('../types').ReportDocument} ReportDocument */
/** @typedef {import('../types-select').SelectDocument} SelectDocument */
/** @typedef {import('../types-select').SelectTask} SelectTask */
/** @typedef {import('../types-select').ThresholdFacts} ThresholdFacts */

/**
 * @typedef {object} SelectFilter
 * @property {ReadonlySet<string>} decisions empty: both
 * @property {boolean} divisive only tasks with a divisive input
 * @property {string} query matched, case-insensitively, against task ids, reasons and explanations
 * @property {'dataset' | 'confidence-asc' | 'confidence-desc'} order
 */

/**
 * The tasks a filter keeps, in the order it asks for.
 * @param {readonly SelectTask[]} tasks
 * @param {SelectFilter} filter
 */
export function filterSelectTasks(tasks, { decisions, divisive, query, order }) {
  const q = query.trim().toLowerCase();
  const kept = tasks.filter(
    (t) =>
      (decisions.size === 0 || decisions.has(t.decision)) &&
      (!divisive || t.disagreements.length > 0) &&
      (q === '' ||
        t.task_id.toLowerCase().includes(q) ||
        (t.reason ?? '').toLowerCase().includes(q) ||
        t.why.toLowerCase().includes(q)),
  );
  if (order === 'confidence-asc') return [...kept].sort((a, b) => a.confidence - b.confidence);
  if (order === 'confidence-desc') return [...kept].sort((a, b) => b.confidence - a.confidence);
  return kept;
}

/** @param {{ threshold: ThresholdFacts | null }} props */
function ThresholdCard({ threshold }) {
  if (!threshold)
    return html`<p class="muted" data-testid="no-threshold">
      No threshold: every task with a candidate is answered. <code>crucible calibrate</code> chooses one on labelled tasks;
      pass it with <code>--threshold</code>.
    </p>`;
  if (threshold.threshold === null)
    return html`<p data-testid="no-threshold">
      <strong>None certifies α = ${threshold.alpha}</strong> (δ = ${threshold.delta}) on the ${count(threshold.calibrationTasks)} calibration
      tasks: every task is abstained on.
    </p>`;
  return html`<${Figures}
    figures=${[
      { key: 'tau', label: 'threshold τ', value: fixed(threshold.threshold) },
      { key: 'alpha', label: 'α (error among answered)', value: String(threshold.alpha) },
      { key: 'delta', label: 'δ (chance the bound fails)', value: String(threshold.delta) },
      {
        key: 'bound',
        label: 'certified error ≤',
        value: percent(threshold.errorBound),
        note: `on ${count(threshold.calibrationTasks)} calibration tasks: ${count(threshold.answered)} answered, ${count(threshold.wrong)} wrong`,
      },
    ]}
  />`;
}

const BINS = 10;

/**
 * The tasks' confidences as a histogram, answered and abstained stacked, with the threshold.
 * Hand-written: ten columns of two divs each.
 * @param {{ tasks: readonly SelectTask[], threshold: number | null | undefined }} props
 */
function ConfidenceChart({ tasks, threshold }) {
  const bins = Array.from({ length: BINS }, () => ({ answer: 0, abstain: 0 }));
  for (const t of tasks) {
    const bin = bins[Math.min(BINS - 1, Math.floor(t.confidence * BINS))];
    if (bin) bin[t.decision === 'answer' ? 'answer' : 'abstain']++;
  }
  const largest = Math.max(1, ...bins.map((b) => b.answer + b.abstain));
  const answered = tasks.filter((t) => t.decision === 'answer').length;
  const label =
    `Confidence of the ${tasks.length} tasks in ${BINS} bins from 0 to 1: ${answered} answered, ${tasks.length - answered} abstained` +
    (typeof threshold === 'number' ? `; threshold ${fixed(threshold)}` : '');
  return html`<div class="confidence-chart" role="img" aria-label=${label}>
    <div class="cc-bars">
      ${bins.map(
        (
          b,
          i,
        ) => html`<div class="cc-bin" title=${`${(i / BINS).toFixed(1)}–${((i + 1) / BINS).toFixed(1)}: ${b.answer} answered, ${b.abstain} abstained`}>
          <div class="cc-abstain" style=${{ height: `${(100 * b.abstain) / largest}%` }}></div>
          <div class="cc-answer" style=${{ height: `${(100 * b.answer) / largest}%` }}></div>
        </div>`,
      )}
      ${
        typeof threshold === 'number' &&
        html`<div class="cc-threshold" style=${{ left: `${100 * threshold}%` }}><span>τ ${fixed(threshold)}</span></div>`
      }
    </div>
    <div class="cc-axis" aria-hidden="true"><span>0</span><span>0.5</span><span>1</span></div>
    <div class="cc-legend" aria-hidden="true">
      <span><span class="swatch cc-answer"></span>answered</span><span><span class="swatch cc-abstain"></span>abstained</span>
    </div>
  </div>`;
}

/**
 * The clusters of a task as one bar of segments, the picked sample's cluster in the accent colour.
 * @param {{ task: SelectTask }} props
 */
function ClusterStrip({ task }) {
  const n = task.candidates.length || 1;
  const picked = task.selected_index;
  const sizes = task.clusters.map((c) => c.length).join(' + ');
  return html`<span class="cluster-strip" title=${`clusters: ${sizes} of ${task.candidates.length}`}>
    <span class="strip" aria-hidden="true">
      ${task.clusters.map(
        (c) =>
          html`<span class=${picked !== null && c.includes(picked) ? 'seg picked' : 'seg'} style=${{ flexGrow: c.length / n }}></span>`,
      )}
    </span>
    <span class="strip-text">${sizes}</span>
  </span>`;
}

/** @param {{ tasks: readonly SelectTask[], name: string }} props */
function TaskList({ tasks, name }) {
  const [decisions, setDecisions] = useState(/** @type {ReadonlySet<string>} */ (new Set()));
  const [divisive, setDivisive] = useState(false);
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState(/** @type {SelectFilter['order']} */ ('dataset'));
  const [limit, setLimit] = useState(FIRST_ROWS);
  const [open, setOpen] = useState(/** @type {SelectTask | null} */ (null));
  const [opener, setOpener] = useState(/** @type {HTMLElement | null} */ (null));
  const shown = useMemo(
    () => filterSelectTasks(tasks, { decisions, divisive, query, order }),
    [tasks, decisions, divisive, query, order],
  );
  const toggle = (/** @type {string} */ d) => {
    const next = new Set(decisions);
    if (next.has(d)) next.delete(d);
    else next.add(d);
    setDecisions(next);
  };
  const close = useCallback(() => {
    setOpen(null);
    opener?.focus();
  }, [opener]);
  const answered = tasks.filter((t) => t.decision === 'answer').length;
  const withDivisive = tasks.filter((t) => t.disagreements.length > 0).length;
  return html`<section class="select-tasks" aria-label="Tasks">
    <div class="toolbar" role="search" aria-label="Filter the tasks">
      <div class="chips" role="group" aria-label="Decision">
        <${Chip} name="answer" glyph="✓" tone="decision-answer" label="answered" n=${answered} pressed=${decisions.has('answer')} onClick=${() => toggle('answer')} />
        <${Chip} name="abstain" glyph="⊘" tone="decision-abstain" label="abstained" n=${tasks.length - answered} pressed=${decisions.has('abstain')} onClick=${() => toggle('abstain')} />
        <${Chip} name="divisive" glyph="≠" label="with divisive inputs" n=${withDivisive} pressed=${divisive} onClick=${() => setDivisive(!divisive)} />
      </div>
      <label class="field"
        >order
        <select value=${order} onChange=${(/** @type {Event} */ e) => setOrder(/** @type {SelectFilter['order']} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
          <option value="dataset">as in the dataset</option>
          <option value="confidence-asc">least confident first</option>
          <option value="confidence-desc">most confident first</option>
        </select></label
      >
      <${TaskSearch} label="Search task ids, reasons and explanations" placeholder="Search tasks and reasons…" query=${query} setQuery=${setQuery} shown=${shown.length} total=${tasks.length} />
    </div>
    ${
      shown.length === 0
        ? html`<p class="empty">No task matches these filters.</p>`
        : html`<div class="card table-card">
          <table class="plain task-table" data-nav-list onKeyDown=${onRowKeys}>
            <caption class="sr-only">
              Decisions of ${name}, one row per task; open a task for its clusters and divisive inputs (arrow keys move between tasks)
            </caption>
            <thead>
              <tr>
                <th scope="col">task</th>
                <th scope="col">decision</th>
                <th scope="col" class="num">picked</th>
                <th scope="col" class="num">confidence</th>
                <th scope="col">clusters</th>
                <th scope="col" class="num">divisive</th>
                <th scope="col">reason or why</th>
              </tr>
            </thead>
            <tbody>
              ${shown.slice(0, limit).map(
                (t) => html`<tr key=${t.task_id} data-task=${t.task_id} data-decision=${t.decision}>
                  <th scope="row">
                    <button
                      type="button"
                      class="link mono"
                      data-nav
                      onClick=${(/** @type {MouseEvent} */ e) => {
                        setOpener(/** @type {HTMLElement} */ (e.currentTarget));
                        setOpen(t);
                      }}
                    >
                      ${t.task_id}
                    </button>
                  </th>
                  <td><${DecisionBadge} decision=${t.decision} /></td>
                  <td class="num" data-col="picked">${t.selected_index === null ? '—' : `#${t.selected_index}`}</td>
                  <td class="num confidence-cell" data-col="confidence">
                    <${ShareBar} value=${t.confidence} tone=${t.decision === 'answer' ? 'pass' : ''} />${fixed(t.confidence)}
                  </td>
                  <td><${ClusterStrip} task=${t} /></td>
                  <td class="num" data-col="divisive">${count(t.disagreements.length)}</td>
                  <td class="reason-cell" title=${t.decision === 'abstain' ? (t.reason ?? '') : t.why}>
                    ${t.decision === 'abstain' ? html`<span class="reason">${t.reason}</span>` : html`<span class="muted">${t.why}</span>`}
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
          <${ShowMore} total=${shown.length} limit=${limit} setLimit=${setLimit} />
        </div>`
    }
    ${
      open &&
      html`<${Drawer}
      wide
      title=${html`<span class="mono">${open.task_id}</span> <span class="muted">${open.decision === 'answer' ? 'answered' : 'abstained'}</span>`}
      onClose=${close}
    >
      <${SelectTaskDetail} task=${open} />
    </${Drawer}>`
    }
  </section>`;
}

/** @param {{ entry: ReportDocument }} props */
function SelectView({ entry }) {
  const doc = /** @type {SelectDocument} */ (/** @type {unknown} */ (entry.document));
  const s = doc.summary;
  const threshold = doc.threshold;
  return html`<div class="view select-view">
    <${ViewHeader}
      title=${doc.dataset?.name ?? entry.name}
      kind="select"
      file=${entry.name}
      facts=${[
        ['created', doc.created ? date(doc.created) : undefined],
        ['crucible', doc.crucible],
        ['seed', s.seed === undefined ? undefined : String(s.seed)],
        ['dataset file', doc.dataset?.path],
        ['samples', doc.samples_path],
        ['score', threshold?.score],
      ]}
    />
    <section class="cards" aria-label="Summary">
      <div class="card">
        <h2>Decisions</h2>
        <${Figures}
          figures=${[
            { key: 'tasks', label: 'tasks', value: count(s.tasks) },
            { key: 'coverage', label: 'coverage', value: percent(s.tasks ? s.answered / s.tasks : undefined) },
            { key: 'answered', label: 'answered', value: count(s.answered) },
            { key: 'abstained', label: 'abstained', value: count(s.abstained) },
          ]}
        />
      </div>
      <div class="card">
        <h2>Threshold</h2>
        <${ThresholdCard} threshold=${threshold} />
      </div>
      <div class="card">
        <h2>Confidence</h2>
        <${ConfidenceChart} tasks=${doc.tasks} threshold=${threshold?.threshold} />
      </div>
    </section>
    <${TaskList} tasks=${doc.tasks} name=${entry.name} />
  </div>`;
}

registerDocumentView(['select'], { title: 'select', render: SelectView });
