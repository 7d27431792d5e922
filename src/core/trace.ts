/**
 * Trace events: everything a strategy does, as data. Events form a tree per run through
 * `parentId` (a prompt's response, the candidate read from it, its verdict, the feedback
 * that follows, the next prompt …), which `crucible show` draws and the store keeps.
 */
import { z } from 'zod';

export const TRACE_EVENT_KINDS = [
  'prompt',
  'response',
  'candidate',
  'verdict',
  'feedback',
  'decision',
  'tool',
] as const;
export type TraceEventKind = (typeof TRACE_EVENT_KINDS)[number];

const usage = z.object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() });

// Each kind's data: the fields listed are required; more may be added (kept as they are).
export const traceDataSchemas = {
  prompt: z.looseObject({
    model: z.string(),
    messages: z.array(z.looseObject({ role: z.string(), content: z.string() })),
  }),
  response: z.looseObject({
    model: z.string(),
    texts: z.array(z.string()),
    usage,
    costUsd: z.number().nullable(),
    latencyMs: z.number().nonnegative(),
    cached: z.boolean(),
  }),
  candidate: z.looseObject({ program: z.string() }),
  verdict: z.looseObject({ status: z.string() }),
  feedback: z.looseObject({ text: z.string() }),
  decision: z.looseObject({ action: z.string(), reason: z.string() }),
  /** An agent's tool call and what it was told back (refusals included: `ok` false). */
  tool: z.looseObject({ name: z.string(), input: z.unknown(), ok: z.boolean(), output: z.string() }),
} satisfies Record<TraceEventKind, z.ZodType>;

const base = {
  parentId: z.number().int().positive().nullable().default(null),
  /** A few words for the tree ("attempt 2", "candidate #3"). */
  label: z.string().optional(),
};

/** What a strategy appends (the store adds id, run, sequence number and time). */
export const newTraceEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('prompt'), data: traceDataSchemas.prompt, ...base }),
  z.object({ kind: z.literal('response'), data: traceDataSchemas.response, ...base }),
  z.object({ kind: z.literal('candidate'), data: traceDataSchemas.candidate, ...base }),
  z.object({ kind: z.literal('verdict'), data: traceDataSchemas.verdict, ...base }),
  z.object({ kind: z.literal('feedback'), data: traceDataSchemas.feedback, ...base }),
  z.object({ kind: z.literal('decision'), data: traceDataSchemas.decision, ...base }),
  z.object({ kind: z.literal('tool'), data: traceDataSchemas.tool, ...base }),
]);
export type NewTraceEvent = z.input<typeof newTraceEventSchema>;

export const traceEventSchema = z.intersection(
  newTraceEventSchema,
  z.object({
    id: z.number().int().positive(),
    runId: z.string(),
    seq: z.number().int().nonnegative(),
    time: z.string(),
  }),
);
export type TraceEvent = z.output<typeof newTraceEventSchema> & {
  readonly id: number;
  readonly runId: string;
  readonly seq: number;
  readonly time: string;
};

/** verified, abstained, unverified: how a solve run ended; finished: a command's run (eval, select, calibrate, audit) that completed. */
export const RUN_STATUSES = [
  'running',
  'verified',
  'abstained',
  'unverified',
  'finished',
  'error',
  'interrupted',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Where a run's events go; `emit` returns the event's id (for children's parentId). */
export interface Trace {
  emit(event: NewTraceEvent): number;
}
