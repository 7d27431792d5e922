/**
 * `crucible skeletons add|list|search`: the library of validated function skeletons
 * (src/skeletons/library.ts). `add --dataset` verifies the dataset's references on their own
 * tests first (only those that pass are added); `add --run` takes a verified solve run's program, or the functions a
 * verified agent run changed.
 */
import { evaluateCandidates } from '../bench/evaluate.js';
import { taskChecks } from '../domains/code/checks.js';
import { z } from 'zod';
import { languageOfPath, SkeletonLibrary, skeletonsOf, type Skeleton } from '../skeletons/library.js';
import { Store } from '../store/index.js';
import { harnessFromFlags } from './harness-from-flags.js';
import { readInputs } from './inputs.js';
import { createProgress } from './progress.js';
import type { SkeletonsAddFlags, SkeletonsFlags } from './flags.js';

export async function runSkeletonsAdd(flags: SkeletonsAddFlags): Promise<void> {
  if ((flags.dataset === undefined) === (flags.run === undefined))
    throw new Error(
      'give --dataset FILE (its references, verified first) or --run RUN_ID (a verified solve or agent run)',
    );
  const library = SkeletonLibrary.open(flags.library);
  const found = flags.dataset !== undefined ? await fromDataset(flags) : await fromRun(flags.db, flags.run!);
  const added = await library.add(found);
  process.stdout.write(
    `added ${added.length} skeleton${added.length === 1 ? '' : 's'} (${found.length - added.length} already there) to ${flags.library}: ${library.size} in all\n`,
  );
}

async function fromDataset(flags: SkeletonsAddFlags): Promise<Skeleton[]> {
  const inputs = await readInputs({ dataset: flags.dataset!, ...(flags.limit ? { limit: flags.limit } : {}) });
  const harness = harnessFromFlags(flags);
  const progress = createProgress('verify');
  const checks = new Map(inputs.tasks.map((task) => [task.id, taskChecks(task)]));
  try {
    const results = await evaluateCandidates(harness, checks, inputs.candidates, {
      concurrency: 4 * harness.workerCount,
      onResult: (_, done, total) => progress.update(done, total),
    });
    progress.stop();
    const byId = new Map(inputs.tasks.map((t) => [t.id, t]));
    const skeletons: Skeleton[] = [];
    for (const [i, result] of results.entries()) {
      const task = byId.get(result.task_id)!;
      if (result.status !== 'pass' || task.language === 'typescript' || !isSkeletonLanguage(task.language)) continue;
      const total = Object.values(result.suites).reduce((n, s) => n + s.total, 0);
      skeletons.push(
        ...(await skeletonsOf(inputs.candidates[i]!.program, task.language, {
          source: `dataset ${flags.dataset}:${task.id}`,
          checks: `passes the task's ${total} tests`,
          only: task.entryPoint,
        })),
      );
    }
    const failed = results.filter((r) => r.status !== 'pass').length;
    if (failed) process.stderr.write(`crucible: ${failed} reference(s) did not pass their tests and were not added\n`);
    return skeletons;
  } finally {
    progress.stop();
    await harness.close();
  }
}

const isSkeletonLanguage = (language: string): language is Skeleton['language'] =>
  language === 'python' || language === 'javascript' || language === 'typescript';

async function fromRun(db: string, id: string): Promise<Skeleton[]> {
  const store = new Store(db);
  try {
    const found = store.getRun(id);
    if (!found) throw new Error(`no run "${id}" in ${db}; \`crucible runs\` lists them`);
    const { run } = found;
    if (run.status !== 'verified')
      throw new Error(`run ${run.id} is ${run.status}: only a verified run's program is added`);
    if (run.strategy === 'agent') return fromAgentRun(run.id, run.summary);
    const program = run.summary?.program;
    if (typeof program !== 'string')
      throw new Error(`run ${run.id} has no program (a solve run's verified program is what is added)`);
    // A solve run of a function: its language is the program's.
    const language = /^\s*(def|class|import|from)\s/m.test(program) ? 'python' : 'javascript';
    return skeletonsOf(program, language, {
      source: `run ${run.id}`,
      checks: String(run.summary?.reason ?? 'verified'),
    });
  } finally {
    store.close();
  }
}

const agentChanges = z.array(
  z.object({ path: z.string(), text: z.string(), lines: z.array(z.tuple([z.number(), z.number()])) }),
);
/** A repository's tests, not code to reuse. */
const TEST_FILE = /(^|\/)(tests?\/|test_[^/]*\.py$|[^/]*_test\.py$|[^/]*\.(test|spec)\.[cm]?[jt]s$)/;

/** The functions a verified agent run changed in its source files (tests left out). */
async function fromAgentRun(id: string, summary: Record<string, unknown> | null | undefined): Promise<Skeleton[]> {
  const parsed = agentChanges.safeParse(summary?.changedFiles ?? []);
  if (!parsed.success)
    throw new Error(`run ${id}: its changed files are not readable (${parsed.error.issues[0]?.message})`);
  const tests = summary?.tests as { after?: { passed?: number } } | undefined;
  const checks = `the repository's ${tests?.after?.passed ?? ''} tests pass after the change`.replace('  ', ' ');
  const found: Skeleton[] = [];
  for (const file of parsed.data) {
    const language = languageOfPath(file.path);
    if (!language || TEST_FILE.test(file.path)) continue;
    found.push(
      ...(await skeletonsOf(file.text, language, {
        source: `run ${id} ${file.path}`,
        checks,
        changedLines: file.lines,
      })),
    );
  }
  if (found.length === 0)
    throw new Error(`run ${id} changed no function of a Python, JavaScript or TypeScript source file: nothing to add`);
  return found;
}

export function runSkeletonsList(flags: SkeletonsFlags): void {
  const library = SkeletonLibrary.open(flags.library);
  if (library.size === 0) {
    process.stdout.write(`no skeletons in ${flags.library} yet (crucible skeletons add --dataset FILE)\n`);
    return;
  }
  for (const s of library.list())
    process.stdout.write(`${s.id}  ${s.language.padEnd(10)}  ${s.signature}  (${s.source})\n`);
}

export function runSkeletonsSearch(
  query: string,
  flags: SkeletonsFlags & { readonly k: number; readonly json?: boolean },
): void {
  const library = SkeletonLibrary.open(flags.library);
  const hits = library.search(query, { k: flags.k });
  if (flags.json) {
    process.stdout.write(JSON.stringify(hits, null, 1) + '\n');
    return;
  }
  if (hits.length === 0) {
    process.stdout.write(`no skeleton matches ${JSON.stringify(query)} among ${library.size}\n`);
    return;
  }
  for (const { skeleton, score } of hits)
    process.stdout.write(
      `${score.toFixed(2).padStart(6)}  ${skeleton.id}  ${skeleton.signature}  (${skeleton.source})\n`,
    );
}
