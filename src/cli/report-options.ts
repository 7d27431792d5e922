/**
 * The options of `crucible report`. Defined apart from the command's code (report-command.ts,
 * which reads the documents and bundles the browser app): `--help` loads neither (see
 * shared-options.ts).
 */
import type { Command } from 'commander';

export interface ReportFlags {
  readonly out?: string;
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'write a self-contained HTML report of a JSON document crucible wrote (eval --json, select, calibrate, audit, solve); with two eval documents, what changed between them',
    )
    .argument('<file>', 'a JSON document a crucible command wrote')
    .argument('[file2]', 'a second eval document to compare the first with (e.g. another model, or the last run)')
    .option('--out <file>', 'where to write the report (default: beside the first file, .html for .json)')
    .action(async (file: string, file2: string | undefined, flags: ReportFlags) =>
      (await import('./report-command.js')).runReport(file, file2, flags),
    );
}
