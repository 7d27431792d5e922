/**
 * Sub-agents (OpenSage's vertical topology): the agent defines a sub-agent — a role, a subset of
 * its own tools, a share of turns — and hands it a sub-task; the sub-agent's answer comes back
 * as the tool result. A sub-agent's tools are always a subset of its parent's (never the tools
 * that make agents or tools: no sub-agent makes more of either), and its model calls are the
 * parent's, under the parent's budget.
 */
import { z } from 'zod';
import type { AgentOutcome } from './outcome.js';
import { CREATE_TOOL } from './self-made-tools.js';
import type { AgentTool } from './tools.js';

export const CREATE_SUBAGENT = 'create_subagent';
export const CALL_SUBAGENT = 'call_subagent';
/** Tools only the top agent has. */
const NOT_GRANTABLE = new Set([CREATE_SUBAGENT, CALL_SUBAGENT, CREATE_TOOL]);
export const MAX_SUBAGENT_TURNS = 12;

export interface SubAgentSpec {
  readonly name: string;
  readonly role: string;
  readonly tools: readonly string[];
  readonly turns: number;
}

/** Runs a sub-agent on a task (agent.ts: with the parent's model calls and trace). */
export type StartSubAgent = (spec: SubAgentSpec, tools: readonly AgentTool[], task: string) => Promise<AgentOutcome>;

const createArgs = z.object({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{1,39}$/, 'a lower-case name of letters, digits, _ and - (2 to 40 characters)'),
  role: z.string().min(1).describe('who the sub-agent is and how it works, e.g. "a reviewer who only reads"'),
  tools: z.array(z.string()).min(1).describe('which of your tools it may use'),
  turns: z.number().int().min(1).max(MAX_SUBAGENT_TURNS).optional().describe(`most turns (default 6)`),
});
const callArgs = z.object({ name: z.string(), task: z.string().min(1) });

/** `create_subagent` and `call_subagent` over the parent's `toolbox` (read when each is called: tools made later count). */
export function subAgentTools(toolbox: readonly AgentTool[], start: StartSubAgent): AgentTool[] {
  const defined = new Map<string, SubAgentSpec>();
  const create: AgentTool<z.infer<typeof createArgs>> = {
    name: CREATE_SUBAGENT,
    description:
      'Define a sub-agent: a role, the subset of your tools it may use, and its most turns. Hand it work with call_subagent; its answer comes back to you.',
    parameters: createArgs,
    async run(args) {
      if (defined.has(args.name)) return { ok: false, output: `a sub-agent named ${args.name} exists already` };
      const yours = toolbox.map((t) => t.name).filter((name) => !NOT_GRANTABLE.has(name));
      const refused = args.tools.filter((name) => !yours.includes(name));
      if (refused.length)
        return {
          ok: false,
          output: `a sub-agent may have only tools you have (and not ${[...NOT_GRANTABLE].join(', ')}): ${refused.join(', ')} cannot be given; yours are ${yours.join(', ')}`,
        };
      const spec = { name: args.name, role: args.role, tools: [...new Set(args.tools)], turns: args.turns ?? 6 };
      defined.set(args.name, spec);
      return {
        ok: true,
        output: `defined the sub-agent ${spec.name} (tools: ${spec.tools.join(', ')}; at most ${spec.turns} turns)`,
      };
    },
  };
  const call: AgentTool<z.infer<typeof callArgs>> = {
    name: CALL_SUBAGENT,
    description: 'Hand a sub-task to a sub-agent you defined; returns its answer.',
    parameters: callArgs,
    async run({ name, task }) {
      const spec = defined.get(name);
      if (!spec)
        return {
          ok: false,
          output: `no sub-agent named ${name}; ${defined.size ? `yours are ${[...defined.keys()].join(', ')}` : 'define one with create_subagent first'}`,
        };
      const tools = toolbox.filter((t) => spec.tools.includes(t.name));
      const outcome = await start(spec, tools, task);
      return {
        ok: outcome.status === 'finished',
        output: `${name} ${outcome.status === 'finished' ? 'answered' : `stopped (${outcome.summary})`} after ${outcome.turns} turns${outcome.status === 'finished' ? `:\n${outcome.summary}` : ''}`,
      };
    },
  };
  return [create, call];
}
