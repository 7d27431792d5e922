/**
 * `npm run bench:verify`: 1,000 generated inputs per HumanEval+ task, run on the reference
 * (recording its outputs) and on one real model solution (judged against them). Prints
 * calls per second with and without input generation (the target: generating must not
 * make a call more than 2× as expensive as plain test execution), and the rate of the
 * per-process way (a fresh python3 per call) on a sample of the same calls.
 * Environment: BENCH_LIMIT (tasks, default 164), BENCH_INPUTS (default 1000), BENCH_SEED.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset } from '../src/bench/datasets/index.js';
import { loadLabelledSamples } from '../src/bench/samples.js';
import { exampleTexts } from '../src/verify/differential.js';
import { generateInputs, inputSpace } from '../src/verify/generate/inputs.js';
import { Harness } from '../src/verify/harness.js';
import { expectedJsonOf, judgeOn, observe } from '../src/verify/probe.js';
import { spawnPerSample } from '../src/runtimes/testing/fresh-interpreter.js';

const DATASETS = join(import.meta.dirname, '..', '..', 'shared', 'datasets');
const HUMANEVAL_PLUS = join(DATASETS, 'evalplus', 'HumanEvalPlus-v0.1.10.jsonl.gz');
const SAMPLES = join(DATASETS, 'llm-samples', 'samples_normalized.jsonl.gz');
const limit = Number(process.env.BENCH_LIMIT ?? 164);
const count = Number(process.env.BENCH_INPUTS ?? 1000);
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
let generateMs = 0;
let runMs = 0;
let calls = 0;
const perProcessJobs: { interpreter: string; source: string; suffix: string }[] = [];
const started = performance.now();
for (const task of tasks) {
  const candidate = samples.candidates.find((c) => c.taskId === task.id)?.program ?? task.reference!;
  const t0 = performance.now();
  const space = inputSpace(task, exampleTexts(task));
  const { texts } = generateInputs(space, { seed, count });
  const t1 = performance.now();
  const expected = await observe(harness, task, task.reference!, texts, { limit: 2, maxTimeouts: 3 });
  const valid = texts.flatMap((text, i) => (expected[i]?.kind === 'value' ? [{ text, i }] : []));
  if (valid.length > 0) {
    await judgeOn(harness, task, candidate, {
      name: 'generated',
      texts: valid.map((v) => v.text),
      expectedJson: expectedJsonOf(
        task,
        valid.map((v) => expected[v.i]!),
      ),
      limits: valid.map(() => 2),
    });
  }
  const t2 = performance.now();
  generateMs += t1 - t0;
  runMs += t2 - t1;
  calls += texts.length + valid.length;
  // One call of the per-process way for a few inputs of every task.
  for (const { text } of valid.slice(0, 2)) {
    perProcessJobs.push({
      interpreter: 'python3',
      suffix: '.py',
      source: `${candidate}\nimport json\n${task.entryPoint}(*json.loads(${JSON.stringify(text)}))\n`,
    });
  }
  process.stderr.write(`\r${tasks.indexOf(task) + 1}/${tasks.length} tasks, ${calls} calls`);
}
process.stderr.write('\n');
await harness.close();
const p0 = performance.now();
await spawnPerSample(perProcessJobs, 2);
const perProcessSeconds = (performance.now() - p0) / 1000;

const withGeneration = calls / ((generateMs + runMs) / 1000);
const plain = calls / (runMs / 1000);
const perProcess = perProcessJobs.length / perProcessSeconds;
console.log(
  `\n## bench:verify: ${tasks.length} HumanEval+ tasks, ${count} generated inputs each, the reference and one real solution`,
);
console.log('| | calls | seconds | calls/s |');
console.log('|---|---|---|---|');
console.log(
  `| generating inputs + running them (Crucible) | ${calls} | ${((generateMs + runMs) / 1000).toFixed(1)} | ${withGeneration.toFixed(0)} |`,
);
console.log(
  `| running the same calls, inputs given (plain test execution) | ${calls} | ${(runMs / 1000).toFixed(1)} | ${plain.toFixed(0)} |`,
);
console.log(
  `| per-process baseline: a fresh python3 per call (sample, 2 at a time) | ${perProcessJobs.length} | ${perProcessSeconds.toFixed(1)} | ${perProcess.toFixed(1)} |`,
);
console.log(
  `\ncost per call with generation / plain: ${(plain / withGeneration).toFixed(2)}× (target ≤ 2×); generation is ${((100 * generateMs) / (generateMs + runMs)).toFixed(0)}% of the time`,
);
console.log(
  `Crucible with generation vs per-process: ${(withGeneration / perProcess).toFixed(0)}× the calls per second`,
);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
