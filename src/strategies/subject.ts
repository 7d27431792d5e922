/**
 * What a strategy solves: one task of some domain, the pack that judges its artifacts, and
 * how to talk to a model about it — the prompt, the revision, and the one failing fact to
 * feed back. `sample`, `repair` and `best-of-n` work on any subject; `dccd`, `advermcts` and
 * the model's own tests need a function (`codeOnly`).
 */
import type { Task } from '../core/task.js';
import { codePack, type CodeChecks } from '../domains/code/index.js';
import type { Subject } from '../domains/subject.js';
import { pickMinimal, renderFeedback } from '../feedback/index.js';
import type { ChatMessage } from '../models/index.js';
import type { Harness } from '../domains/code/harness.js';
import { repairMessages, solveMessages } from './prompts.js';

export type { Identified, Subject } from '../domains/subject.js';

export interface CodeSubject extends Subject<Task, CodeChecks> {
  /** The sandboxes the pack judges on, which the model's tests and advermcts' attacks run on too. */
  readonly harness: Harness;
}

/** A function to write (or a whole program), judged by the code pack on the harness's sandboxes. */
export function codeSubject(harness: Harness, task: Task, checks?: CodeChecks): CodeSubject {
  return {
    task,
    harness,
    pack: codePack(harness),
    ...(checks ? { checks } : {}),
    solveMessages: () => solveMessages(task),
    repairMessages: (reply, feedback) => repairMessages(task, reply, feedback),
    feedback(report) {
      const minimal = pickMinimal(report.failures);
      return minimal && { text: renderFeedback(minimal, task.entryPoint), fact: minimal };
    },
    noArtifact: 'Your reply has no code. Reply with the complete function in one fenced code block.',
  };
}

export function isCodeSubject(subject: Subject): subject is CodeSubject {
  return subject.pack.name === 'code';
}

/** The subject as a function to write, for the strategies that only write functions. */
export function codeOnly(subject: Subject, strategy: string): CodeSubject {
  if (isCodeSubject(subject)) return subject;
  throw new Error(
    `the ${strategy} strategy writes functions; for a task of the ${subject.pack.name} domain use sample, repair or best-of-n`,
  );
}
