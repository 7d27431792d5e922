/**
 * What the dashboard of `crucible serve` reads from the store: a running command's progress
 * (written by one process, read by another), runs filtered by status, command and text, and
 * a run's events after the ones already seen.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { Store, UnknownRunError } from '../src/store/index.js';
import { crucible } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-store-progress-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function until<T>(what: string, read: () => T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("a running run's progress is seen by another connection, and kept when the run finishes", async () => {
  const path = join(dir, 'progress.db');
  const writer = new Store(path);
  const reader = new Store(path);
  const run = writer.startRun({ task: 'built-in', strategy: 'eval', model: 'built-in samples' });
  writer.commit();
  assert.equal(reader.peekRun(run.id)!.progress, null, 'no progress before the first update');
  writer.setProgress(run.id, { label: 'eval', done: 3, total: 83 }, new Date('2026-12-01T10:00:00Z'));
  const first = await until('the first progress', () => reader.peekRun(run.id)?.progress ?? undefined);
  assert.deepEqual(first, { label: 'eval', done: 3, total: 83, at: '2026-12-01T10:00:00.000Z' });
  writer.setProgress(run.id, { label: 'eval', done: 40, total: 83 });
  const second = await until('the second progress', () => {
    const p = reader.peekRun(run.id)?.progress;
    return p && p.done === 40 ? p : undefined;
  });
  assert.equal(second.total, 83);
  assert.equal(reader.listRuns()[0]!.progress!.done, 40, 'listRuns returns it');
  assert.equal(reader.getRun(run.id)!.run.progress!.done, 40, 'getRun returns it');
  writer.setProgress(run.id, { label: 'eval', done: 83, total: 83 });
  const finished = writer.finishRun(run.id, { status: 'finished', summary: { summary: {} }, headline: {} });
  assert.equal(finished.progress!.done, 83);
  await until('the finish', () => (reader.peekRun(run.id)!.status === 'finished' ? true : undefined));
  assert.deepEqual(
    { ...reader.getRun(run.id)!.run.progress, at: undefined },
    { label: 'eval', done: 83, total: 83, at: undefined },
  );
  assert.throws(() => writer.setProgress('20000101-000000-0000', { done: 1, total: 2 }), UnknownRunError);
  writer.close();
  reader.close();
});

test('a database from before the progress column gets it, and keeps its runs', () => {
  const path = join(dir, 'old.db');
  const old = new Database(path);
  old.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, task TEXT NOT NULL, strategy TEXT NOT NULL, model TEXT NOT NULL, budget TEXT, meta TEXT,
    status TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT, summary TEXT, usage TEXT, headline TEXT);`);
  old
    .prepare(
      "INSERT INTO runs VALUES ('20261101-090000-0001', 'built-in', 'eval', 'built-in samples', NULL, NULL, 'finished', '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:05.000Z', '{}', NULL, ?)",
    )
    .run(JSON.stringify({ tasks: 2 }));
  old.close();
  const store = new Store(path);
  const [kept] = store.listRuns();
  assert.deepEqual([kept!.id, kept!.headline, kept!.progress], ['20261101-090000-0001', { tasks: 2 }, null]);
  const run = store.startRun({ task: 't', strategy: 'select', model: 'm' });
  store.setProgress(run.id, { label: 'select', done: 1, total: 4 });
  store.commit();
  assert.equal(store.peekRun(run.id)!.progress!.done, 1);
  store.close();
});

test('runs are filtered by status, command (solve: the strategies’ runs) and text, newest first', () => {
  const store = new Store(':memory:');
  const at = (hour: number) => new Date(`2026-11-30T${String(hour).padStart(2, '0')}:00:00Z`);
  const ids: Record<string, string> = {};
  const add = (
    name: string,
    hour: number,
    start: { task: string; strategy: string; model: string },
    status?: string,
  ) => {
    const run = store.startRun(start, at(hour));
    if (status) store.finishRun(run.id, { status: status as 'finished', summary: {} });
    ids[name] = run.id;
  };
  add('evalA', 1, { task: 'built-in', strategy: 'eval', model: 'built-in samples' }, 'finished');
  add('solve', 2, { task: 'HumanEval/12', strategy: 'repair', model: 'ollama:qwen' }, 'verified');
  add('evalB', 3, { task: 'he_100%.jsonl', strategy: 'eval', model: 'ollama:qwen' }, 'error');
  add('audit', 4, { task: 'built-in', strategy: 'audit', model: 'references' });
  const listed = (filter: Parameters<Store['listRuns']>[0]) => store.listRuns(filter).map((r) => r.id);
  assert.deepEqual(listed({}), [ids.audit, ids.evalB, ids.solve, ids.evalA]);
  assert.deepEqual(listed({ command: 'eval' }), [ids.evalB, ids.evalA]);
  assert.deepEqual(listed({ command: 'solve' }), [ids.solve]);
  assert.deepEqual(listed({ status: 'running' }), [ids.audit]);
  assert.deepEqual(listed({ status: 'finished', command: 'eval' }), [ids.evalA]);
  assert.deepEqual(listed({ text: 'QWEN' }), [ids.evalB, ids.solve], 'case-insensitive, in the model');
  assert.deepEqual(listed({ text: 'humaneval/1' }), [ids.solve], 'in the task');
  assert.deepEqual(listed({ text: '%' }), [ids.evalB], '% is a character, not a wildcard');
  assert.deepEqual(listed({ text: ids.evalA!.slice(0, 11) }), [ids.evalA], 'in the id');
  assert.deepEqual(listed({ limit: 2 }), [ids.audit, ids.evalB]);
  assert.deepEqual(listed({ command: 'calibrate' }), []);
  store.close();
});

test("a run's events after a seq, for a watcher that has seen the first ones", () => {
  const store = new Store(':memory:');
  const run = store.startRun({ task: 'HumanEval/0', strategy: 'repair', model: 'm' });
  const prompt = store.appendEvent(run.id, {
    kind: 'prompt',
    data: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  });
  store.appendEvent(run.id, { kind: 'candidate', parentId: prompt.id, data: { program: 'x = 1\n' } });
  assert.deepEqual(
    store.eventsAfter(run.id, -1).map((e) => [e.seq, e.kind]),
    [
      [0, 'prompt'],
      [1, 'candidate'],
    ],
  );
  assert.deepEqual(
    store.eventsAfter(run.id, 0).map((e) => e.kind),
    ['candidate'],
  );
  assert.deepEqual(store.eventsAfter(run.id, 1), []);
  const peeked = store.peekRun(run.id.slice(0, 17))!;
  assert.equal(peeked.id, run.id, 'found by a start of its id');
  assert.equal(peeked.events, 2);
  assert.equal(store.peekRun('19990101'), undefined);
  store.close();
});

test('a recorded eval writes its progress to its run: the last update is kept', { timeout: 120_000 }, async () => {
  const db = join(dir, 'recorded.db');
  const r = await crucible(['eval', '--limit', '2', '--db', db], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const store = new Store(db);
  const [run] = store.listRuns();
  const samples = (run!.headline as { samples: number }).samples;
  assert.ok(samples > 0);
  assert.equal(run!.progress?.label, 'eval');
  assert.equal(run!.progress?.done, samples);
  assert.equal(run!.progress?.total, samples);
  assert.ok(Date.parse(run!.progress!.at) >= Date.parse(run!.startedAt));
  store.close();
});
