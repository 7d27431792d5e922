/**
 * The typed flags of the commands whose options and code live in separate modules: the options
 * module declares the flags and loads the command's code only when it runs (see
 * shared-options.ts), and both read the types from here, so neither imports the other's.
 */
import type { StrategyName } from '../core/constants.js';
import type { AugmentFlags } from './augment.js';
import type { InputFlags } from './inputs.js';
import type { RecordFlags } from './record-options.js';
import type { HarnessFlags } from './shared-options.js';

/** Flags shared by `solve` and `eval --model`. */
export interface StrategyFlags {
  readonly model: string;
  readonly strategy: StrategyName;
  readonly budget: string;
  readonly offline?: boolean;
  readonly seed?: number;
  readonly candidates?: number;
  readonly attempts?: number;
  readonly severity?: 'error' | 'warning';
  readonly templates?: string;
  readonly rollouts?: number;
  readonly threshold?: string;
  readonly library?: string;
  readonly modelTests?: boolean;
  readonly oracle?: boolean;
  readonly db: string;
  readonly cacheDir: string;
  readonly config?: string;
}

export interface SolveFlags extends HarnessFlags, StrategyFlags {
  readonly task: string;
  readonly json?: string;
  /** `--html FILE`: the report of what solve did (its recorded run as a tree of events). */
  readonly html?: string;
  readonly out?: string;
  readonly inputs?: number;
}

export interface EvalFlags extends HarnessFlags, InputFlags, AugmentFlags, RecordFlags {
  readonly json?: string;
  readonly disagreements?: string;
}

export interface ModelEvalFlags extends EvalFlags, StrategyFlags {
  readonly limit?: number;
  /** Each task is a repository for the agent (eval-agent.ts), not a function for a strategy. */
  readonly agent?: boolean;
}

export interface AgentFlags {
  readonly repo: string;
  readonly task?: string;
  readonly issue?: string;
  readonly model: string;
  readonly test?: string;
  readonly budget: string;
  readonly turns: number;
  readonly apply?: boolean;
  readonly json?: string;
  readonly seed?: number;
  readonly offline?: boolean;
  readonly sandbox: 'bwrap' | 'none';
  readonly db: string;
  readonly cacheDir: string;
  readonly config?: string;
  readonly nodePath?: string[];
}

export interface ReportFlags {
  readonly out?: string;
  /** `--run RUN_ID`: a recorded run (or the start of its id), read from the store at `db`. */
  readonly run?: string;
  readonly db: string;
}

export interface SkeletonsFlags {
  readonly library: string;
}

export interface SkeletonsAddFlags extends SkeletonsFlags, HarnessFlags {
  readonly dataset?: string;
  readonly run?: string;
  readonly limit?: number;
  readonly db: string;
}
