import { reportNoVerdicts } from './no-verdict.js';
import { writeFile } from 'node:fs/promises';
import { auditDataset, auditMutants, failingReferences, formatAudit } from '../bench/audit.js';
import { builtinDataset } from '../bench/builtin/index.js';
import { loadDataset } from '../bench/datasets/index.js';
import { DEFAULT_MUTANTS_PER_TASK } from '../verify/mutation.js';
import { createProgress } from './progress.js';
import { harnessFromFlags, type HarnessFlags } from './shared-options.js';

export interface AuditFlags extends HarnessFlags {
  readonly dataset?: string;
  readonly json?: string;
  /** `--mutants` alone is true (the default count); `--mutants 50` is 50. */
  readonly mutants?: boolean | number;
  /** Only the first N tasks. */
  readonly limit?: number;
}

export async function runAudit(flags: AuditFlags): Promise<void> {
  const all = flags.dataset ? await loadDataset(flags.dataset) : builtinDataset();
  const dataset = flags.limit === undefined ? all : { ...all, name: `${all.name}, its first ${Math.min(flags.limit, all.tasks.length)} tasks (--limit)`, tasks: all.tasks.slice(0, flags.limit) };
  const harness = harnessFromFlags(flags);
  let report;
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
        const mutation = await auditMutants(harness, dataset.tasks, { max, failingReferences: failingReferences(report) }, (done, total) =>
          mutantProgress.update(done, total),
        );
        report = { ...report, mutation };
      } finally {
        mutantProgress.stop();
      }
    }
  } finally {
    await harness.close();
  }
  process.stdout.write(formatAudit(dataset.name, report) + '\n');
  const noVerdict = report.disagreements.filter((e) => e.status === 'no-verdict');
  reportNoVerdicts(noVerdict.length, noVerdict[0]?.first_failure?.message);
  if (flags.json) {
    await writeFile(flags.json, JSON.stringify({ dataset: dataset.name, ...report }, null, 1) + '\n');
    process.stdout.write(`\naudit written to ${flags.json}\n`);
  }
}
