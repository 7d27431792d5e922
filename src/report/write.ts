/** Writing a report: `crucible report` and the `--html FILE` of the commands that write documents. */
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { reportHtml } from './html.js';
import { documentKind } from './kinds.js';
import type { ReportDocument } from './read.js';

/** A recorded run's report, beside the store: .crucible/reports/RUN.html (a recorded command writes it; report --run too). */
export const runReportPath = (db: string, id: string) =>
  join(db === ':memory:' ? '.crucible' : dirname(db), 'reports', `${id}.html`);

/** Writes the report of `documents` to `path` and says where. */
export async function writeReport(path: string, documents: readonly ReportDocument[]): Promise<void> {
  await writeFile(path, await reportHtml(documents));
  process.stdout.write(`report written to ${path} (open it in a browser)\n`);
}

/**
 * A command's `--html FILE`: the report of the document it just built (nothing when no file
 * was asked for), the same file `crucible report` makes from its --json.
 */
export async function writeHtmlReport(path: string | undefined, document: object): Promise<void> {
  if (path === undefined) return;
  const kind = documentKind(document);
  if (kind === undefined) throw new Error('--html: this command does not write a document the report can show');
  await writeReport(path, [{ name: basename(path).replace(/\.html?$/i, ''), kind, document }]);
}
