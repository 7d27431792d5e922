/**
 * What candidates do on the same probes, as comparable keys (a pack's `observe`: equal keys,
 * equal behaviour): clusters of identical behaviour, pairwise agreement (MBR-exec), and the
 * probes on which they disagree. Nothing here depends on the domain.
 */
/** Per candidate, one key per input (null where nothing is known). */
export type BehaviourMatrix = readonly (readonly (string | null)[])[];

/** Share of inputs, among those known for both, on which two candidates behave the same. */
export function agreement(
  a: readonly (string | null)[],
  b: readonly (string | null)[],
  inputs?: readonly number[],
): number {
  let same = 0;
  let known = 0;
  for (const i of inputs ?? a.keys()) {
    if (a[i] == null || b[i] == null) continue;
    known++;
    if (a[i] === b[i]) same++;
  }
  return known === 0 ? 0 : same / known;
}

/** Candidates (by position) grouped by identical behaviour on the given inputs, largest group first. */
export function clusters(matrix: BehaviourMatrix, members: readonly number[], inputs: readonly number[]): number[][] {
  const groups = new Map<string, number[]>();
  for (const m of members) {
    const key = inputs.map((i) => matrix[m]![i] ?? '?').join('\u0000');
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length || a[0]! - b[0]!);
}

/**
 * How much an input tells candidates apart (AdverMCTS's divergence reward): 0 when all
 * known outputs agree, 1 when every candidate differs: (distinct − 1) / (known − 1).
 */
export function divergence(matrix: BehaviourMatrix, members: readonly number[], input: number): number {
  const keys = members.map((m) => matrix[m]![input]).filter((k): k is string => k != null);
  if (keys.length < 2) return 0;
  return (new Set(keys).size - 1) / (keys.length - 1);
}

/** Inputs most candidates can run: where at most half of them raise or time out (the rest is likely outside the task's domain). */
export function plausibleInputs(matrix: BehaviourMatrix, members: readonly number[], inputCount: number): number[] {
  const kept: number[] = [];
  for (let i = 0; i < inputCount; i++) {
    const keys = members.map((m) => matrix[m]![i]).filter((k): k is string => k != null);
    const failing = keys.filter((k) => k.startsWith('!')).length;
    if (keys.length > 0 && failing * 2 <= keys.length) kept.push(i);
  }
  return kept;
}
