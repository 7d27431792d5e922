/**
 * Two eval documents side by side — model A against model B, or a harness change against the
 * last run: pass@k per suite with the difference, status counts, and every sample (same task
 * id, same index) whose status flipped, each openable to see both sides.
 */
import { html } from 'htm/preact';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { Drawer } from '../components/drawer.js';
import { SampleDetail } from '../components/sample-detail.js';
import { StatusBadge } from '../components/status-badge.js';
import { count, date, percent, signedPoints } from '../format.js';
import { registerComparisonView } from '../registry.js';
import { STATUSES } from '../status.js';
import { ksOf } from './eval.js';

/** @typedef {import('../types').ReportDocument} ReportDocument */
/** @typedef {import('../types').EvalDocument} EvalDocument */
/** @typedef {import('../types').Sample} Sample */

/**
 * @typedef {object} Flip
 * @property {string} key
 * @property {Sample} a
 * @property {Sample} b
 * @property {'fixed' | 'broken' | 'changed'} change fixed: now passes; broken: passed before
 */

/** @param {Sample} s */
const keyOf = (s) => `${s.task_id}\u0000${s.index}`;

/**
 * The samples in both documents whose status differs, in A's order, and how many are in one only.
 * @param {readonly Sample[]} a
 * @param {readonly Sample[]} b
 */
export function flippedSamples(a, b) {
  const inB = new Map(b.map((s) => [keyOf(s), s]));
  const inA = new Set(a.map(keyOf));
  /** @type {Flip[]} */
  const flips = [];
  for (const sa of a) {
    const key = keyOf(sa);
    const sb = inB.get(key);
    if (!sb || sb.status === sa.status) continue;
    const change = sb.status === 'pass' ? 'fixed' : sa.status === 'pass' ? 'broken' : 'changed';
    flips.push({ key, a: sa, b: sb, change });
  }
  return {
    flips,
    onlyA: a.filter((s) => !inB.has(keyOf(s))).length,
    onlyB: b.filter((s) => !inA.has(keyOf(s))).length,
  };
}

const CHANGES = /** @type {const} */ ([
  ['broken', 'now failing', '▼'],
  ['fixed', 'now passing', '▲'],
  ['changed', 'another failure', '◆'],
]);

/** @param {{ a: EvalDocument, b: EvalDocument, nameA: string, nameB: string }} props */
function PassAtKDelta({ a, b, nameA, nameB }) {
  const pa = a.summary.pass_at_k ?? {};
  const pb = b.summary.pass_at_k ?? {};
  const suites = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
  const ks = ksOf({ ...pa, ...pb });
  /** @type {{ suite: string, k: string, va: number | undefined, vb: number | undefined }[]} */
  const lines = [];
  for (const suite of suites)
    for (const k of ks) {
      const va = pa[suite]?.[k];
      const vb = pb[suite]?.[k];
      if (va !== undefined || vb !== undefined) lines.push({ suite, k, va, vb });
    }
  return html`<table class="plain delta" data-testid="pass-at-k-delta">
    <caption class="sr-only">pass@k of both documents and the difference</caption>
    <thead>
      <tr>
        <th scope="col">suite</th>
        <th scope="col">k</th>
        <th scope="col" class="num">A <span class="muted">${nameA}</span></th>
        <th scope="col" class="num">B <span class="muted">${nameB}</span></th>
        <th scope="col" class="num">B − A</th>
      </tr>
    </thead>
    <tbody>
      ${lines.map(({ suite, k, va, vb }) => {
        const d = va !== undefined && vb !== undefined ? vb - va : undefined;
        const sign = d === undefined || Math.abs(d) < 5e-4 ? 'same' : d > 0 ? 'up' : 'down';
        return html`<tr data-suite=${suite} data-k=${k}>
          <th scope="row">${suite}</th>
          <td>pass@${k}</td>
          <td class="num" data-side="a">${percent(va)}</td>
          <td class="num" data-side="b">${percent(vb)}</td>
          <td class="num delta-${sign}" data-side="delta">
            ${d === undefined ? '—' : html`<span aria-hidden="true">${sign === 'up' ? '▲ ' : sign === 'down' ? '▼ ' : ''}</span>${signedPoints(d)}`}
          </td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** @param {{ a: EvalDocument, b: EvalDocument }} props */
function StatusDelta({ a, b }) {
  const ca = a.summary.status_counts ?? {};
  const cb = b.summary.status_counts ?? {};
  const ids = STATUSES.map((s) => s.id).filter((id) => (ca[id] ?? 0) + (cb[id] ?? 0) > 0);
  return html`<table class="plain delta">
    <caption class="sr-only">samples per status in both documents</caption>
    <thead>
      <tr><th scope="col">status</th><th scope="col" class="num">A</th><th scope="col" class="num">B</th><th scope="col" class="num">B − A</th></tr>
    </thead>
    <tbody>
      ${ids.map((id) => {
        const d = (cb[id] ?? 0) - (ca[id] ?? 0);
        return html`<tr>
          <th scope="row"><${StatusBadge} status=${id} /></th>
          <td class="num">${count(ca[id] ?? 0)}</td>
          <td class="num">${count(cb[id] ?? 0)}</td>
          <td class="num">${d > 0 ? `+${count(d)}` : d < 0 ? `−${count(-d)}` : '0'}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** @param {{ a: ReportDocument, b: ReportDocument }} props */
function ComparisonView({ a, b }) {
  const da = /** @type {EvalDocument} */ (/** @type {unknown} */ (a.document));
  const db = /** @type {EvalDocument} */ (/** @type {unknown} */ (b.document));
  const { flips, onlyA, onlyB } = useMemo(() => flippedSamples(da.samples, db.samples), [da, db]);
  const [shown, setShown] = useState(/** @type {string} */ ('all'));
  const [open, setOpen] = useState(/** @type {Flip | null} */ (null));
  const [opener, setOpener] = useState(/** @type {HTMLElement | null} */ (null));
  const listed = shown === 'all' ? flips : flips.filter((f) => f.change === shown);
  const close = useCallback(() => {
    setOpen(null);
    opener?.focus();
  }, [opener]);
  return html`<div class="view compare-view">
    <header class="doc-header">
      <div class="title-line"><h1>Comparison</h1><span class="kind">eval × 2</span></div>
      <dl class="facts">
        ${[
          ['A', a, da],
          ['B', b, db],
        ].map(
          ([side, entry, doc]) =>
            html`<div>
              <dt>${side}</dt>
              <dd>
                <strong>${/** @type {ReportDocument} */ (entry).name}</strong>${` — ${/** @type {EvalDocument} */ (doc).dataset?.name ?? ''}, `}
                ${date(/** @type {EvalDocument} */ (doc).created)}
              </dd>
            </div>`,
        )}
      </dl>
    </header>
    <section class="cards" aria-label="Summary">
      <div class="card wide">
        <h2>pass@k</h2>
        <${PassAtKDelta} a=${da} b=${db} nameA=${a.name} nameB=${b.name} />
      </div>
      <div class="card">
        <h2>Status</h2>
        <${StatusDelta} a=${da} b=${db} />
      </div>
    </section>
    <section class="card flips" aria-labelledby="flips-title">
      <h2 id="flips-title">
        Samples that flipped <span class="muted" data-testid="flip-count">${count(flips.length)}</span>
      </h2>
      <p class="muted small">
        Matched by task id and sample index. ${onlyA > 0 ? `${count(onlyA)} only in A. ` : ''}${onlyB > 0 ? `${count(onlyB)} only in B.` : ''}
      </p>
      <div class="chips" role="group" aria-label="Which flips">
        <button type="button" class="chip" aria-pressed=${shown === 'all' ? 'true' : 'false'} onClick=${() => setShown('all')}>
          all <span class="chip-count">${count(flips.length)}</span>
        </button>
        ${CHANGES.map(
          ([id, label, glyph]) =>
            html`<button type="button" class="chip change-${id}" aria-pressed=${shown === id ? 'true' : 'false'} onClick=${() => setShown(id)}>
              <span aria-hidden="true">${glyph}</span> ${label}
              <span class="chip-count">${count(flips.filter((f) => f.change === id).length)}</span>
            </button>`,
        )}
      </div>
      ${
        listed.length === 0
          ? html`<p class="empty">No sample changed status.</p>`
          : html`<table class="plain flip-list">
            <thead>
              <tr><th scope="col">task</th><th scope="col" class="num">sample</th><th scope="col">A</th><th scope="col">B</th><th scope="col">change</th></tr>
            </thead>
            <tbody>
              ${listed.map((flip) => {
                const change = /** @type {(typeof CHANGES)[number]} */ (CHANGES.find(([id]) => id === flip.change));
                return html`<tr key=${flip.key} data-task=${flip.a.task_id} data-index=${flip.a.index}>
                  <th scope="row">
                    <button
                      type="button"
                      class="link mono"
                      onClick=${(/** @type {MouseEvent} */ e) => {
                        setOpener(/** @type {HTMLElement} */ (e.currentTarget));
                        setOpen(flip);
                      }}
                    >
                      ${flip.a.task_id}
                    </button>
                  </th>
                  <td class="num">#${flip.a.index}</td>
                  <td><${StatusBadge} status=${flip.a.status} /></td>
                  <td><${StatusBadge} status=${flip.b.status} /></td>
                  <td class="change-${flip.change}"><span aria-hidden="true">${change[2]}</span> ${change[1]}</td>
                </tr>`;
              })}
            </tbody>
          </table>`
      }
    </section>
    ${
      open &&
      html`<${Drawer}
      wide
      title=${html`<span class="mono">${open.a.task_id}</span> <span class="muted">#${open.a.index}, A against B</span>`}
      onClose=${close}
    >
      <div class="sides">
        <div class="side"><h3 class="side-title">A <span class="muted">${a.name}</span></h3><${SampleDetail} sample=${open.a} /></div>
        <div class="side"><h3 class="side-title">B <span class="muted">${b.name}</span></h3><${SampleDetail} sample=${open.b} /></div>
      </div>
    </${Drawer}>`
    }
  </div>`;
}

const isEval = (/** @type {ReportDocument} */ entry) => entry.kind === 'eval' || entry.kind === 'eval-model';

registerComparisonView({ accepts: (a, b) => isEval(a) && isEval(b), render: ComparisonView });
