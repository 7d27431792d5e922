/**
 * Everything a document says about one sample: status and suites, what the strategy did (eval
 * --model), the program when the document carries it, the first failure with expected against
 * actual, the counterexample in the view its shape calls for, type errors and the reward.
 */
import { html } from 'htm/preact';
import { counterexampleView, inputView } from '../registry.js';
import { duration, inline } from '../format.js';
import { ExpectedActual } from './diff.js';
import { JsonTree } from './json-tree.js';
import { Program } from './program.js';
import { StatusBadge } from './status-badge.js';

/** @typedef {import('../types').Sample} Sample */
/** @typedef {import('../types').Failure} Failure */

/** @param {{ sample: Sample }} props */
export function SampleDetail({ sample }) {
  const program = typeof sample.program === 'string' ? sample.program : sample.solution;
  return html`<div class="sample-detail" data-task=${sample.task_id} data-index=${sample.index}>
    <div class="sd-top">
      <${StatusBadge} status=${sample.status} />
      <span class="muted">time ${duration(sample.time_ms)}</span>
      <span class="muted">reward <strong class="reward">${sample.reward === null || sample.reward === undefined ? '—' : inline(sample.reward)}</strong></span>
    </div>
    ${sample.suites && html`<${Suites} suites=${sample.suites} />`}
    ${sample.strategy && html`<${StrategyPart} strategy=${sample.strategy} />`}
    ${
      typeof program === 'string' &&
      html`<section class="sd-part"><h3>Program</h3><${Program} source=${program} label="the program" /></section>`
    }
    ${sample.first_failure && html`<${FailurePart} failure=${sample.first_failure} />`}
    ${sample.counterexample && html`<${CounterexamplePart} value=${sample.counterexample} />`}
    ${
      (sample.type_errors?.length ?? 0) > 0 &&
      html`<section class="sd-part">
      <h3>Type errors</h3>
      <ul class="type-errors">
        ${sample.type_errors?.map((e) => html`<li><code>${e}</code></li>`)}
      </ul>
    </section>`
    }
    ${sample.type_check_not_done && html`<p class="muted">type check not done: ${sample.type_check_not_done}</p>`}
    <details class="sd-raw">
      <summary>All fields (JSON)</summary>
      <${JsonTree} value=${sample} name="sample" />
    </details>
  </div>`;
}

/** @param {{ suites: Record<string, import('../types').SuiteResult> }} props */
function Suites({ suites }) {
  return html`<section class="sd-part">
    <h3>Suites</h3>
    <table class="plain suites">
      <thead>
        <tr><th scope="col">suite</th><th scope="col">status</th><th scope="col" class="num">passed</th><th scope="col" class="num">failed at</th></tr>
      </thead>
      <tbody>
        ${Object.entries(suites).map(
          ([name, suite]) => html`<tr>
            <th scope="row">${name}</th>
            <td><${StatusBadge} status=${suite.status} /></td>
            <td class="num">${suite.passed ?? '—'} / ${suite.total ?? '—'}</td>
            <td class="num">${suite.failed_at === undefined ? '—' : `#${suite.failed_at}`}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

/** @param {{ strategy: import('../types').Strategy }} props */
function StrategyPart({ strategy }) {
  const usage = strategy.usage ?? {};
  return html`<section class="sd-part">
    <h3>Strategy</h3>
    <dl class="kv">
      <dt>status</dt><dd><strong>${strategy.status ?? '—'}</strong></dd>
      <dt>reason</dt><dd>${strategy.reason ?? '—'}</dd>
      <dt>attempts</dt><dd>${inline(strategy.attempts)}</dd>
      ${Object.entries(usage).map(([key, value]) => html`<dt>${key}</dt><dd>${inline(value)}</dd>`)}
      ${strategy.run && html`<dt>run</dt><dd><code>${strategy.run}</code> <span class="muted">(crucible show ${strategy.run})</span></dd>`}
    </dl>
  </section>`;
}

/** @param {string} text */
function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** @param {{ failure: Failure }} props */
function FailurePart({ failure }) {
  const input = typeof failure.input === 'string' ? failure.input : null;
  const structured = input !== null && /^[[{]/.test(input) ? parsed(input) : undefined;
  const view = structured === undefined ? undefined : inputView(structured);
  const hasValues = failure.expected != null || failure.actual != null;
  return html`<section class="sd-part failure">
    <h3>First failure</h3>
    ${failure.message && html`<pre class="message">${failure.message}</pre>`}
    ${
      input !== null &&
      (view
        ? html`<div class="ea-row stacked"><span class="ea-label">input</span><${view.render} value=${structured} /></div>`
        : html`<div class="ea-row"><span class="ea-label">input</span><code class="ea-value">${input}</code></div>`)
    }
    ${hasValues && html`<${ExpectedActual} expected=${failure.expected} actual=${failure.actual} />`}
  </section>`;
}

/** @param {{ value: Record<string, unknown> }} props */
function CounterexamplePart({ value }) {
  const view = counterexampleView(value);
  return html`<section class="sd-part counterexample" data-shape=${view?.name ?? 'unknown'}>
    <h3>Counterexample</h3>
    ${view ? html`<${view.render} value=${value} />` : html`<${JsonTree} value=${value} name="counterexample" />`}
  </section>`;
}
