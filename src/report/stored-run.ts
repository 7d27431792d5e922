/**
 * A run from the store as a report document: a command's run (eval, select, calibrate, audit)
 * is the document it wrote, shown in that document's view; any other run (solve's, a strategy's)
 * is the run with its trace events, shown as a tree. `crucible report --run` and the dashboard
 * of `crucible serve` both read runs this way.
 */
import type { TraceEvent } from '../core/trace.js';
import { isCommandRun } from '../store/command-runs.js';
import type { Run } from '../store/store.js';
import { documentKind } from './kinds.js';
import type { ReportDocument } from './kinds.js';

export function storedRunDocument(run: Run, events: readonly TraceEvent[]): ReportDocument {
  if (isCommandRun(run) && run.summary) {
    const kind = documentKind(run.summary);
    if (kind !== undefined) return { name: run.id, kind, document: run.summary };
  }
  // Also a command run that failed or was stopped before it wrote a document: its row says why.
  return { name: run.id, kind: 'run', document: { run, events } };
}
