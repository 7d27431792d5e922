/**
 * The status counts as horizontal bars. Hand-written: seven bars are seven divs, and a chart
 * library (uPlot is 50 KB) would add nothing a reader needs here. Each bar carries its glyph,
 * name and number, so it reads without colour.
 */
import { html } from 'htm/preact';
import { count, percent } from '../format.js';
import { STATUSES, statusClass, statusInfo } from '../status.js';

/** @param {{ counts: Record<string, number> }} props */
export function StatusChart({ counts }) {
  const known = STATUSES.map((s) => s.id);
  const ids = [...known, ...Object.keys(counts).filter((id) => !known.includes(id))];
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const largest = Math.max(1, ...Object.values(counts));
  return html`<table class="status-chart" data-testid="status-counts">
    <caption class="sr-only">samples per status</caption>
    <tbody>
      ${ids.map((id) => {
        const n = counts[id] ?? 0;
        const info = statusInfo(id);
        return html`<tr class=${n === 0 ? 'zero' : ''}>
          <th scope="row"><span class="glyph" aria-hidden="true">${info.glyph}</span> ${info.label}</th>
          <td class="num" data-status=${id}>${count(n)}</td>
          <td class="bar-cell" aria-hidden="true">
            <div class="bar ${statusClass(id)}" style=${{ width: `${(100 * n) / largest}%` }}></div>
          </td>
          <td class="num muted small">${total ? percent(n / total) : ''}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}
