import { reportNoVerdicts } from './no-verdict.js';
import { auditDataset, auditMutants, failingReferences, formatAudit, type AuditReport } from '../bench/audit.js';
import { auditCoverage } from '../bench/audit-coverage.js';
import { builtinDataset } from '../bench/builtin/index.js';
import { chooseSeed } from '../core/seed.js';
import { loadDataset } from '../datasets/index.js';
import { DEFAULT_MUTANTS_PER_TASK } from '../domains/code/mutation.js';
import type { Task } from '../core/task.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import type { RecordFlags } from './record-options.js';
import { datasetLabel, recorded, type CommandResult } from './recording.js';
import { harnessFromFlags, openPackFromFlags } from './harness-from-flags.js';
import type { AnyPackModule } from '../domains/registry.js';
import type { PackAudit } from '../domains/pack-module.js';
import type { Identified } from '../domains/subject.js';
import type { HarnessFlags } from './shared-options.js';

export interface AuditFlags extends HarnessFlags, RecordFlags {
  readonly dataset?: string;
  readonly json?: string;
  /** `--mutants` alone is true (the default count); `--mutants 50` is 50. */
  readonly mutants?: boolean | number;
  /** `--coverage` alone is true (100 generated inputs beside the task's suites); `--coverage 50` is 50. */
  readonly coverage?: boolean | number;
  readonly seed?: number;
  /** Only the first N tasks. */
  readonly limit?: number;
}

export async function runAudit(flags: AuditFlags): Promise<void> {
  const { dataset: file } = flags;
  // A task file of a pack (domains/registry.ts) is audited by its pack; any other dataset holds functions.
  const registry = await import('../domains/registry.js');
  const module = file === undefined ? undefined : registry.packOfTaskFile(file, await registry.installedPacks());
  if (module) {
    if (!module.auditJudges)
      throw new Error(
        `audit does not audit ${module.name} tasks yet: it audits functions and the packs that say how (sql)`,
      );
    const judged = module.auditJudges(Boolean(flags.mutants));
    return recorded(flags, { command: 'audit', dataset: datasetLabel(flags), judged, flags }, () =>
      auditPack(module, { ...flags, dataset: file! }),
    );
  }
  const all = flags.dataset ? await loadDataset(flags.dataset) : builtinDataset();
  const dataset =
    flags.limit === undefined
      ? all
      : {
          ...all,
          name: `${all.name}, its first ${Math.min(flags.limit, all.tasks.length)} tasks (--limit)`,
          tasks: all.tasks.slice(0, flags.limit),
        };
  const judged = flags.mutants ? 'references, known-wrong, mutants' : 'references, known-wrong';
  await recorded(flags, { command: 'audit', dataset: datasetLabel(flags), judged, flags }, () => audit(flags, dataset));
}

async function audit(
  flags: AuditFlags,
  dataset: { readonly name: string; readonly tasks: readonly Task[] },
): Promise<CommandResult> {
  const harness = harnessFromFlags(flags);
  let report: AuditReport;
  try {
    const progress = createProgress('audit');
    try {
      report = await auditDataset(harness, dataset.tasks, (done, total) => progress.update(done, total));
    } finally {
      progress.stop();
    }
    if (flags.mutants) {
      const max = flags.mutants === true ? DEFAULT_MUTANTS_PER_TASK : flags.mutants;
      const mutantProgress = createProgress('mutants');
      try {
        const mutation = await auditMutants(
          harness,
          dataset.tasks,
          { max, failingReferences: failingReferences(report) },
          (done, total) => mutantProgress.update(done, total),
        );
        report = { ...report, mutation };
      } finally {
        mutantProgress.stop();
      }
    }
    if (flags.coverage) {
      const seed = chooseSeed(flags.seed);
      const inputs = flags.coverage === true ? 100 : flags.coverage;
      process.stderr.write(
        `crucible: coverage beside ${inputs} generated inputs, seed ${seed} (replay with --seed ${seed})\n`,
      );
      const coverageProgress = createProgress('coverage');
      try {
        const coverage = await auditCoverage(harness, dataset.tasks, { seed, inputs }, (done, total) =>
          coverageProgress.update(done, total),
        );
        report = { ...report, coverage };
      } finally {
        coverageProgress.stop();
      }
    }
  } finally {
    await harness.close();
  }
  process.stdout.write(formatAudit(dataset.name, report) + '\n');
  const noVerdict = report.disagreements.filter((e) => e.status === 'no-verdict');
  reportNoVerdicts(noVerdict.length, noVerdict[0]?.first_failure?.message);
  const document = { dataset: dataset.name, ...report };
  await writeJsonDocument(flags.json, document, 'audit');
  // The run list shows the rates and counts; the lists per program and per task stay in the document.
  const { disagreements, mutation, coverage, ...rates } = report;
  const headline: Record<string, unknown> = { ...rates, disagreements: disagreements.length };
  if (mutation) {
    const { tasks: _perTask, ...totals } = mutation;
    headline.mutation = totals;
  }
  if (coverage) headline.coverage = coverage.totals;
  return { interrupted: false, document, headline };
}

/** A pack's own audit, on its runtime: its lines printed, its document written. */
async function auditPack(
  module: AnyPackModule,
  flags: AuditFlags & { readonly dataset: string },
): Promise<CommandResult> {
  const tasks: Identified[] = module.readTasks(flags.dataset);
  const open = await openPackFromFlags(module, flags);
  const progress = createProgress('audit');
  let audited: PackAudit;
  try {
    audited = await open.audit!(tasks, {
      name: flags.dataset,
      mutants: Boolean(flags.mutants),
      onTask: progress.update,
      ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
    });
  } finally {
    progress.stop();
    await open.close();
  }
  process.stdout.write(audited.lines.join('\n') + '\n');
  await writeJsonDocument(flags.json, audited.document, 'audit');
  return { interrupted: false, document: audited.document, headline: audited.headline };
}
