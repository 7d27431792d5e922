/**
 * One task of a select document, as its detail shows it: the decision (and, for an abstention,
 * its reason), why the confidence is what it is, the picked program (when the document carries
 * the candidates' programs), the behaviour clusters with the picked sample marked, every
 * candidate's evidence, and the divisive inputs with what each group answered.
 */
import { html } from 'htm/preact';
import { count, percent } from '../format.js';
import { JsonTree } from './json-tree.js';
import { Program } from './program.js';
import { fixed, ShareBar } from './select-parts.js';

/** @typedef {import('../types-select').SelectTask} SelectTask */
/** @typedef {import('../types-select').SelectDisagreement} SelectDisagreement */
/** @typedef {import('../types-select').SelectCandidate} SelectCandidate */

/** @param {{ decision: string }} props */
export function DecisionBadge({ decision }) {
  return decision === 'answer'
    ? html`<span class="badge decision-answer" data-decision="answer"><span class="glyph" aria-hidden="true">✓</span> answered</span>`
    : html`<span class="badge decision-abstain" data-decision="abstain"><span class="glyph" aria-hidden="true">⊘</span> abstained</span>`;
}

/**
 * A candidate's sample index, marked when it is the picked one.
 * @param {{ index: number, picked: number | null }} props
 */
function Member({ index, picked }) {
  return index === picked
    ? html`<span class="member picked" data-index=${index}>#${index} <span class="picked-label">picked</span></span>`
    : html`<span class="member" data-index=${index}>#${index}</span>`;
}

/** @param {{ task: SelectTask }} props */
export function SelectTaskDetail({ task }) {
  const n = task.candidates.length;
  const picked = task.selected_index;
  /** @type {SelectCandidate | undefined} */
  const pick = picked === null ? undefined : task.candidates.find((c) => c.index === picked);
  return html`<div class="select-detail" data-task=${task.task_id}>
    <div class="sd-top">
      <${DecisionBadge} decision=${task.decision} />
      <span class="muted">confidence <strong class="confidence">${fixed(task.confidence)}</strong></span>
      <span class="muted">picked <strong>${picked === null ? '—' : `#${picked}`}</strong> of ${count(n)}</span>
    </div>
    ${
      task.decision === 'abstain' &&
      html`<p class="abstain-reason" data-testid="abstain-reason"><strong>Abstained: </strong>${task.reason ?? 'no reason given'}</p>`
    }
    <section class="sd-part">
      <h3>Why this confidence</h3>
      <p class="why" data-testid="why">${task.why}</p>
      <dl class="kv">
        <dt>prompt examples</dt><dd>${count(task.public_examples)}</dd>
        <dt>generated inputs</dt><dd>${count(task.generated_inputs)}${task.plausible_inputs !== undefined ? `, ${count(task.plausible_inputs)} plausible (most candidates run them)` : ''}</dd>
        <dt>candidates</dt><dd>${count(n)}</dd>
      </dl>
    </section>
    ${
      typeof pick?.program === 'string' &&
      html`<section class="sd-part sd-program" data-testid="picked-program" data-index=${pick.index}>
        <h3>
          The picked program <span class="muted small">sample #${pick.index}${task.decision === 'abstain' ? ', not answered: the task is abstained' : ''}</span>
        </h3>
        <${Program} source=${pick.program} label=${`the picked program of ${task.task_id}, sample #${pick.index}`} />
      </section>`
    }
    <section class="sd-part">
      <h3>Behaviour clusters <span class="muted small">candidates that gave the same answer on every plausible input</span></h3>
      <ol class="clusters" data-testid="clusters">
        ${task.clusters.map(
          (
            members,
            i,
          ) => html`<li class=${picked !== null && members.includes(picked) ? 'cluster has-picked' : 'cluster'} data-size=${members.length}>
            <span class="cluster-size">${count(members.length)} of ${count(n)}</span>
            <${ShareBar} value=${n ? members.length / n : 0} tone=${picked !== null && members.includes(picked) ? 'accent' : ''} />
            <span class="members">${members.map((m) => html`<${Member} index=${m} picked=${picked} />`)}</span>
            <span class="sr-only">cluster ${i + 1}</span>
          </li>`,
        )}
      </ol>
    </section>
    <section class="sd-part">
      <h3>Candidates</h3>
      <table class="plain candidates">
        <thead>
          <tr>
            <th scope="col">sample</th>
            <th scope="col" class="num">prompt examples</th>
            <th scope="col" class="num">agreement</th>
            <th scope="col" class="num">cluster</th>
            <th scope="col">property</th>
            <th scope="col">against it</th>
          </tr>
        </thead>
        <tbody>
          ${task.candidates.map(
            (c) => html`<tr class=${c.index === picked ? 'picked-row' : ''} data-index=${c.index}>
              <th scope="row"><${Member} index=${c.index} picked=${picked} /></th>
              <td class="num">${c.public_passed}/${c.public_total}</td>
              <td class="num">${percent(c.agreement)}</td>
              <td class="num">${count(c.cluster_size)}</td>
              <td>${c.breaks_property ? html`<span class="breaks">breaks one</span>` : html`<span class="muted">keeps all</span>`}</td>
              <td class="suspect">${c.suspect ?? html`<span class="muted">—</span>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>
    <section class="sd-part">
      <h3>Divisive inputs <span class="muted small">the generated inputs that split the candidates most</span></h3>
      ${
        task.disagreements.length === 0
          ? html`<p class="muted">None: every candidate gave the same answers on every plausible input.</p>`
          : task.disagreements.map((d) => html`<${Divisive} disagreement=${d} picked=${picked} />`)
      }
    </section>
    <details class="sd-raw">
      <summary>All fields (JSON)</summary>
      <${JsonTree} value=${task} name="task" />
    </details>
  </div>`;
}

/** @param {{ disagreement: SelectDisagreement, picked: number | null }} props */
function Divisive({ disagreement, picked }) {
  return html`<div class="divisive" data-testid="divisive">
    <div class="ea-row"><span class="ea-label">input</span><code class="ea-value">${disagreement.input}</code></div>
    <table class="plain groups">
      <thead><tr><th scope="col">answer</th><th scope="col">candidates</th></tr></thead>
      <tbody>
        ${disagreement.groups.map(
          (g) => html`<tr class=${picked !== null && g.candidates.includes(picked) ? 'picked-row' : ''}>
            <td>
              ${
                g.behaviour.startsWith('!')
                  ? html`<span class="muted">raises</span> <code class="inline-code">${g.behaviour.slice(1)}</code>`
                  : html`<code class="inline-code">${g.behaviour}</code>`
              }
            </td>
            <td><span class="members">${g.candidates.map((m) => html`<${Member} index=${m} picked=${picked} />`)}</span></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
