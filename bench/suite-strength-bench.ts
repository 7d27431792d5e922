/**
 * `npm run bench:strength`: how strong the generated suite is beside the datasets' own
 * inputs. For every HumanEval+ (or MBPP+, or HumanEvalPack JavaScript) task, the base inputs,
 * the plus inputs, the generated inputs (`eval --augment`'s, same seed and budget) and the
 * generated inputs chosen without the reference's coverage ("unguided") are each used alone:
 *   - mutation score: mutants of the reference (`audit --mutants`) each suite kills;
 *     "killable" counts only the mutants some suite kills, since a mutant no suite kills
 *     may be equivalent to the reference;
 *   - coverage: the reference's lines and decision outcomes each suite reaches (`audit --coverage`);
 *   - the mutants base + plus (eval) and base + generated (eval --augment) kill together.
 * Environment: BENCH_DATASET=mbpp or js (HumanEvalPack's JavaScript: its tests are one script, no plus), BENCH_LIMIT (tasks), BENCH_INPUTS (generated inputs per
 * task, default 100), BENCH_MUTANTS (per task, default 20), BENCH_SEED (default 1).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { auditCoverage } from '../src/bench/audit-coverage.js';
import { loadDataset } from '../src/datasets/index.js';
import {
  coverageFigures,
  coverageMap,
  percent,
  referenceArcs,
  type CoverageFigures,
} from '../src/domains/code/coverage.js';
import { codePack, mutantJudge } from '../src/domains/code/index.js';
import type { Task } from '../src/core/task.js';
import { augmentTask, GENERATED_SUITE } from '../src/domains/code/differential.js';
import { Harness } from '../src/domains/code/harness.js';
import { generateMutants } from '../src/domains/code/mutation.js';
import { scoreMutants } from '../src/domains/code/mutants/score.js';

const DATASETS = join(import.meta.dirname, '..', '..', 'shared', 'datasets');
const mbpp = process.env.BENCH_DATASET === 'mbpp';
const js = process.env.BENCH_DATASET === 'js';
const file = js
  ? join(DATASETS, 'humanevalpack', 'humanevalpack-js.jsonl.gz')
  : join(DATASETS, 'evalplus', mbpp ? 'MbppPlus-v0.2.0.jsonl.gz' : 'HumanEvalPlus-v0.1.10.jsonl.gz');
const datasetName = js ? 'HumanEvalPack JavaScript' : mbpp ? 'MBPP+' : 'HumanEval+';
const limit = Number(process.env.BENCH_LIMIT ?? (mbpp ? 378 : 164));
const inputs = Number(process.env.BENCH_INPUTS ?? 100);
const max = Number(process.env.BENCH_MUTANTS ?? 20);
const seed = Number(process.env.BENCH_SEED ?? 1);
if (!existsSync(file)) {
  console.error(`bench:strength needs ${file}`);
  process.exit(1);
}
const log = (text: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);
const started = performance.now();
const tasks = (await loadDataset(file)).tasks.slice(0, limit);
const harness = new Harness();
log(`${tasks.length} tasks, ${inputs} generated inputs and up to ${max} mutants per task, seed ${seed}`);

// Each task once per suite, with that suite only: the mutants are judged on each alone.
const UNGUIDED = 'unguided';
const SUITES = js ? ['base', GENERATED_SUITE, UNGUIDED] : ['base', 'plus', GENERATED_SUITE, UNGUIDED];
const alone: Record<string, Map<string, Task>> = Object.fromEntries(SUITES.map((name) => [name, new Map()]));
let generatedInputs = 0;
let unguidedInputs = 0;
const unguidedCoverage: CoverageFigures[] = [];
for (const [n, task] of tasks.entries()) {
  if (n % 20 === 0) log(`generating: ${n}/${tasks.length} tasks`);
  const made = await augmentTask(harness, task, { seed, count: inputs });
  generatedInputs += made.kept;
  for (const name of SUITES) {
    const suites = made.augmented.suites.filter((s) => s.name === name);
    if (suites.length) alone[name]!.set(task.id, { ...task, suites });
  }
  // The same budget and seed, kept in the order generated: what coverage-guided selection adds.
  const unguided = await augmentTask(harness, task, { seed, count: inputs, coverage: false });
  const suite = unguided.augmented.suites.find((s) => s.name === GENERATED_SUITE);
  if (!suite || !unguided.inputs || task.reference === undefined) continue;
  unguidedInputs += unguided.kept;
  alone[UNGUIDED]!.set(task.id, { ...task, suites: [{ ...suite, name: UNGUIDED }] });
  const map = await coverageMap(harness, task, task.reference);
  if (map)
    unguidedCoverage.push(
      coverageFigures(map, await referenceArcs(harness, task, task.reference, unguided.inputs.texts, 10)),
    );
}
const mutants = await generateMutants(tasks, { max, seed });
const killedBy = new Map<string, Set<string>>();
const scores: Record<string, { judged: number; killed: number }> = {};
for (const name of SUITES) {
  // A task without this suite (nothing generated) keeps no mutant for any suite: the same mutants are compared.
  const entries = mutants.flatMap((entry) =>
    SUITES.every((s) => alone[s]!.has(entry.task.id)) ? [{ ...entry, task: alone[name]!.get(entry.task.id)! }] : [],
  );
  log(`judging ${entries.reduce((k, e) => k + e.mutants.length, 0)} mutants on the ${name} inputs`);
  const report = await scoreMutants(mutantJudge(codePack(harness)), entries, { max, seed });
  scores[name] = report.mutants;
  for (const [i, task] of report.tasks.entries()) {
    const survivors = new Set(task.survivors.map((s) => s.program));
    for (const mutant of entries[i]!.mutants)
      if (!survivors.has(mutant.program)) {
        const key = `${task.task_id}\n${mutant.program}`;
        killedBy.set(key, (killedBy.get(key) ?? new Set()).add(name));
      }
  }
}
const killable = killedBy.size;
log('coverage');
const coverage = await auditCoverage(harness, tasks, { seed, inputs });
await harness.close();

const plusInputs = tasks.reduce((k, t) => {
  const plus = t.suites.find((s) => s.name === 'plus');
  return k + (plus && plus.kind === 'io' ? JSON.parse(plus.inputsJson).length : 0);
}, 0);
const baseInputs = tasks.reduce((k, t) => {
  const base = t.suites.find((s) => s.name === 'base');
  return k + (base && base.kind === 'io' ? JSON.parse(base.inputsJson).length : 0);
}, 0);
const sum = (list: CoverageFigures[], part: 'lines' | 'branches') => ({
  covered: list.reduce((k, c) => k + c[part].covered, 0),
  total: list.reduce((k, c) => k + c[part].total, 0),
});
const totals: Record<string, CoverageFigures | undefined> = {
  ...coverage.totals,
  [UNGUIDED]: { lines: sum(unguidedCoverage, 'lines'), branches: sum(unguidedCoverage, 'branches') },
};
// HumanEvalPack's base suite is one script: its inputs are not counted, and its coverage is not measured.
const perTask: Record<string, number | undefined> = {
  base: js ? undefined : baseInputs,
  plus: plusInputs,
  generated: generatedInputs,
  [UNGUIDED]: unguidedInputs,
};
const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
console.log(
  `\n## Suite strength: ${tasks.length} ${datasetName} tasks, seed ${seed}, up to ${max} mutants of each reference\n`,
);
console.log('| inputs | per task | mutants killed | of the killable | reference lines | decision outcomes |');
console.log('|---|---|---|---|---|---|');
for (const name of SUITES) {
  const s = scores[name]!;
  const killedHere = [...killedBy.values()].filter((by) => by.has(name)).length;
  const c = totals[name];
  const count = perTask[name];
  console.log(
    `| ${name} | ${count === undefined ? '-' : (count / tasks.length).toFixed(0)} | ${s.killed}/${s.judged} (${pct(s.killed, s.judged)}) | ${killedHere}/${killable} (${pct(killedHere, killable)}) | ${c ? percent(c.lines) : '-'} | ${c ? percent(c.branches) : '-'} |`,
  );
}
// eval judges the base inputs with the plus ones, and eval --augment with the generated ones.
const together = (a: string, b: string) => {
  const killed = [...killedBy.values()].filter((by) => by.has(a) || by.has(b)).length;
  return `${killed}/${killable} (${pct(killed, killable)})`;
};
if (!js) {
  const onlyPlus = [...killedBy.values()].filter((by) => by.has('plus') && !by.has(GENERATED_SUITE)).length;
  const onlyGenerated = [...killedBy.values()].filter((by) => by.has(GENERATED_SUITE) && !by.has('plus')).length;
  console.log(`\nkilled by the plus inputs only: ${onlyPlus}; by the generated inputs only: ${onlyGenerated}`);
  console.log(`killed by base + plus (eval): ${together('base', 'plus')}`);
}
console.log(`killed by base + generated (eval --augment): ${together('base', GENERATED_SUITE)}`);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
