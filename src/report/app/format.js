/** Numbers and dates as the report shows them (pass@k as the terminal report does: one decimal). */

/** @param {number | null | undefined} x a share from 0 to 1 */
export const percent = (x) => (typeof x === 'number' && Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');

/** @param {number} points a difference of shares, in percentage points */
export function signedPoints(points) {
  const rounded = Math.round(points * 1000) / 10;
  if (rounded === 0) return '±0.0 pt';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)} pt`;
}

/** @param {number | null | undefined} n */
export const count = (n) => (typeof n === 'number' ? n.toLocaleString('en') : '—');

/** @param {number} bytes */
export function bytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && Number.isInteger(value / 1024)) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString('en')} ${units[unit]}`;
}

/** @param {number | null | undefined} ms */
export function duration(ms) {
  if (typeof ms !== 'number') return '—';
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** @param {string | undefined} iso */
export function date(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A value of a document shown in one line (objects as compact JSON).
 * @param {unknown} value
 */
export function inline(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? count(value) : String(Math.round(value * 1e4) / 1e4);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}
