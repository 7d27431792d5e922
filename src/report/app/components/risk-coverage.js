/**
 * The risk–coverage curve of a calibration: over confidence thresholds, the share of wrong
 * programs among the answered tasks (risk) against the share of tasks answered (coverage),
 * each tested threshold's certified (Clopper–Pearson) bound above its point, the α line the
 * bound must stay under, and the chosen threshold.
 *
 * Hand-written inline SVG rather than a chart library: its points are DOM elements (with
 * their figures as data attributes and a <title> each) that the tests and screen readers can
 * read, and it is a few KB where a canvas chart library would add tens. Its text alternative is
 * the table of tested thresholds beside it (the SVG's description says so).
 */
import { html } from 'htm/preact';
import { percent } from '../format.js';
import { fixed } from './select-parts.js';

/** @typedef {import('../types-select').ThresholdLevel} ThresholdLevel */
/** @typedef {import('../types-select').CalibrationItem} CalibrationItem */

/**
 * @typedef {object} CurvePoint
 * @property {number} threshold
 * @property {number} answered
 * @property {number} wrong
 * @property {number} coverage answered / n
 * @property {number} risk wrong / answered (0 when nothing is answered)
 */

/**
 * The empirical curve: at every distinct confidence, what answering from it up would do.
 * @param {readonly CalibrationItem[]} items
 * @returns {CurvePoint[]} by coverage, ascending
 */
export function empiricalCurve(items) {
  const n = items.length;
  const levels = [...new Set(items.map((i) => i.confidence))].sort((a, b) => b - a);
  return levels.map((threshold) => {
    const answered = items.filter((i) => i.confidence >= threshold);
    const wrong = answered.filter((i) => !i.correct).length;
    return {
      threshold,
      answered: answered.length,
      wrong,
      coverage: answered.length / n,
      risk: wrong / answered.length,
    };
  });
}

/**
 * @param {ThresholdLevel} level
 * @param {number} n calibration tasks
 */
export const levelPoint = (level, n) => ({
  ...level,
  coverage: n ? level.answered / n : 0,
  risk: level.answered ? level.wrong / level.answered : 0,
});

const W = 640;
const H = 320;
const M = { left: 58, right: 22, top: 26, bottom: 46 };

/** The top of the risk axis: a round step above everything drawn. */
function riskScale(/** @type {number} */ largest) {
  const step = largest <= 0.25 ? 0.05 : largest <= 0.5 ? 0.1 : 0.2;
  const top = Math.min(1, Math.ceil((largest * 1.08) / step) * step);
  const ticks = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(Math.round(v * 1000) / 1000);
  return { top: Math.max(top, step), ticks };
}

/**
 * @param {{
 *   items: readonly CalibrationItem[],
 *   levels: readonly ThresholdLevel[] | undefined,
 *   n: number,
 *   alpha: number,
 *   chosen: { threshold: number, answered: number } | null,
 *   highlight?: number | null,
 *   tableId?: string,
 * }} props
 */
export function RiskCoverage({ items, levels, n, alpha, chosen, highlight = null, tableId }) {
  const curve = empiricalCurve(items);
  const points = (levels ?? []).map((l) => levelPoint(l, n));
  const { top, ticks } = riskScale(
    Math.max(alpha, ...curve.map((p) => p.risk), ...points.map((p) => Math.min(1, p.errorBound)), 0.05),
  );
  const x = (/** @type {number} */ c) => M.left + c * (W - M.left - M.right);
  const y = (/** @type {number} */ v) => H - M.bottom - (Math.min(v, top) / top) * (H - M.top - M.bottom);
  const path = (/** @type {{ coverage: number, risk: number }[]} */ ps) =>
    ps.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.coverage).toFixed(1)},${y(p.risk).toFixed(1)}`).join(' ');
  const bounds = [...points].sort((a, b) => a.coverage - b.coverage);
  const chosenCoverage = chosen && n ? chosen.answered / n : null;
  const description =
    `${points.length || curve.length} thresholds; α = ${alpha}. ` +
    (chosen
      ? `The chosen threshold ${fixed(chosen.threshold)} answers ${percent(chosenCoverage)} of the ${n} calibration tasks. `
      : 'No threshold certifies α. ') +
    `The table “Tested thresholds” lists every point.`;
  return html`<figure class="risk-coverage">
    <svg
      viewBox="0 0 ${W} ${H}"
      role="img"
      aria-labelledby="rc-title rc-desc"
      aria-describedby=${tableId}
      data-top=${top}
    >
      <title id="rc-title">Risk against coverage over the confidence thresholds</title>
      <desc id="rc-desc">${description}</desc>
      <g class="rc-grid">
        ${ticks.map(
          (v) => html`<g class="rc-tick-y" data-value=${v}>
            <line x1=${M.left} x2=${W - M.right} y1=${y(v)} y2=${y(v)} />
            <text x=${M.left - 8} y=${y(v) + 4} text-anchor="end">${Math.round(v * 100)}%</text>
          </g>`,
        )}
        ${[0, 0.25, 0.5, 0.75, 1].map(
          (c) => html`<g class="rc-tick-x" data-value=${c}>
            <line x1=${x(c)} x2=${x(c)} y1=${M.top} y2=${H - M.bottom} />
            <text x=${x(c)} y=${H - M.bottom + 16} text-anchor="middle">${Math.round(c * 100)}%</text>
          </g>`,
        )}
      </g>
      <text class="rc-axis-label" x=${(M.left + W - M.right) / 2} y=${H - 8} text-anchor="middle">
        coverage: share of the calibration tasks answered
      </text>
      <text class="rc-axis-label" transform="rotate(-90)" x=${-(M.top + H - M.bottom) / 2} y="14" text-anchor="middle">
        risk: wrong among answered
      </text>
      ${
        chosenCoverage !== null &&
        chosen &&
        html`<g class="rc-chosen-mark">
          <line
            class="rc-chosen"
            data-threshold=${chosen.threshold}
            data-coverage=${chosenCoverage}
            x1=${x(chosenCoverage)}
            x2=${x(chosenCoverage)}
            y1=${M.top - 10}
            y2=${H - M.bottom}
          />
          <text
            x=${x(chosenCoverage) + (chosenCoverage > 0.8 ? -6 : 6)}
            y=${M.top - 12}
            text-anchor=${chosenCoverage > 0.8 ? 'end' : 'start'}
          >
            chosen τ = ${fixed(chosen.threshold)}
          </text>
        </g>`
      }
      <g class="rc-alpha-mark">
        <line class="rc-alpha" data-alpha=${alpha} x1=${M.left} x2=${W - M.right} y1=${y(alpha)} y2=${y(alpha)} />
        <text x=${M.left + 6} y=${y(alpha) - 6} text-anchor="start">α = ${alpha}</text>
      </g>
      ${bounds.length > 1 && html`<path class="rc-bound-line" d=${path(bounds.map((p) => ({ coverage: p.coverage, risk: p.errorBound })))} />`}
      ${curve.length > 0 && html`<path class="rc-curve" d=${path(curve)} />`}
      ${
        points.length === 0 &&
        curve.map(
          (p) =>
            html`<circle class="rc-curve-point" cx=${x(p.coverage)} cy=${y(p.risk)} r="3.5"><title>${pointTitle(p)}</title></circle>`,
        )
      }
      ${points.map((p) => {
        const certifies = p.errorBound <= alpha;
        const isChosen = chosen !== null && p.threshold === chosen.threshold;
        const cls = `rc-level ${certifies ? 'certifies' : 'fails'}${isChosen ? ' chosen' : ''}${highlight === p.threshold ? ' hl' : ''}`;
        const cx = x(p.coverage);
        const by = y(p.errorBound);
        return html`<g
          class=${cls}
          data-threshold=${p.threshold}
          data-coverage=${p.coverage}
          data-risk=${p.risk}
          data-bound=${p.errorBound}
        >
          <title>${pointTitle(p)}; certified error ≤ ${percent(p.errorBound)}${certifies ? ' (certifies α)' : ' (above α)'}</title>
          <line class="rc-whisker" x1=${cx} x2=${cx} y1=${y(p.risk)} y2=${by} />
          ${
            certifies
              ? html`<rect class="rc-bound" x=${cx - 4.5} y=${by - 4.5} width="9" height="9" />`
              : html`<path class="rc-bound" d=${`M${cx - 5},${by - 4} L${cx + 5},${by - 4} L${cx},${by + 5} Z`} />`
          }
          <circle class="rc-risk" cx=${cx} cy=${y(p.risk)} r=${isChosen ? 6 : 4.5} />
        </g>`;
      })}
    </svg>
    <figcaption class="rc-legend small">
      <span><svg width="14" height="14" aria-hidden="true"><circle class="rc-risk-swatch" cx="7" cy="7" r="4.5" /></svg>risk at a threshold</span>
      <span><svg width="14" height="14" aria-hidden="true"><rect class="rc-bound-swatch certifies" x="2.5" y="2.5" width="9" height="9" /></svg>certified bound ≤ α</span>
      <span><svg width="14" height="14" aria-hidden="true"><path class="rc-bound-swatch fails" d="M2,3 L12,3 L7,12 Z" /></svg>certified bound above α</span>
      <span><svg width="22" height="14" aria-hidden="true"><line class="rc-alpha" x1="1" x2="21" y1="7" y2="7" /></svg>α</span>
      <span><svg width="14" height="14" aria-hidden="true"><line class="rc-chosen" x1="7" x2="7" y1="0" y2="14" /></svg>chosen threshold</span>
    </figcaption>
  </figure>`;
}

/** @param {CurvePoint} p */
const pointTitle = (p) =>
  `confidence ≥ ${fixed(p.threshold)}: answers ${p.answered} (${percent(p.coverage)}), ${p.wrong} wrong (risk ${percent(p.risk)})`;
