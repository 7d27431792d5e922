/** What every built-in task is made of, whatever its language. */
import type { Language, ScriptSuite, Task } from '../../core/task.js';
import type { Status } from '../../core/verdict.js';

export const code = String.raw;

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
  readonly slug: string;
  readonly entryPoint: string;
  /** What a model sees: signature with docstring, or comment and open function header; ends with a newline. */
  readonly prompt: string;
  /** The reference body that completes the prompt (closing brace included in JS/TS). */
  readonly body: string;
  /** The assertions of the "base" script suite, in the language's test layout. */
  readonly base: string;
  /** Argument lists for the "plus" io suite; expected outputs come from the reference. */
  readonly plus?: readonly unknown[][];
  readonly candidates: readonly BuiltinCandidate[];
}

const ID_PREFIX: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };

/** A task from its spec and its "base" suite's code; every non-pass candidate is known-wrong. */
export function defineTask(language: Language, spec: BuiltinSpec, base: Pick<ScriptSuite, 'code' | 'invoke'>): BuiltinTask {
  const task: Task = {
    id: `builtin/${ID_PREFIX[language]}/${spec.slug}`,
    language,
    prompt: spec.prompt,
    entryPoint: spec.entryPoint,
    completionPrefix: spec.prompt,
    reference: spec.prompt + spec.body,
    knownWrong: spec.candidates.filter((c) => c.expected !== 'pass').map((c) => ({ label: c.label, program: c.program })),
    suites: [
      { kind: 'script', name: 'base', ...base },
      ...(spec.plus ? [{ kind: 'io' as const, name: 'plus', entry: spec.entryPoint, inputsJson: JSON.stringify(spec.plus) }] : []),
    ],
    source: 'builtin',
  };
  return { task, candidates: spec.candidates };
}

/** MultiPL-E's JavaScript test layout: assertions inside `function test()`, through node:assert. */
export function multiplETest(spec: BuiltinSpec, prelude = ''): string {
  return `${prelude}const assert = require('node:assert');\n\nfunction test() {\n  let candidate = ${spec.entryPoint};\n${spec.base}}\n\ntest();\n`;
}
