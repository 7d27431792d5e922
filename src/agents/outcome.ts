import type { StrategyUsage } from '../models/calls.js';
import type { MemoryGraph } from './memory.js';

/** How an agent's run ended: what its loop returns, and what a sub-agent reports to its caller. */
export interface AgentOutcome {
  /** finished: the model called `finish`; stopped: turns or budget ran out first. */
  readonly status: 'finished' | 'stopped';
  /** The model's own summary, or why it stopped. */
  readonly summary: string;
  readonly turns: number;
  readonly toolCalls: number;
  readonly usage: StrategyUsage;
  /** The graph memory at the end (nodes and typed edges), kept with the run. */
  readonly memory?: ReturnType<MemoryGraph['toJSON']>;
}
