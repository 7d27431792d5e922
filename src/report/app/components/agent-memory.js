/**
 * An agent run's graph memory (src/agents/memory.ts): how many nodes of each kind, then the nodes
 * by kind — what the agent recorded and what left its context first, the files and symbols it
 * read last — each with the nodes it links to and how (defines, tests, changed-by, explains,
 * mentions). Lists, not a drawing: the text of a node is what a reader wants from it.
 */
import { html } from 'htm/preact';
import { count } from '../format.js';

/** The kinds in the order a reader wants them; those that are few and the agent's own come first, open. */
const KINDS = [
  { kind: 'fact', one: 'fact it recorded', many: 'facts it recorded', open: true },
  { kind: 'turn', one: 'turn taken out of its context', many: 'turns taken out of its context', open: true },
  { kind: 'test', one: 'failing test', many: 'failing tests', open: true },
  { kind: 'edit', one: 'edit', many: 'edits', open: true },
  { kind: 'file', one: 'file', many: 'files', open: false },
  { kind: 'symbol', one: 'symbol', many: 'symbols', open: false },
];
const counted = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) =>
  `${count(n)} ${n === 1 ? one : many}`;

/** A node's id without its kind (`symbol:stack.py:top` → `stack.py:top`). */
const short = (/** @type {string} */ id) => id.replace(/^[a-z]+:/, '');

/** @param {{ memory: import('../types-run').AgentMemory }} props */
export function AgentMemory({ memory }) {
  /** @type {Map<string, Array<{ kind: string, other: string, out: boolean }>>} */
  const links = new Map();
  const link = (/** @type {string} */ id, /** @type {{ kind: string, other: string, out: boolean }} */ l) =>
    links.set(id, [...(links.get(id) ?? []), l]);
  for (const e of memory.edges) {
    link(e.from, { kind: e.kind, other: e.to, out: true });
    link(e.to, { kind: e.kind, other: e.from, out: false });
  }
  const groups = KINDS.map((k) => ({ ...k, nodes: memory.nodes.filter((n) => n.kind === k.kind) })).filter(
    (g) => g.nodes.length > 0,
  );
  return html`<section class="card agent-memory" data-testid="agent-memory">
    <h2>What the agent remembered</h2>
    <p class="muted">
      ${`${counted(memory.nodes.length, 'node', 'nodes')} and ${counted(memory.edges.length, 'edge', 'edges')}: `}
      ${groups.map((g, i) => html`${i ? ', ' : ''}<span data-kind-count=${g.kind}>${counted(g.nodes.length, g.one, g.many)}</span>`)}
    </p>
    ${groups.map(
      (g) => html`<details open=${g.open} data-memory-kind=${g.kind}>
        <summary>${g.many} (${count(g.nodes.length)})</summary>
        <ul class="memory-nodes">
          ${g.nodes.map(
            (n) => html`<li data-node=${n.id}>
              <span class="memory-text">${n.text}</span>
              ${
                (links.get(n.id) ?? []).length > 0 &&
                html`<span class="memory-links muted small">
                ${(links.get(n.id) ?? []).map(
                  (l, i) =>
                    html`${i ? '; ' : ''}${l.out ? `${l.kind} → ` : `← ${l.kind} `}<code>${short(l.other)}</code>`,
                )}
              </span>`
              }
            </li>`,
          )}
        </ul>
      </details>`,
    )}
  </section>`;
}
