/**
 * FormAct's edit-triggered context compression: after each accepted change to the document,
 * the conversation before it — old snapshots, tool outputs, the calls that made them — gives way
 * to one message: the task, a line per past edit, the last review, and the document as it is
 * now (its source when it fits, else its outline). The whole stays under a token budget
 * (counted as the agent counts: 4 characters a token), however many edits there were: older
 * edit lines are folded into a count first, then the document is shown by its outline.
 */
import { estimateTokens } from '../../agents/agent.js';
import type { ChatMessage } from '../../models/index.js';
import { outline } from './outline.js';
import type { DocumentState } from './agent-tools.js';

const CHARS_PER_TOKEN = 4;
/** Edit lines kept verbatim at most; the ones before are counted. */
const MAX_EDIT_LINES = 30;

/** The rewrite for AgentRun.rewriteContext: a new history after each accepted change, else undefined. */
export function compressOnEdit(
  state: DocumentState,
  task: string,
  budgetTokens: number,
): (history: readonly ChatMessage[]) => ChatMessage[] | undefined {
  let seen = state.version;
  return () => {
    if (state.version === seen) return undefined;
    seen = state.version;
    return [{ role: 'user', content: compressedContext(state, task, budgetTokens) }];
  };
}

/** The one message that stands for the session so far, within `budgetTokens` (with room left for the turns after it). */
export function compressedContext(state: DocumentState, task: string, budgetTokens: number): string {
  // Half the budget: the turns after the compression need room until the next edit.
  const room = Math.floor((budgetTokens * CHARS_PER_TOKEN) / 2);
  const head = `Task:\n${clip(task, Math.floor(room / 4))}`;
  const edits = editLog(state.edits, Math.floor(room / 4));
  const review = state.lastReview ? `The last review:\n${clip(state.lastReview, Math.floor(room / 8))}` : '';
  const fixed = [head, edits, review].filter(Boolean).join('\n\n');
  const left = Math.max(200, room - fixed.length - 200);
  const whole = `The document now (${state.source.length} characters):\n${state.source}`;
  const document =
    whole.length <= left
      ? whole
      : `The document now is too long to show whole (${state.source.length} characters); its outline (view_document shows any part):\n${outline(state.source, left - 150)}`;
  const message = `${fixed}\n\n${document}\n\nGo on with the task: edit the document, render it to review it, and finish when the review finds no error.`;
  return estimateTokens([{ role: 'user', content: message }]) <= budgetTokens ? message : clip(message, room);
}

/** A line per edit, the oldest folded into a count when there are many or they run long. */
function editLog(edits: readonly string[], maxChars: number): string {
  if (edits.length === 0) return '';
  let kept = edits.slice(-MAX_EDIT_LINES).map((e, i, all) => `${edits.length - all.length + i + 1}. ${clip(e, 200)}`);
  while (kept.length > 1 && kept.join('\n').length > maxChars) kept = kept.slice(1);
  const folded = edits.length - kept.length;
  return [`Edits so far (${edits.length}):`, ...(folded ? [`(${folded} earlier edits not listed)`] : []), ...kept].join(
    '\n',
  );
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`);
