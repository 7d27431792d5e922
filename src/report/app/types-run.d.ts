/**
 * The shapes of a recorded run (`crucible show RUN --json`, the `run` document kind) and of
 * `crucible solve --json` (the `solve` kind), as the run view reads them: the store's Run and
 * TraceEvent (src/store/store.ts, src/core/trace.ts), loosely, since older runs and other
 * strategies add or lack fields. Data only, no DOM types.
 */

export type RunStatus = 'running' | 'verified' | 'abstained' | 'unverified' | 'finished' | 'error' | 'interrupted';

export type TraceEventKind = 'prompt' | 'response' | 'candidate' | 'verdict' | 'feedback' | 'decision' | 'tool';

export interface RunUsage {
  readonly modelCalls?: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly costUsd?: number | null;
  readonly sandboxSeconds?: number;
}

export interface StoredRun {
  readonly id: string;
  readonly task: string;
  readonly strategy: string;
  readonly model: string;
  readonly budget?: Record<string, number>;
  readonly meta?: Record<string, unknown>;
  readonly status: RunStatus | string;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly summary:
    | ({ readonly reason?: string; readonly attempts?: number; readonly program?: string } & Record<string, unknown>)
    | null;
  readonly usage: RunUsage | null;
  readonly headline?: Record<string, unknown> | null;
  readonly events?: number;
}

/** An agent run's tests (src/agents/solve-repository.ts): counts before and after, null when not run. */
export interface AgentTests {
  readonly command: string | null;
  readonly before: { readonly passed: number; readonly failed: number } | null;
  readonly after: { readonly passed: number; readonly failed: number } | null;
}

/** An agent run's graph memory (src/agents/memory.ts `toJSON`), kept in its summary. */
export interface AgentMemory {
  readonly nodes: ReadonlyArray<{ readonly id: string; readonly kind: string; readonly text: string }>;
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string; readonly kind: string }>;
}

export interface ChatMessage {
  readonly role: string;
  readonly content: string;
  /** An assistant turn's tool calls (agents). */
  readonly toolCalls?: readonly unknown[];
  /** A tool message: the tool that answered. */
  readonly toolName?: string;
}

export interface PromptData {
  readonly model?: string;
  readonly messages: readonly ChatMessage[];
  readonly settings?: Record<string, unknown>;
  readonly [field: string]: unknown;
}

export interface ResponseData {
  readonly model?: string;
  readonly texts: readonly string[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly costUsd: number | null;
  readonly latencyMs: number;
  readonly cached: boolean;
  readonly [field: string]: unknown;
}

export interface CandidateData {
  readonly program: string;
  readonly form?: string;
  readonly [field: string]: unknown;
}

export interface VerdictFailure {
  readonly check?: string;
  readonly input?: string | null;
  readonly expected?: string | null;
  readonly actual?: string | null;
  readonly message?: string | null;
  readonly [field: string]: unknown;
}

export interface VerdictData {
  readonly status: string;
  readonly passed?: number;
  readonly total?: number;
  readonly firstFailure?: VerdictFailure | null;
  readonly suites?: readonly {
    readonly name: string;
    readonly status: string;
    readonly passed?: number;
    readonly total?: number;
  }[];
  readonly noVerdict?: string;
  readonly [field: string]: unknown;
}

export interface FeedbackData {
  readonly text: string;
  readonly [field: string]: unknown;
}

export interface DecisionData {
  readonly action: string;
  readonly reason: string;
  readonly [field: string]: unknown;
}

/** An agent's tool call and what it was told back (`ok` false: refused). */
export interface ToolData {
  readonly name: string;
  readonly input: unknown;
  readonly ok: boolean;
  readonly output: string;
  readonly [field: string]: unknown;
}

export interface TraceEvent {
  readonly id: number;
  readonly runId?: string;
  readonly seq: number;
  readonly parentId: number | null;
  readonly kind: TraceEventKind | string;
  readonly label?: string | null;
  readonly time: string;
  readonly data: Record<string, unknown>;
}

/** `crucible show RUN --json`. */
export interface RunDocument {
  readonly run: StoredRun;
  readonly events: readonly TraceEvent[];
}

/** `crucible solve --json FILE`. */
export interface SolveDocument {
  readonly status: string;
  readonly program: string | null;
  readonly reward: number | null;
  readonly reason: string;
  readonly attempts: number;
  readonly usage: {
    readonly calls?: number;
    readonly cachedCalls?: number;
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly tokens?: number;
    readonly costUsd?: number | null;
    readonly wallSeconds?: number;
    readonly sandboxSeconds?: number;
  };
  readonly run: string | null;
  readonly task: string;
  readonly domain?: string;
  readonly strategy?: string;
  readonly model?: string;
  readonly seed?: number;
}

/** An event with its children, in the order they happened. */
export interface EventNode {
  readonly event: TraceEvent;
  readonly children: EventNode[];
}
