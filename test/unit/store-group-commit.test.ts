/** The store groups event commits: what another connection sees, and when; run ids drawn again on collision. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Store, UnknownRunError } from '../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-store-commit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const messages = [{ role: 'user', content: 'write f' }];

test('writes are grouped: another connection sees a run and its events right after it finishes', async () => {
  const path = join(dir, 'group.db');
  const writer = new Store(path);
  const run = writer.startRun({ task: 't', strategy: 'repair', model: 'm' });
  const prompt = writer.appendEvent(run.id, { kind: 'prompt', data: { model: 'm', messages } });
  await new Promise(setImmediate); // the queued inserts run, uncommitted
  const response = writer.appendEvent(run.id, {
    kind: 'response',
    parentId: prompt.id,
    data: {
      model: 'm',
      texts: ['x'],
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      latencyMs: 0,
      cached: false,
    },
  });
  assert.deepEqual([prompt.seq, response.seq], [0, 1]);
  // The writer reads its own uncommitted events.
  assert.equal(writer.getRun(run.id)!.events.length, 2);
  // A reader (`crucible runs`) opens and lists while the writer's group is open: not blocked, nothing yet.
  const early = new Store(path);
  assert.deepEqual(early.listRuns(), []);
  early.close();
  const finished = writer.finishRun(run.id, { status: 'verified' });
  assert.deepEqual([finished.status, finished.events], ['verified', 2]);
  // The commit runs once the writer's caller yields to the event loop, not within its turn.
  await new Promise(setImmediate);
  const reader = new Store(path);
  const seen = reader.getRun(run.id)!;
  assert.equal(seen.run.status, 'verified');
  assert.deepEqual(
    seen.events.map((e) => [e.kind, e.seq, e.parentId]),
    [
      ['prompt', 0, null],
      ['response', 1, prompt.id],
    ],
  );
  reader.close();
  writer.close();
});

test('a running run and its events are committed within the group window without finishing', async () => {
  const path = join(dir, 'window.db');
  const writer = new Store(path);
  const run = writer.startRun({ task: 't', strategy: 'repair', model: 'm' });
  writer.appendEvent(run.id, { kind: 'feedback', data: { text: 'one' } });
  await new Promise((resolve) => setTimeout(resolve, 400)); // GROUP_COMMIT_MS is 200
  const reader = new Store(path);
  assert.deepEqual(
    reader.listRuns().map((r) => [r.id, r.status, r.events]),
    [[run.id, 'running', 1]],
  );
  reader.close();
  writer.close();
});

test('closing the store commits events of a run that never finished', () => {
  const path = join(dir, 'close.db');
  const writer = new Store(path);
  const run = writer.startRun({ task: 't', strategy: 'repair', model: 'm' });
  writer.appendEvent(run.id, { kind: 'feedback', data: { text: 'wrong on []' } });
  writer.close();
  const reader = new Store(path);
  assert.equal(reader.getRun(run.id)!.events.length, 1);
  assert.equal(reader.getRun(run.id)!.run.status, 'running');
  reader.close();
});

test('a rejected event leaves the group intact; a parent from another run is refused; runs of another store are still checked', () => {
  const path = join(dir, 'reject.db');
  const store = new Store(path);
  const a = store.startRun({ task: 'a', strategy: 's', model: 'm' });
  const b = store.startRun({ task: 'b', strategy: 's', model: 'm' });
  const first = store.appendEvent(a.id, { kind: 'feedback', data: { text: 'one' } });
  assert.throws(
    () => store.appendEvent(b.id, { kind: 'feedback', parentId: first.id, data: { text: 'x' } }),
    /not an event of run/,
  );
  assert.throws(() => store.appendEvent('no-such-run', { kind: 'feedback', data: { text: 'x' } }), UnknownRunError);
  const second = store.appendEvent(a.id, { kind: 'feedback', parentId: first.id, data: { text: 'two' } });
  assert.equal(second.seq, 1);
  store.close();
  // Another Store appends to the same (unfinished) run: it asks the database for the next seq and the parent.
  const other = new Store(path);
  const third = other.appendEvent(a.id, { kind: 'feedback', parentId: second.id, data: { text: 'three' } });
  assert.equal(third.seq, 2);
  assert.throws(
    () => other.appendEvent(b.id, { kind: 'feedback', parentId: second.id, data: { text: 'x' } }),
    /not an event of run/,
  );
  other.close();
  const reader = new Store(path);
  assert.deepEqual(
    reader.getRun(a.id)!.events.map((e) => (e.data as { text: string }).text),
    ['one', 'two', 'three'],
  );
  assert.equal(reader.getRun(b.id)!.events.length, 0);
  reader.close();
});

test('many runs started in the same second get distinct ids (a drawn id that exists is drawn again)', () => {
  const store = new Store(join(dir, 'ids.db'));
  const now = new Date('2026-11-30T10:00:00Z');
  // 4-hex-digit suffixes: 1500 draws in one second collide with near certainty.
  const ids = Array.from({ length: 1500 }, () => store.startRun({ task: 't', strategy: 's', model: 'm' }, now).id);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.every((id) => id.startsWith('20261130-100000-')));
  store.close();
});

test('durable: every event is committed as it is written', () => {
  const path = join(dir, 'durable.db');
  const writer = new Store(path, { durable: true });
  const run = writer.startRun({ task: 't', strategy: 's', model: 'm' });
  writer.appendEvent(run.id, { kind: 'feedback', data: { text: 'now' } });
  const reader = new Store(path);
  assert.equal(reader.getRun(run.id)!.events.length, 1, 'visible before the run finishes');
  reader.close();
  writer.close();
});

test('event ids numbered by two writers in turn never clash (each group numbers from the database)', () => {
  const path = join(dir, 'two-writers.db');
  const a = new Store(path);
  const b = new Store(path);
  const run = a.startRun({ task: 't', strategy: 's', model: 'm' });
  a.commit();
  const ids: number[] = [];
  for (const [writer, text] of [
    [a, 'a1'],
    [b, 'b1'],
    [a, 'a2'],
    [b, 'b2'],
  ] as const) {
    ids.push(writer.appendEvent(run.id, { kind: 'feedback', data: { text } }).id);
    writer.commit();
  }
  assert.equal(new Set(ids).size, 4);
  assert.deepEqual(
    [...ids].sort((x, y) => x - y),
    ids,
  );
  const seen = a.getRun(run.id)!.events;
  assert.deepEqual(
    seen.map((e) => [e.id, e.seq, (e.data as { text: string }).text]),
    ids.map((id, i) => [id, i, ['a1', 'b1', 'a2', 'b2'][i]]),
  );
  a.close();
  b.close();
});
