/**
 * What `eval --model` needs of a domain: its tasks, what a solver of each may see (a
 * subject), and how an answer is scored on what the solver never saw. Functions are scored
 * on the dataset's hidden tests; a pack's tasks (domains/registry.ts) on the scorer's checks,
 * which keep the reference as the oracle.
 */
import { builtinDataset } from '../bench/builtin/index.js';
import { loadDataset } from '../datasets/index.js';
import { sampleRow, type SampleResult } from '../bench/evaluate.js';
import type { DocumentSource } from '../bench/eval-document.js';
import { taskChecks } from '../domains/code/index.js';
import {
  installedPacks,
  packOfTaskFile,
  type AnyPackModule,
  type ScoredSuite,
  type Writes,
} from '../domains/registry.js';
import type { Checks } from '../domains/types.js';
import { codeSubject, prepareCodeChecks, verifyProgram, type Identified, type Subject } from '../strategies/index.js';
import { suiteSize } from '../domains/code/harness.js';
import type { ModelEvalFlags } from './flags.js';
import { harnessFromFlags, openPackFromFlags } from './harness-from-flags.js';

export type { ScoredSuite };

export interface ModelEvalDomain<T extends Identified = Identified> {
  /** The pack's name (`code` for functions). */
  readonly domain: string;
  /** What a solver writes (which strategies fit). */
  readonly writes: Writes;
  /** The dataset's name, as reports show it. */
  readonly dataset: string;
  readonly tasks: readonly T[];
  /** What judged the answers, for the document. */
  readonly judge: DocumentSource['harness'];
  /** The task as a solver sees it: without the reference as an oracle unless --oracle. */
  subject(task: T): Promise<Subject>;
  /** The answer scored on the checks the solver never saw. */
  score(task: T, answer: string): Promise<SampleResult>;
  /** The suites an answer is scored on (an abstention fails each). */
  suites(task: T): Promise<readonly ScoredSuite[]>;
  close(): Promise<void>;
}

/** The domain of `--dataset` (the built-in tasks without one), with its tasks cut to `--limit`. */
export async function modelEvalDomain(flags: ModelEvalFlags, seed: number): Promise<ModelEvalDomain> {
  const module = flags.dataset === undefined ? undefined : packOfTaskFile(flags.dataset, await installedPacks());
  return module ? packDomain(module, flags, flags.dataset!, seed) : codeDomain(flags, seed);
}

async function codeDomain(flags: ModelEvalFlags, seed: number): Promise<ModelEvalDomain> {
  const dataset = flags.dataset ? await loadDataset(flags.dataset) : builtinDataset();
  const harness = harnessFromFlags(flags);
  const tasks = dataset.tasks.slice(0, flags.limit ?? dataset.tasks.length);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const task = (id: Identified) => byId.get(id.id)!;
  const publicTests = 'publicTests' in dataset ? dataset.publicTests : undefined;
  return {
    domain: 'code',
    writes: 'function',
    dataset: dataset.name,
    tasks,
    judge: harness,
    async subject(t) {
      const publicTest = publicTests?.get(t.id);
      const view = await prepareCodeChecks(harness, task(t), {
        audience: 'solver',
        seed,
        ...(flags.oracle ? {} : { oracle: false }),
        ...(publicTest ? { publicTests: [publicTest] } : {}),
      });
      return codeSubject(harness, task(t), view);
    },
    // The dataset's own (hidden) tests, which the strategy never saw.
    score: async (t, program) =>
      sampleRow({ taskId: t.id, index: 0, program }, await verifyProgram(harness, taskChecks(task(t)), program)),
    suites: async (t) => task(t).suites.map((s) => ({ name: s.name, total: suiteSize(s) })),
    close: () => harness.close(),
  };
}

/**
 * A pack's tasks: the solver sees its checks (the scorer's with --oracle, else the ones that keep
 * the reference's answers to themselves); an answer is scored on the scorer's, prepared once per task.
 */
async function packDomain(
  module: AnyPackModule,
  flags: ModelEvalFlags,
  file: string,
  seed: number,
): Promise<ModelEvalDomain> {
  const tasks: Identified[] = module.readTasks(file).slice(0, flags.limit ?? Infinity);
  const unscorable = module.unscorable?.(tasks, file);
  if (unscorable) throw new Error(unscorable);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const task = (id: Identified): Identified => byId.get(id.id)!;
  const open = await openPackFromFlags(module, flags);
  const scoring = new Map<string, Promise<Checks<Identified>>>();
  const scorerChecks = (t: Identified) => {
    let checks = scoring.get(t.id);
    if (!checks) scoring.set(t.id, (checks = open.pack.prepare(t, { audience: 'scorer', seed })));
    return checks;
  };
  return {
    domain: module.name,
    writes: module.writes,
    dataset: file,
    tasks,
    judge: { settings: { domain: module.name, ...open.settings(tasks) } },
    async subject(t) {
      const checks = flags.oracle
        ? await scorerChecks(task(t))
        : await open.pack.prepare(task(t), { audience: 'solver', seed, ...module.withoutOracle });
      return open.subject(task(t), checks);
    },
    score: async (t, answer) =>
      sampleRow(
        { taskId: t.id, index: 0, program: answer },
        await open.pack.verify(await scorerChecks(task(t)), answer),
      ),
    suites: async (t) => open.suites(await scorerChecks(task(t))),
    close: () => open.close(),
  };
}
