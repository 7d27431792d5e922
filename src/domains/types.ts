/**
 * The domain-pack contract (README.md beside this file). A pack is one kind of artifact — a
 * function today; an SQL query, an HTML document or a game next — with everything Crucible
 * needs to verify it: reading the artifact from a model's reply, preparing what it is
 * checked against once per task, and judging one artifact on those checks into a verdict,
 * the failing facts to feed back, and the gated reward. The front doors (solve's strategies,
 * /v1/verify, eval) reach verification through a pack, so a new domain is a new pack, not a
 * new pipeline.
 */
import type { Verdict } from '../core/verdict.js';
import type { FailureFact } from '../feedback/facts.js';
import type { GatedReward } from '../rl/gated-reward.js';
import type { GatedLevels } from '../rl/schemas.js';

/** Who the checks are for: a solver sees only what the task shows; a scorer also the task's hidden suites. */
export type Audience = 'solver' | 'scorer';

export interface PrepareOptions {
  readonly audience: Audience;
  /** Seeds generated probes (inputs, databases, …): the same seed gives the same checks. */
  readonly seed: number;
  /** Generated probes judged against the reference; 0 for none. */
  readonly probes?: number;
  /** Use the task's reference as an oracle on generated probes (default: when it has one). */
  readonly oracle?: boolean;
  /**
   * `compare`: the probes only compare artifacts with one another (selection), so they may
   * range wherever the task allows, not only where a verdict can safely be decided
   * (`verify`, the default: without a stated domain, `code` keeps inputs like the examples).
   */
  readonly purpose?: 'verify' | 'compare';
}

/** What an artifact is checked against: prepared once per task, reused for every artifact. */
export interface Checks<T> {
  readonly task: T;
  /** The suites a solver can see; in the reward they gate the hidden ones. */
  readonly publicSuites: ReadonlySet<string>;
  /** In words, for a person: "2 examples, 48 generated inputs against the reference". */
  readonly description: string;
  /** How many checks there are: with none, nothing can be verified. */
  readonly count: number;
}

export interface VerifyOptions {
  /** Shrink a failing generated probe to a minimal counterexample (costs sandbox time). */
  readonly shrink?: boolean;
  /** Nobody will read the report: stop judging (the report is then no-verdict). */
  readonly signal?: AbortSignal;
  /** The gated reward's level weights (default equal). */
  readonly weights?: readonly number[];
}

/** One artifact judged: outcomes are data, never exceptions. */
export interface Report {
  readonly verdict: Verdict;
  /** Every check passed, and there was at least one. */
  readonly passed: boolean;
  /** There was nothing to check the artifact against. */
  readonly unchecked: boolean;
  /** Every failing fact found (the minimal counterexample among them, marked `shrunk`). */
  readonly failures: readonly FailureFact[];
  /** Of the suites a solver can see, how many passed (AdverMCTS's reward and selection key). */
  readonly publicChecks: { readonly passed: number; readonly total: number };
  readonly levels: GatedLevels;
  /** The gated reward an RL trainer gets for this artifact (null with a reason on no-verdict). */
  readonly reward: GatedReward;
  /** The sandbox failed: the report says nothing about the artifact. */
  readonly noVerdict?: string;
}

/** An input an artifact can be run on to see what it does (arguments, a database, a page's events): its text is how a person reads it, and what makes two probes the same. */
export interface Probe {
  readonly text: string;
}

/** What several artifacts did on the same probes: the evidence selection clusters and votes on, with no reference. */
export interface Behaviour {
  /** Per artifact, a comparable key per probe (null where nothing is known): equal keys, equal behaviour. */
  readonly keys: readonly (readonly (string | null)[])[];
  /** Per artifact: it broke one of the task's properties on one of the probes. */
  readonly breaksProperty: readonly boolean[];
  /** How many properties were judged (0: the task states none). */
  readonly properties: number;
}

export interface DomainPack<T, A, C extends Checks<T>, P extends Probe = Probe> {
  /** The `domain` field of a task line that selects this pack. */
  readonly name: string;
  /** The artifact in a model's reply, and the form it came in; undefined when the reply holds none. */
  extract(task: T, reply: string): { readonly artifact: A; readonly form: string } | undefined;
  prepare(task: T, options: PrepareOptions): Promise<C>;
  verify(checks: C, artifact: A, options?: VerifyOptions): Promise<Report>;
  /** The probes generated with the checks (`PrepareOptions.probes` of them, inside the task's domain). */
  probes(checks: C): readonly P[];
  /** What each artifact does on each probe (select/select.ts clusters and votes on it). */
  observe(checks: C, artifacts: readonly A[], probes: readonly P[]): Promise<Behaviour>;
  /**
   * New probes near the given ones — mutated, inside the task's domain, not in `seen` —
   * `count` at most: the disagreement hunt mutates the probes that split artifacts most.
   */
  neighbours(checks: C, near: readonly P[], count: number, seed: number, seen: ReadonlySet<string>): P[];
}
