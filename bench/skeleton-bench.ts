/**
 * npm run bench:skeletons — reusing verified skeletons (the `graft` strategy) against writing
 * from scratch (`repair`), on HumanEval, leave one out: the library holds the verified references
 * of every task (`crucible skeletons add --dataset`), and a task never sees its own.
 *
 * The model is the fake OpenAI-compatible server, scripted with the replies a model that knows
 * the answer would give, sized as a real model's are: from scratch, the reference in a code
 * block; grafting, the shorter of the same code block and the SEARCH/REPLACE patch that turns
 * the first skeleton shown into the reference (blocksBetween: the changed lines, widened until
 * each SEARCH is unique). Its latency is a decode model: OUT_MS per output token plus IN_MS per
 * input token (prefill), tokens counted as the server counts them (4 characters each). Both
 * runs go through solveTask and the sandbox; a patched program must verify like any other.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pMap from 'p-map';
import { loadDataset } from '../src/datasets/index.js';
import type { Task } from '../src/core/task.js';
import { EMPTY_CONFIG } from '../src/models/config.js';
import { createModel } from '../src/models/index.js';
import { startFakeOpenAIServer } from '../src/models/testing/index.js';
import { SkeletonLibrary } from '../src/skeletons/library.js';
import { blocksBetween, formatPatchReply } from '../src/skeletons/patch.js';
import { prepareCodeChecks, solveTask, type StrategyResult } from '../src/strategies/index.js';
import { Harness } from '../src/domains/code/harness.js';

const ROOT = resolve(import.meta.dirname, '..');
const DATA = resolve(process.env.CRUCIBLE_DATASETS ?? join(ROOT, '../shared/datasets'));
const HUMANEVAL = join(DATA, 'humaneval', 'HumanEval.jsonl.gz');
const OUT_MS = Number(process.env.BENCH_OUT_MS ?? 10);
const IN_MS = Number(process.env.BENCH_IN_MS ?? 0.2);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 164);
const SEED = 7;

const dir = mkdtempSync(join(tmpdir(), 'crucible-skeleton-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const libraryPath = join(dir, 'skeletons.jsonl');
process.stdout.write('adding the verified HumanEval references to a skeleton library…\n');
execFileSync(
  process.execPath,
  [join(ROOT, 'bin/crucible.js'), 'skeletons', 'add', '--dataset', HUMANEVAL, '--library', libraryPath],
  { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
);
const library = SkeletonLibrary.open(libraryPath);
const dataset = await loadDataset(HUMANEVAL);
const tasks = dataset.tasks.slice(0, LIMIT);
const byEntry = new Map(tasks.map((t) => [t.entryPoint, t]));
const code = (program: string) => `\`\`\`python\n${program.trimEnd()}\n\`\`\`\n`;
let patched = 0;

const server = await startFakeOpenAIServer({
  script: (request) => {
    const user = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
    const task = byEntry.get(/function `(\w+)`/.exec(user)?.[1] ?? '')!;
    const whole = code(task.reference!);
    const base = /Skeleton (\w+) \(/.exec(user)?.[1];
    const skeleton = base ? library.list().find((s) => s.id === base) : undefined;
    let content = whole;
    if (skeleton) {
      const patch = formatPatchReply(skeleton.id, blocksBetween(skeleton.program, task.reference!));
      if (patch.length < whole.length) {
        content = patch;
        patched++;
      }
    }
    const inputTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
    const outputTokens = Math.ceil(content.length / 4);
    return { content, delayMs: Math.round(outputTokens * OUT_MS + inputTokens * IN_MS) };
  },
});
const model = await createModel(`${server.url}#fake-model`, { config: EMPTY_CONFIG, env: {}, cache: 'off' });
const harness = new Harness();

interface Run {
  readonly task: Task;
  readonly result: StrategyResult;
  readonly ms: number;
}

async function runAll(strategy: 'graft' | 'repair'): Promise<Run[]> {
  return pMap(
    tasks,
    async (task) => {
      const view = await prepareCodeChecks(harness, task, { audience: 'solver', seed: SEED, oracle: false });
      const t0 = performance.now();
      const { result } = await solveTask({
        task,
        strategy,
        model,
        harness,
        budget: { modelCalls: 3 },
        seed: SEED,
        view,
        options: {
          modelTests: false,
          library: libraryPath,
          // Leave one out: the task's own reference is not a skeleton it may use.
          excludeSkeleton: (source) => source.endsWith(`:${task.id}`),
        },
      });
      return { task, result, ms: performance.now() - t0 };
    },
    { concurrency: 8 },
  );
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
function describe(name: string, runs: readonly Run[]) {
  const out = runs.map((r) => r.result.usage.outputTokens);
  return {
    name,
    verified: runs.filter((r) => r.result.status === 'verified').length,
    outputTokens: sum(out),
    medianOutput: median(out),
    medianMs: median(runs.map((r) => r.ms)),
    totalS: sum(runs.map((r) => r.ms)) / 1000,
  };
}

try {
  const scratchRuns = await runAll('repair');
  const scratch = describe('from scratch (repair)', scratchRuns);
  patched = 0;
  const grafted = describe('graft (leave one out)', await runAll('graft'));
  process.stdout.write(
    `\nHumanEval, ${tasks.length} tasks, ${library.size} verified skeletons; decode model ${OUT_MS} ms per output token + ${IN_MS} ms per input token\n`,
  );
  process.stdout.write(
    `| how | verified | output tokens (total) | median per task | median wall per task |\n|---|---|---|---|---|\n`,
  );
  for (const d of [scratch, grafted])
    process.stdout.write(
      `| ${d.name} | ${d.verified}/${tasks.length} | ${d.outputTokens.toLocaleString('en')} | ${d.medianOutput} | ${d.medianMs.toFixed(0)} ms |\n`,
    );
  // Prompts without an example leave nothing to check: unverified, by either way alike.
  const others = scratchRuns.filter((r) => r.result.status !== 'verified' && r.result.status !== 'unverified');
  process.stdout.write(
    `\n${scratchRuns.filter((r) => r.result.status === 'unverified').length} tasks unverified both ways (their prompts have no example to check); ${others.length} other${others.length === 1 ? '' : 's'}${
      others.length
        ? `: ${others
            .slice(0, 3)
            .map((r) => `${r.task.id}: ${r.result.reason}`)
            .join('; ')}`
        : ''
    }\n`,
  );
  process.stdout.write(
    `\ngraft patched a skeleton on ${patched} of ${tasks.length} tasks (the rest: a patch as long as the function, so the whole function)\n` +
      `output tokens: graft / scratch ×${(grafted.outputTokens / scratch.outputTokens).toFixed(3)}; median wall: ×${(grafted.medianMs / scratch.medianMs).toFixed(3)}\n`,
  );
} finally {
  await harness.close();
  await model.close();
  await server.close();
}
