/** The run-store options: where runs are recorded and read, and not recording one. Only commander and constants are imported (see shared-options.ts). */
import { Option } from 'commander';
import { DEFAULT_STORE_PATH } from '../core/constants.js';

/** What a command that records its run in the store is given. */
export interface RecordFlags {
  readonly db: string;
  /** False with `--no-record`. */
  readonly record: boolean;
  /** `--html FILE`: the command's report there (by default, a recorded run's goes beside the store). */
  readonly html?: string;
}

/** `--db FILE`: solve, eval, select, calibrate and audit record there; runs and show read it. */
export const storeOption = () => new Option('--db <file>', 'the run store').default(DEFAULT_STORE_PATH);

/** `--no-record`, for the commands that record each run as a whole (eval, select, calibrate, audit). */
export const noRecordOption = () =>
  new Option('--no-record', 'do not record this run in the run store (`crucible runs` lists the recorded ones)');

/** `--html FILE`, for the commands that write a document (the report `crucible report` makes of it). */
export const htmlOption = () =>
  new Option(
    '--html <file>',
    'write a self-contained HTML report of the results here (default for a recorded run: .crucible/reports/RUN.html)',
  );
