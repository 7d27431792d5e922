/**
 * Which generated inputs to keep when the reference answered more of them than the budget
 * allows: first those that reach arcs of the reference no earlier one reached
 * (coverage-guided), then those that kill mutants of the reference no kept input kills
 * (EvalPlus's test-suite reduction, greedy set cover), then the rest in generation order,
 * which keeps the sources' shares. Each kept input says why it was kept.
 */
import type { Task } from '../../core/task.js';
import type { Arc } from './coverage.js';
import { newArcInputs } from './coverage.js';
import type { InputSource } from './generate/inputs.js';
import type { Harness } from './harness.js';
import { generateMutants } from './mutation.js';
import { observe, type Observation } from './probe.js';

export type KeptReason = InputSource | 'coverage' | 'mutant-killing';
export const KEPT_REASONS: readonly KeptReason[] = ['coverage', 'mutant-killing', 'boundary', 'mutation', 'arbitrary'];

export interface ChosenInputs {
  /** Indices into the candidate list, in the order kept. */
  readonly indices: readonly number[];
  readonly reasons: readonly KeptReason[];
}

/**
 * `sources`: each candidate's source; `arcs`: the reference's arcs on each (undefined
 * where unmeasured); `kills`: the mutants each one kills (indices), when mutants were run.
 */
export function chooseInputs(
  sources: readonly InputSource[],
  budget: number,
  arcs?: readonly (readonly Arc[] | undefined)[],
  kills?: readonly (readonly number[])[],
): ChosenInputs {
  const indices: number[] = [];
  const reasons: KeptReason[] = [];
  const taken = new Set<number>();
  const take = (i: number, reason: KeptReason) => {
    if (taken.has(i) || indices.length >= budget) return;
    taken.add(i);
    indices.push(i);
    reasons.push(reason);
  };
  if (arcs) for (const i of newArcInputs(arcs, budget)) take(i, 'coverage');
  if (kills) {
    const killed = new Set(indices.flatMap((i) => kills[i] ?? []));
    for (;;) {
      let best = -1;
      let gain = 0;
      kills.forEach((k, i) => {
        if (taken.has(i)) return;
        const g = k.filter((m) => !killed.has(m)).length;
        if (g > gain) ((best = i), (gain = g));
      });
      if (best < 0 || indices.length >= budget) break;
      for (const m of kills[best]!) killed.add(m);
      take(best, 'mutant-killing');
    }
  }
  sources.forEach((source, i) => take(i, source));
  return { indices, reasons };
}

export interface MutantKills {
  /** For each input, the mutants (indices) whose answer differs from the reference's. */
  readonly kills: readonly (readonly number[])[];
  readonly mutants: number;
}

/**
 * Runs up to `max` mutants of the reference on the inputs the reference answered and
 * records which inputs tell each mutant from the reference (a different value, a raise or
 * a timeout).
 */
export async function mutantKills(
  harness: Harness,
  task: Task,
  texts: readonly string[],
  expected: readonly Observation[],
  options: { readonly max: number; readonly seed: number },
): Promise<MutantKills> {
  const [made] = await generateMutants([task], { max: options.max, seed: options.seed });
  const mutants = made?.mutants ?? [];
  const kills: number[][] = texts.map(() => []);
  for (const [m, mutant] of mutants.entries()) {
    const seen = await observe(harness, task, mutant.program, texts, { limit: 1, maxTimeouts: 2 });
    seen.forEach((o, i) => {
      const want = expected[i];
      if (want?.kind !== 'value' || o.kind === 'unknown') return;
      if (o.kind !== 'value' || !sameValue(o.json, want.json)) kills[i]!.push(m);
    });
  }
  return { kills, mutants: mutants.length };
}

/** Equal JSON values, numbers within a relative 1e-6 (the comparison float answers get). */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return close(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

function close(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}
