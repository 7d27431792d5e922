/**
 * A run's events as a tree: prompt → response → candidate → verdict → feedback → next prompt …
 * → decision. Each event is one row (its kind, label, time since the run started and, for a
 * response, tokens, cost, latency and whether it came from the cache), a disclosure button
 * that opens what the event holds: a prompt's messages as the model saw them, a reply's texts,
 * a candidate's program, a verdict's first failure (expected against actual), the feedback
 * exactly as it was sent, a decision's action and reason, an agent's tool call and its answer.
 *
 * A chain (an event with one child) reads as a list, one row after another; only where an
 * event has several children (best-of-n's candidates, a search's branches) do they indent, each
 * branch with a line beside it. Keyboard: Tab reaches each row, Enter or Space opens it; ↑ ↓
 * move between rows, Home and End to the first and last, → opens and ← closes (or goes to
 * the parent).
 */
import { html } from 'htm/preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import { duration, inline } from '../format.js';
import { ExpectedActual } from './diff.js';
import { JsonTree } from './json-tree.js';
import { Program } from './program.js';
import { Cost, between, eventForest, firstLine, since, tokens } from './run-parts.js';
import { StatusBadge } from './status-badge.js';

/** @typedef {import('../types-run').TraceEvent} TraceEvent */
/** @typedef {import('../types-run').EventNode} EventNode */
/** @typedef {import('../types-run').PromptData} PromptData */
/** @typedef {import('../types-run').ResponseData} ResponseData */
/** @typedef {import('../types-run').CandidateData} CandidateData */
/** @typedef {import('../types-run').VerdictData} VerdictData */
/** @typedef {import('../types-run').FeedbackData} FeedbackData */
/** @typedef {import('../types-run').DecisionData} DecisionData */
/** @typedef {import('../types-run').ToolData} ToolData */

/**
 * @typedef {object} TreeContext
 * @property {Set<number>} open the events whose detail is shown
 * @property {(id: number) => void} toggle
 * @property {string | undefined} startedAt the run's start (ISO)
 * @property {string | undefined} language the programs' language, when known
 */

/** @param {{ events: readonly TraceEvent[], startedAt?: string, language?: string }} props */
export function RunTree({ events, startedAt, language }) {
  const forest = useMemo(() => eventForest(events), [events]);
  const [open, setOpen] = useState(() => /** @type {Set<number>} */ (new Set()));
  const list = useRef(/** @type {HTMLOListElement | null} */ (null));
  /** @param {number} id */
  const toggle = (id) =>
    setOpen((before) => {
      const after = new Set(before);
      if (after.has(id)) after.delete(id);
      else after.add(id);
      return after;
    });
  /** @type {TreeContext} */
  const context = { open, toggle, startedAt, language };
  const counts = countKinds(events);

  /** @param {KeyboardEvent} event */
  const onKeyDown = (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (!target.classList.contains('rt-head') || !list.current) return;
    const heads = /** @type {HTMLElement[]} */ ([...list.current.querySelectorAll('.rt-head')]);
    const at = heads.indexOf(target);
    const id = Number(target.dataset.eventId);
    const expanded = target.getAttribute('aria-expanded') === 'true';
    /** @type {HTMLElement | undefined} */
    let next;
    if (event.key === 'ArrowDown') next = heads[at + 1];
    else if (event.key === 'ArrowUp') next = heads[at - 1];
    else if (event.key === 'Home') next = heads[0];
    else if (event.key === 'End') next = heads[heads.length - 1];
    else if (event.key === 'ArrowRight' && !expanded) toggle(id);
    else if (event.key === 'ArrowLeft' && expanded) toggle(id);
    else if (event.key === 'ArrowLeft') next = heads.find((head) => head.dataset.eventId === target.dataset.parentId);
    else return;
    event.preventDefault();
    next?.focus();
  };

  if (events.length === 0) return html`<p class="muted" data-testid="no-events">This run recorded no events.</p>`;
  return html`<section class="card run-tree" aria-labelledby="run-tree-title">
    <div class="rt-toolbar">
      <h2 id="run-tree-title">Events</h2>
      <span class="muted" data-testid="event-count"
        ><strong>${events.length}</strong> event${events.length === 1 ? '' : 's'}${counts && ` (${counts})`}</span
      >
      <span class="rt-buttons">
        <button type="button" class="rt-button" onClick=${() => setOpen(new Set(events.map((e) => e.id)))}>
          Expand all
        </button>
        <button type="button" class="rt-button" onClick=${() => setOpen(new Set())}>Collapse all</button>
      </span>
    </div>
    <p class="muted small rt-hint" id="run-tree-hint">
      Click an event, or press Enter on it, to see what it holds. ↑ ↓ move between events; → opens one, ← closes it.
    </p>
    <ol class="rt-list rt-top" ref=${list} onKeyDown=${onKeyDown} aria-describedby="run-tree-hint">
      ${forest.map((root) => html`<${Chain} node=${root} context=${context} />`)}
    </ol>
  </section>`;
}

/** @param {readonly TraceEvent[]} events "3 prompts, 3 responses, …" */
function countKinds(events) {
  /** @type {Map<string, number>} */
  const byKind = new Map();
  for (const e of events) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + 1);
  return [...byKind].map(([kind, n]) => `${n} ${n === 1 || kind === 'feedback' ? kind : `${kind}s`}`).join(', ');
}

/**
 * An event and the events that follow it one after another (each the only child of the one
 * before), as rows of the same list; the last one's children, when it has several, as branches.
 * @param {{ node: EventNode, context: TreeContext }} props
 */
function Chain({ node, context }) {
  /** @type {EventNode[]} */
  const chain = [node];
  let last = node;
  while (last.children.length === 1) {
    last = /** @type {EventNode} */ (last.children[0]);
    chain.push(last);
  }
  return html`${chain.map(
    (n) =>
      html`<${Row} node=${n} context=${context}>
        ${
          n === last &&
          n.children.length > 1 &&
          html`<ol class="rt-list rt-branches" aria-label="${n.children.length} branches after event ${n.event.seq + 1}">
            ${n.children.map(
              (child, i) => html`<li class="rt-branch" data-branch=${i + 1}>
                <ol class="rt-list">
                  <${Chain} node=${child} context=${context} />
                </ol>
              </li>`,
            )}
          </ol>`
        }
      <//>`,
  )}`;
}

/** @param {{ node: EventNode, context: TreeContext, children?: import('preact').ComponentChildren }} props */
function Row({ node, context, children }) {
  const { event } = node;
  const expanded = context.open.has(event.id);
  const detail = `rt-detail-${event.id}`;
  const at = between(context.startedAt, event.time);
  return html`<li
    class="rt-node rn-${event.kind}${expanded ? ' open' : ''}"
    data-event-id=${event.id}
    data-kind=${event.kind}
    data-seq=${event.seq}
  >
    <button
      type="button"
      class="rt-head"
      aria-expanded=${expanded ? 'true' : 'false'}
      aria-controls=${detail}
      data-event-id=${event.id}
      data-parent-id=${event.parentId ?? ''}
      onClick=${() => context.toggle(event.id)}
    >
      <span class="rt-chevron" aria-hidden="true">${expanded ? '▾' : '▸'}</span>
      <span class="rt-kind k-${event.kind}">${event.kind}</span>
      ${event.label && html`<span class="rt-label">${event.label}</span>`}
      <span class="rt-summary">${summaryOf(event)}</span>
      <span class="rt-time" title=${event.time} data-field="since">${since(at)}</span>
    </button>
    <div class="rt-detail" id=${detail} hidden=${!expanded}>
      ${expanded && html`<${Detail} event=${event} language=${context.language} />`}
    </div>
    ${children}
  </li>`;
}

/**
 * What a row says of its event without opening it.
 * @param {TraceEvent} event
 */
function summaryOf(event) {
  const d = event.data;
  switch (event.kind) {
    case 'prompt': {
      const p = /** @type {PromptData} */ (d);
      const messages = Array.isArray(p.messages) ? p.messages : [];
      const last = [...messages].reverse().find((m) => m.role === 'user');
      return html`<span class="rt-figure">${messages.length} message${messages.length === 1 ? '' : 's'}</span>
        <span class="rt-excerpt">${firstLine(last?.content ?? '')}</span>`;
    }
    case 'response': {
      const r = /** @type {ResponseData} */ (d);
      const texts = Array.isArray(r.texts) ? r.texts : [];
      return html`${texts.length > 1 && html`<span class="rt-figure">${texts.length} completions</span>`}
        <span class="rt-figure" title="input tokens"
          ><span data-field="input-tokens">${tokens(r.usage?.inputTokens)}</span> in</span
        >
        <span class="rt-figure" title="output tokens"
          ><span data-field="output-tokens">${tokens(r.usage?.outputTokens)}</span> out</span
        >
        <span class="rt-figure"><${Cost} usd=${r.costUsd} field="cost" /></span>
        <span class="rt-figure" title="latency" data-field="latency">${duration(r.latencyMs)}</span>
        ${r.cached && html`<span class="rt-cached" data-field="cached">cached</span>`}`;
    }
    case 'candidate': {
      const program = String(/** @type {CandidateData} */ (d).program ?? '');
      const lines = program.split('\n').filter((l) => l.trim()).length;
      return html`<span class="rt-figure">${lines} line${lines === 1 ? '' : 's'}</span>
        <code class="rt-excerpt">${firstLine(program)}</code>`;
    }
    case 'verdict': {
      const v = /** @type {VerdictData} */ (d);
      const failure = v.firstFailure;
      return html`<${StatusBadge} status=${v.status} />
        ${typeof v.passed === 'number' && html`<span class="rt-figure">${v.passed}/${v.total ?? '?'} checks</span>`}
        ${failure && html`<span class="rt-excerpt">${firstLine(failure.message ?? failure.check ?? 'failed')}</span>`}`;
    }
    case 'feedback':
      return html`<span class="rt-excerpt">${firstLine(String(/** @type {FeedbackData} */ (d).text ?? ''))}</span>`;
    case 'decision': {
      const c = /** @type {DecisionData} */ (d);
      return html`<strong class="rt-action">${c.action}</strong>
        <span class="rt-excerpt">${c.reason}</span>`;
    }
    case 'tool': {
      const t = /** @type {ToolData} */ (d);
      return html`<code class="rt-figure">${String(t.name ?? '?')}</code>
        ${t.ok === false && html`<span class="rt-refused">refused</span>`}
        <span class="rt-excerpt">${firstLine(String(t.output ?? ''))}</span>`;
    }
    default:
      return html`<span class="rt-excerpt">${firstLine(JSON.stringify(d))}</span>`;
  }
}

/** @param {{ event: TraceEvent, language?: string }} props */
function Detail({ event, language }) {
  return html`${kindDetail(event, language)}
    <details class="sd-raw rt-raw">
      <summary>All fields (JSON)</summary>
      <${JsonTree} value=${event} name=${event.kind} />
    </details>`;
}

/**
 * @param {TraceEvent} event
 * @param {string | undefined} language
 */
function kindDetail(event, language) {
  const d = event.data;
  switch (event.kind) {
    case 'prompt':
      return html`<${PromptDetail} data=${/** @type {PromptData} */ (d)} />`;
    case 'response':
      return html`<${ResponseDetail} data=${/** @type {ResponseData} */ (d)} />`;
    case 'candidate': {
      const c = /** @type {CandidateData} */ (d);
      return html`${c.form && html`<p class="muted small">read from the reply as: ${c.form}</p>`}
        <${Program} source=${String(c.program ?? '')} language=${language} label="the program of ${event.label ?? 'this candidate'}" />`;
    }
    case 'verdict':
      return html`<${VerdictDetail} data=${/** @type {VerdictData} */ (d)} />`;
    case 'feedback':
      return html`<p class="muted small">Exactly what the model was told:</p>
        <pre class="rt-text rt-feedback" data-role="feedback">${String(/** @type {FeedbackData} */ (d).text ?? '')}</pre>`;
    case 'decision': {
      const c = /** @type {DecisionData} */ (d);
      return html`<dl class="kv">
        <dt>action</dt>
        <dd><strong data-role="action">${c.action}</strong></dd>
        <dt>reason</dt>
        <dd data-role="reason">${c.reason}</dd>
      </dl>`;
    }
    case 'tool': {
      const t = /** @type {ToolData} */ (d);
      return html`<dl class="kv rt-facts">
          <dt>tool</dt>
          <dd><code>${String(t.name ?? '?')}</code>${t.ok === false ? ' (refused)' : ''}</dd>
        </dl>
        <div class="rt-role">called with</div>
        <pre class="rt-text" data-role="tool-input">${typeof t.input === 'string' ? t.input : JSON.stringify(t.input, null, 2)}</pre>
        <div class="rt-role rt-told">told back</div>
        <pre class="rt-text" data-role="tool-output">${String(t.output ?? '')}</pre>`;
    }
    default:
      return null;
  }
}

/** @param {{ data: PromptData }} props */
function PromptDetail({ data }) {
  const settings = data.settings && typeof data.settings === 'object' ? Object.entries(data.settings) : [];
  const messages = Array.isArray(data.messages) ? data.messages : [];
  return html`<dl class="kv rt-facts">
      ${data.model && html`<dt>model</dt><dd>${data.model}</dd>`}
      ${settings.map(([key, value]) => html`<dt>${key}</dt><dd>${inline(value)}</dd>`)}
    </dl>
    <ol class="rt-messages" aria-label="the messages the model was sent">
      ${messages.map(
        (m, i) => html`<li class="rt-message role-${m.role}" data-index=${i}>
          <div class="rt-role">${m.role}${m.toolName ? html` <span class="rt-tool-name">(${m.toolName})</span>` : ''}</div>
          <pre class="rt-text" data-role="message">${m.content}</pre>
          ${
            Array.isArray(m.toolCalls) &&
            m.toolCalls.length > 0 &&
            html`<div class="rt-role rt-told">tool calls</div>
              <pre class="rt-text" data-role="tool-calls">${JSON.stringify(m.toolCalls, null, 2)}</pre>`
          }
        </li>`,
      )}
    </ol>`;
}

/** @param {{ data: ResponseData }} props */
function ResponseDetail({ data }) {
  const texts = Array.isArray(data.texts) ? data.texts : [];
  return html`<dl class="kv rt-facts">
      ${data.model && html`<dt>model</dt><dd>${data.model}</dd>`}
      <dt>tokens</dt>
      <dd>${tokens(data.usage?.inputTokens)} in, ${tokens(data.usage?.outputTokens)} out</dd>
      <dt>cost</dt>
      <dd><${Cost} usd=${data.costUsd} /></dd>
      <dt>latency</dt>
      <dd>${duration(data.latencyMs)}</dd>
      <dt>cached</dt>
      <dd>${data.cached ? 'yes: replayed from the response cache' : 'no'}</dd>
    </dl>
    ${texts.map(
      (text, i) => html`<div class="rt-completion">
        ${texts.length > 1 && html`<div class="rt-role">completion ${i + 1} of ${texts.length}</div>`}
        <pre class="rt-text" data-role="completion">${text}</pre>
      </div>`,
    )}`;
}

/** @param {{ data: VerdictData }} props */
function VerdictDetail({ data }) {
  const failure = data.firstFailure;
  const suites = Array.isArray(data.suites) ? data.suites : [];
  return html`<div class="sd-top">
      <${StatusBadge} status=${data.status} />
      ${typeof data.passed === 'number' && html`<span class="muted">${data.passed} of ${data.total ?? '?'} checks pass</span>`}
    </div>
    ${data.noVerdict && html`<p class="notice">No verdict: ${data.noVerdict}</p>`}
    ${
      suites.length > 0 &&
      html`<table class="plain suites rt-suites">
        <caption class="sr-only">checks</caption>
        <thead>
          <tr><th scope="col">check</th><th scope="col">status</th><th scope="col" class="num">tests passed</th></tr>
        </thead>
        <tbody>
          ${suites.map(
            (s) => html`<tr>
              <th scope="row">${s.name}</th>
              <td><${StatusBadge} status=${s.status} /></td>
              <td class="num">${s.passed ?? '—'} / ${s.total ?? '—'}</td>
            </tr>`,
          )}
        </tbody>
      </table>`
    }
    ${
      failure &&
      html`<section class="sd-part failure rt-failure">
        <h3>First failure${failure.check ? html`: <span class="rt-check">${failure.check}</span>` : ''}</h3>
        ${failure.message && html`<pre class="message">${failure.message}</pre>`}
        ${
          typeof failure.input === 'string' &&
          html`<div class="ea-row"><span class="ea-label">input</span><code class="ea-value" data-role="input">${failure.input}</code></div>`
        }
        ${
          (failure.expected != null || failure.actual != null) &&
          html`<${ExpectedActual} expected=${failure.expected} actual=${failure.actual} />`
        }
      </section>`
    }`;
}
