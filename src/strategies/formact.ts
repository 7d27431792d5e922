/**
 * `formact` (FormAct, ICML 2026): a document written by an editing agent and critiqued by a
 * review agent, round by round. The editing agent works on the agent runtime with document
 * tools (agent-tools.ts): a syntax-aware editor that refuses edits adding parse errors, a
 * template retriever, and render; after each accepted edit its context is compressed to the
 * document and a line per past edit (compression.ts). When it finishes, the review agent — the
 * deterministic reviewer on every medium of the task — judges the document; a round with
 * issues at or above the severity (`--severity`, default error) left sends them back to the
 * editing agent, until none is left, the rounds (`--attempts`, default 3) or the budget run out.
 * A model critique of the rendered pages is not added: no endpoint here takes images.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from '../agents/agent.js';
import { Workspace } from '../agents/workspace.js';
import { DOCUMENT_FILE, DocumentState, documentTools } from '../domains/docs/agent-tools.js';
import { compressOnEdit } from '../domains/docs/compression.js';
import { SEVERITY_RANK, type Severity } from '../domains/docs/issues.js';
import { TemplateLibrary } from '../domains/docs/templates.js';
import type { DocReport } from '../domains/docs/verify.js';
import { DOCS_SYSTEM, docsFeedback, isDocsSubject, taskContext } from '../domains/docs/subject.js';
import { Session, type Judged } from './session.js';
import type { Strategy } from './types.js';

export const DEFAULT_ROUNDS = 3;
/** Turns of the editing agent per round. */
const TURNS_PER_ROUND = 24;
/** The editing agent's context, in tokens (FormAct keeps it bounded across rounds). */
export const FORMACT_CONTEXT_TOKENS = 12_000;

const SYSTEM = `${DOCS_SYSTEM}

You work on the document through tools. Start it from a template (find_templates, use_template) or write it whole (write_document); then change it with edit_document, addressing elements by CSS selector (outline_document shows them). Edits that would break the HTML are refused and leave the document as it was. Render it to have its pages reviewed, fix what the review finds, and call finish when the document does what the task asks and the review finds no error.`;

const FORM = 'Edit the document with the tools and call finish when the review finds no error.';

export const formact: Strategy = async (subject, context) => {
  if (!isDocsSubject(subject))
    throw new Error(
      `the formact strategy writes documents; for a task of the ${subject.pack.name} domain use sample, repair or best-of-n`,
    );
  const session = await Session.open(subject, context);
  const rounds = context.options?.attempts ?? DEFAULT_ROUNDS;
  const severity: Severity = context.options?.severity ?? 'error';
  const task = subject.task;
  const holder = await mkdtemp(join(tmpdir(), 'crucible-formact-'));
  await writeFile(join(holder, DOCUMENT_FILE), task.draft ?? '');
  const workspace = await Workspace.open(holder);
  const state = new DocumentState(task.draft ?? '');
  const tools = documentTools(state, {
    runtime: subject.runtime,
    templates: context.options?.templates ?? TemplateLibrary.shipped(),
    media: session.view.media,
    assets: task.assets,
  });
  const brief = [task.prompt.trim(), taskContext({ ...task, draft: undefined })].filter(Boolean).join('\n\n');
  const left = (judged: Judged) =>
    ((judged.report as DocReport).issues ?? []).filter((i) => SEVERITY_RANK[i.severity] >= SEVERITY_RANK[severity]);
  try {
    return await session.run(async () => {
      let instruction = task.draft === undefined ? brief : `${brief}\n\nThe document starts as the task's draft.`;
      let parent: number | null = null;
      let last: Judged | undefined;
      for (let round = 1; round <= rounds; round++) {
        const label = `round ${round}`;
        const outcome = await runAgent({
          model: context.model,
          workspace,
          task: instruction,
          tools,
          budget: context.budget,
          trace: context.trace,
          calls: session.modelCalls,
          system: SYSTEM,
          label: `${label} editing agent`,
          parentEvent: parent,
          maxTurns: TURNS_PER_ROUND,
          contextTokens: FORMACT_CONTEXT_TOKENS,
          rewriteContext: compressOnEdit(state, instruction, FORMACT_CONTEXT_TOKENS),
          selfMadeTools: false,
          subAgents: false,
          memory: false,
          seed: context.seed + round,
        });
        if (state.source === '') {
          session.decision('stop', 'the editing agent wrote no document', null, label);
          break;
        }
        // The review agent: the reviewer judges the document the editing agent left.
        last = await session.judgeProgram(state.source, null, `${label} review agent`);
        const remaining = left(last);
        if (last.report.passed && remaining.length === 0) return session.conclude(last, session.best, '');
        if (last.report.noVerdict)
          return session.conclude(undefined, session.best, `the browser failed: ${last.report.noVerdict}`);
        if (outcome.status === 'stopped' && session.stopReason()) break;
        const told = docsFeedback(last.report, FORM);
        instruction = `${brief}\n\nThe review of your document:\n${told?.text ?? 'issues remain'}`;
        parent = session.feedback(instruction, last.verdictId, `feedback ${round}`);
      }
      const why = last
        ? `${left(last).length} issue${left(last).length === 1 ? '' : 's'} at ${severity} level or above left after the review`
        : 'no document was written';
      // A document with warnings left still passes its checks (only errors fail them).
      return session.conclude(
        last?.report.passed ? last : undefined,
        session.best,
        `${why} (${rounds} round${rounds === 1 ? '' : 's'})`,
      );
    });
  } finally {
    await workspace.close();
    await rm(holder, { recursive: true, force: true });
  }
};
