/**
 * A command's run in the run store (eval, select, calibrate, audit), as `solve` records its
 * own: a row when the work starts, finished with the whole JSON document the command writes
 * (with or without --json), so `crucible runs` lists it and two runs can be compared from the
 * store alone.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runReportPath, writeHtmlReport } from '../report/write.js';
import { Store, type CommandRunName, type RunFinish, type RunUsage } from '../store/index.js';
import type { RecordFlags } from './record-options.js';
import { VERSION } from '../core/version.js';
import { onProgress } from './progress.js';

/** A running command's progress is written to its run at most this often (the dashboard polls the store). */
const PROGRESS_EVERY_MS = 500;

export interface CommandRun {
  readonly command: CommandRunName;
  /** The dataset: its path, or `built-in`. */
  readonly dataset: string;
  /** What was judged: the samples file, the model, the references … */
  readonly judged: string;
  /** The seed of generated inputs and model sampling, when chosen before the work starts. */
  readonly seed?: number;
  /** The command's options as given and defaulted (kept with the run, with the versions). */
  readonly flags: object;
}

export interface CommandResult {
  /** Ctrl-C stopped the work; the document holds what was done. */
  readonly interrupted: boolean;
  /** What --json writes. */
  readonly document: Record<string, unknown>;
  /** The figures `crucible runs` shows: the document's summary. */
  readonly headline: Record<string, unknown>;
  readonly usage?: RunUsage;
}

/** The dataset as `crucible runs` shows it: its path or `built-in`, and --limit. */
export function datasetLabel(flags: { readonly dataset?: string; readonly limit?: number }): string {
  return `${flags.dataset ?? 'built-in'}${flags.limit === undefined ? '' : ` --limit ${flags.limit}`}`;
}

/** What a command that reads samples judged, as `crucible runs` shows it (see readInputs). */
export function judgedLabel(flags: { readonly dataset?: string; readonly samples?: string }): string {
  return flags.samples ?? (flags.dataset ? 'references' : 'built-in samples');
}

/**
 * Runs `work` as a recorded run (unless --no-record). A run that throws is recorded as an
 * error with its message; one whose process quits before `work` returns (Ctrl-C where the
 * command does not finish its work in flight, or a second Ctrl-C) as interrupted. `work` is
 * given the store, to record runs of its own in (eval --model, --agent: one per task): one
 * process must write through one Store, whose grouped writes would otherwise wait on another's
 * that the same (blocked) thread holds.
 */
export async function recorded(
  flags: RecordFlags,
  run: CommandRun,
  work: (store: Store | undefined) => Promise<CommandResult>,
): Promise<void> {
  if (!flags.record) {
    const result = await work(undefined);
    await writeHtmlReport(flags.html, result.document);
    return;
  }
  const store = new Store(flags.db);
  const { id } = store.startRun({
    task: run.dataset,
    strategy: run.command,
    model: run.judged,
    meta: {
      command: run.command,
      crucible: VERSION,
      node: process.version,
      ...(run.seed !== undefined ? { seed: run.seed } : {}),
      flags: run.flags,
    },
  });
  store.commit(); // at once: `crucible runs` shows the run while it works
  const progress = recordProgress(store, id);
  let open = true;
  const end = (finish: RunFinish) => {
    if (!open) return;
    open = false;
    progress.stop();
    process.off('SIGINT', onSigint);
    process.off('exit', onExit);
    store.finishRun(id, finish);
    store.close();
  };
  const onExit = (code: number) =>
    end({
      status: code === 130 ? 'interrupted' : 'error',
      summary: { reason: `the process exited (code ${code}${code === 130 ? ': Ctrl-C' : ''}) before the run finished` },
    });
  // Ctrl-C quits as it would without this listener, unless the command listens itself (and
  // finishes its work in flight); either way the exit is recorded.
  const onSigint = () => {
    if (process.listenerCount('SIGINT') === 1) process.exit(130);
  };
  process.on('exit', onExit);
  process.on('SIGINT', onSigint);
  try {
    const result = await work(store);
    end({
      status: result.interrupted ? 'interrupted' : 'finished',
      summary: result.document,
      headline: result.headline,
      ...(result.usage ? { usage: result.usage } : {}),
    });
    process.stderr.write(`crucible: recorded as run ${id} (crucible show ${id}; --no-record to skip)\n`);
    if (flags.html !== undefined) await writeHtmlReport(flags.html, result.document);
    else await writeDefaultReport(flags.db, id, result.document);
  } catch (error) {
    end({ status: 'error', summary: { reason: error instanceof Error ? error.message : String(error) } });
    throw error;
  }
}

/**
 * The command's progress bars (progress.ts) in its run's row, for the dashboard of `crucible
 * serve`: at most every PROGRESS_EVERY_MS, the latest update each time, and the last one when
 * stopped (so a finished run shows how far it got). A store that cannot take it is warned of
 * once; the command goes on.
 */
function recordProgress(store: Store, id: string): { stop(): void } {
  let latest: { label: string; done: number; total: number } | undefined;
  let written = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let failed = false;
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!latest || failed) return;
    const progress = latest;
    latest = undefined;
    written = performance.now();
    try {
      store.setProgress(id, progress);
    } catch (error) {
      failed = true;
      process.stderr.write(
        `crucible: warning: the run's progress is not recorded (${error instanceof Error ? error.message : String(error)})\n`,
      );
    }
  };
  const stopListening = onProgress((label, done, total) => {
    latest = { label, done, total };
    const wait = written + PROGRESS_EVERY_MS - performance.now();
    if (wait <= 0) write();
    else timer ??= setTimeout(write, wait).unref();
  });
  return {
    stop() {
      stopListening();
      write();
    },
  };
}

/**
 * A recorded run's report, beside the store (.crucible/reports/RUN.html), unasked: if it cannot be
 * written the run is still done and recorded, so that is a warning, not the command's failure.
 */
async function writeDefaultReport(db: string, id: string, document: object): Promise<void> {
  const path = runReportPath(db, id);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeHtmlReport(path, document);
  } catch (error) {
    process.stderr.write(
      `crucible: the run's report was not written (${error instanceof Error ? error.message : String(error)}); crucible report --run ${id} tries again\n`,
    );
  }
}
