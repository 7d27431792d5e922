/**
 * `POST /v1/verify` for a pack (`"domain": NAME`): what a pack's request verifier answers, and
 * the candidate verdict on the wire, the same for every pack. A pack with a request form of its
 * own (SQL: schema, setup and reference inline) brings its verifier; any other is served from
 * its task line (line-request.ts).
 */
import { z } from 'zod';
import type { RuntimeOptions } from './runtime-options.js';
import type { Report } from './types.js';

export interface VerifyProgress {
  done: number;
  total: number;
}

export interface VerifyHooks {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: VerifyProgress) => void;
  readonly onCandidate?: (verdict: unknown, index: number) => void;
}

/** A pack's `/v1/verify`: one request's candidates judged, each verdict on the wire, and a summary. */
export interface RequestVerifier {
  verify(
    body: unknown,
    hooks?: VerifyHooks,
  ): Promise<{ readonly results: readonly unknown[]; readonly summary: object }>;
  close(): Promise<void>;
}

/** The request forms a pack serves, as the server opens them (the runtime starts on the first request). */
export interface PackRequests {
  /** The body's schema, with `domain: z.literal(NAME)`: the server parses with it and the OpenAPI document lists it. */
  readonly schema: z.ZodType;
  open(options: Partial<RuntimeOptions>): Promise<RequestVerifier>;
}

const MAX_ARTIFACT = 4 << 20;

/**
 * The candidates of a request: each `noun` (a query, a program, an artifact) as a string, or
 * `{id, code}`; 1 to 1024 of them, each at most `maxBytes` when given.
 */
export function requestCandidates(noun: string, maxBytes?: number) {
  const code = maxBytes === undefined ? z.string() : z.string().max(maxBytes);
  return z
    .array(
      z.union([code, z.strictObject({ id: z.string().max(200).optional(), code })], {
        error: `each candidate is ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun} (a string) or {id, code}`,
      }),
    )
    .min(1, `candidates is empty: send at least one ${noun}`)
    .max(1024, 'at most 1024 candidates per request');
}

/** The candidates of a request in a task line's form (domains/line-request.ts). */
export const RequestCandidatesSchema = requestCandidates('artifact', MAX_ARTIFACT);

export const WeightsSchema = z.array(z.number().min(0)).length(5, 'weights needs one entry per level (5)').optional();

/** Each candidate with its id (its position unless it names one). */
export const identified = (candidates: z.infer<typeof RequestCandidatesSchema>) =>
  candidates.map((c, i) =>
    typeof c === 'string' ? { id: String(i), code: c } : { id: c.id ?? String(i), code: c.code },
  );

/** A candidate of a request stopped before it was judged: no verdict, reward null. */
export function stoppedVerdict(id: string, reason: string) {
  return {
    id,
    status: 'no-verdict' as const,
    passed: 0,
    total: 0,
    suites: [],
    first_failure: null,
    minimal_failure: null,
    pass_rate: null,
    reward: null,
    gates: null,
    first_failed_level: null,
    reason,
  };
}

/** One judged candidate on the wire: its suites, the first failure, the smallest one (a pack's counterexample), the gated reward. */
export function verdictOnWire(
  id: string,
  report: Report & { readonly counterexample?: object },
  publicSuites: ReadonlySet<string>,
) {
  const { verdict, reward } = report;
  const first = verdict.suites.find((s) => s.status !== 'pass');
  const failure = first?.firstFailure ? { suite: first.name, status: first.status, ...first.firstFailure } : null;
  const passed = verdict.suites.reduce((n, s) => n + s.passed, 0);
  const total = verdict.suites.reduce((n, s) => n + s.total, 0);
  const common = {
    id,
    status: verdict.status,
    passed,
    total,
    suites: verdict.suites.map((s) => ({
      name: s.name,
      public: publicSuites.has(s.name),
      status: s.status,
      passed: s.passed,
      total: s.total,
    })),
    first_failure: failure,
    minimal_failure: report.counterexample ?? failure,
  };
  if (reward.reward === null)
    return { ...common, pass_rate: null, reward: null, gates: null, first_failed_level: null, reason: reward.reason };
  return {
    ...common,
    pass_rate: total ? passed / total : null,
    reward: reward.reward,
    gates: { ...reward.gates },
    first_failed_level: reward.firstFailed,
  };
}

/** How many verdicts of each status. */
export function statusCounts(results: readonly { readonly status: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of results) counts[v.status] = (counts[v.status] ?? 0) + 1;
  return counts;
}
