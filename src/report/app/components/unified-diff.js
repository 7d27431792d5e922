/**
 * A unified diff as a person reads one (an agent's changes to a repository): file headers,
 * hunk headers, added and removed lines in their colours, with the +/- kept for screen readers
 * and copying. Each line is a block (htm drops text that is only a newline).
 */
import { html } from 'htm/preact';

/** @param {string} line */
const kindOf = (line) =>
  line.startsWith('+++ ') || line.startsWith('--- ')
    ? 'file'
    : line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+')
        ? 'add'
        : line.startsWith('-')
          ? 'del'
          : 'same';

/** @param {{ diff: string, label?: string }} props */
export function UnifiedDiff({ diff, label }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  return html`<pre class="code unified-diff" aria-label=${label}><code>${lines.map(
    (line) => html`<span class=${`ud-${kindOf(line)}`}>${line}</span>`,
  )}</code></pre>`;
}
