/**
 * Picking one program out of many for a task, using only what a solver has: the prompt
 * with its examples (public tests), generated inputs and the candidates themselves —
 * never the dataset's hidden tests or its reference solution.
 *
 * Rank: most public examples passed, then agreement with the other candidates on
 * generated inputs (MBR-exec: the program whose behaviour is closest to everyone else's),
 * then the earliest sample. Disagreements are hunted for (AdverMCTS's attacker): the inputs
 * that split candidates most are mutated to find more inputs that split them.
 */
import type { Candidate, Task } from '../core/task.js';
import { encodeArgs } from '../verify/generate/encode.js';
import { exampleArgumentTexts, findPromptExamples, publicSuites } from '../verify/generate/examples.js';
import { generateInputs, inputSpace } from '../verify/generate/inputs.js';
import { mutateArgs, seededRandom } from '../verify/generate/mutate.js';
import type { Harness } from '../verify/harness.js';
import { observe } from '../verify/probe.js';
import { judgeProperties, meetsPrecondition, soundProperties } from '../verify/properties.js';
import { agreement, behaviourKey, clusters, divergence, plausibleInputs } from './behaviour.js';

export const CONFIDENCE_SCORE = 'public-pass-rate × mean-agreement (v1)';

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

export async function selectForTask(harness: Harness, task: Task, candidates: readonly Candidate[], options: SelectOptions): Promise<TaskSelection> {
  const examples = findPromptExamples(task.prompt, task.entryPoint);
  const suites = publicSuites(task.language, task.entryPoint, examples);
  // Only the prompt: no hidden tests, no reference.
  const publicTask: Task = { ...task, suites, knownWrong: [] };
  delete (publicTask as { reference?: string }).reference;
  delete (publicTask as { contract?: string }).contract;
  const space = inputSpace(publicTask, exampleArgumentTexts(task.language, examples));
  const valid = (a: readonly unknown[]) => meetsPrecondition(task, a);
  const generated = generateInputs(space, { seed: options.seed, count: options.inputs ?? 100, accept: valid });
  const texts = [...generated.texts];
  const args = [...generated.args];
  const limit = harness.time.callFloorSeconds;

  const [publicResults, observed] = await Promise.all([
    Promise.all(candidates.map((c) => (suites.length ? harness.judge(publicTask, c.program) : undefined))),
    Promise.all(candidates.map((c) => observe(harness, publicTask, c.program, texts, { limit }))),
  ]);
  const matrix = observed.map((row) => row.map(behaviourKey));
  const observedAll = observed.map((row) => [...row]);
  const everyone = candidates.map((_, i) => i);

  // The hunt: mutate the inputs that split candidates most, keep what splits them.
  const hunt = options.huntInputs ?? 50;
  if (hunt > 0 && texts.length > 0 && candidates.length > 1) {
    const ranked = [...texts.keys()].map((i) => ({ i, d: divergence(matrix, everyone, i) })).filter((x) => x.d > 0).sort((a, b) => b.d - a.d);
    if (ranked.length > 0) {
      const random = seededRandom(options.seed ^ 0x5eed);
      const seen = new Set(texts);
      const extra: string[] = [];
      for (let attempt = 0; extra.length < hunt && attempt < hunt * 10; attempt++) {
        const from = args[ranked[attempt % Math.min(ranked.length, 10)]!.i]!;
        const next = mutateArgs(from, space.types, { random, alphabet: space.arbitrary.alphabet, fragments: space.fragments });
        const text = encodeArgs(next, space.types);
        if (seen.has(text) || text.length > 2000 || !valid(next)) continue;
        seen.add(text);
        extra.push(text);
        args.push(next);
      }
      const more = await Promise.all(candidates.map((c) => observe(harness, publicTask, c.program, extra, { limit })));
      more.forEach((row, c) => {
        (matrix[c] as (string | undefined)[]).push(...row.map(behaviourKey));
        observedAll[c]!.push(...row);
      });
      texts.push(...extra);
    }
  }

  const inputs = plausibleInputs(matrix, everyone, texts.length);
  // Properties (PGS) rank too: a candidate that breaks one on a generated input comes after those that do not.
  const properties = soundProperties(task).kept;
  const breaks = observedAll.map((row) => (properties.length ? judgeProperties(properties, args, row).status === 'fail' : false));
  const publicPassed = publicResults.map((v) => (v ? v.suites.filter((s) => s.status === 'pass').length : 0));
  const groups = clusters(matrix, everyone, inputs);
  const clusterOf = new Map(groups.flatMap((g) => g.map((m) => [m, g.length] as const)));
  const meanAgreement = (c: number, among: readonly number[]) => {
    const others = among.filter((o) => o !== c);
    return others.length === 0 ? 0 : others.reduce((sum, o) => sum + agreement(matrix[c]!, matrix[o]!, inputs), 0) / others.length;
  };
  const scores: CandidateScore[] = candidates.map((c, i) => ({
    index: c.index,
    publicPassed: publicPassed[i]!,
    publicTotal: suites.length,
    agreement: meanAgreement(i, everyone),
    clusterSize: clusterOf.get(i) ?? 1,
    breaksProperty: breaks[i]!,
  }));

  const best = Math.max(...publicPassed, 0);
  const passing = everyone.filter((i) => publicPassed[i] === best);
  const eligible = passing.some((i) => !breaks[i]) ? passing.filter((i) => !breaks[i]) : passing;
  const order = [...eligible].sort((a, b) => meanAgreement(b, eligible) - meanAgreement(a, eligible) || scores[b]!.agreement - scores[a]!.agreement || a - b);
  const chosen = order[0];
  const base = { taskId: task.id, candidates: scores, clusters: groups.map((g) => g.map((m) => candidates[m]!.index)), publicExamples: suites.length, generatedInputs: texts.length, plausibleInputs: inputs.length };
  const disagreements = topDisagreements(matrix, everyone, inputs, texts, candidates);
  if (chosen === undefined) return { ...base, selectedIndex: null, confidence: 0, why: 'no candidates', disagreements };
  const s = scores[chosen]!;
  const publicRate = s.publicTotal === 0 ? 1 : s.publicPassed / s.publicTotal;
  const confidence = publicRate * s.agreement;
  const why =
    `passes ${s.publicPassed}/${s.publicTotal} prompt examples; agrees with the other ${candidates.length - 1} candidates on ` +
    `${(s.agreement * 100).toFixed(0)}% of ${inputs.length} generated inputs; its behaviour cluster has ${s.clusterSize} of ${candidates.length}` +
    (properties.length ? (s.breaksProperty ? '; it breaks a property, as every candidate does' : `; it keeps all ${properties.length} properties`) : '');
  return { ...base, selectedIndex: s.index, confidence, why, disagreements };
}

function topDisagreements(
  matrix: readonly (readonly (string | undefined)[])[],
  members: readonly number[],
  inputs: readonly number[],
  texts: readonly string[],
  candidates: readonly Candidate[],
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
        if (key === undefined) continue;
        const list = groups.get(key) ?? [];
        list.push(candidates[m]!.index);
        groups.set(key, list);
      }
      return {
        input: texts[i]!,
        groups: [...groups].sort((a, b) => b[1].length - a[1].length).map(([key, list]) => ({ behaviour: key.startsWith('=') ? key.slice(1) : key, candidates: list })),
      };
    });
}
