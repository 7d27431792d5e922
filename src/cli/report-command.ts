/**
 * `crucible report FILE.json [FILE2.json] [--out report.html]`: the documents as one HTML file;
 * `crucible report --run RUN_ID [--db FILE] [--out report.html]`: a recorded run's.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readReportDocument, writeReport } from '../report/index.js';
import { runReportPath } from '../report/write.js';
import { readStoredRun } from '../report/read.js';
import type { ReportFlags } from './flags.js';

/** The report beside the first document: results.json → results.html. */
export const defaultReportPath = (file: string) =>
  /\.json(\.gz)?$/i.test(file) ? file.replace(/\.json(\.gz)?$/i, '.html') : `${file}.html`;

export async function runReport(
  file: string | undefined,
  file2: string | undefined,
  flags: ReportFlags,
): Promise<void> {
  if (flags.run !== undefined) {
    const document = await readStoredRun(flags.db, flags.run);
    // The run's whole id (the one given may be the start of it).
    const out = flags.out ?? runReportPath(flags.db, document.name);
    if (flags.out === undefined) await mkdir(dirname(out), { recursive: true });
    await writeReport(out, [document]);
    return;
  }
  if (file === undefined) throw new Error('give a JSON file, or --run RUN_ID');
  const documents = await Promise.all([file, ...(file2 === undefined ? [] : [file2])].map(readReportDocument));
  await writeReport(flags.out ?? defaultReportPath(file), documents);
}
