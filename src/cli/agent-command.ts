/**
 * `crucible agent --repo DIR --task TEXT --model M`: the agent works on a copy of the
 * repository; the repository's tests are run before and after, in the sandbox; the run is
 * recorded (every prompt, reply and tool call: `crucible show RUN`); the diff is printed, and
 * written into the folder only with --apply. The run is `verified` when the tests pass at the end.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { runAgent, type AgentOutcome } from '../agents/agent.js';
import { runSandboxed } from '../agents/sandboxed-command.js';
import { defaultTestCommand, summarizeTests, type TestSummary } from '../agents/test-summary.js';
import { commandTools, FILE_TOOLS } from '../agents/tools.js';
import { Workspace } from '../agents/workspace.js';
import { parseBudget } from '../core/budget.js';
import { chooseSeed } from '../core/seed.js';
import { createModel } from '../models/index.js';
import { Store } from '../store/index.js';
import { storeTrace } from '../strategies/trace.js';
import type { AgentFlags } from './agent-options.js';

export interface TestCounts {
  readonly passed: number;
  readonly failed: number;
}

async function taskText(flags: AgentFlags): Promise<string> {
  if (flags.task !== undefined && flags.issue !== undefined)
    throw new Error('give --task TEXT or --issue FILE, not both');
  if (flags.task !== undefined) {
    if (!flags.task.trim()) throw new Error('--task is empty: say what the agent should do');
    return flags.task;
  }
  if (flags.issue !== undefined) {
    const text = await readFile(flags.issue, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        `cannot read --issue ${flags.issue}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
      );
    });
    if (!text.trim()) throw new Error(`--issue ${flags.issue} is empty`);
    return text;
  }
  throw new Error('say what to do: --task TEXT, or --issue FILE');
}

export async function runAgentCommand(flags: AgentFlags): Promise<void> {
  const task = await taskText(flags);
  const budget = parseBudget(flags.budget);
  const seed = chooseSeed(flags.seed);
  const workspace = await Workspace.open(flags.repo);
  const store = new Store(flags.db);
  try {
    const testCommand = flags.test ?? (await defaultTestCommand(workspace.root));
    const sandbox = { mode: flags.sandbox };
    const tests = async (): Promise<TestSummary | undefined> => {
      if (!testCommand) return undefined;
      const result = await runSandboxed(workspace.root, testCommand, sandbox);
      return summarizeTests(result.output, result.timedOut ? null : result.exitCode);
    };
    process.stderr.write(
      `crucible: agent on ${flags.repo} with ${flags.model}, seed ${seed}; tests: ${testCommand ? `\`${testCommand}\`` : 'none found (give --test)'}\n`,
    );
    const before = await tests();
    process.stdout.write(`tests before: ${describeTests(before)}\n`);
    const model = await createModel(flags.model, {
      cache: flags.offline ? 'offline' : 'read-write',
      cacheDir: flags.cacheDir,
      ...(flags.config ? { configPath: flags.config } : {}),
    });
    const run = store.startRun({
      task: flags.issue ?? firstLine(task),
      strategy: 'agent',
      model: model.spec,
      budget,
      meta: { seed, repo: flags.repo, testCommand: testCommand ?? null, task },
    });
    store.commit();
    const interrupt = new AbortController();
    const onSigint = () => interrupt.abort();
    process.once('SIGINT', onSigint);
    let outcome: AgentOutcome;
    try {
      outcome = await runAgent({
        model,
        workspace,
        task,
        tools: [...FILE_TOOLS, ...commandTools({ testCommand, ...sandbox })],
        budget,
        trace: storeTrace(store, run.id),
        testCommand,
        maxTurns: flags.turns,
        seed,
        signal: interrupt.signal,
      });
    } catch (error) {
      store.finishRun(run.id, {
        status: interrupt.signal.aborted ? 'interrupted' : 'error',
        summary: { reason: error instanceof Error ? error.message : String(error) },
      });
      throw error;
    } finally {
      process.off('SIGINT', onSigint);
      await model.close();
    }
    const after = await tests();
    const diff = await workspace.diff();
    // Verified: the repository's own tests ran and all passed at the end.
    const verified = after !== undefined && after.failed === 0 && after.passed > 0;
    const status = verified ? 'verified' : 'unverified';
    const counts = (s: TestSummary | undefined): TestCounts | null =>
      s ? { passed: s.passed, failed: s.failed } : null;
    const document = {
      status,
      diff,
      tests: { command: testCommand ?? null, before: counts(before), after: counts(after) },
      agent: { status: outcome.status, summary: outcome.summary, turns: outcome.turns, tool_calls: outcome.toolCalls },
      usage: outcome.usage,
      run_id: run.id,
      repo: flags.repo,
      model: model.spec,
      seed,
      applied: false,
    };
    store.finishRun(run.id, {
      status,
      summary: { reason: outcome.summary, diff, tests: document.tests, agent: document.agent },
      usage: {
        modelCalls: outcome.usage.calls,
        inputTokens: outcome.usage.inputTokens,
        outputTokens: outcome.usage.outputTokens,
        costUsd: outcome.usage.costUsd,
        sandboxSeconds: outcome.usage.sandboxSeconds,
      },
    });
    process.stdout.write(diff ? `\n${diff}\n` : '\nno changes\n');
    process.stdout.write(`tests after: ${describeTests(after)}\n`);
    process.stdout.write(`agent: ${outcome.status} after ${outcome.turns} turns: ${outcome.summary}\n`);
    if (flags.apply && diff) {
      const applied = await workspace.applyTo();
      document.applied = true;
      process.stdout.write(`applied to ${flags.repo}: ${applied.map((c) => c.path).join(', ')}\n`);
    }
    if (flags.json) await writeFile(flags.json, JSON.stringify(document, null, 1) + '\n');
    process.stdout.write(`${status}; run ${run.id} (crucible show ${run.id})\n`);
    if (!verified) process.exitCode = 1;
  } finally {
    store.close();
    await workspace.close();
  }
}

function describeTests(summary: TestSummary | undefined): string {
  if (!summary) return 'no test command';
  return `${summary.passed} passed, ${summary.failed} failed`;
}

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0]!;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};
