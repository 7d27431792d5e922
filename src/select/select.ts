/**
 * Picking one program out of many for a task, using only what a solver has: the prompt
 * with its examples (public tests), generated inputs and the candidates themselves —
 * never the dataset's hidden tests or its reference solution.
 *
 * Rank: most public examples passed (and no property broken), then a vote on generated
 * inputs (MBR-exec / CodeT style: on how many inputs the candidate gives the answer most
 * of the others give), then mean agreement, then the earliest sample. Confidence: the
 * share of examples passed × the share of candidates that behave exactly like the chosen
 * one. Disagreements are hunted for (AdverMCTS's attacker): the inputs that split
 * candidates most are mutated to find more inputs that split them.
 */
import type { Candidate } from '../core/task.js';
import type { Checks, DomainPack, Probe } from '../domains/types.js';
import { agreement, clusters, divergence, plausibleInputs } from './behaviour.js';

export const CONFIDENCE_SCORE = 'public-pass-rate × cluster-share (v2)';

export interface SelectOptions {
  readonly seed: number;
  /** Generated inputs per task (before the hunt adds its own). */
  readonly inputs?: number;
  /** Inputs the disagreement hunt adds (0 turns it off). */
  readonly huntInputs?: number;
}

export interface CandidateScore {
  readonly index: number;
  readonly publicPassed: number;
  readonly publicTotal: number;
  /** Mean agreement with every other candidate on the plausible generated inputs. */
  readonly agreement: number;
  /** Size of its cluster of identical behaviour. */
  readonly clusterSize: number;
  /** It broke one of the task's properties on a generated input. */
  readonly breaksProperty: boolean;
  /**
   * Why this candidate is probably wrong, found without a reference: it fails an example
   * the selected program passes, breaks a property, or answers differently from a clear
   * majority on some input. Absent when nothing speaks against it.
   */
  readonly suspect?: string;
}

export interface Disagreement {
  readonly input: string;
  /** Behaviour (output JSON, or `!Error`) → candidate indices. */
  readonly groups: readonly { readonly behaviour: string; readonly candidates: readonly number[] }[];
}

export interface TaskSelection {
  readonly taskId: string;
  readonly selectedIndex: number | null;
  readonly confidence: number;
  /** Why the confidence is what it is, in words. */
  readonly why: string;
  readonly candidates: readonly CandidateScore[];
  /** Candidate indices per cluster of identical behaviour, largest first. */
  readonly clusters: readonly (readonly number[])[];
  readonly publicExamples: number;
  readonly generatedInputs: number;
  readonly plausibleInputs: number;
  readonly disagreements: readonly Disagreement[];
}

/**
 * What selection decides from: each candidate's behaviour on every generated input, its
 * prompt examples passed, and whether it broke a property. Plain data, so a run can be
 * saved and decided again offline.
 */
export interface SelectionEvidence {
  readonly taskId: string;
  readonly indices: readonly number[];
  /** Per candidate, a behaviour key per input (null where nothing is known). */
  readonly matrix: readonly (readonly (string | null)[])[];
  readonly texts: readonly string[];
  readonly publicPassed: readonly number[];
  readonly publicTotal: number;
  readonly breaksProperty: readonly boolean[];
  readonly properties: number;
}

/** A pack that can show what several artifacts do side by side (every pack does: types.ts). */
export type SelectingPack<T extends { readonly id: string }, C extends Checks<T>, P extends Probe> = DomainPack<
  T,
  string,
  C,
  P
>;

export async function selectForTask<T extends { readonly id: string }, C extends Checks<T>, P extends Probe>(
  pack: SelectingPack<T, C, P>,
  task: T,
  candidates: readonly Candidate[],
  options: SelectOptions,
): Promise<TaskSelection> {
  return decideSelection(await gatherEvidence(pack, task, candidates, options));
}

export async function gatherEvidence<T extends { readonly id: string }, C extends Checks<T>, P extends Probe>(
  pack: SelectingPack<T, C, P>,
  task: T,
  candidates: readonly Candidate[],
  options: SelectOptions,
): Promise<SelectionEvidence> {
  // Only what a solver has: the prompt's examples and public tests, probes judged by nobody (no reference, no hidden tests).
  const checks = await pack.prepare(task, {
    audience: 'solver',
    oracle: false,
    purpose: 'compare',
    seed: options.seed,
    probes: options.inputs ?? 100,
  });
  const probes = [...pack.probes(checks)];
  const programs = candidates.map((c) => c.program);
  const publicTotal = checks.publicSuites.size;
  const [reports, first] = await Promise.all([
    Promise.all(programs.map((program) => (publicTotal ? pack.verify(checks, program) : undefined))),
    pack.observe(checks, programs, probes),
  ]);
  const matrix = first.keys.map((row) => [...row]);
  const breaksProperty = [...first.breaksProperty];
  const everyone = candidates.map((_, i) => i);

  // The hunt (AdverMCTS's attacker): probes near those that split candidates most, kept when they split them too.
  const hunt = options.huntInputs ?? 50;
  if (hunt > 0 && probes.length > 0 && candidates.length > 1) {
    const ranked = [...probes.keys()]
      .map((i) => ({ i, d: divergence(matrix, everyone, i) }))
      .filter((x) => x.d > 0)
      .sort((a, b) => b.d - a.d);
    const extra = pack.neighbours(
      checks,
      ranked.slice(0, 10).map(({ i }) => probes[i]!),
      hunt,
      options.seed,
      new Set(probes.map((p) => p.text)),
    );
    if (extra.length > 0) {
      const more = await pack.observe(checks, programs, extra);
      more.keys.forEach((row, c) => matrix[c]!.push(...row));
      more.breaksProperty.forEach((breaks, c) => (breaksProperty[c] ||= breaks));
      probes.push(...extra);
    }
  }
  return {
    taskId: task.id,
    indices: candidates.map((c) => c.index),
    matrix,
    texts: probes.map((p) => p.text),
    publicPassed: reports.map((report) => report?.publicChecks.passed ?? 0),
    publicTotal,
    breaksProperty,
    properties: first.properties,
  };
}

/** The pure half of selection: ranking, confidence and the reasons, from the evidence. */
export function decideSelection(evidence: SelectionEvidence): TaskSelection {
  const { matrix, publicPassed, breaksProperty: breaks, indices } = evidence;
  const everyone = indices.map((_, i) => i);
  const inputs = plausibleInputs(matrix, everyone, evidence.texts.length);
  const groups = clusters(matrix, everyone, inputs);
  const clusterOf = new Map(groups.flatMap((g) => g.map((m) => [m, g.length] as const)));
  const meanAgreement = (c: number, among: readonly number[]) => {
    const others = among.filter((o) => o !== c);
    return others.length === 0
      ? 0
      : others.reduce((sum, o) => sum + agreement(matrix[c]!, matrix[o]!, inputs), 0) / others.length;
  };
  const scores: CandidateScore[] = indices.map((index, i) => ({
    index,
    publicPassed: publicPassed[i]!,
    publicTotal: evidence.publicTotal,
    agreement: meanAgreement(i, everyone),
    clusterSize: clusterOf.get(i) ?? 1,
    breaksProperty: breaks[i]!,
  }));

  const best = Math.max(...publicPassed, 0);
  const passing = everyone.filter((i) => publicPassed[i] === best);
  const eligible = passing.some((i) => !breaks[i]) ? passing.filter((i) => !breaks[i]) : passing;
  // Per-input plurality among the eligible: the candidate that most often gives the most common answer.
  const votes = plurality(matrix, eligible, inputs);
  const agrees = new Map(eligible.map((i) => [i, meanAgreement(i, eligible)])); // once each, not once per comparison
  const order = [...eligible].sort((a, b) => votes[b]! - votes[a]! || agrees.get(b)! - agrees.get(a)! || a - b);
  const chosen = order[0];
  const base: Omit<TaskSelection, 'selectedIndex' | 'confidence' | 'why' | 'disagreements'> & {
    candidates: CandidateScore[];
  } = {
    taskId: evidence.taskId,
    candidates: scores,
    clusters: groups.map((g) => g.map((m) => indices[m]!)),
    publicExamples: evidence.publicTotal,
    generatedInputs: evidence.texts.length,
    plausibleInputs: inputs.length,
  };
  const disagreements = topDisagreements(matrix, everyone, inputs, evidence.texts, indices);
  if (chosen === undefined) return { ...base, selectedIndex: null, confidence: 0, why: 'no candidates', disagreements };
  base.candidates = scores.map((score, i) => {
    const suspect = suspicion(evidence, inputs, i, chosen);
    return suspect ? { ...score, suspect } : score;
  });
  const s = scores[chosen]!;
  const publicRate = s.publicTotal === 0 ? 1 : s.publicPassed / s.publicTotal;
  // Measured on HumanEval (bench:select): the share of candidates that behave exactly like the
  // selected one separates right from wrong selections better than mean agreement does.
  const confidence = (publicRate * s.clusterSize) / indices.length;
  const why =
    `passes ${s.publicPassed}/${s.publicTotal} prompt examples; agrees with the other ${indices.length - 1} candidates on ` +
    `${(s.agreement * 100).toFixed(0)}% of ${inputs.length} generated inputs; its behaviour cluster has ${s.clusterSize} of ${indices.length}` +
    (evidence.properties
      ? s.breaksProperty
        ? '; it breaks a property, as every candidate does'
        : `; it keeps all ${evidence.properties} properties`
      : '');
  return { ...base, selectedIndex: s.index, confidence, why, disagreements };
}

/** Per candidate: on how many inputs it gives the answer most of `members` give. */
function plurality(
  matrix: readonly (readonly (string | null)[])[],
  members: readonly number[],
  inputs: readonly number[],
): number[] {
  const votes = matrix.map(() => 0);
  for (const i of inputs) {
    const counts = new Map<string, number>();
    for (const m of members) {
      const key = matrix[m]![i];
      if (key != null) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const top = Math.max(0, ...counts.values());
    for (const m of members) if (matrix[m]![i] != null && counts.get(matrix[m]![i]!) === top) votes[m]!++;
  }
  return votes;
}

/** A share of the candidates that makes an output the clear majority on one input. */
const CLEAR_MAJORITY = 0.6;

function suspicion(
  evidence: SelectionEvidence,
  inputs: readonly number[],
  c: number,
  chosen: number,
): string | undefined {
  if (c === chosen) return undefined;
  const { matrix, publicPassed } = evidence;
  if (publicPassed[c]! < publicPassed[chosen]!)
    return `fails ${publicPassed[chosen]! - publicPassed[c]!} prompt example(s) that the selected program passes`;
  if (evidence.breaksProperty[c] && !evidence.breaksProperty[chosen]) return 'breaks a property of the task';
  for (const i of inputs) {
    const mine = matrix[c]![i];
    const theirs = matrix[chosen]![i];
    if (mine == null || theirs == null || mine === theirs) continue;
    const known = matrix.filter((row) => row[i] != null);
    const majority = known.filter((row) => row[i] === theirs).length;
    if (majority >= CLEAR_MAJORITY * known.length) {
      const show = (key: string) => (key.startsWith('=') ? key.slice(1) : `raises ${key.slice(1)}`).slice(0, 80);
      return `on input ${evidence.texts[i]!.slice(0, 80)} it gives ${show(mine)}; ${majority} of ${known.length} candidates give ${show(theirs)}`;
    }
  }
  return undefined;
}

function topDisagreements(
  matrix: readonly (readonly (string | null)[])[],
  members: readonly number[],
  inputs: readonly number[],
  texts: readonly string[],
  indices: readonly number[],
  limit = 3,
): Disagreement[] {
  return inputs
    .map((i) => ({ i, d: divergence(matrix, members, i) }))
    .filter((x) => x.d > 0)
    .sort((a, b) => b.d - a.d || a.i - b.i)
    .slice(0, limit)
    .map(({ i }) => {
      const groups = new Map<string, number[]>();
      for (const m of members) {
        const key = matrix[m]![i];
        if (key == null) continue;
        const list = groups.get(key) ?? [];
        list.push(indices[m]!);
        groups.set(key, list);
      }
      return {
        input: texts[i]!,
        groups: [...groups]
          .sort((a, b) => b[1].length - a[1].length)
          .map(([key, list]) => ({ behaviour: key.startsWith('=') ? key.slice(1) : key, candidates: list })),
      };
    });
}
