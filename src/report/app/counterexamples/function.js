/**
 * A function's counterexample (the code pack's, src/domains/code): the shrunk input, what the
 * reference returned against what the program did, and where shrinking started.
 */
import { html } from 'htm/preact';
import { ExpectedActual } from '../components/diff.js';
import { registerCounterexampleView } from '../registry.js';

/** @param {unknown} value */
const isFunctionCounterexample = (value) =>
  typeof value === 'object' && value !== null && ('input' in value || 'shrunk' in value);

const SHOWN = new Set(['input', 'shrunk', 'expected', 'actual', 'message', 'original', 'rounds']);

/** @param {{ value: Record<string, unknown> }} props */
function FunctionCounterexample({ value }) {
  const input = value.input ?? value.shrunk;
  const rest = Object.entries(value).filter(([key]) => !SHOWN.has(key));
  return html`<div class="cx cx-function">
    ${typeof value.message === 'string' && html`<p class="cx-message">${value.message}</p>`}
    <div class="ea-row"><span class="ea-label">input</span><code class="ea-value">${String(input ?? '—')}</code></div>
    <${ExpectedActual} expected=${/** @type {string} */ (value.expected)} actual=${/** @type {string} */ (value.actual)} />
    ${
      value.original !== undefined &&
      html`<p class="muted small">
      shrunk${typeof value.rounds === 'number' ? ` in ${value.rounds} rounds` : ''} from
      <code class="inline-code">${String(value.original)}</code>
    </p>`
    }
    ${
      rest.length > 0 &&
      html`<dl class="kv small">
      ${rest.map(([key, v]) => html`<dt>${key}</dt><dd><code>${typeof v === 'string' ? v : JSON.stringify(v)}</code></dd>`)}
    </dl>`
    }
  </div>`;
}

/** Registered after every pack's own views, so a pack's shape is tried first. */
export function registerFunctionView() {
  registerCounterexampleView({ name: 'function', matches: isFunctionCounterexample, render: FunctionCounterexample });
}
