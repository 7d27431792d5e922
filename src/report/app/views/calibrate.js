/**
 * The view of the threshold file `crucible calibrate` writes: the threshold chosen and what it
 * certifies, the risk–coverage curve with every tested threshold's bound and the α line, the
 * tested thresholds as a table (the curve's text alternative), and the labelled calibration
 * tasks — each one's confidence, whether its selected program is right, and whether the
 * threshold answers it.
 */
import { html } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { levelPoint, RiskCoverage } from '../components/risk-coverage.js';
import {
  Chip,
  Figures,
  FIRST_ROWS,
  ShowMore,
  TaskSearch,
  fixed,
  ShareBar,
  ViewHeader,
} from '../components/select-parts.js';
import { count, date, percent } from '../format.js';
import { registerDocumentView } from '../registry.js';

/** @typedef {import('../types').ReportDocument} ReportDocument */
/** @typedef {import('../types-select').CalibrateDocument} CalibrateDocument */
/** @typedef {import('../types-select').CalibrationItem} CalibrationItem */
/** @typedef {import('../types-select').ThresholdLevel} ThresholdLevel */

/**
 * @typedef {object} ItemFilter
 * @property {ReadonlySet<string>} at 'answered' / 'abstained' at the threshold; empty: both
 * @property {ReadonlySet<string>} label 'right' / 'wrong'; empty: both
 * @property {string} query matched against task ids
 * @property {'dataset' | 'confidence-asc' | 'confidence-desc'} order
 */

/**
 * @param {CalibrationItem} item
 * @param {number | null} threshold
 */
export const answeredAt = (item, threshold) => threshold !== null && item.confidence >= threshold;

/**
 * The calibration tasks a filter keeps, each with its position in the document.
 * @param {readonly CalibrationItem[]} items
 * @param {number | null} threshold
 * @param {ItemFilter} filter
 */
export function filterItems(items, threshold, { at, label, query, order }) {
  const q = query.trim().toLowerCase();
  const kept = items
    .map((item, position) => ({ item, position }))
    .filter(
      ({ item }) =>
        (at.size === 0 || at.has(answeredAt(item, threshold) ? 'answered' : 'abstained')) &&
        (label.size === 0 || label.has(item.correct ? 'right' : 'wrong')) &&
        (q === '' || (item.taskId ?? '').toLowerCase().includes(q)),
    );
  if (order === 'confidence-asc') kept.sort((a, b) => a.item.confidence - b.item.confidence);
  if (order === 'confidence-desc') kept.sort((a, b) => b.item.confidence - a.item.confidence);
  return kept;
}

/**
 * @param {{ levels: readonly ThresholdLevel[], n: number, alpha: number, chosen: number | null, onHighlight: (t: number | null) => void }} props
 */
function LevelsTable({ levels, n, alpha, chosen, onHighlight }) {
  return html`<table class="plain levels" id="levels-table" data-testid="levels">
    <caption class="sr-only">
      Every threshold tested: the tasks it answers and gets wrong, and the certified bound on its error (the curve's points)
    </caption>
    <thead>
      <tr>
        <th scope="col" class="num">confidence ≥</th>
        <th scope="col" class="num">answered</th>
        <th scope="col" class="num">coverage</th>
        <th scope="col" class="num">wrong</th>
        <th scope="col" class="num">risk</th>
        <th scope="col" class="num">certified ≤</th>
        <th scope="col">α = ${alpha}</th>
      </tr>
    </thead>
    <tbody>
      ${levels.map((level) => {
        const p = levelPoint(level, n);
        const certifies = level.errorBound <= alpha;
        const isChosen = level.threshold === chosen;
        return html`<tr
          class=${isChosen ? 'chosen-row' : ''}
          data-threshold=${level.threshold}
          onMouseEnter=${() => onHighlight(level.threshold)}
          onMouseLeave=${() => onHighlight(null)}
        >
          <th scope="row" class="num" data-col="threshold">${fixed(level.threshold)}</th>
          <td class="num" data-col="answered">${count(level.answered)}</td>
          <td class="num" data-col="coverage">${percent(p.coverage)}</td>
          <td class="num" data-col="wrong">${count(level.wrong)}</td>
          <td class="num" data-col="risk">${percent(p.risk)}</td>
          <td class="num" data-col="bound">${percent(level.errorBound)}</td>
          <td data-col="certifies">
            ${
              certifies
                ? html`<span class="certifies"><span aria-hidden="true">✓</span> certifies</span>`
                : html`<span class="fails"><span aria-hidden="true">✗</span> above α</span>`
            }
            ${isChosen && html` <strong class="chosen-label">chosen</strong>`}
          </td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** @param {{ items: readonly CalibrationItem[], threshold: number | null }} props */
function Items({ items, threshold }) {
  const [at, setAt] = useState(/** @type {ReadonlySet<string>} */ (new Set()));
  const [label, setLabel] = useState(/** @type {ReadonlySet<string>} */ (new Set()));
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState(/** @type {ItemFilter['order']} */ ('confidence-desc'));
  const [limit, setLimit] = useState(FIRST_ROWS);
  const shown = useMemo(
    () => filterItems(items, threshold, { at, label, query, order }),
    [items, threshold, at, label, query, order],
  );
  /** @param {ReadonlySet<string>} set @param {(s: ReadonlySet<string>) => void} setter @param {string} value */
  const toggle = (set, setter, value) => {
    const next = new Set(set);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    setter(next);
  };
  const answered = items.filter((i) => answeredAt(i, threshold)).length;
  const right = items.filter((i) => i.correct).length;
  return html`<section class="card calibration-items" aria-labelledby="items-title">
    <h2 id="items-title">Calibration tasks <span class="muted">${count(items.length)}</span></h2>
    <p class="muted small">
      Each task's selected program, labelled right or wrong by the dataset's tests; the threshold answers the tasks whose confidence
      reaches it.
    </p>
    <div class="toolbar" role="search" aria-label="Filter the calibration tasks">
      <div class="chips" role="group" aria-label="At the threshold">
        <${Chip} name="answered" glyph="✓" tone="decision-answer" label="answered at τ" n=${answered} pressed=${at.has('answered')} onClick=${() => toggle(at, setAt, 'answered')} />
        <${Chip} name="abstained" glyph="⊘" tone="decision-abstain" label="abstained at τ" n=${items.length - answered} pressed=${at.has('abstained')} onClick=${() => toggle(at, setAt, 'abstained')} />
      </div>
      <div class="chips" role="group" aria-label="Label">
        <${Chip} name="right" glyph="✓" tone="s-pass" label="right" n=${right} pressed=${label.has('right')} onClick=${() => toggle(label, setLabel, 'right')} />
        <${Chip} name="wrong" glyph="✗" tone="s-fail" label="wrong" n=${items.length - right} pressed=${label.has('wrong')} onClick=${() => toggle(label, setLabel, 'wrong')} />
      </div>
      <label class="field"
        >order
        <select value=${order} onChange=${(/** @type {Event} */ e) => setOrder(/** @type {ItemFilter['order']} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
          <option value="confidence-desc">most confident first</option>
          <option value="confidence-asc">least confident first</option>
          <option value="dataset">as in the dataset</option>
        </select></label
      >
      <${TaskSearch} label="Search task ids" placeholder="Search tasks…" query=${query} setQuery=${setQuery} shown=${shown.length} total=${items.length} />
    </div>
    ${
      shown.length === 0
        ? html`<p class="empty">No calibration task matches these filters.</p>`
        : html`<table class="plain item-table">
          <caption class="sr-only">The calibration tasks: confidence, label, and the decision at the threshold</caption>
          <thead>
            <tr>
              <th scope="col">task</th>
              <th scope="col" class="num">picked</th>
              <th scope="col" class="num">confidence</th>
              <th scope="col">selected program</th>
              <th scope="col">at τ</th>
            </tr>
          </thead>
          <tbody>
            ${shown.slice(0, limit).map(({ item, position }) => {
              const answeredHere = answeredAt(item, threshold);
              return html`<tr
                key=${position}
                class=${answeredHere && !item.correct ? 'counted-wrong' : ''}
                data-task=${item.taskId ?? String(position)}
                data-at=${answeredHere ? 'answered' : 'abstained'}
                data-label=${item.correct ? 'right' : 'wrong'}
              >
                <th scope="row" class="mono">${item.taskId ?? `#${position}`}</th>
                <td class="num">${item.selectedIndex === undefined ? '—' : `#${item.selectedIndex}`}</td>
                <td class="num confidence-cell" data-col="confidence">
                  <${ShareBar} value=${item.confidence} tone=${answeredHere ? 'pass' : ''} />${fixed(item.confidence)}
                </td>
                <td>
                  ${
                    item.correct
                      ? html`<span class="badge s-pass"><span class="glyph" aria-hidden="true">✓</span> right</span>`
                      : html`<span class="badge s-fail"><span class="glyph" aria-hidden="true">✗</span> wrong</span>`
                  }
                </td>
                <td>
                  ${
                    answeredHere
                      ? html`<span class="badge decision-answer"><span class="glyph" aria-hidden="true">✓</span> answered</span>`
                      : html`<span class="badge decision-abstain"><span class="glyph" aria-hidden="true">⊘</span> abstained</span>`
                  }
                </td>
              </tr>`;
            })}
          </tbody>
        </table>`
    }
    <${ShowMore} total=${shown.length} limit=${limit} setLimit=${setLimit} />
  </section>`;
}

/** @param {{ entry: ReportDocument }} props */
function CalibrateView({ entry }) {
  const doc = /** @type {CalibrateDocument} */ (/** @type {unknown} */ (entry.document));
  const items = doc.calibration ?? [];
  const n = doc.calibrationTasks;
  const [highlight, setHighlight] = useState(/** @type {number | null} */ (null));
  const chosen = doc.threshold === null ? null : { threshold: doc.threshold, answered: doc.answered };
  /** The probability the guarantee holds, 1 − δ, without floating-point noise. */
  const sure = String(Math.round((1 - doc.delta) * 1e6) / 1e6);
  /** With no threshold chosen: how close the best tested one came. */
  const lowest = (doc.levels ?? []).reduce(
    (best, l) => (best === undefined || l.errorBound < best.errorBound ? l : best),
    /** @type {ThresholdLevel | undefined} */ (undefined),
  );
  return html`<div class="view calibrate-view">
    <${ViewHeader}
      title=${doc.dataset?.name ? `${doc.dataset.name}: abstention threshold` : 'Abstention threshold'}
      kind="calibrate"
      file=${entry.name}
      facts=${[
        ['created', doc.created ? date(doc.created) : undefined],
        ['crucible', doc.crucible],
        ['seed', doc.seed === undefined ? undefined : String(doc.seed)],
        ['dataset file', doc.dataset?.path],
        ['samples', doc.samples_path],
        ['score', doc.score],
      ]}
    />
    <section class="cards calibrate-cards" aria-label="Summary">
      <div class="card">
        <h2>Threshold</h2>
        ${
          doc.threshold === null
            ? html`<p class="no-threshold" data-testid="no-threshold">
              <strong>No tested threshold certifies α = ${doc.alpha}</strong>${` with probability ≥ ${sure}: `}<code>select --threshold</code
              >${' abstains on every task.'}
            </p>`
            : null
        }
        <${Figures}
          figures=${
            doc.threshold === null
              ? [
                  { key: 'tasks', label: 'calibration tasks', value: count(n) },
                  ...(lowest
                    ? [
                        {
                          key: 'lowest-bound',
                          label: 'lowest certified bound',
                          value: percent(lowest.errorBound),
                          note: `at confidence ≥ ${fixed(lowest.threshold)}, above α`,
                        },
                      ]
                    : []),
                  { key: 'alpha', label: 'α', value: String(doc.alpha) },
                  { key: 'delta', label: 'δ', value: String(doc.delta) },
                ]
              : [
                  { key: 'tau', label: 'threshold τ', note: 'answer when confidence ≥ τ', value: fixed(doc.threshold) },
                  { key: 'tasks', label: 'calibration tasks', value: count(n) },
                  {
                    key: 'answered',
                    label: 'answered at τ',
                    value: count(doc.answered),
                    note: `coverage ${percent(n ? doc.answered / n : undefined)}`,
                  },
                  {
                    key: 'wrong',
                    label: 'wrong among them',
                    value: count(doc.wrong),
                    note: `risk ${percent(doc.answered ? doc.wrong / doc.answered : undefined)}`,
                  },
                  { key: 'bound', label: 'certified error ≤', value: percent(doc.errorBound) },
                  { key: 'alpha', label: 'α', value: String(doc.alpha) },
                  { key: 'delta', label: 'δ', value: String(doc.delta) },
                ]
          }
        />
        ${
          doc.threshold !== null &&
          html`<p class="meaning small">
            <code>select --threshold</code>${` answers a task when its confidence is at least ${fixed(doc.threshold)}. On these calibration tasks that answers ${percent(n ? doc.answered / n : undefined)} of them with ${percent(doc.answered ? doc.wrong / doc.answered : undefined)} wrong, and with probability at least ${sure} the share of wrong answers stays at most ${percent(doc.errorBound)} (α = ${doc.alpha}).`}
          </p>`
        }
      </div>
      <div class="card wide">
        <h2>Risk against coverage</h2>
        ${
          items.length === 0 && !doc.levels?.length
            ? html`<p class="muted">This threshold file has no calibration tasks to draw.</p>`
            : html`<${RiskCoverage}
              items=${items}
              levels=${doc.levels}
              n=${n}
              alpha=${doc.alpha}
              chosen=${chosen}
              highlight=${highlight}
              tableId=${doc.levels ? 'levels-table' : undefined}
            />`
        }
      </div>
    </section>
    <section class="card" aria-labelledby="levels-title">
      <h2 id="levels-title">Tested thresholds ${doc.levels && html`<span class="muted">${count(doc.levels.length)}</span>`}</h2>
      ${
        doc.levels &&
        html`<p class="muted small">
        Each bound is Clopper–Pearson's at δ / ${count(doc.levels?.length ?? 0)} (every tested threshold holds its bound at once
        with probability ≥ 1 − δ); the chosen threshold is the smallest whose bound is at most α.
      </p>`
      }
      ${
        doc.levels
          ? html`<${LevelsTable} levels=${doc.levels} n=${n} alpha=${doc.alpha} chosen=${doc.threshold} onHighlight=${setHighlight} />`
          : html`<p class="notice">This threshold file was written before calibrate recorded its tested thresholds; run <code>crucible calibrate</code> again to see them.</p>`
      }
    </section>
    <${Items} items=${items} threshold=${doc.threshold} />
  </div>`;
}

registerDocumentView(['calibrate'], { title: 'calibrate', render: CalibrateView });
