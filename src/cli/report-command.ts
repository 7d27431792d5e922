/** `crucible report FILE.json [FILE2.json] [--out report.html]`: the documents as one HTML file. */
import { readReportDocument, writeReport } from '../report/index.js';
import type { ReportFlags } from './report-options.js';

/** The report beside the first document: results.json → results.html. */
export const defaultReportPath = (file: string) =>
  /\.json(\.gz)?$/i.test(file) ? file.replace(/\.json(\.gz)?$/i, '.html') : `${file}.html`;

export async function runReport(file: string, file2: string | undefined, flags: ReportFlags): Promise<void> {
  const documents = await Promise.all([file, ...(file2 === undefined ? [] : [file2])].map(readReportDocument));
  await writeReport(flags.out ?? defaultReportPath(file), documents);
}
