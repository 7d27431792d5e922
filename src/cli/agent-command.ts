/**
 * `crucible agent --repo DIR --task TEXT --model M`: the agent works on a copy of the
 * repository; the repository's tests are run before and after, in the sandbox; the run is
 * recorded (every prompt, reply and tool call: `crucible show RUN`); the diff is printed, and
 * written into the folder only with --apply. The run is `verified` when the tests pass at the end.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { solveRepository, type RepositoryResult } from '../agents/solve-repository.js';
import type { TestSummary } from '../agents/test-summary.js';
import { parseBudget } from '../core/budget.js';
import { chooseSeed } from '../core/seed.js';
import { createModel } from '../models/index.js';
import { checkNodePath } from '../runtimes/recipes.js';
import { Store } from '../store/index.js';
import type { AgentFlags } from './flags.js';

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
  process.stderr.write(`crucible: agent on ${flags.repo} with ${flags.model}, seed ${seed}\n`);
  const model = await createModel(flags.model, {
    cache: flags.offline ? 'offline' : 'read-write',
    cacheDir: flags.cacheDir,
    ...(flags.config ? { configPath: flags.config } : {}),
  });
  const store = new Store(flags.db);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  let result: RepositoryResult;
  try {
    result = await solveRepository({
      repo: flags.repo,
      task,
      model,
      budget,
      testCommand: flags.test,
      sandbox: flags.sandbox,
      nodePath: flags.nodePath ? checkNodePath(flags.nodePath) : undefined,
      store,
      ...(flags.issue ? { label: flags.issue } : {}),
      seed,
      maxTurns: flags.turns,
      signal: interrupt.signal,
      testsBefore: true,
      onTestsBefore: (before) => process.stdout.write(`tests before: ${describeTests(before)}\n`),
    });
  } finally {
    process.off('SIGINT', onSigint);
    store.close();
    await model.close();
  }
  const { outcome, diff, after, workspace } = result;
  try {
    const counts = (s: TestSummary | undefined) => (s ? { passed: s.passed, failed: s.failed } : null);
    const document = {
      status: result.status,
      diff,
      tests: { command: result.testCommand ?? null, before: counts(result.before), after: counts(after) },
      agent: { status: outcome.status, summary: outcome.summary, turns: outcome.turns, tool_calls: outcome.toolCalls },
      usage: outcome.usage,
      run_id: result.runId ?? null,
      repo: flags.repo,
      model: model.spec,
      seed,
      applied: false,
    };
    process.stdout.write(diff ? `\n${diff}\n` : '\nno changes\n');
    process.stdout.write(`tests after: ${describeTests(after)}\n`);
    process.stdout.write(`agent: ${outcome.status} after ${outcome.turns} turns: ${outcome.summary}\n`);
    if (flags.apply && diff) {
      const applied = await workspace.applyTo();
      document.applied = true;
      process.stdout.write(`applied to ${flags.repo}: ${applied.map((c) => c.path).join(', ')}\n`);
    }
    if (flags.json) await writeFile(flags.json, JSON.stringify(document, null, 1) + '\n');
    process.stdout.write(`${result.status}; run ${result.runId} (crucible show ${result.runId})\n`);
    if (result.status !== 'verified') process.exitCode = 1;
  } finally {
    await workspace.close();
  }
}

function describeTests(summary: TestSummary | undefined): string {
  if (!summary) return 'no test command';
  return `${summary.passed} passed, ${summary.failed} failed`;
}
