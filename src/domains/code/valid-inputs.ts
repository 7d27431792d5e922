/**
 * Which generated inputs may decide a verdict: those the task's precondition accepts, or for
 * a task that states no domain (no precondition, no contract), those that look like its
 * examples (generate/domain.ts). Without either, nothing says which inputs are valid. Both
 * keep the relations every example keeps between its arguments (generate/example-relations.ts).
 */
import type { Task } from '../../core/task.js';
import { domainFromExamples, resemblesExamples } from './generate/domain.js';
import { exampleRelations } from './generate/example-relations.js';
import { meetsPrecondition, statesDomain } from './properties.js';

export type InputValidity =
  | { readonly accept: (args: readonly unknown[]) => boolean; readonly inferredDomain?: string }
  | { readonly unknown: string };

/** `examples`: the examples' argument lists as wire values (InputSpace.examples). */
export function inputValidity(task: Task, examples: readonly (readonly unknown[])[]): InputValidity {
  const related = exampleRelations(examples)?.hold ?? (() => true);
  if (statesDomain(task)) return { accept: (args) => related(args) && meetsPrecondition(task, args) };
  const domain = domainFromExamples(examples);
  if (!domain)
    return { unknown: 'the task states no contract and shows no examples, so nothing says which inputs are valid' };
  return { accept: (args) => related(args) && resemblesExamples(domain, args), inferredDomain: domain.description };
}
