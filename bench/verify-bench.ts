/**
 * `npm run bench:verify`: what verifying with generated inputs costs against plain test
 * execution, on every HumanEval+ task and one real model solution each. With generation,
 * `eval --augment`'s pipeline: candidates generated, the reference run on all of them, the
 * valid ones traced for coverage, the budget chosen, and the solution judged on the kept
 * inputs (slow inputs settled). Plain: the same kept inputs given, the reference run on them
 * for the expected outputs and the solution judged. Two ratios (target: generation does not
 * make a call more than 2× as expensive as plain test execution):
 *   - per call: the seconds per program call made, with generation against plain;
 *   - per kept input: the whole cost of one verified generated input against one given input.
 * Also the rate of the per-process way (a fresh python3 per call) on a sample of the calls.
 * Environment: BENCH_LIMIT (tasks, default 164), BENCH_INPUTS (kept inputs per task, default
 * 100, `--augment-inputs`'s default), BENCH_SEED.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset } from '../src/datasets/index.js';
import { loadLabelledSamples } from '../src/datasets/samples.js';
import type { Task } from '../src/core/task.js';
import { augmentTask, GENERATED_SUITE } from '../src/domains/code/differential.js';
import { Harness } from '../src/domains/code/harness.js';
import { expectedJsonOf, judgeOn, observe } from '../src/domains/code/probe.js';
import { settleTimeouts } from '../src/domains/code/slow-inputs.js';
import { callLimit } from '../src/domains/code/time-limits.js';
import { spawnPerSample } from '../src/runtimes/testing/fresh-interpreter.js';

const DATASETS = join(import.meta.dirname, '..', '..', 'shared', 'datasets');
const HUMANEVAL_PLUS = join(DATASETS, 'evalplus', 'HumanEvalPlus-v0.1.10.jsonl.gz');
const SAMPLES = join(DATASETS, 'llm-samples', 'samples_normalized.jsonl.gz');
const limit = Number(process.env.BENCH_LIMIT ?? 164);
const count = Number(process.env.BENCH_INPUTS ?? 100);
const seed = Number(process.env.BENCH_SEED ?? 1);
if (!existsSync(HUMANEVAL_PLUS)) {
  console.error(`bench:verify needs ${HUMANEVAL_PLUS}`);
  process.exit(1);
}

const dataset = await loadDataset(HUMANEVAL_PLUS);
const tasks = dataset.tasks.slice(0, limit);
const samples = existsSync(SAMPLES)
  ? await loadLabelledSamples(SAMPLES, dataset, { testSuite: 'original' })
  : { candidates: [] };
const harness = new Harness();
let withMs = 0;
let plainMs = 0;
let withCalls = 0;
let plainCalls = 0;
let kept = 0;
const perProcessJobs: { interpreter: string; source: string; suffix: string }[] = [];
const started = performance.now();
for (const task of tasks) {
  const candidate = samples.candidates.find((c) => c.taskId === task.id)?.program ?? task.reference!;
  const t0 = performance.now();
  const made = await augmentTask(harness, task, { seed, count });
  const texts = made.inputs?.texts ?? [];
  if (texts.length > 0) {
    const only: Task = { ...made.augmented, suites: made.augmented.suites.filter((s) => s.name === GENERATED_SUITE) };
    const judged = (await harness.judge(only, candidate)).suites[0]!;
    if (judged.status === 'timeout') await settleTimeouts(harness, made, candidate, judged);
  }
  const t1 = performance.now();
  if (texts.length > 0) {
    const expected = await observe(harness, task, task.reference!, texts, { limit: 2, maxTimeouts: 3 });
    const valid = texts.flatMap((text, i) => (expected[i]?.kind === 'value' ? [{ text, i }] : []));
    await judgeOn(harness, task, candidate, {
      name: 'given',
      texts: valid.map((v) => v.text),
      expectedJson: expectedJsonOf(
        task,
        valid.map((v) => expected[v.i]!),
      ),
      limits: valid.map((v) => {
        const o = expected[v.i]!;
        return callLimit(harness.time, o.kind === 'value' ? o.seconds : undefined);
      }),
    });
    plainCalls += texts.length + valid.length;
    // One call of the per-process way for a few inputs of every task.
    for (const { text } of valid.slice(0, 2)) {
      perProcessJobs.push({
        interpreter: 'python3',
        suffix: '.py',
        source: `${candidate}\nimport json\n${task.entryPoint}(*json.loads(${JSON.stringify(text)}))\n`,
      });
    }
  }
  const t2 = performance.now();
  withMs += t1 - t0;
  plainMs += t2 - t1;
  kept += texts.length;
  // Calls made with generation: the reference on every candidate, traced again on the valid
  // ones (Python), then the reference's baseline and the solution on the kept inputs.
  const candidates = Object.values(made.record?.candidates ?? {}).reduce((n, k) => n + k, 0);
  const traced = made.record?.coverage ? candidates - made.rejected : 0;
  withCalls += candidates + traced + 2 * texts.length;
  process.stderr.write(`\r${tasks.indexOf(task) + 1}/${tasks.length} tasks, ${kept} inputs kept`);
}
process.stderr.write('\n');
await harness.close();
const p0 = performance.now();
await spawnPerSample(perProcessJobs, 2);
const perProcessSeconds = (performance.now() - p0) / 1000;

const perCallWith = withMs / withCalls;
const perCallPlain = plainMs / plainCalls;
const perProcess = perProcessJobs.length / perProcessSeconds;
console.log(
  `\n## bench:verify: ${tasks.length} HumanEval+ tasks, ${count} generated inputs kept each, the reference and one real solution`,
);
console.log('| | program calls | seconds | calls/s | seconds per kept input |');
console.log('|---|---|---|---|---|');
console.log(
  `| generating, choosing and judging (eval --augment's pipeline) | ${withCalls} | ${(withMs / 1000).toFixed(1)} | ${(1000 / perCallWith).toFixed(0)} | ${(withMs / 1000 / kept).toFixed(4)} |`,
);
console.log(
  `| the kept inputs given: reference and solution run on them (plain test execution) | ${plainCalls} | ${(plainMs / 1000).toFixed(1)} | ${(1000 / perCallPlain).toFixed(0)} | ${(plainMs / 1000 / kept).toFixed(4)} |`,
);
console.log(
  `| per-process baseline: a fresh python3 per call (sample, 2 at a time) | ${perProcessJobs.length} | ${perProcessSeconds.toFixed(1)} | ${perProcess.toFixed(1)} | |`,
);
console.log(
  `\ncost per call with generation / plain: ${(perCallWith / perCallPlain).toFixed(2)}× (target ≤ 2×); per kept input: ${(withMs / plainMs).toFixed(2)}× (every candidate the reference judged, traced and chosen from)`,
);
console.log(
  `Crucible with generation vs per-process: ${(1000 / perCallWith / perProcess).toFixed(0)}× the calls per second`,
);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
