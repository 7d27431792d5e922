/**
 * What a strategy solves, as a pack states it: one task, the pack that judges its artifacts,
 * and how to talk to a model about it — the prompt, the revision, and the one failing fact to
 * feed back. Each pack writes its own (`<pack>/subject.ts`); strategies read only this.
 */
import type { ChatMessage } from '../models/index.js';
import type { Checks, DomainPack, Report } from './types.js';

/** Every domain's task has an id: runs and candidates name it. */
export interface Identified {
  readonly id: string;
}

export interface Subject<T extends Identified = Identified, C extends Checks<T> = Checks<T>> {
  readonly task: T;
  readonly pack: DomainPack<T, string, C>;
  /** Checks already prepared (solve's, with a task file's tests); without them the session prepares the solver's. */
  readonly checks?: C;
  solveMessages(): ChatMessage[];
  /** The conversation for a revision: the task, the last reply, and what is wrong with it. */
  repairMessages(previousReply: string, feedback: string): ChatMessage[];
  /** The one failing fact a model should read next, in words and as data; undefined when the report has none. */
  feedback(report: Report): { readonly text: string; readonly fact: unknown } | undefined;
  /** What to tell a model whose reply holds no artifact. */
  readonly noArtifact: string;
}

/** The conversation for a revision, in any domain: the prompt, the last answer, and what is wrong with it. */
export function revision(prompt: readonly ChatMessage[], previousReply: string, feedback: string): ChatMessage[] {
  return [...prompt, { role: 'assistant', content: previousReply }, { role: 'user', content: feedback }];
}
