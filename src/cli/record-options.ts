/** The run-store options: where runs are recorded and read, and not recording one. Only commander and constants are imported (see shared-options.ts). */
import { Option } from 'commander';
import { DEFAULT_STORE_PATH } from '../core/constants.js';

/** What a command that records its run in the store is given. */
export interface RecordFlags {
  readonly db: string;
  /** False with `--no-record`. */
  readonly record: boolean;
}

/** `--db FILE`: solve, eval, select, calibrate and audit record there; runs and show read it. */
export const storeOption = () => new Option('--db <file>', 'the run store').default(DEFAULT_STORE_PATH);

/** `--no-record`, for the commands that record each run as a whole (eval, select, calibrate, audit). */
export const noRecordOption = () =>
  new Option('--no-record', 'do not record this run in the run store (`crucible runs` lists the recorded ones)');
