/**
 * The agent's loop: the model is given the task and its tools, calls them, is told each
 * result, and goes on until it calls `finish` (or its budget or turns run out). Endpoints with
 * native tool calls get them (the AI SDK's); endpoints without get the same tools through
 * structured output (one `{tool, arguments}` object per turn). Every call is a trace event —
 * the prompt, the response, each tool call with what it answered — under the same budget
 * accounting as a strategy. The context stays under a token budget: the oldest tool results are
 * replaced by a line saying what they were (the call stays, so the model can make it again).
 */
import { z } from 'zod';
import type { Budget } from '../core/budget.js';
import {
  UnreadableReplyError,
  type ChatMessage,
  type Completion,
  type Model,
  type ToolCall,
  type ToolDefinition,
} from '../models/index.js';
import { BudgetStop, ModelCalls } from '../models/calls.js';
import type { Trace } from '../core/trace.js';
import { MemoryGraph, memoryTools, observeToolCall } from './memory.js';
import { createToolTool, type SelfMadeToolOptions } from './self-made-tools.js';
import type { AgentOutcome } from './outcome.js';
import { CALL_SUBAGENT, subAgentTools } from './sub-agents.js';
import { callTool, toolSchemas, type AgentTool } from './tools.js';
import type { Workspace } from './workspace.js';

export interface AgentRun {
  readonly model: Model;
  readonly workspace: Workspace;
  readonly task: string;
  readonly tools: readonly AgentTool[];
  readonly budget: Budget;
  readonly trace: Trace;
  /** Shown to the model with the task. */
  readonly testCommand?: string | undefined;
  /** Most model turns (default 40). */
  readonly maxTurns?: number;
  /** Tokens of conversation kept (estimated at 4 characters a token; default 24,000). */
  readonly contextTokens?: number;
  readonly signal?: AbortSignal;
  readonly seed?: number;
  /** The parent event (a sub-agent's run sits under its parent's call). */
  readonly parentEvent?: number | null;
  readonly label?: string;
  /** create_tool: tools the agent writes, added once their tests pass in the sandbox (default: on). */
  readonly selfMadeTools?: SelfMadeToolOptions | false;
  /** create_subagent and call_subagent (default: on). */
  readonly subAgents?: boolean;
  /** The graph memory the loop fills from tool results and turns out of the context (default: a new one; false: none). */
  readonly memory?: MemoryGraph | false;
  /** Who the agent is and how it works (default: an engineer on a repository); the task is then sent as it is. */
  readonly system?: string;
  /** The model calls to ask through, shared with a strategy that runs the agent (default: the agent's own). */
  readonly calls?: ModelCalls;
  /**
   * Rewrites the conversation before a turn (FormAct's edit-triggered compression: after an
   * accepted edit, the current document and a line per past edit take the place of the turns
   * before); undefined keeps it. What it returns still goes through the token budget.
   */
  readonly rewriteContext?: (history: readonly ChatMessage[]) => ChatMessage[] | undefined;
}

export type { AgentOutcome };

export const FINISH = 'finish';
const DEFAULT_MAX_TURNS = 40;
/** Calls of one turn past this many are answered "not run" (a model that asks for hundreds at once). */
export const MAX_CALLS_PER_TURN = 16;
/** Replies in a row that cannot be read before the agent stops. */
const MAX_UNREADABLE = 3;
const DEFAULT_CONTEXT_TOKENS = 24_000;
/** Results this short stay in the context whatever its size. */
const MIN_ELIDED = 240;
export const estimateTokens = (messages: readonly ChatMessage[]) =>
  Math.ceil(messages.reduce((n, m) => n + m.content.length + JSON.stringify(m.toolCalls ?? '').length, 0) / 4);

const SYSTEM = `You are a careful software engineer working on a repository through tools.
Read the code before you change it, make the smallest change that does the task, run the tests, and call finish with a short summary when the task is done and the tests pass.
Paths are relative to the repository root. Edits that break a file's syntax are refused. Commands run in a sandbox on a copy of the repository: change files only with edit_file or write_file.`;

/** The `finish` tool: handled by the loop itself. */
const finishTool = {
  description: 'Stop: the task is done (or cannot be). Say what you changed and why.',
  inputSchema: z.toJSONSchema(z.object({ summary: z.string() }), { io: 'input' }) as Record<string, unknown>,
} satisfies ToolDefinition;

export async function runAgent(run: AgentRun): Promise<AgentOutcome> {
  if (run.calls) return agentLoop(run, run.calls);
  const calls = new ModelCalls(run.model, run.budget, run.trace, {
    ...(run.seed !== undefined ? { seed: run.seed } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  });
  return agentLoop(run, calls);
}

/** The loop, for the agent and its sub-agents (`role`), which share its model calls and so its budget. */
async function agentLoop(run: AgentRun & { readonly role?: string }, calls: ModelCalls): Promise<AgentOutcome> {
  const native = run.model.capabilities.tools;
  // The agent's tools; those it makes are added here as they pass their tests.
  const toolbox: AgentTool[] = [...run.tools];
  let parent = run.parentEvent ?? null;
  // A sub-agent fills its parent's memory (it is handed the same graph).
  const memory = run.memory === false ? undefined : (run.memory ?? new MemoryGraph());
  if (memory && !run.role) toolbox.push(...memoryTools(memory));
  if (run.selfMadeTools !== false && !run.role) toolbox.push(createToolTool(toolbox, run.selfMadeTools ?? {}));
  if (run.subAgents !== false && !run.role)
    toolbox.push(
      ...subAgentTools(toolbox, (spec, tools, task) =>
        agentLoop(
          {
            ...run,
            task,
            tools,
            role: spec.role,
            maxTurns: spec.turns,
            parentEvent: parent,
            label: `${run.label ? `${run.label} ` : ''}${spec.name}`,
            testCommand: undefined,
            memory: memory ?? false,
          },
          calls,
        ),
      ),
    );
  const definitionsNow = (): Record<string, ToolDefinition> =>
    Object.fromEntries([
      ...toolSchemas(toolbox).map((t) => [t.name, { description: t.description, inputSchema: t.parameters }]),
      [FINISH, finishTool],
    ]);
  let definitions = definitionsNow();
  const base = run.role
    ? `${run.system ?? SYSTEM}\n\nYour role: ${run.role}\nYou are a sub-agent: call finish with your answer, which goes back to the agent that asked.`
    : (run.system ?? SYSTEM);
  const systemNow = () => (native ? base : `${base}\n\n${describeToolsForJson(definitions)}`);
  const history: ChatMessage[] = [{ role: 'user', content: taskMessage(run) }];
  const maxTurns = run.maxTurns ?? DEFAULT_MAX_TURNS;
  const contextTokens = run.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  let toolCalls = 0;
  let unreadable = 0;
  const outcome = (status: AgentOutcome['status'], summary: string, turns: number): AgentOutcome => {
    run.trace.emit({
      kind: 'decision',
      parentId: parent,
      label: run.label ?? 'agent',
      data: { action: status === 'finished' ? 'finish' : 'stop', reason: summary, turns, toolCalls },
    });
    return {
      status,
      summary,
      turns,
      toolCalls,
      usage: calls.usage(),
      ...(memory && !run.role ? { memory: memory.toJSON() } : {}),
    };
  };
  for (let turn = 1; turn <= maxTurns; turn++) {
    const label = `${run.label ? `${run.label} ` : ''}turn ${turn}`;
    const rewritten = run.rewriteContext?.(history);
    if (rewritten) history.splice(0, history.length, ...rewritten);
    compact(history, contextTokens, (summary) => memory?.turn(summary));
    definitions = definitionsNow();
    let completion: Completion | undefined;
    let eventId: number;
    try {
      const asked = await calls.ask([{ role: 'system', content: systemNow() }, ...history], {
        label,
        parent,
        ...(native ? { tools: definitions, toolChoice: 'auto' as const } : { output: { schema: JSON_CALL } }),
      });
      completion = asked.completions[0];
      eventId = asked.eventId;
    } catch (error) {
      if (error instanceof BudgetStop) return outcome('stopped', error.message, turn - 1);
      // A reply that arrived but cannot be read is the model's doing: it is told, and tries again.
      if (!(error instanceof UnreadableReplyError)) throw error;
      if (++unreadable >= MAX_UNREADABLE)
        return outcome('stopped', `${MAX_UNREADABLE} replies in a row could not be read: ${error.message}`, turn);
      const told = `Your last reply could not be read (${error.message.slice(0, 300)}). Call one of the tools again, with arguments that are a JSON object of the documented fields.`;
      parent = run.trace.emit({ kind: 'feedback', parentId: parent, label, data: { text: told } });
      history.push({ role: 'user', content: told });
      continue;
    }
    unreadable = 0;
    parent = eventId;
    const requested = completion ? callsOf(completion, native, turn) : [];
    if (requested.length === 0) {
      history.push({ role: 'assistant', content: completion?.text ?? '' });
      history.push({
        role: 'user',
        content: `Call one of the tools (${Object.keys(definitions).join(', ')}); call ${FINISH} when the task is done.`,
      });
      continue;
    }
    history.push(
      native
        ? { role: 'assistant', content: completion?.text ?? '', toolCalls: requested }
        : { role: 'assistant', content: completion?.text ?? '' },
    );
    for (const [index, call] of requested.entries()) {
      toolCalls++;
      if (index >= MAX_CALLS_PER_TURN) {
        const output = `not run: at most ${MAX_CALLS_PER_TURN} tool calls are run in one turn; call it again in the next`;
        parent = run.trace.emit({
          kind: 'tool',
          parentId: eventId,
          label,
          data: { name: call.name, input: call.input, ok: false, output },
        });
        history.push(
          native
            ? { role: 'tool', content: output, toolCallId: call.id, toolName: call.name }
            : { role: 'user', content: `Result of ${call.name}:\n${output}` },
        );
        continue;
      }
      if (call.name === FINISH) {
        const summary = (call.input as { summary?: unknown } | null)?.summary;
        return outcome('finished', typeof summary === 'string' ? summary : 'finished', turn);
      }
      let result;
      try {
        // A sub-agent's time is its own model calls and tools, each counted where it happens.
        result =
          call.name === CALL_SUBAGENT
            ? await callTool(toolbox, call.name, call.input, run.workspace)
            : await calls.sandbox(() => callTool(toolbox, call.name, call.input, run.workspace));
      } catch (error) {
        if (error instanceof BudgetStop) return outcome('stopped', error.message, turn);
        throw error;
      }
      if (memory) await observeToolCall(memory, call, result, run.workspace);
      parent = run.trace.emit({
        kind: 'tool',
        parentId: eventId,
        label,
        data: { name: call.name, input: call.input, ok: result.ok, output: result.output },
      });
      history.push(
        native
          ? { role: 'tool', content: result.output, toolCallId: call.id, toolName: call.name }
          : { role: 'user', content: `Result of ${call.name}:\n${result.output}` },
      );
    }
  }
  return outcome('stopped', `${maxTurns} turns used without finishing`, maxTurns);
}

function taskMessage(run: AgentRun & { readonly role?: string }): string {
  if (run.role || run.system) return `Task:\n${run.task}`;
  const tests = run.testCommand
    ? `The repository's tests run with \`${run.testCommand}\` (the run_tests tool).`
    : 'No test command was found; use run to check your work.';
  return `Task:\n${run.task}\n\n${tests}`;
}

/** A turn of an endpoint without native tools: one call as JSON. */
const JSON_CALL = z.object({
  tool: z.string().describe('the name of the tool to call'),
  arguments: z.record(z.string(), z.unknown()).describe("the tool's arguments"),
});

function describeToolsForJson(definitions: Record<string, ToolDefinition>): string {
  const lines = Object.entries(definitions).map(
    ([name, def]) => `- ${name}: ${def.description ?? ''}\n  arguments: ${JSON.stringify(def.inputSchema)}`,
  );
  return `Reply with one JSON object {"tool": NAME, "arguments": {...}} per turn, calling one of these tools:\n${lines.join('\n')}`;
}

function callsOf(completion: Completion, native: boolean, turn: number): ToolCall[] {
  if (native) return [...completion.toolCalls];
  const value = completion.value as z.infer<typeof JSON_CALL> | undefined;
  return value ? [{ id: `turn-${turn}`, name: value.tool, input: value.arguments }] : [];
}

/**
 * Keeps the conversation under `budget` tokens: the oldest tool results (after the task) are
 * replaced, one by one, by a line that says what they were; the calls stay, so the model sees
 * what it did and can ask again. If that is not enough (a call's own arguments are huge: a whole
 * file written), the long texts the model sent are cut too, its latest turn included.
 */
export function compact(history: ChatMessage[], budget: number, onElide?: (summary: string) => void): void {
  for (let i = 1; i < history.length - 2 && estimateTokens(history) > budget; i++) {
    const m = history[i]!;
    const isResult = m.role === 'tool' || (m.role === 'user' && m.content.startsWith('Result of '));
    // A short result saves nothing when elided.
    if (!isResult || m.content.startsWith('[elided') || m.content.length <= MIN_ELIDED) continue;
    const lines = m.content.split('\n').length;
    // What leaves the context goes into the memory, as what it was (the call) and how it began.
    const call = history
      .slice(0, i)
      .reverse()
      .flatMap((h) => h.toolCalls ?? [])
      .find((c) => c.id === m.toolCallId);
    onElide?.(
      `${m.toolName ?? 'a tool'}${call ? ` ${JSON.stringify(call.input).slice(0, 120)}` : ''} returned: ${m.content.split('\n').slice(0, 4).join(' | ').slice(0, 240)}`,
    );
    history[i] = {
      ...m,
      content: `[elided to keep the context short: ${lines} lines of ${m.toolName ?? 'a tool'}'s result; call it again to see it]`,
    };
  }
  for (let i = 1; i < history.length && estimateTokens(history) > budget; i++) {
    const m = history[i]!;
    if (m.role !== 'assistant') continue;
    history[i] = {
      ...m,
      content: elideText(m.content),
      ...(m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c, input: elideStrings(c.input) })) } : {}),
    };
  }
}

function elideText(text: string): string {
  return text.length <= MIN_ELIDED ? text : `${text.slice(0, MIN_ELIDED)}… [elided: ${text.length} characters]`;
}

function elideStrings(value: unknown): unknown {
  if (typeof value === 'string') return elideText(value);
  if (Array.isArray(value)) return value.map(elideStrings);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, elideStrings(v)]));
  return value;
}
