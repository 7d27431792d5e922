/** What every built-in task is made of, whatever its language. */
import type { Language, ScriptSuite, Task } from '../../core/task.js';
import type { Status } from '../../core/verdict.js';
import type { TaskChecks } from './check-helpers.js';

export interface BuiltinCandidate {
  readonly label: string;
  /** A complete program (not a completion). */
  readonly program: string;
  /** The verdict it must get. */
  readonly expected: Status;
  readonly why: string;
}

export interface BuiltinTask {
  readonly task: Task;
  readonly candidates: readonly BuiltinCandidate[];
}

export interface BuiltinSpec {
  readonly language: Language;
  readonly slug: string;
  readonly entryPoint: string;
  /** What a model sees: signature with docstring, or comment and open function header; ends with a newline. */
  readonly prompt: string;
  /** The whole reference program: the prompt followed by the body that completes it. */
  readonly reference: string;
  /** The "base" script suite: its test code in the language's layout, and for Python the call that runs it. */
  readonly base: Pick<ScriptSuite, 'code' | 'invoke'>;
  /** Argument lists for the "plus" io suite; expected outputs come from the reference. */
  readonly plus?: readonly unknown[][];
  readonly candidates: readonly BuiltinCandidate[];
  readonly checks?: TaskChecks;
}

const ID_PREFIX: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };

/** A task from its spec; every non-pass candidate is known-wrong. */
export function defineTask(spec: BuiltinSpec): BuiltinTask {
  const task: Task = {
    id: `builtin/${ID_PREFIX[spec.language]}/${spec.slug}`,
    language: spec.language,
    prompt: spec.prompt,
    entryPoint: spec.entryPoint,
    completionPrefix: spec.prompt,
    reference: spec.reference,
    knownWrong: spec.candidates
      .filter((c) => c.expected !== 'pass')
      .map((c) => ({ label: c.label, program: c.program })),
    suites: [
      { kind: 'script', name: 'base', ...spec.base },
      ...(spec.plus
        ? [{ kind: 'io' as const, name: 'plus', entry: spec.entryPoint, inputsJson: JSON.stringify(spec.plus) }]
        : []),
    ],
    source: 'builtin',
    ...(spec.checks && { precondition: spec.checks.precondition, properties: spec.checks.properties }),
  };
  return { task, candidates: spec.candidates };
}
