/**
 * bench:eval's untrusted-tests section: what a judge of its own per run costs (the server
 * runs a request's test code that way, issue 13), against the shared judge a dataset on
 * disk gets, and against a fresh interpreter per sample (SandboxFusion's way), all in this
 * run, with the default workers. HumanEval's references and HumanEvalPack JS's, each with
 * its task's script suite.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset } from '../src/datasets/index.js';
import { evaluateCandidates } from '../src/bench/evaluate.js';
import { taskChecks } from '../src/domains/code/index.js';
import type { Task } from '../src/core/task.js';
import { resolvePython } from '../src/runtimes/recipes.js';
import { spawnPerSample } from '../src/runtimes/testing/fresh-interpreter.js';
import { Harness } from '../src/domains/code/harness.js';

async function samplesPerSecond(tasks: Task[], untrustedTests: boolean): Promise<{ rate: number; passed: number }> {
  const harness = new Harness({ untrustedTests, typeCheck: false });
  const candidates = tasks.map((t) => ({ taskId: t.id, index: 0, program: t.reference! }));
  await Promise.all(tasks.map((t) => harness.baseline(t)));
  const t0 = performance.now();
  const results = await evaluateCandidates(harness, new Map(tasks.map((t) => [t.id, taskChecks(t)])), candidates, {
    concurrency: 4 * harness.workerCount,
  });
  const rate = candidates.length / ((performance.now() - t0) / 1000);
  await harness.close();
  return { rate, passed: results.filter((r) => r.status === 'pass').length };
}

export async function untrustedSection(data: string, report: (line: string) => void, workers: number): Promise<void> {
  const workloads = [
    { label: 'python (HumanEval)', file: 'humaneval/HumanEval.jsonl.gz', interpreter: resolvePython(), suffix: '.py' },
    {
      label: 'javascript (HumanEvalPack JS)',
      file: 'humanevalpack/humanevalpack-js.jsonl.gz',
      interpreter: process.execPath,
      suffix: '.js',
    },
  ];
  for (const w of workloads) {
    const path = join(data, w.file);
    if (!existsSync(path)) {
      report(`untrusted tests, ${w.label}: skipped (data not found)`);
      continue;
    }
    // JavaScript/162 needs js-md5, which a fresh node without --node-path lacks: left out of both.
    const tasks = (await loadDataset(path)).tasks.filter(
      (t) => t.reference !== undefined && t.suites[0]?.kind === 'script' && t.id !== 'JavaScript/162',
    );
    const shared = await samplesPerSecond(tasks, false);
    const own = await samplesPerSecond(tasks, true);
    const jobs = tasks.map((t) => {
      const suite = t.suites[0]!;
      return {
        interpreter: w.interpreter,
        source: `${t.reference}\n${suite.kind === 'script' ? `${suite.code}\n${suite.invoke ?? ''}` : ''}\n`,
        suffix: w.suffix,
      };
    });
    const t0 = performance.now();
    await spawnPerSample(jobs, workers, 3000);
    const fresh = jobs.length / ((performance.now() - t0) / 1000);
    report(
      `untrusted tests, ${w.label}, ${tasks.length} references, ${workers} workers | shared judge ${shared.rate.toFixed(1)}/s | a judge per run ${own.rate.toFixed(1)}/s = ${(shared.rate / own.rate).toFixed(1)}x slower | fresh interpreter per sample ${fresh.toFixed(1)}/s | a judge per run vs fresh: ${(own.rate / fresh).toFixed(2)}x | passing ${shared.passed}, ${own.passed}`,
    );
  }
}
