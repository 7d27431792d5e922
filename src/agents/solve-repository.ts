/**
 * One repository task, start to end, as `crucible agent` and `crucible eval --agent` run it: a
 * workspace copied from the folder, the tests run before (optionally) and after in the sandbox,
 * the agent in between, the run recorded in the store with every event. `verified` when the
 * repository's own tests ran and all passed at the end.
 */
import type { Budget } from '../core/budget.js';
import type { Model } from '../models/index.js';
import type { SandboxMode } from '../runtimes/sandbox.js';
import type { Store } from '../store/index.js';
import { memoryTrace, storeTrace } from '../store/trace.js';
import { runAgent, type AgentOutcome } from './agent.js';
import { runSandboxed, type CommandLimits } from '../runtimes/command.js';
import { defaultTestCommand, summarizeTests, type TestSummary } from './test-summary.js';
import { commandTools, FILE_TOOLS } from './tools.js';
import { changedLines, Workspace, type FileChange } from './workspace.js';

export interface RepositoryJob {
  readonly repo: string;
  readonly task: string;
  readonly model: Model;
  readonly budget: Budget;
  /** Default: what the repository shows (defaultTestCommand). */
  readonly testCommand?: string | undefined;
  readonly sandbox: SandboxMode;
  readonly limits?: Partial<CommandLimits>;
  /** node_modules folders the repository's JavaScript may require (the sandbox has no network to install them). */
  readonly nodePath?: readonly string[] | undefined;
  readonly store?: Store | undefined;
  /** What the run is called in the store (default: the task's first line). */
  readonly label?: string;
  readonly seed: number;
  readonly maxTurns?: number;
  readonly signal?: AbortSignal;
  /** Run the tests before the agent too (what `crucible agent` prints). */
  readonly testsBefore?: boolean;
  /** Called with the tests before, once known. */
  readonly onTestsBefore?: (summary: TestSummary | undefined) => void;
}

export interface RepositoryResult {
  readonly status: 'verified' | 'unverified';
  readonly outcome: AgentOutcome;
  readonly testCommand: string | undefined;
  readonly before: TestSummary | undefined;
  readonly after: TestSummary | undefined;
  readonly diff: string;
  readonly runId: string | undefined;
  /** Sandbox seconds of the tests before and after (the agent's own are in outcome.usage). */
  readonly testSeconds: number;
  /** The workspace, still open (apply it, then close it). */
  readonly workspace: Workspace;
}

export async function solveRepository(job: RepositoryJob): Promise<RepositoryResult> {
  const workspace = await Workspace.open(job.repo);
  try {
    const testCommand = job.testCommand ?? (await defaultTestCommand(workspace.root));
    const sandbox = {
      mode: job.sandbox,
      ...(job.limits ? { limits: job.limits } : {}),
      ...(job.nodePath?.length ? { nodePath: job.nodePath } : {}),
    };
    let testSeconds = 0;
    const tests = async (): Promise<TestSummary | undefined> => {
      if (!testCommand) return undefined;
      const result = await runSandboxed(workspace.root, testCommand, sandbox);
      testSeconds += result.seconds;
      return summarizeTests(result.output, result.timedOut ? null : result.exitCode);
    };
    const before = job.testsBefore ? await tests() : undefined;
    job.onTestsBefore?.(before);
    const run = job.store?.startRun({
      task: job.label ?? firstLine(job.task),
      strategy: 'agent',
      model: job.model.spec,
      budget: job.budget,
      meta: { seed: job.seed, repo: job.repo, testCommand: testCommand ?? null, task: job.task },
    });
    if (job.store) job.store.commit();
    let outcome: AgentOutcome;
    try {
      outcome = await runAgent({
        model: job.model,
        workspace,
        task: job.task,
        tools: [...FILE_TOOLS, ...commandTools({ testCommand, ...sandbox })],
        budget: job.budget,
        trace: job.store && run ? storeTrace(job.store, run.id) : memoryTrace(),
        testCommand,
        // The tools the agent makes are tested in the same sandbox as its commands.
        selfMadeTools: sandbox,
        seed: job.seed,
        ...(job.maxTurns ? { maxTurns: job.maxTurns } : {}),
        ...(job.signal ? { signal: job.signal } : {}),
      });
    } catch (error) {
      if (job.store && run)
        job.store.finishRun(run.id, {
          status: job.signal?.aborted ? 'interrupted' : 'error',
          summary: { reason: error instanceof Error ? error.message : String(error) },
        });
      throw error;
    }
    const after = await tests();
    const diff = await workspace.diff();
    const status = after !== undefined && after.failed === 0 && after.passed > 0 ? 'verified' : 'unverified';
    // A verified run keeps the files it changed (and which lines): `crucible skeletons add --run` takes its functions from them.
    const changedFiles = status === 'verified' ? keptChanges(await workspace.changes()) : [];
    const counts = (s: TestSummary | undefined) => (s ? { passed: s.passed, failed: s.failed } : null);
    if (job.store && run)
      job.store.finishRun(run.id, {
        status,
        summary: {
          reason: outcome.summary,
          diff,
          tests: { command: testCommand ?? null, before: counts(before), after: counts(after) },
          turns: outcome.turns,
          toolCalls: outcome.toolCalls,
          ...(outcome.memory ? { memory: outcome.memory } : {}),
          ...(changedFiles.length ? { changedFiles } : {}),
        },
        usage: {
          modelCalls: outcome.usage.calls,
          inputTokens: outcome.usage.inputTokens,
          outputTokens: outcome.usage.outputTokens,
          costUsd: outcome.usage.costUsd,
          sandboxSeconds: outcome.usage.sandboxSeconds + testSeconds,
        },
      });
    return { status, outcome, testCommand, before, after, diff, runId: run?.id, testSeconds, workspace };
  } catch (error) {
    await workspace.close();
    throw error;
  }
}

/** At most this many characters of changed files are kept with a run. */
const KEPT_CHANGES_CHARS = 2_000_000;

function keptChanges(
  changes: readonly FileChange[],
): Array<{ path: string; text: string; lines: Array<[number, number]> }> {
  const kept = [];
  let chars = 0;
  for (const { path, before, after } of changes) {
    if (after === undefined || chars + after.length > KEPT_CHANGES_CHARS) continue;
    chars += after.length;
    kept.push({ path, text: after, lines: changedLines(before ?? '', after) });
  }
  return kept;
}

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0]!;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};
