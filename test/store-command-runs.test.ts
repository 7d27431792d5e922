/** Command runs in the store: their headline column (added to older databases), and how the list and the tree show them. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { Store, formatRunList, formatRunTree } from '../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-command-runs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const EVAL_SUMMARY = {
  tasks: 2,
  samples: 7,
  pass_at_k: { base: { '1': 0.875 }, plus: { '1': 0.2917 } },
  status_counts: { pass: 2, fail: 5 },
};

test('a database from before the headline column opens, keeps its runs, and takes command runs', () => {
  const path = join(dir, 'old.db');
  // The schema as it was: no headline column.
  const old = new Database(path);
  old.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, task TEXT NOT NULL, strategy TEXT NOT NULL, model TEXT NOT NULL, budget TEXT, meta TEXT,
    status TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT, summary TEXT, usage TEXT);
    CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    parent_id INTEGER REFERENCES events(id), kind TEXT NOT NULL, label TEXT, time TEXT NOT NULL, data TEXT NOT NULL, UNIQUE (run_id, seq));`);
  old
    .prepare(
      "INSERT INTO runs VALUES ('20261101-090000-0001', 'HumanEval/12', 'repair', 'm', NULL, NULL, 'verified', '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:05.000Z', ?, NULL)",
    )
    .run(JSON.stringify({ reason: 'passes' }));
  old.close();

  const store = new Store(path);
  const [solved] = store.listRuns();
  assert.deepEqual([solved!.status, solved!.summary, solved!.headline], ['verified', { reason: 'passes' }, null]);
  const document = { crucible: '0.1.0', summary: EVAL_SUMMARY, samples: [{ task_id: 'a', status: 'pass' }] };
  const run = store.startRun(
    { task: 'built-in', strategy: 'eval', model: 'built-in samples', meta: { flags: {} } },
    new Date('2026-11-02T09:00:00Z'),
  );
  store.finishRun(run.id, { status: 'finished', summary: document, headline: EVAL_SUMMARY });
  store.close();

  const reopened = new Store(path);
  const [listed] = reopened.listRuns();
  assert.equal(listed!.id, run.id);
  assert.deepEqual(listed!.headline, EVAL_SUMMARY);
  assert.equal(listed!.summary, null, 'the list does not read the document');
  assert.deepEqual(reopened.getRun(run.id)!.run.summary, document);
  reopened.close();
});

test("the list reads well for solve runs and command runs alike; show prints a command run's figures", () => {
  const store = new Store(':memory:');
  const solve = store.startRun(
    { task: 'HumanEval/12', strategy: 'repair', model: 'ollama:qwen' },
    new Date('2026-11-30T09:00:00Z'),
  );
  store.finishRun(solve.id, {
    status: 'verified',
    summary: { reason: 'passes' },
    usage: { modelCalls: 2, inputTokens: 60, outputTokens: 21, costUsd: 0 },
  });
  const evaluated = store.startRun(
    { task: 'built-in --limit 2', strategy: 'eval', model: 'built-in samples', meta: { flags: {} } },
    new Date('2026-11-30T10:00:00Z'),
  );
  store.finishRun(evaluated.id, { status: 'finished', summary: { summary: EVAL_SUMMARY }, headline: EVAL_SUMMARY });
  const generated = store.startRun(
    {
      task: 'he.jsonl',
      strategy: 'eval',
      model: 'ollama:qwen',
      meta: { flags: { model: 'ollama:qwen', strategy: 'repair' } },
    },
    new Date('2026-11-30T11:00:00Z'),
  );
  store.finishRun(generated.id, {
    status: 'interrupted',
    summary: {},
    headline: { ...EVAL_SUMMARY, interrupted: true, strategy: { coverage: 0.5 } },
    usage: { modelCalls: 4, inputTokens: 100, outputTokens: 50, costUsd: 0.25 },
  });
  const audited = store.startRun(
    { task: 'built-in', strategy: 'audit', model: 'references, known-wrong' },
    new Date('2026-11-30T12:00:00Z'),
  );
  store.finishRun(audited.id, {
    status: 'finished',
    summary: {},
    headline: { references: { total: 30, passed: 30 }, known_wrong: { total: 53, failed: 53 }, false_positive_rate: 0 },
  });
  const failed = store.startRun(
    { task: 'x.jsonl', strategy: 'select', model: 'y.jsonl' },
    new Date('2026-11-30T13:00:00Z'),
  );
  store.finishRun(failed.id, { status: 'error', summary: { reason: 'the sandbox is broken' } });

  const lines = formatRunList(store.listRuns()).split('\n');
  assert.match(
    lines[0]!,
    /^RUN\s+STARTED\s+STATUS\s+COMMAND\s+MODEL\/SAMPLES\s+TASK\/DATASET\s+EVENTS\s+TOKENS\s+COST\s+RESULT$/,
  );
  const row = (id: string) => lines.find((l) => l.startsWith(id))!;
  assert.match(row(solve.id), /verified\s+solve repair\s+ollama:qwen\s+HumanEval\/12\s+0\s+81\s+\$0\.00$/);
  assert.match(
    row(evaluated.id),
    /finished\s+eval\s+built-in samples\s+built-in --limit 2\s+pass@1 base 87\.5% · plus 29\.2%, 7 samples of 2 tasks$/,
  );
  assert.match(
    row(generated.id),
    /interrupted\s+eval repair\s+ollama:qwen\s+he\.jsonl\s+150\s+\$0\.25\s+pass@1 .*, coverage 50\.0%$/,
  );
  assert.match(
    row(audited.id),
    /audit\s+references, known-wrong\s+built-in\s+references 30\/30 pass, known-wrong 53\/53 fail, false positives 0\.00%$/,
  );
  assert.match(row(failed.id), /error\s+select\s+y\.jsonl\s+x\.jsonl\s+"the sandbox is broken"$/);

  const found = store.getRun(evaluated.id)!;
  const tree = formatRunTree(found.run, found.events);
  assert.match(
    tree,
    new RegExp(`^run ${evaluated.id}  finished  eval  judged built-in samples  dataset built-in --limit 2`),
  );
  assert.match(tree, /\nresult pass@1 base 87\.5%/);
  assert.match(tree, /\n  pass_at_k\.plus\.1\s+0\.2917\n/);
  assert.doesNotMatch(tree, /no events/);
  store.close();
});
