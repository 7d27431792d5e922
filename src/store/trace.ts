/** Trace sinks: the run store (what `crucible show` reads), or memory (tests, library users). */
import { newTraceEventSchema, type NewTraceEvent, type Trace } from '../core/trace.js';
import type { Store } from './store.js';

export function storeTrace(store: Store, runId: string): Trace {
  return { emit: (event) => store.appendEvent(runId, event).id };
}

export interface MemoryTrace extends Trace {
  readonly events: ReadonlyArray<NewTraceEvent & { readonly id: number }>;
}

/** Keeps events in an array, validated like the store validates them. */
export function memoryTrace(): MemoryTrace {
  const events: Array<NewTraceEvent & { id: number }> = [];
  return {
    events,
    emit(event) {
      newTraceEventSchema.parse(event);
      const id = events.length + 1;
      events.push({ ...event, id });
      return id;
    },
  };
}
