/**
 * The view of `crucible eval --json` documents, samples judged or generated with a model
 * (`eval --model`: each sample also says what the strategy did): what was judged and how,
 * pass@k per suite, the status counts, and the samples to explore.
 */
import { html } from 'htm/preact';
import { SamplesExplorer } from '../components/samples-explorer.js';
import { StatusChart } from '../components/status-chart.js';
import { bytes, count, date, inline, percent } from '../format.js';
import { registerDocumentView } from '../registry.js';

/** @typedef {import('../types').EvalDocument} EvalDocument */
/** @typedef {import('../types').ReportDocument} ReportDocument */

/**
 * The k values of a pass@k table, in numeric order.
 * @param {Record<string, Record<string, number>>} passAtK
 */
export const ksOf = (passAtK) =>
  [...new Set(Object.values(passAtK).flatMap((byK) => Object.keys(byK)))].sort((a, b) => Number(a) - Number(b));

/** @param {{ passAtK: Record<string, Record<string, number>> }} props */
export function PassAtK({ passAtK }) {
  const ks = ksOf(passAtK);
  if (ks.length === 0) return html`<p class="muted">No pass@k: no task has a sample.</p>`;
  return html`<table class="plain pass-at-k" data-testid="pass-at-k">
    <caption class="sr-only">pass@k per suite</caption>
    <thead>
      <tr>
        <th scope="col">suite</th>
        ${ks.map((k) => html`<th scope="col" class="num">pass@${k}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${Object.entries(passAtK).map(
        ([suite, byK]) => html`<tr>
          <th scope="row">${suite}</th>
          ${ks.map(
            (k) =>
              html`<td class="num" data-suite=${suite} data-k=${k} title=${byK[k] === undefined ? '' : String(byK[k])}>
                ${percent(byK[k])}
              </td>`,
          )}
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * The settings a reader checks first: isolation, workers, limits and time limits.
 * @param {Record<string, unknown>} settings
 */
function settingsFacts(settings) {
  /** @type {[string, string][]} */
  const facts = [];
  const { sandbox, workers, limits, time, ...rest } = settings;
  if (sandbox !== undefined) facts.push(['sandbox', inline(sandbox)]);
  if (workers !== undefined) facts.push(['workers', inline(workers)]);
  const l = /** @type {Record<string, number> | undefined} */ (limits);
  if (l) {
    if (l.memoryBytes) facts.push(['memory', bytes(l.memoryBytes)]);
    if (l.cpuSeconds) facts.push(['CPU', `${l.cpuSeconds} s`]);
    if (l.outputBytes) facts.push(['output', bytes(l.outputBytes)]);
  }
  const t = /** @type {Record<string, number> | undefined} */ (time);
  if (t)
    facts.push([
      'time limit',
      `max(${t.callFloorSeconds ?? '?'} s per call, ${t.scriptFloorSeconds ?? '?'} s per script, ${t.factor ?? '?'} × reference)`,
    ]);
  for (const [key, value] of Object.entries(rest)) facts.push([key, inline(value)]);
  return facts;
}

/** @param {{ entry: ReportDocument }} props */
export function DocumentHeader({ entry }) {
  const doc = /** @type {EvalDocument} */ (/** @type {unknown} */ (entry.document));
  const seed = doc.augment?.seed ?? doc.generation?.seed;
  /** @type {[string, string][]} */
  const facts = [
    ['created', date(doc.created)],
    ['crucible', doc.crucible ?? '—'],
    ...(seed !== undefined ? /** @type {[string, string][]} */ ([['seed', String(seed)]]) : []),
    ...(doc.dataset?.path ? /** @type {[string, string][]} */ ([['dataset file', doc.dataset.path]]) : []),
    ...(doc.samples_path ? /** @type {[string, string][]} */ ([['samples', doc.samples_path]]) : []),
  ];
  const generation = doc.generation ? Object.entries(doc.generation).filter(([key]) => key !== 'seed') : [];
  return html`<header class="doc-header">
    <div class="title-line">
      <h1>${doc.dataset?.name ?? entry.name}</h1>
      <span class="kind">${entry.kind === 'eval-model' ? 'eval --model' : entry.kind}</span>
      <span class="file muted">${entry.name}</span>
    </div>
    <dl class="facts">
      ${facts.map(([k, v]) => html`<div><dt>${k}</dt><dd title=${v}>${v}</dd></div>`)}
      ${generation.map(([k, v]) => html`<div><dt>${k}</dt><dd>${inline(v)}</dd></div>`)}
    </dl>
    ${
      doc.settings &&
      html`<dl class="facts settings">
      ${settingsFacts(doc.settings).map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
    </dl>`
    }
  </header>`;
}

/** @param {{ doc: EvalDocument }} props */
function Figures({ doc }) {
  const s = doc.summary;
  /** @type {[string, string][]} */
  const figures = [
    ['tasks', count(s.tasks)],
    ['samples', count(s.samples ?? doc.samples.length)],
    ['seconds', inline(s.seconds)],
    ['samples / s', inline(s.samples_per_second)],
  ];
  if (s.labels)
    figures.push(['label agreement', percent(s.labels.agreement)], ['disagreements', count(s.labels.disagreements)]);
  const strategy = s.strategy ?? {};
  for (const key of [
    'verified',
    'unverified',
    'abstained',
    'coverage',
    'errorAmongAnswered',
    'modelCalls',
    'tokens',
    'costUsd',
  ])
    if (key in strategy) {
      const value = strategy[key];
      figures.push([
        key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`),
        key === 'coverage' || key === 'errorAmongAnswered'
          ? percent(/** @type {number} */ (value))
          : key === 'costUsd' && typeof value === 'number'
            ? `$${value.toFixed(4)}`
            : inline(value),
      ]);
    }
  return html`<dl class="figures">
    ${figures.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
  </dl>`;
}

/**
 * Generated inputs on which most samples and the reference disagree at a degenerate corner
 * (`eval --augment`): set aside where the reference treats the corner as any other input,
 * held against the samples where it singles it out; each with why, so that a person can
 * tell whether the reference or the samples are right there. (Documents written before
 * the rule have no `setAside`: they were all held.)
 * @param {{ disputed: unknown }} props
 */
function Disputed({ disputed }) {
  const byTask =
    /** @type {Record<string, { input: string, reference: string, samples: string, agreeing: number, of: number, setAside?: boolean, why?: string }[]>} */ (
      disputed && typeof disputed === 'object' ? disputed : {}
    );
  const rows = Object.entries(byTask).flatMap(([task, list]) => list.map((d) => ({ task, ...d })));
  if (rows.length === 0) return null;
  return html`<section class="card disputed" aria-labelledby="disputed-title" data-testid="disputed">
    <h2 id="disputed-title">Disputed inputs</h2>
    <p class="muted">
      At an empty, one-element or zero input, most samples that pass the given tests give one answer and the
      reference another. Where the reference treats that corner as any other input, its answer is an accident of
      its code and the input is set aside; where its code or its answers elsewhere single the corner out, the
      input is held against the samples.
    </p>
    <table class="plain">
      <thead>
        <tr>
          <th scope="col">task</th>
          <th scope="col">input</th>
          <th scope="col">reference</th>
          <th scope="col">samples</th>
          <th scope="col" class="num">agreeing</th>
          <th scope="col">verdict</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (d) => html`<tr>
            <th scope="row">${d.task}</th>
            <td><code>${d.input}</code></td>
            <td><code>${d.reference}</code></td>
            <td><code>${d.samples}</code></td>
            <td class="num">${d.agreeing} of ${d.of}</td>
            <td>
              <strong>${d.setAside ? 'set aside' : 'held'}</strong>
              ${d.why ? html`<br /><span class="muted">${d.why}</span>` : null}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

/** @param {{ entry: ReportDocument }} props */
function EvalView({ entry }) {
  const doc = /** @type {EvalDocument} */ (/** @type {unknown} */ (entry.document));
  return html`<div class="view eval-view">
    <${DocumentHeader} entry=${entry} />
    ${doc.summary.interrupted && html`<p class="notice">Interrupted: only the samples judged before Ctrl-C are here.</p>`}
    <section class="cards" aria-label="Summary">
      <div class=${ksOf(doc.summary.pass_at_k ?? {}).length > 3 ? 'card wide' : 'card'}>
        <h2>pass@k</h2>
        <${PassAtK} passAtK=${doc.summary.pass_at_k ?? {}} />
      </div>
      <div class="card">
        <h2>Status</h2>
        <${StatusChart} counts=${doc.summary.status_counts ?? {}} />
      </div>
      <div class="card">
        <h2>Run</h2>
        <${Figures} doc=${doc} />
      </div>
    </section>
    <${Disputed} disputed=${doc.augment?.disputed} />
    <${SamplesExplorer} samples=${doc.samples} name=${entry.name} />
  </div>`;
}

registerDocumentView(['eval', 'eval-model'], { title: 'eval', render: EvalView });
