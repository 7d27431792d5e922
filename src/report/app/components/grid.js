/**
 * The task × sample grid: one row per task, one cell per sample, coloured by status with a
 * glyph. Only the rows near the viewport are in the DOM (16,024 samples would be 16,024 cells
 * otherwise): row heights follow from the width (a row wraps its cells onto several lines), so
 * their offsets are a prefix sum and the rows in view a binary search, recomputed only when the
 * first or last row in view changes. The page itself scrolls, so the grid scrolls like a page.
 *
 * Keyboard (the ARIA grid pattern, with a roving tabindex): arrows move between cells (up and
 * down follow the wrapped lines, then the next task), Home/End within a task, Ctrl+Home/End to
 * the first/last task, Page Up/Down ten tasks, Enter or Space opens the sample's detail.
 */
import { html } from 'htm/preact';
import { Component } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { statusClass, statusInfo } from '../status.js';

/** @typedef {import('../types').Sample} Sample */
/** @typedef {import('../sample-index.js').TaskRow} TaskRow */

/** Cell size plus the gap between cells, in CSS pixels (styles.css: .cell). */
const PITCH = 26;
/** A row's padding above and below its cells. */
const ROW_PAD = 8;
/** The task column. */
const LABEL = 300;
/** Rows are rendered this far beyond the viewport, so scrolling rarely waits for a render. */
const OVERSCAN = 800;
const PAGE_ROWS = 10;

/**
 * @typedef {object} Active
 * @property {number} row index in `rows`
 * @property {number} cell index in the row's positions
 */

/**
 * @param {Float64Array} offsets ascending
 * @param {number} y
 * @returns {number} the last i with offsets[i] <= y
 */
function rowAt(offsets, y) {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (/** @type {number} */ (offsets[mid]) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * @param {{
 *   samples: readonly Sample[],
 *   rows: readonly TaskRow[],
 *   totals: ReadonlyMap<string, { pass: number, total: number }>,
 *   suite: string,
 *   active: Active,
 *   onActive: (active: Active, focus: boolean) => void,
 *   onOpen: (position: number) => void,
 *   focusRequest: number,
 *   label: string,
 * }} props
 */
export function SampleGrid({ samples, rows, totals, suite, active, onActive, onOpen, focusRequest, label }) {
  const ref = useRef(/** @type {HTMLDivElement | null} */ (null));
  // 0 until measured: no row is rendered before the width that lays them out is known.
  const [width, setWidth] = useState(0);
  const [range, setRange] = useState({ first: 0, last: 40 });
  const perLine = Math.max(1, Math.floor((width - LABEL - 16) / PITCH));
  const offsets = useMemo(() => {
    const o = new Float64Array(rows.length + 1);
    for (let i = 0; i < rows.length; i++)
      o[i + 1] =
        /** @type {number} */ (o[i]) +
        Math.ceil(/** @type {TaskRow} */ (rows[i]).positions.length / perLine) * PITCH +
        ROW_PAD;
    return o;
  }, [rows, perLine]);
  const height = /** @type {number} */ (offsets[rows.length]);

  // Which rows are in view, from the grid's place in the viewport; state changes only when they do.
  const measure = () => {
    const element = ref.current;
    if (!element) return;
    const top = -element.getBoundingClientRect().top;
    const first = Math.max(0, rowAt(offsets, top - OVERSCAN));
    const last = Math.min(rows.length - 1, rowAt(offsets, top + window.innerHeight + OVERSCAN));
    setRange((r) => (r.first === first && r.last === last ? r : { first, last }));
  };
  const measureRef = useRef(measure);
  measureRef.current = measure;
  useLayoutEffect(() => {
    if (ref.current) setWidth(ref.current.clientWidth);
  }, []);
  useLayoutEffect(measure, [offsets]);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          measureRef.current();
        });
    };
    const resize = new ResizeObserver(() => {
      if (ref.current) setWidth(ref.current.clientWidth);
      onScroll();
    });
    if (ref.current) resize.observe(ref.current);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, []);

  // Focus follows the active cell when asked (keyboard moves, closing a detail).
  useLayoutEffect(() => {
    if (focusRequest === 0) return;
    const cell = ref.current?.querySelector(`[data-row="${active.row}"][data-cell="${active.cell}"]`);
    if (cell instanceof HTMLElement) {
      cell.focus({ preventScroll: true });
      cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }, [focusRequest]);

  /** Scrolls a row that is not rendered into view first, so its cell exists to take focus. */
  const reveal = (/** @type {number} */ row) => {
    if (row >= range.first && row <= range.last) return;
    const element = ref.current;
    if (!element) return;
    const top = window.scrollY + element.getBoundingClientRect().top + /** @type {number} */ (offsets[row]);
    window.scrollTo({ top: Math.max(0, top - window.innerHeight / 3) });
    measure();
  };

  /** @param {KeyboardEvent} event */
  const onKeyDown = (event) => {
    if (!rows[active.row]) return;
    let { row, cell } = active;
    const count = (/** @type {number} */ r) => /** @type {TaskRow} */ (rows[r]).positions.length;
    const n = count(row);
    switch (event.key) {
      case 'ArrowRight':
        cell = Math.min(n - 1, cell + 1);
        break;
      case 'ArrowLeft':
        cell = Math.max(0, cell - 1);
        break;
      case 'ArrowDown':
        if (cell + perLine < n) cell += perLine;
        else if (row < rows.length - 1) {
          row++;
          cell = Math.min(cell % perLine, count(row) - 1);
        }
        break;
      case 'ArrowUp':
        if (cell - perLine >= 0) cell -= perLine;
        else if (row > 0) {
          row--;
          const m = count(row);
          cell = Math.min(Math.floor((m - 1) / perLine) * perLine + (cell % perLine), m - 1);
        }
        break;
      case 'Home':
        if (event.ctrlKey || event.metaKey) row = 0;
        cell = 0;
        break;
      case 'End':
        if (event.ctrlKey || event.metaKey) row = rows.length - 1;
        cell = count(row) - 1;
        break;
      case 'PageDown':
        row = Math.min(rows.length - 1, row + PAGE_ROWS);
        cell = Math.min(cell, count(row) - 1);
        break;
      case 'PageUp':
        row = Math.max(0, row - PAGE_ROWS);
        cell = Math.min(cell, count(row) - 1);
        break;
      case 'Enter':
      case ' ': {
        event.preventDefault();
        const position = /** @type {TaskRow} */ (rows[row]).positions[cell];
        if (position !== undefined) onOpen(position);
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    reveal(row);
    onActive({ row, cell }, true);
  };

  /** A click or a Tab into a cell makes it the active one. */
  const cellOf = (/** @type {EventTarget | null} */ target) => {
    const cell = target instanceof HTMLElement ? target.closest('[data-cell]') : null;
    if (!(cell instanceof HTMLElement)) return undefined;
    return { row: Number(cell.dataset.row), cell: Number(cell.dataset.cell) };
  };

  // The active row is always rendered: focus must not fall out of the page when it scrolls away.
  const shown = [];
  if (width > 0) {
    for (let r = range.first; r <= Math.min(range.last, rows.length - 1); r++) shown.push(r);
    // (A narrower filter may leave `active` past the end for one render, until it is reset.)
    if (active.row < rows.length && (active.row < range.first || active.row > range.last)) shown.push(active.row);
  }

  return html`<div
    class="grid"
    role="grid"
    aria-label=${label}
    aria-rowcount=${rows.length}
    ref=${ref}
    style=${{ height: `${height}px` }}
    onKeyDown=${onKeyDown}
    onFocusIn=${(/** @type {FocusEvent} */ e) => {
      const at = cellOf(e.target);
      if (at && (at.row !== active.row || at.cell !== active.cell)) onActive(at, false);
    }}
    onClick=${(/** @type {MouseEvent} */ e) => {
      const at = cellOf(e.target);
      if (!at) return;
      onActive(at, false);
      const position = rows[at.row]?.positions[at.cell];
      if (position !== undefined) onOpen(position);
    }}
  >
    ${shown.map((r) => {
      const row = /** @type {TaskRow} */ (rows[r]);
      return html`<${Row}
        key=${row.id}
        row=${row}
        r=${r}
        top=${offsets[r]}
        height=${/** @type {number} */ (offsets[r + 1]) - /** @type {number} */ (offsets[r])}
        activeCell=${r === active.row ? active.cell : -1}
        samples=${samples}
        suite=${suite}
        total=${totals.get(row.id)}
      />`;
    })}
  </div>`;
}

/**
 * @typedef {object} RowProps
 * @property {TaskRow} row
 * @property {number} r
 * @property {number} top
 * @property {number} height
 * @property {number} activeCell -1 when the active cell is in another row
 * @property {readonly Sample[]} samples
 * @property {string} suite
 * @property {{ pass: number, total: number } | undefined} total
 */

/**
 * One task's row. Re-rendered only when one of its props changes: as the page scrolls, the
 * rows already in view are left alone and only those coming into view are built.
 * @extends {Component<RowProps>}
 */
class Row extends Component {
  /** @param {RowProps} next */
  shouldComponentUpdate(next) {
    const p = /** @type {RowProps} */ (this.props);
    return (
      next.row !== p.row ||
      next.r !== p.r ||
      next.top !== p.top ||
      next.height !== p.height ||
      next.activeCell !== p.activeCell ||
      next.samples !== p.samples ||
      next.suite !== p.suite ||
      next.total !== p.total
    );
  }

  render() {
    const { row, r, top, height, activeCell, samples, suite, total } = /** @type {RowProps} */ (this.props);
    return html`<div class="grid-row" role="row" aria-rowindex=${r + 1} style=${{ top: `${top}px`, height: `${height}px` }}>
      <div class="task" role="rowheader" title=${row.id}>
        <span class="task-id">${row.id}</span>
        ${total && html`<span class="task-count" title="${total.pass} of ${total.total} samples pass">${total.pass}/${total.total}</span>`}
      </div>
      ${row.positions.map((position, c) => {
        const sample = /** @type {Sample} */ (samples[position]);
        const status = suite ? (sample.suites?.[suite]?.status ?? null) : sample.status;
        const info = statusInfo(status ?? 'none');
        const isActive = c === activeCell;
        const what = status === null ? `no ${suite} suite` : info.label;
        return html`<div
          key=${position}
          role="gridcell"
          class="cell ${statusClass(status)}${isActive ? ' active' : ''}"
          tabindex=${isActive ? 0 : -1}
          data-row=${r}
          data-cell=${c}
          data-status=${status ?? ''}
          aria-label="sample ${sample.index}: ${what}"
          title="#${sample.index} ${what}${sample.first_failure?.message ? ` — ${sample.first_failure.message.slice(0, 160)}` : ''}"
        >
          ${status === null ? '·' : info.glyph}
        </div>`;
      })}
    </div>`;
  }
}
