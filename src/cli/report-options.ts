/**
 * The options of `crucible report`. Defined apart from the command's code (report-command.ts,
 * which reads the documents, opens the run store and bundles the browser app): `--help` loads
 * none of them (see shared-options.ts).
 */
import type { Command } from 'commander';
import { storeOption } from './record-options.js';
import type { ReportFlags } from './flags.js';

/** What the command is given, checked before anything loads: a file (or two), or --run. */
export function checkReportArguments(file: string | undefined, file2: string | undefined, flags: ReportFlags): void {
  if (flags.run !== undefined && file !== undefined)
    throw new Error(
      `give a JSON file or --run RUN_ID, not both (${file}${file2 === undefined ? '' : ` and ${file2}`} with --run ${flags.run})`,
    );
  if (flags.run === undefined && file === undefined)
    throw new Error(
      'give the JSON file a crucible command wrote (crucible report results.json), or a recorded run (crucible report --run RUN_ID; crucible runs lists them)',
    );
  if (flags.run !== undefined && flags.run.trim() === '')
    throw new Error('--run needs a run id, or the start of one (crucible runs lists them)');
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'write a self-contained HTML report of a JSON document crucible wrote (eval --json, select, calibrate, audit, solve), or of a recorded run (--run); with two eval documents, what changed between them',
    )
    .argument('[file]', 'a JSON document a crucible command wrote')
    .argument('[file2]', 'a second eval document to compare the first with (e.g. another model, or the last run)')
    .option(
      '--run <id>',
      'a recorded run instead of a file (its id, or the start of one, as crucible show takes): a solve run as a tree of its events, a command run in its document’s view',
    )
    .addOption(storeOption())
    .option(
      '--out <file>',
      'where to write the report (default: beside the first file, .html for .json; for --run, .crucible/reports/RUN.html beside the store)',
    )
    .action(async (file: string | undefined, file2: string | undefined, flags: ReportFlags) => {
      checkReportArguments(file, file2, flags);
      await (await import('./report-command.js')).runReport(file, file2, flags);
    });
}
