/**
 * The attacker's side of AdverMCTS: how much an input splits the code pool (the divergence
 * reward), and the global test filter — adversarial tests whose expected output was
 * arbitrated — that gates which programs may enter the pool.
 */
import type { Task } from '../../core/task.js';
import { behaviourKey } from '../../domains/code/observe.js';
import type { Harness } from '../../domains/code/harness.js';
import { observe } from '../../domains/code/probe.js';

/**
 * DMTS's reward for one input: (distinct outputs − 1) / (programs − 1) over the programs
 * whose behaviour is known; 0 when they all agree (or fewer than two are known).
 */
export function divergenceReward(outputs: readonly (string | null | undefined)[]): number {
  const known = outputs.filter((o): o is string => o != null);
  if (known.length < 2) return 0;
  return (new Set(known).size - 1) / (known.length - 1);
}

export interface AdversarialTest {
  /** JSON text of the argument list. */
  readonly input: string;
  /** The arbitrated behaviour key (`=json`). */
  readonly expected: string;
  /** Who said what the output must be. */
  readonly arbiter: 'reference' | 'model';
}

/** Behaviour keys of one program on some inputs. */
export async function behaviours(
  harness: Harness,
  task: Task,
  program: string,
  inputs: readonly string[],
): Promise<(string | null)[]> {
  if (inputs.length === 0) return [];
  const observed = await observe(harness, task, program, inputs, {
    limit: harness.time.callFloorSeconds,
    maxTimeouts: 2,
  });
  return observed.map(behaviourKey);
}

export class GlobalTestFilter {
  readonly tests: AdversarialTest[] = [];

  add(test: AdversarialTest): void {
    if (!this.tests.some((t) => t.input === test.input)) this.tests.push(test);
  }

  /** Which tests (indices) the program fails. */
  async failures(harness: Harness, task: Task, program: string, from = 0): Promise<number[]> {
    const tests = this.tests.slice(from);
    const keys = await behaviours(
      harness,
      task,
      program,
      tests.map((t) => t.input),
    );
    return tests.flatMap((t, i) => (keys[i] === t.expected ? [] : [from + i]));
  }
}
