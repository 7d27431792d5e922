/** Runs and trace events in SQLite, and the two commands that read them. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { Store, UnknownRunError, formatRunTree } from '../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A repair run: prompt → response → candidate → verdict (fail) → feedback → prompt → … → decision. */
function recordRepairRun(store: Store, at: Date) {
  const run = store.startRun(
    { task: 'HumanEval/12', strategy: 'repair', model: 'http://127.0.0.1:1/v1#m', budget: { modelCalls: 4 } },
    at,
  );
  const messages = [{ role: 'user', content: 'Write longest(strings).' }];
  const p1 = store.appendEvent(run.id, { kind: 'prompt', label: 'attempt 1', data: { model: 'm', messages } });
  const r1 = store.appendEvent(run.id, {
    kind: 'response',
    parentId: p1.id,
    data: {
      model: 'm',
      texts: ['def longest(s): return s[0]'],
      usage: { inputTokens: 20, outputTokens: 9 },
      costUsd: 0,
      latencyMs: 120,
      cached: false,
    },
  });
  const c1 = store.appendEvent(run.id, {
    kind: 'candidate',
    parentId: r1.id,
    data: { program: 'def longest(s):\n    return s[0]\n' },
  });
  const v1 = store.appendEvent(run.id, {
    kind: 'verdict',
    parentId: c1.id,
    data: {
      status: 'fail',
      passed: 1,
      total: 3,
      firstFailure: { input: '([],)', expected: 'None', actual: 'IndexError', message: 'exception' },
    },
  });
  const f1 = store.appendEvent(run.id, {
    kind: 'feedback',
    parentId: v1.id,
    data: { text: 'longest([]) raised IndexError; expected None' },
  });
  const p2 = store.appendEvent(run.id, {
    kind: 'prompt',
    parentId: f1.id,
    label: 'attempt 2',
    data: {
      model: 'm',
      messages: [...messages, { role: 'user', content: 'longest([]) raised IndexError; expected None' }],
    },
  });
  const r2 = store.appendEvent(run.id, {
    kind: 'response',
    parentId: p2.id,
    data: {
      model: 'm',
      texts: ['def longest(s): ...'],
      usage: { inputTokens: 40, outputTokens: 12 },
      costUsd: 0,
      latencyMs: 90,
      cached: true,
    },
  });
  const c2 = store.appendEvent(run.id, {
    kind: 'candidate',
    parentId: r2.id,
    data: { program: 'def longest(s):\n    return max(s, key=len) if s else None\n' },
  });
  store.appendEvent(run.id, { kind: 'verdict', parentId: c2.id, data: { status: 'pass', passed: 3, total: 3 } });
  store.appendEvent(run.id, { kind: 'decision', data: { action: 'accept', reason: 'attempt 2 passes every test' } });
  store.finishRun(
    run.id,
    {
      status: 'verified',
      summary: { program: 'def longest…' },
      usage: { modelCalls: 2, inputTokens: 60, outputTokens: 21, costUsd: 0 },
    },
    new Date(at.getTime() + 3_500),
  );
  return run.id;
}

test('a run and its events round-trip, in order, with their parents', () => {
  const store = new Store(join(dir, 'roundtrip.db'));
  const id = recordRepairRun(store, new Date('2026-11-30T10:00:00Z'));
  const found = store.getRun(id)!;
  assert.equal(found.run.status, 'verified');
  assert.equal(found.run.events, 10);
  assert.deepEqual(found.run.budget, { modelCalls: 4 });
  assert.equal(found.run.usage!.outputTokens, 21);
  assert.deepEqual(
    found.events.map((e) => e.seq),
    [...Array(10).keys()],
  );
  assert.deepEqual(
    found.events.map((e) => e.kind),
    [
      'prompt',
      'response',
      'candidate',
      'verdict',
      'feedback',
      'prompt',
      'response',
      'candidate',
      'verdict',
      'decision',
    ],
  );
  assert.equal(found.events[1]!.parentId, found.events[0]!.id);
  assert.equal(found.events[9]!.parentId, null);
  assert.equal(found.events[0]!.label, 'attempt 1');
  assert.deepEqual(
    (found.events[3]!.data as unknown as { firstFailure: { input: string } }).firstFailure.input,
    '([],)',
  );
  store.close();
  // Another process (here: another connection) reads the same file.
  const reopened = new Store(join(dir, 'roundtrip.db'));
  assert.equal(reopened.getRun(id)!.events.length, 10);
  reopened.close();
});

test('runs list newest first; a run is found by a unique start of its id', () => {
  const store = new Store(join(dir, 'list.db'));
  const older = recordRepairRun(store, new Date('2026-11-29T09:00:00Z'));
  const newer = store.startRun(
    { task: 't2', strategy: 'best-of-n', model: 'ollama:x' },
    new Date('2026-11-30T09:00:00Z'),
  );
  const runs = store.listRuns();
  assert.deepEqual(
    runs.map((r) => r.id),
    [newer.id, older],
  );
  assert.equal(runs[0]!.status, 'running');
  assert.equal(runs[0]!.events, 0);
  assert.equal(store.listRuns({ limit: 1 }).length, 1);
  assert.equal(store.getRun(older.slice(0, 10))!.run.id, older);
  assert.equal(store.getRun('1999'), undefined);
  store.startRun({ task: 't3', strategy: 's', model: 'm' }, new Date('2026-11-30T09:00:00Z'));
  assert.throws(
    () => store.getRun('20261130-0900'),
    (error: unknown) => error instanceof UnknownRunError && /matches several runs/.test(error.message),
  );
  store.close();
});

test('malformed events are refused with the field that is wrong, and so are the events below them', async () => {
  const store = new Store(join(dir, 'invalid.db'));
  const run = store.startRun({ task: 't', strategy: 's', model: 'm' });
  const other = store.startRun({ task: 't', strategy: 's', model: 'm' });
  const foreign = store.appendEvent(other.id, { kind: 'feedback', data: { text: 'x' } });
  // What the store can tell at once is refused at once.
  assert.throws(
    () => store.appendEvent(run.id, { kind: 'feedback', parentId: foreign.id, data: { text: 'y' } }),
    /is not an event of run/,
  );
  assert.throws(() => store.appendEvent('no-such-run', { kind: 'feedback', data: { text: 'z' } }), UnknownRunError);
  assert.throws(() => store.finishRun('no-such-run', { status: 'error' }), UnknownRunError);
  // The schema is checked when the batch is written: the next write (or commit, or close) throws.
  const good = store.appendEvent(run.id, { kind: 'feedback', data: { text: 'kept' } });
  const bad = store.appendEvent(run.id, { kind: 'verdict', parentId: good.id, data: { passed: 1 } } as never);
  store.appendEvent(run.id, { kind: 'feedback', parentId: bad.id, data: { text: 'below a refused event' } });
  assert.throws(
    () => store.commit(),
    (error: unknown) =>
      error instanceof TypeError && new RegExp(`run ${run.id}, event 1, verdict\\): data\\.status`).test(error.message),
  );
  store.appendEvent(run.id, { kind: 'thought', data: {} } as never);
  await new Promise(setImmediate);
  assert.throws(
    () => store.appendEvent(run.id, { kind: 'feedback', data: { text: 'not written: the call threw' } }),
    /trace event rejected .*thought.*kind/,
  );
  store.appendEvent(run.id, { kind: 'feedback', data: { text: 'next' } });
  assert.doesNotThrow(() => store.commit(), 'an error is thrown once');
  const written = store.getRun(run.id)!.events;
  assert.deepEqual(
    written.map((e) => (e.data as { text?: string }).text),
    ['kept', 'next'],
    'nothing malformed or orphaned is written',
  );
  assert.ok(written[0]!.seq < written[1]!.seq);
  const ended = store.finishRun(run.id, { status: 'error' });
  assert.equal(ended.status, 'error');
  store.close();
  const reader = new Store(join(dir, 'invalid.db'));
  assert.equal(reader.getRun(run.id)!.run.status, 'error');
  reader.close();
});

test('the tree puts each event under its parent', () => {
  const store = new Store(':memory:');
  const id = recordRepairRun(store, new Date('2026-11-30T10:00:00Z'));
  const { run, events } = store.getRun(id)!;
  const text = formatRunTree(run, events);
  const lines = text.split('\n');
  assert.match(lines[0]!, /verified\s+strategy repair/);
  assert.match(text, /\(3\.5 s\)/);
  assert.match(text, /usage 2 model calls, 60\+21 tokens/);
  const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
  const depth = (i: number) => lines[i]!.search(/[├└]/) / 3;
  const firstPrompt = at(/prompt \[attempt 1\]/);
  const failing = at(/verdict\s+fail 1\/3 — exception \| input \(\[\],\) \| expected None \| got IndexError/);
  const feedback = at(/feedback\s+"longest\(\[\]\) raised IndexError/);
  const secondPrompt = at(/prompt \[attempt 2\]/);
  const passing = at(/verdict\s+pass 3\/3/);
  const decision = at(/decision\s+accept: attempt 2 passes/);
  assert.ok(
    [firstPrompt, failing, feedback, secondPrompt, passing, decision].every((i) => i > 0),
    text,
  );
  assert.equal(depth(firstPrompt), 0);
  assert.equal(depth(failing), 3);
  assert.equal(depth(feedback), 4);
  assert.equal(depth(secondPrompt), 5);
  assert.equal(depth(passing), 8);
  assert.equal(depth(decision), 0);
  assert.match(lines[decision]!, /^└─ /, 'the last root closes the tree');
  assert.match(text, /response\s+40\+12 tokens, 0\.09 s, cached/);
  store.close();
});

const BIN = join(import.meta.dirname, '../bin/crucible.js');
async function crucible(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('crucible runs and crucible show read the store', { timeout: 120_000 }, async () => {
  const db = join(dir, 'cli.db');
  const empty = await crucible(['runs', '--db', db]);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /no runs yet/);
  const store = new Store(db);
  const id = recordRepairRun(store, new Date('2026-11-30T10:00:00Z'));
  store.close();
  const list = await crucible(['runs', '--db', db]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^RUN\s+STARTED\s+STATUS/);
  assert.match(list.stdout, new RegExp(`${id}\\s+2026-11-30 10:00:00\\s+verified\\s+solve repair`));
  const show = await crucible(['show', id.slice(0, 12), '--db', db]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, new RegExp(`^run ${id}`));
  assert.match(show.stdout, /└─ decision\s+accept/);
  const json = await crucible(['show', id, '--db', db, '--json']);
  assert.equal(JSON.parse(json.stdout).events.length, 10);
  const missing = await crucible(['show', 'nope', '--db', db]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no run "nope".*crucible runs/);
});
