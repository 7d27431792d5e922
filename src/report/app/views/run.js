/**
 * The views of a solve: a recorded run (`crucible show RUN --json`, `crucible report --run`,
 * `solve --html`), with what it was, what it spent against its budget, how it ended and why,
 * and its events as a tree (components/run-tree.js); and the document `solve --json` writes
 * (the answer and its cost, without the events).
 */
import { html } from 'htm/preact';
import { AgentMemory } from '../components/agent-memory.js';
import { Program } from '../components/program.js';
import { UnifiedDiff } from '../components/unified-diff.js';
import { RunStatus, between, dollars, tokens } from '../components/run-parts.js';
import { RunTree } from '../components/run-tree.js';
import { count, date, duration, inline } from '../format.js';
import { registerDocumentView } from '../registry.js';

/** @typedef {import('../types').ReportDocument} ReportDocument */
/** @typedef {import('../types-run').RunDocument} RunDocument */
/** @typedef {import('../types-run').StoredRun} StoredRun */
/** @typedef {import('../types-run').SolveDocument} SolveDocument */

/** The runs of commands that judge a whole dataset (src/store/command-runs.ts): their row holds the document, not events. */
const COMMAND_RUNS = ['eval', 'select', 'calibrate', 'audit'];

/** How each budget limit (src/core/budget.ts) is named, and what of the run it limits. */
const LIMITS = /** @type {Record<string, { name: string, unit: (n: number) => string }>} */ ({
  modelCalls: { name: 'model calls', unit: (n) => count(n) },
  tokens: { name: 'tokens', unit: (n) => count(n) },
  costUsd: { name: 'cost', unit: (n) => dollars(n) },
  wallSeconds: { name: 'wall time', unit: (n) => duration(n * 1000) },
  sandboxSeconds: { name: 'sandbox time', unit: (n) => duration(n * 1000) },
});

/** @param {{ entry: ReportDocument }} props */
function RunView({ entry }) {
  const doc = /** @type {RunDocument} */ (/** @type {unknown} */ (entry.document));
  const { run, events } = doc;
  const command = COMMAND_RUNS.includes(run.strategy);
  const ms = between(run.startedAt, run.finishedAt);
  const usage = run.usage;
  const totalTokens = usage ? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) : undefined;
  const seed = run.meta?.seed;
  /** @type {[string, import('preact').ComponentChild][]} */
  const facts = command
    ? [
        ['command', run.strategy],
        ['judged', run.model],
      ]
    : [
        ['strategy', html`<span data-field="strategy">${run.strategy}</span>`],
        ['model', html`<span data-field="model">${run.model}</span>`],
      ];
  facts.push(['started', html`<span data-field="started" title=${run.startedAt}>${date(run.startedAt)}</span>`]);
  facts.push([
    'duration',
    html`<span data-field="duration">${ms === undefined ? (run.status === 'running' ? 'still running' : '—') : duration(ms)}</span>`,
  ]);
  if (typeof seed === 'number') facts.push(['seed', String(seed)]);
  facts.push(['run', html`<code>${run.id}</code>`]);
  const reason = typeof run.summary?.reason === 'string' ? run.summary.reason : undefined;
  const failed = run.status === 'error' || run.status === 'interrupted';
  const program = typeof run.summary?.program === 'string' ? run.summary.program : undefined;
  // An agent's run: its changes to the repository, and the repository's tests.
  const diff = typeof run.summary?.diff === 'string' ? run.summary.diff : undefined;
  const tests = /** @type {import('../types-run').AgentTests | undefined} */ (run.summary?.tests);
  const memory = /** @type {import('../types-run').AgentMemory | undefined} */ (run.summary?.memory);
  return html`<div class="view run-view">
    <header class="doc-header">
      <div class="title-line">
        <h1 data-field="task">${run.task}</h1>
        <span class="kind">${command ? `${run.strategy} run` : 'run'}</span>
        <${RunStatus} status=${run.status} />
      </div>
      <dl class="facts">
        ${facts.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
      </dl>
    </header>
    ${
      failed &&
      html`<div class="notice run-failed" data-testid="run-reason">
        <strong>${run.status === 'error' ? 'This run failed' : 'This run was interrupted'}:</strong> ${reason ?? 'it recorded no reason.'}
      </div>`
    }
    ${
      run.status === 'running' &&
      html`<p class="notice">This run had not finished when the report was made: it shows the events recorded until then.</p>`
    }
    <section class="cards" aria-label="Summary">
      ${
        !failed &&
        reason !== undefined &&
        html`<div class="card">
          <h2>Result</h2>
          <p class="run-result"><${RunStatus} status=${run.status} /> <span data-testid="run-reason">${reason}</span></p>
          ${
            typeof run.summary?.attempts === 'number' &&
            html`<p class="muted">${run.summary.attempts} program${run.summary.attempts === 1 ? '' : 's'} judged</p>`
          }
        </div>`
      }
      ${
        usage &&
        html`<div class="card">
          <h2>Spent</h2>
          <dl class="figures" data-testid="run-usage">
            <div><dt>model calls</dt><dd data-field="model-calls">${count(usage.modelCalls)}</dd></div>
            <div>
              <dt>tokens</dt>
              <dd>
                <span data-field="tokens">${tokens(totalTokens)}</span>
                ${' '}<span class="muted small">(<span data-field="input-tokens">${tokens(usage.inputTokens)}</span> in, <span data-field="output-tokens">${tokens(usage.outputTokens)}</span> out)</span>
              </dd>
            </div>
            <div>
              <dt>cost</dt>
              <dd data-field="cost" data-value=${usage.costUsd ?? ''} title=${usage.costUsd == null ? 'no price known for this model' : `$${usage.costUsd}`}>
                ${dollars(usage.costUsd)}
              </dd>
            </div>
            ${
              typeof usage.sandboxSeconds === 'number' &&
              html`<div><dt>sandbox</dt><dd data-field="sandbox">${duration(usage.sandboxSeconds * 1000)}</dd></div>`
            }
          </dl>
        </div>`
      }
      ${run.budget && Object.keys(run.budget).length > 0 && html`<${Budget} run=${run} ms=${ms} />`}
    </section>
    ${
      program !== undefined &&
      html`<section class="card">
        <h2>${run.status === 'verified' ? 'The verified program' : 'The program returned (not verified)'}</h2>
        <${Program} source=${program} label="the program the run returned" />
      </section>`
    }
    ${
      diff !== undefined &&
      html`<section class="card" data-testid="agent-diff">
        <h2>${diff ? 'The changes to the repository' : 'No changes to the repository'}</h2>
        ${tests && html`<p class="muted" data-testid="agent-tests">tests${tests.command ? html` (<code>${tests.command}</code>)` : ''}: ${testCounts(tests.before, 'before')} → ${testCounts(tests.after, 'after')}</p>`}
        ${diff && html`<${UnifiedDiff} diff=${diff} label="the agent's changes, as a unified diff" />`}
      </section>`
    }
    ${memory && Array.isArray(memory.nodes) && memory.nodes.length > 0 && html`<${AgentMemory} memory=${memory} />`}
    ${
      command && events.length === 0
        ? html`<p class="muted">
            A ${run.strategy} run records the document it writes, not events${failed ? '; this one wrote none' : ''}.
          </p>`
        : html`<${RunTree} events=${events} startedAt=${run.startedAt} />`
    }
  </div>`;
}

/** @param {{ run: StoredRun, ms: number | undefined }} props */
function Budget({ run, ms }) {
  const usage = run.usage;
  /** @type {Record<string, number | undefined>} */
  const used = {
    modelCalls: usage?.modelCalls,
    tokens: usage ? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) : undefined,
    costUsd: usage?.costUsd ?? undefined,
    wallSeconds: ms === undefined ? undefined : ms / 1000,
    sandboxSeconds: usage?.sandboxSeconds,
  };
  return html`<div class="card">
    <h2>Budget</h2>
    <dl class="kv" data-testid="run-budget">
      ${Object.entries(run.budget ?? {}).map(([key, limit]) => {
        const known = LIMITS[key];
        const show = known?.unit ?? inline;
        const spent = used[key];
        return html`<dt>${known?.name ?? key}</dt>
          <dd data-limit=${key}>${spent === undefined ? `at most ${show(limit)}` : `${show(spent)} of ${show(limit)}`}</dd>`;
      })}
    </dl>
  </div>`;
}

/** @param {{ entry: ReportDocument }} props */
function SolveView({ entry }) {
  const doc = /** @type {SolveDocument} */ (/** @type {unknown} */ (entry.document));
  const u = doc.usage ?? {};
  /** @type {[string, import('preact').ComponentChild][]} */
  const facts = [];
  if (doc.strategy) facts.push(['strategy', doc.strategy]);
  if (doc.model) facts.push(['model', doc.model]);
  if (doc.domain) facts.push(['domain', doc.domain]);
  if (typeof doc.seed === 'number') facts.push(['seed', String(doc.seed)]);
  if (doc.run) facts.push(['run', html`<code>${doc.run}</code>`]);
  return html`<div class="view solve-view">
    <header class="doc-header">
      <div class="title-line">
        <h1 data-field="task">${doc.task}</h1>
        <span class="kind">solve</span>
        <${RunStatus} status=${doc.status} />
        <span class="file muted">${entry.name}</span>
      </div>
      <dl class="facts">
        ${facts.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
      </dl>
    </header>
    <section class="cards" aria-label="Summary">
      <div class="card">
        <h2>Result</h2>
        <p class="run-result"><${RunStatus} status=${doc.status} /> <span data-testid="run-reason">${doc.reason}</span></p>
        <dl class="kv">
          <dt>reward</dt>
          <dd data-field="reward">${doc.reward === null || doc.reward === undefined ? '—' : inline(doc.reward)}</dd>
          <dt>programs judged</dt>
          <dd data-field="attempts">${count(doc.attempts)}</dd>
        </dl>
      </div>
      <div class="card">
        <h2>Spent</h2>
        <dl class="figures" data-testid="run-usage">
          <div>
            <dt>model calls</dt>
            <dd>
              <span data-field="model-calls">${count(u.calls)}</span>
              ${u.cachedCalls ? html` <span class="muted small">(${u.cachedCalls} from the cache)</span>` : ''}
            </dd>
          </div>
          <div>
            <dt>tokens</dt>
            <dd>
              <span data-field="tokens">${tokens(u.tokens ?? (u.inputTokens ?? 0) + (u.outputTokens ?? 0))}</span>
              ${' '}<span class="muted small">(<span data-field="input-tokens">${tokens(u.inputTokens)}</span> in, <span data-field="output-tokens">${tokens(u.outputTokens)}</span> out)</span>
            </dd>
          </div>
          <div><dt>cost</dt><dd data-field="cost" data-value=${u.costUsd ?? ''}>${dollars(u.costUsd)}</dd></div>
          ${typeof u.wallSeconds === 'number' && html`<div><dt>wall</dt><dd>${duration(u.wallSeconds * 1000)}</dd></div>`}
          ${typeof u.sandboxSeconds === 'number' && html`<div><dt>sandbox</dt><dd>${duration(u.sandboxSeconds * 1000)}</dd></div>`}
        </dl>
      </div>
    </section>
    ${
      typeof doc.program === 'string'
        ? html`<section class="card">
            <h2>${doc.status === 'verified' ? 'The verified program' : 'The program returned (not verified)'}</h2>
            <${Program}
              source=${doc.program}
              language=${typeof doc.domain === 'string' ? doc.domain : undefined}
              label="the program solve returned"
            />
          </section>`
        : html`<p class="muted">No program was returned.</p>`
    }
    ${
      doc.run &&
      html`<p class="muted small">
        The run's events (prompts, replies, verdicts, feedback) are in the run store:${' '}
        <code>crucible report --run ${doc.run}</code> shows them as a tree.
      </p>`
    }
  </div>`;
}

registerDocumentView(['run'], { title: 'run', render: RunView });
registerDocumentView(['solve'], { title: 'solve', render: SolveView });

/**
 * @param {{ passed: number, failed: number } | null | undefined} counts
 * @param {string} when
 */
function testCounts(counts, when) {
  return counts ? `${counts.passed} passed, ${counts.failed} failed ${when}` : `not run ${when}`;
}
