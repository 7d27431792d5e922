/**
 * The view of `crucible audit --json` documents: the harness measured on the dataset itself.
 * For functions: its false-negative and false-positive rates, the references it fails, the
 * known-wrong programs it passes and the programs it could not judge, each with its
 * explanation; with --mutants, each task's mutation score and its surviving mutants as diffs
 * against the reference. A pack's own audit document has its pack's view (PackModule.reportView,
 * registered with registerAuditView), tried first.
 */
import { html } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { MutantDiff } from '../components/audit-mutant.js';
import { ExpectedActual } from '../components/diff.js';
import { Program } from '../components/program.js';
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
import { StatusBadge } from '../components/status-badge.js';
import { count, percent } from '../format.js';
import { auditView, registerDocumentView } from '../registry.js';

/** @typedef {import('../types').ReportDocument} ReportDocument */
/** @typedef {import('../types-select').FunctionAuditDocument} FunctionAuditDocument */
/** @typedef {import('../types-select').AuditEntry} AuditEntry */
/** @typedef {import('../types-select').MutationReport} MutationReport */
/** @typedef {import('../types-select').TaskMutationScore} TaskMutationScore */

/**
 * The disagreements of a functions audit, by what they say about the harness.
 * @param {readonly AuditEntry[]} entries
 */
export function auditLists(entries) {
  return {
    falseNegatives: entries.filter((e) => e.kind === 'reference' && e.status !== 'pass' && e.status !== 'no-verdict'),
    falsePositives: entries.filter((e) => e.kind === 'known-wrong' && e.status === 'pass'),
    noVerdicts: entries.filter((e) => e.status === 'no-verdict'),
  };
}

/**
 * @param {{ entry: AuditEntry, explanation: string }} props
 */
function EntryCard({ entry, explanation }) {
  const failure = entry.first_failure;
  const input = failure?.input;
  return html`<article class="audit-entry" data-task=${entry.task_id} data-kind=${entry.kind} data-status=${entry.status}>
    <header class="ae-head">
      <span class="mono ae-task">${entry.task_id}</span>
      <${StatusBadge} status=${entry.status} />
      <span class="muted">${entry.kind === 'reference' ? 'the reference' : `known wrong: ${entry.label}`}</span>
    </header>
    <p class="ae-why">${explanation}</p>
    ${failure?.message && html`<pre class="message">${failure.message}</pre>`}
    ${
      input !== null &&
      input !== undefined &&
      html`<div class="ea-row"><span class="ea-label">input</span><code class="ea-value">${input}</code></div>`
    }
    ${
      failure &&
      (failure.expected != null || failure.actual != null) &&
      html`<${ExpectedActual} expected=${failure.expected} actual=${failure.actual} />`
    }
    ${
      typeof entry.program === 'string' &&
      html`<details class="ae-program">
        <summary>The program</summary>
        <${Program} source=${entry.program} label=${`${entry.label} of ${entry.task_id}`} />
      </details>`
    }
  </article>`;
}

/**
 * @param {{ id: string, title: string, lead: string, entries: readonly AuditEntry[], empty: string, explain: (e: AuditEntry) => string }} props
 */
function EntryList({ id, title, lead, entries, empty, explain }) {
  return html`<section class="card audit-list" aria-labelledby="${id}-title" data-list=${id}>
    <h2 id="${id}-title">${title} <span class="muted" data-count>${count(entries.length)}</span></h2>
    <p class="muted small">${lead}</p>
    ${
      entries.length === 0
        ? html`<p class="empty-list">${empty}</p>`
        : entries.map((e) => html`<${EntryCard} entry=${e} explanation=${explain(e)} />`)
    }
  </section>`;
}

/**
 * @typedef {object} MutationFilter
 * @property {boolean} weak only tasks scored below the report's weak_below
 * @property {boolean} survivors only tasks with a surviving mutant
 * @property {string} query matched against task ids
 * @property {'dataset' | 'weakest'} order
 */

/**
 * @param {readonly TaskMutationScore[]} tasks
 * @param {number} weakBelow
 * @param {MutationFilter} filter
 */
export function filterMutationTasks(tasks, weakBelow, { weak, survivors, query, order }) {
  const q = query.trim().toLowerCase();
  const kept = tasks.filter(
    (t) =>
      (!weak || (t.score !== null && t.score < weakBelow)) &&
      (!survivors || t.survivors.length > 0) &&
      (q === '' || t.task_id.toLowerCase().includes(q)),
  );
  if (order === 'weakest') return [...kept].sort((a, b) => (a.score ?? 2) - (b.score ?? 2));
  return kept;
}

/** @param {{ mutation: MutationReport }} props */
function MutationTable({ mutation }) {
  const [weak, setWeak] = useState(false);
  const [survivors, setSurvivors] = useState(false);
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState(/** @type {MutationFilter['order']} */ ('dataset'));
  const [expanded, setExpanded] = useState(/** @type {ReadonlySet<string>} */ (new Set()));
  const [limit, setLimit] = useState(FIRST_ROWS);
  const shown = useMemo(
    () => filterMutationTasks(mutation.tasks, mutation.weak_below, { weak, survivors, query, order }),
    [mutation, weak, survivors, query, order],
  );
  const toggle = (/** @type {string} */ id) => {
    const next = new Set(expanded);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setExpanded(next);
  };
  const weakCount = mutation.tasks.filter((t) => t.score !== null && t.score < mutation.weak_below).length;
  const withSurvivors = mutation.tasks.filter((t) => t.survivors.length > 0).length;
  return html`<section class="card mutation-scores" aria-labelledby="mutation-title">
    <h2 id="mutation-title">Mutation score per task <span class="muted">${count(mutation.tasks.length)}</span></h2>
    <p class="muted small">
      At most ${count(mutation.mutants_per_task)} mutants of each reference (seed ${mutation.seed}), judged by the task's own tests: a killed
      mutant fails them, a survivor passes them. ${mutation.note ? `Note: ${mutation.note}.` : ''}
    </p>
    <div class="toolbar" role="search" aria-label="Filter the tasks">
      <div class="chips" role="group" aria-label="Tasks">
        <${Chip} name="weak" glyph="!" tone="s-fail" label=${`weak (score < ${mutation.weak_below})`} n=${weakCount} pressed=${weak} onClick=${() => setWeak(!weak)} />
        <${Chip} name="survivors" glyph="+" label="with survivors" n=${withSurvivors} pressed=${survivors} onClick=${() => setSurvivors(!survivors)} />
      </div>
      <label class="field"
        >order
        <select value=${order} onChange=${(/** @type {Event} */ e) => setOrder(/** @type {MutationFilter['order']} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
          <option value="dataset">as in the dataset</option>
          <option value="weakest">weakest first</option>
        </select></label
      >
      <${TaskSearch} label="Search task ids" placeholder="Search tasks…" query=${query} setQuery=${setQuery} shown=${shown.length} total=${mutation.tasks.length} />
    </div>
    ${
      shown.length === 0
        ? html`<p class="empty">No task matches these filters.</p>`
        : html`<table class="plain mutation-table" data-nav-list onKeyDown=${onRowKeys}>
          <caption class="sr-only">Mutation score per task; expand a task for its surviving mutants (arrow keys move between tasks)</caption>
          <thead>
            <tr>
              <th scope="col">task</th>
              <th scope="col" class="num">score</th>
              <th scope="col" class="num">killed</th>
              <th scope="col" class="num">no verdict</th>
              <th scope="col" class="num">dropped</th>
              <th scope="col">surviving mutants</th>
            </tr>
          </thead>
          ${shown.slice(0, limit).map((t) => {
            const open = expanded.has(t.task_id);
            const weakTask = t.score !== null && t.score < mutation.weak_below;
            const panel = `survivors-${t.task_id.replace(/[^\w-]/g, '_')}`;
            return html`<tbody key=${t.task_id} data-task=${t.task_id} class=${weakTask ? 'weak' : ''}>
              <tr>
                <th scope="row" class="mono">${t.task_id}</th>
                <td class="num score-cell" data-col="score">
                  ${t.score === null ? html`<span class="muted">—</span>` : html`<${ShareBar} value=${t.score} tone=${weakTask ? 'fail' : 'pass'} />${fixed(t.score, 2)}`}
                </td>
                <td class="num" data-col="killed">${count(t.killed)}/${count(t.judged)}</td>
                <td class="num" data-col="no-verdict">${count(t.no_verdict)}</td>
                <td class="num" data-col="dropped" title="mutants that do not parse, and duplicates">
                  ${count((t.dropped_invalid ?? 0) + (t.dropped_duplicate ?? 0))}
                </td>
                <td>
                  ${
                    t.problem
                      ? html`<span class="muted">no score: ${t.problem}</span>`
                      : t.survivors.length === 0
                        ? html`<span class="muted">none: every judged mutant was killed</span>`
                        : html`<button
                          type="button"
                          class="expander"
                          data-nav
                          aria-expanded=${open ? 'true' : 'false'}
                          aria-controls=${panel}
                          onClick=${() => toggle(t.task_id)}
                        >
                          <span class="chevron" aria-hidden="true">${open ? '▾' : '▸'}</span>
                          ${count(t.survivors.length)} ${t.survivors.length === 1 ? 'survivor' : 'survivors'}
                        </button>`
                  }
                </td>
              </tr>
              ${
                open &&
                html`<tr class="survivors-row">
                  <td colspan="6" id=${panel}>
                    <div class="survivors">${t.survivors.map((s) => html`<${MutantDiff} survivor=${s} />`)}</div>
                  </td>
                </tr>`
              }
            </tbody>`;
          })}
        </table>`
    }
    <${ShowMore} total=${shown.length} limit=${limit} setLimit=${setLimit} />
  </section>`;
}

/** @param {{ mutation: MutationReport }} props */
function MutationFigures({ mutation }) {
  const m = mutation.mutants;
  return html`<${Figures}
    figures=${[
      {
        key: 'mean-score',
        label: 'mean score',
        value: fixed(mutation.mean_score, 2),
        note: `over ${count(mutation.tasks_scored)} scored tasks`,
      },
      { key: 'weak-tasks', label: `weak tasks (< ${mutation.weak_below})`, value: count(mutation.weak_tasks) },
      {
        key: 'killed',
        label: 'mutants killed',
        value: `${count(m.killed)} / ${count(m.judged)}`,
        note: `${count(m.judged - m.killed)} survived`,
      },
      { key: 'mutant-no-verdict', label: 'no verdict', value: count(m.no_verdict) },
    ]}
  />`;
}

/** @param {{ entry: ReportDocument, doc: FunctionAuditDocument }} props */
function FunctionAudit({ entry, doc }) {
  const { falseNegatives, falsePositives, noVerdicts } = auditLists(doc.disagreements ?? []);
  const r = doc.references;
  const k = doc.known_wrong;
  const judgedReferences = r.total - r.no_verdict;
  const judgedWrong = k.total - k.no_verdict;
  return html`<div class="view audit-view">
    <${ViewHeader}
      title=${doc.dataset}
      kind="audit"
      file=${entry.name}
      facts=${[['judged', `references, known-wrong programs${doc.mutation ? ', mutants of the references' : ''}`]]}
    />
    <section class="cards" aria-label="Summary">
      <div class="card">
        <h2>Harness</h2>
        <${Figures}
          figures=${[
            {
              key: 'false-negative-rate',
              label: 'false-negative rate',
              value: percent(doc.false_negative_rate),
              note: `${count(falseNegatives.length)} of ${count(judgedReferences)} judged references fail`,
            },
            {
              key: 'false-positive-rate',
              label: 'false-positive rate',
              value: percent(doc.false_positive_rate),
              note: `${count(falsePositives.length)} of ${count(judgedWrong)} judged known-wrong programs pass`,
            },
            { key: 'references', label: 'references passing', value: `${count(r.passed)} / ${count(r.total)}` },
            { key: 'known-wrong', label: 'known-wrong failing', value: `${count(k.failed)} / ${count(k.total)}` },
            {
              key: 'no-verdict',
              label: 'no verdict',
              value: count(r.no_verdict + k.no_verdict),
              note: 'the sandbox failed: says nothing about the program',
            },
          ]}
        />
      </div>
      ${
        doc.mutation &&
        html`<div class="card">
        <h2>Test strength (mutants)</h2>
        <${MutationFigures} mutation=${doc.mutation} />
      </div>`
      }
    </section>
    <${EntryList}
      id="false-negatives"
      title="False negatives: references the harness fails"
      lead="A reference is right by definition: when the harness fails it, the harness (or the task's tests) is wrong."
      entries=${falseNegatives}
      empty="None: every reference the harness judged passes its tests."
      explain=${(/** @type {AuditEntry} */ e) => `The reference is judged ${e.status}${e.first_failure?.message ? ':' : '.'}`}
    />
    <${EntryList}
      id="false-positives"
      title="False positives: known-wrong programs it passes"
      lead="A known-wrong program (a dataset's buggy solution) must fail: when it passes, the task's tests do not tell it from the reference."
      entries=${falsePositives}
      empty="None: every known-wrong program the harness judged fails."
      explain=${() => 'It passes every test of the task: no test tells this wrong program from the reference.'}
    />
    ${
      noVerdicts.length > 0 &&
      html`<${EntryList}
        id="no-verdicts"
        title="No verdict"
        lead="The sandbox itself failed on these programs: they are left out of both rates."
        entries=${noVerdicts}
        empty=""
        explain=${(/** @type {AuditEntry} */ e) => `No verdict on ${e.kind === 'reference' ? 'the reference' : `the known-wrong program ${e.label}`}.`}
      />`
    }
    ${
      doc.mutation
        ? html`<${MutationTable} mutation=${doc.mutation} />`
        : html`<p class="muted small">No mutation scores: run <code>crucible audit --mutants</code> to score each task's tests by the mutants of its reference they kill.</p>`
    }
  </div>`;
}

/** @param {{ entry: ReportDocument }} props */
function AuditView({ entry }) {
  const doc = entry.document;
  const own = auditView(doc);
  if (own) return html`<${own.render} entry=${entry} doc=${doc} />`;
  return html`<${FunctionAudit} entry=${entry} doc=${/** @type {FunctionAuditDocument} */ (/** @type {unknown} */ (doc))} />`;
}

registerDocumentView(['audit'], { title: 'audit', render: AuditView });
