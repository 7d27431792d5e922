/**
 * The program pack's checks: stdin/stdout tests of a whole program (what `python main.py <
 * input` prints), compared exactly, up to whitespace, or up to trailing newlines. A test a
 * solver may see is public; the rest are hidden, and the gated reward's public level gates them.
 */
import type { Language } from '../../core/task.js';
import type { ProgramLimits } from '../../runtimes/program-worker.js';
import type { Checks, PrepareOptions } from '../types.js';

export type OutputComparison = 'exact' | 'whitespace' | 'trailing-newlines';

export interface StdinTest {
  readonly stdin: string;
  readonly expectedStdout: string;
  readonly public: boolean;
}

export interface StdinTask {
  readonly id: string;
  readonly language: Language;
  readonly tests: readonly StdinTest[];
  readonly compare: OutputComparison;
  readonly limits?: Partial<ProgramLimits>;
  /** Stop running a program's tests at its first failure (the rest get no verdict entry). */
  readonly stopOnFirstFailure?: boolean;
}

export interface StdinChecks extends Checks<StdinTask> {
  /** The tests judged, in the task's order (a solver's: only the public ones). */
  readonly tests: readonly StdinTest[];
}

/** Test `i` (from 0) is named `test/i`: its suite in the verdict and the reward's units. */
export const testName = (i: number) => `test/${i}`;

export function prepareStdinChecks(task: StdinTask, options: Pick<PrepareOptions, 'audience'>): StdinChecks {
  const tests = options.audience === 'solver' ? task.tests.filter((t) => t.public) : task.tests;
  const publicCount = tests.filter((t) => t.public).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    task: { ...task, tests },
    tests,
    publicSuites: new Set(tests.flatMap((t, i) => (t.public ? [testName(i)] : []))),
    description:
      tests.length === 0
        ? 'nothing (no tests)'
        : `${plural(tests.length, 'stdin test')}${publicCount ? ` (${publicCount} public)` : ''}`,
    count: tests.length,
  };
}

export function outputMatches(actual: string, expected: string, mode: OutputComparison): boolean {
  if (mode === 'exact') return actual === expected;
  if (mode === 'whitespace') return actual.trim().split(/\s+/).join(' ') === expected.trim().split(/\s+/).join(' ');
  return actual.replace(/\n+$/, '') === expected.replace(/\n+$/, '');
}
