import { writeFile } from 'node:fs/promises';
import { auditDataset, formatAudit } from '../bench/audit.js';
import { builtinDataset } from '../bench/builtin/index.js';
import { loadDataset } from '../bench/datasets/index.js';
import { createProgress } from './progress.js';
import { harnessFromFlags, type HarnessFlags } from './shared-options.js';

export interface AuditFlags extends HarnessFlags {
  readonly dataset?: string;
  readonly json?: string;
}

export async function runAudit(flags: AuditFlags): Promise<void> {
  const dataset = flags.dataset ? await loadDataset(flags.dataset) : builtinDataset();
  const harness = harnessFromFlags(flags);
  const progress = createProgress('audit');
  let report;
  try {
    report = await auditDataset(harness, dataset.tasks, (done, total) => progress.update(done, total));
  } finally {
    progress.stop();
    await harness.close();
  }
  process.stdout.write(formatAudit(dataset.name, report) + '\n');
  if (flags.json) {
    await writeFile(flags.json, JSON.stringify({ dataset: dataset.name, ...report }, null, 1) + '\n');
    process.stdout.write(`\naudit written to ${flags.json}\n`);
  }
}
