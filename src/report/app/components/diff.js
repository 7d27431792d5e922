/**
 * Expected against actual. One-line values (most function outputs) are two lines with the
 * characters that differ marked; values of several lines (SQL rows, printed output) are a line
 * diff. The diff itself is jsdiff's (Myers' algorithm, well tested on the edge cases a
 * hand-written one gets wrong).
 */
import { html } from 'htm/preact';
import { diffChars, diffLines, diffWordsWithSpace } from 'diff';

/** Past this a character diff is slow and unreadable: words instead. */
const CHAR_DIFF_UP_TO = 2000;

/** @param {string | null | undefined} value */
const shown = (value) => (value === null || value === undefined ? null : String(value));

/** Below this share of characters in common, marking the differences only adds noise. */
const MARK_WHEN_COMMON = 0.4;

/**
 * `lines`: compare line by line even one-line values (SQL rows, where a row is a line).
 * @param {{ expected: string | null | undefined, actual: string | null | undefined, lines?: boolean }} props
 */
export function ExpectedActual({ expected, actual, lines = false }) {
  const e = shown(expected);
  const a = shown(actual);
  if (e !== null && a !== null && (lines || e.includes('\n') || a.includes('\n')))
    return html`<${LineDiff} expected=${e} actual=${a} />`;
  const parts = e !== null && a !== null ? marked(e, a) : undefined;
  if (!parts)
    return html`<div class="ea">
      <div class="ea-row"><span class="ea-label">expected</span><code class="ea-value" data-role="expected">${e ?? '—'}</code></div>
      <div class="ea-row"><span class="ea-label">actual</span><code class="ea-value" data-role="actual">${a ?? '— (no value)'}</code></div>
    </div>`;
  return html`<div class="ea">
    <div class="ea-row">
      <span class="ea-label">expected</span>
      <code class="ea-value" data-role="expected"
        >${parts.filter((p) => !p.added).map((p) => (p.removed ? html`<mark class="d-exp">${p.value}</mark>` : p.value))}</code
      >
    </div>
    <div class="ea-row">
      <span class="ea-label">actual</span>
      <code class="ea-value" data-role="actual"
        >${parts.filter((p) => !p.removed).map((p) => (p.added ? html`<mark class="d-act">${p.value}</mark>` : p.value))}</code
      >
    </div>
  </div>`;
}

/**
 * The character diff of two one-line values, unless they have too little in common to mark.
 * @param {string} e
 * @param {string} a
 */
function marked(e, a) {
  const parts = (e.length + a.length > CHAR_DIFF_UP_TO ? diffWordsWithSpace : diffChars)(e, a);
  const common = parts.reduce((n, p) => (p.added || p.removed ? n : n + p.value.length), 0);
  return common >= MARK_WHEN_COMMON * Math.max(e.length, a.length) ? parts : undefined;
}

/** @param {{ expected: string, actual: string }} props */
function LineDiff({ expected, actual }) {
  const withEnd = (/** @type {string} */ s) => (s.endsWith('\n') ? s : s + '\n');
  /** @type {{ kind: 'exp' | 'act' | 'both', text: string }[]} */
  const lines = [];
  for (const part of diffLines(withEnd(expected), withEnd(actual))) {
    const kind = part.removed ? 'exp' : part.added ? 'act' : 'both';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  return html`<div class="line-diff">
    <div class="ld-legend"><span class="d-exp">− expected</span><span class="d-act">+ actual</span></div>
    <pre>${lines.map(
      (l) =>
        html`<span class="ld-line ld-${l.kind}"
          ><span class="ld-mark">${MARK[l.kind]}</span><span class="sr-only">${SPOKEN[l.kind]}</span>${l.text}
</span>`,
    )}</pre>
  </div>`;
}

const MARK = { exp: '−', act: '+', both: ' ' };
const SPOKEN = { exp: 'expected only: ', act: 'actual only: ', both: '' };
