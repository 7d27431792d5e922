/**
 * Repository tasks from bug-fixing datasets and `crucible eval --agent`: each task's repository
 * fails its tests as given and passes them with the dataset's fix; `--model fixes` (the fixes
 * replayed as the agent's edits) verifies every task it runs, through the whole runtime; a
 * model that changes nothing verifies none; the report is eval's table and document.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readRepoTasks, writeRepo } from '../src/agents/repo-tasks.js';
import { runSandboxed } from '../src/runtimes/command.js';
import { summarizeTests } from '../src/agents/test-summary.js';
import { realFile } from '../src/datasets/testing.js';
import { startFakeOpenAIServer } from '../src/models/testing/index.js';
import { crucible } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-agent-eval-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const DATASETS = {
  'HumanEvalFix (Python)': realFile('humanevalpack/humanevalpack-python.jsonl.gz'),
  'HumanEvalFix (JavaScript)': realFile('humanevalpack/humanevalpack-js.jsonl.gz'),
  QuixBugs: realFile('quixbugs-python/quixbugs_python.jsonl'),
};

for (const [name, file] of Object.entries(DATASETS)) {
  test(
    `${name}: each repository fails its tests as given and passes them with the dataset's fix`,
    { skip: file.skip },
    async () => {
      // A spread of tasks, graph-problem helpers (QuixBugs' Node classes) and prompt helpers included.
      const tasks = (await readRepoTasks(file.path)).filter((_, i) => i % 9 === 0).slice(0, 5);
      for (const task of tasks) {
        const repo = mkdtempSync(join(dir, 'repo-'));
        await writeRepo(task, repo);
        const buggy = await runSandboxed(repo, task.testCommand, { limits: { seconds: 20 } });
        const before = summarizeTests(buggy.output, buggy.timedOut ? null : buggy.exitCode);
        assert.ok(before.failed > 0, `${task.id}: the bug passes its tests\n${buggy.output}`);
        writeFileSync(join(repo, task.module), task.fixed);
        const fixed = await runSandboxed(repo, task.testCommand, { limits: { seconds: 20 } });
        const afterFix = summarizeTests(fixed.output, fixed.exitCode);
        assert.equal(afterFix.failed, 0, `${task.id}: the fix fails\n${fixed.output}`);
        assert.ok(afterFix.passed > 0, task.id);
        assert.notEqual(afterFix.runner, 'unknown', `${task.id}: no test summary read`);
      }
    },
  );
}

test(
  'eval --agent --model fixes verifies every task, reported as eval reports',
  { skip: DATASETS.QuixBugs.skip },
  async () => {
    const json = join(dir, 'quixbugs.json');
    const r = await crucible(
      [
        'eval',
        '--agent',
        '--model',
        'fixes',
        '--dataset',
        DATASETS.QuixBugs.path,
        '--limit',
        '6',
        '--json',
        json,
        '--db',
        join(dir, 'runs.db'),
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^tests +100\.0%$/m);
    assert.match(r.stdout, /per task: [\d.]+ s median; sandbox \d+% of the time/);
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    assert.equal(doc.samples.length, 6);
    assert.equal(doc.generation.strategy, 'agent');
    for (const sample of doc.samples) {
      assert.equal(sample.status, 'pass', sample.task_id);
      assert.match(sample.strategy.diff, /^--- a\//);
      assert.ok(sample.strategy.run, 'each task is a recorded run');
    }
    // Each task's run has its tool calls.
    const shown = await crucible(['show', doc.samples[0].strategy.run, '--db', join(dir, 'runs.db'), '--json']);
    const { events } = JSON.parse(shown.stdout);
    assert.deepEqual(
      events
        .filter((e: { kind: string }) => e.kind === 'tool')
        .map((e: { data: { name: string; ok: boolean } }) => [e.data.name, e.data.ok]),
      [
        ['write_file', true],
        ['run_tests', true],
      ],
    );
  },
);

test(
  'eval --agent with a model that changes nothing verifies no task',
  { skip: DATASETS['HumanEvalFix (Python)'].skip },
  async () => {
    const server = await startFakeOpenAIServer({
      script: () => ({ toolCalls: [{ name: 'finish', arguments: { summary: 'nothing to do' } }] }),
    });
    try {
      const r = await crucible([
        'eval',
        '--agent',
        '--model',
        `${server.url}#lazy`,
        '--dataset',
        DATASETS['HumanEvalFix (Python)'].path,
        '--limit',
        '3',
        '--no-record',
        '--cache-dir',
        join(dir, 'cache'),
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^tests +0\.0%$/m);
      assert.match(r.stdout, /status: fail 3/);
    } finally {
      await server.close();
    }
  },
);

test('eval --agent says what it needs', async () => {
  const noModel = await crucible(['eval', '--agent', '--dataset', 'x.jsonl']);
  assert.match(noModel.stderr, /--agent needs --model/);
  const notRepo = join(dir, 'not-repo.jsonl');
  writeFileSync(notRepo, JSON.stringify({ task_id: 'x', prompt: 'p' }) + '\n');
  const bad = await crucible(['eval', '--agent', '--model', 'fixes', '--dataset', notRepo, '--no-record']);
  assert.match(bad.stderr, /not-repo.jsonl:1: not a repository task/);
});
