/** `crucible solve` as a user runs it: a real process, a task file, a scripted model server, the run store, offline replay. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crucible as run } from './cli-support.js';
import { after, before, test } from 'node:test';
import { fenced, scriptedModel, SECOND_LARGEST_TASK, type ModelFixture } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-solve-'));
let f: ModelFixture;
before(async () => {
  f = await scriptedModel({
    programs: [
      // Attempt 1 forgets the empty list; attempt 2 is right.
      fenced('def second_largest(xs):\n    s = sorted(set(xs))\n    return s[-2]\n'),
      fenced('def second_largest(xs):\n    s = sorted(set(xs))\n    return s[-2] if len(s) >= 2 else None\n'),
    ],
  });
});
after(async () => {
  await f.close();
  rmSync(dir, { recursive: true, force: true });
});

const crucible = (args: string[]) => run(args, { cwd: dir });

const taskFile = join(dir, 'second-largest.json');
writeFileSync(taskFile, JSON.stringify(SECOND_LARGEST_TASK));

const common = [
  '--task',
  taskFile,
  '--strategy',
  'repair',
  '--budget',
  'calls=6,wall=2min',
  '--seed',
  '11',
  '--no-model-tests',
  '--db',
  join(dir, 'runs.db'),
  '--cache-dir',
  join(dir, 'cache'),
  '--workers',
  '1',
];

test(
  'solve repairs a program from a task file and prints it with the cost; the run is in the store; --offline replays it',
  { timeout: 120_000 },
  async () => {
    const json = join(dir, 'result.json');
    const first = await crucible(['solve', ...common, '--model', `${f.server.url}#fake-model`, '--json', json]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /return s\[-2\] if len\(s\) >= 2 else None/);
    assert.match(first.stdout, /^verified: passes all/m);
    assert.match(first.stdout, /^cost: 2 model calls, \d+ tokens .* 2 programs judged/m);
    assert.equal(f.server.requests.length, 2);
    // The second prompt shows the smallest failing input: the task states no contract, so
    // generated lists are no shorter than its examples': two equal items, as in the test's [5, 5].
    assert.match(f.lastUserMessages()[1]!, /Input: second_largest\(\[(\d), ?\1\]\)/);
    const result = JSON.parse(readFileSync(json, 'utf8'));
    assert.equal(result.status, 'verified');
    assert.equal(result.attempts, 2);
    assert.equal(result.usage.calls, 2);

    const runId = /run (\S+) \(crucible show/.exec(first.stdout)![1]!;
    const shown = await crucible(['show', runId, '--db', join(dir, 'runs.db')]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /verified {2}strategy repair/);
    assert.match(shown.stdout, /feedback \[feedback 1\]/);

    // Offline: every reply comes from the cache, and the server sees no request.
    const replay = await crucible(['solve', ...common, '--model', `${f.server.url}#fake-model`, '--offline']);
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.equal(f.server.requests.length, 2, 'no request reached the server');
    const program = (out: string) => out.split(/^verified:/m)[0];
    assert.equal(program(replay.stdout), program(first.stdout));
    assert.match(replay.stdout, /2 model calls \(2 from the cache\)/);
  },
);

test('solve abstains when the budget is spent, says why, and exits 1', { timeout: 60_000 }, async () => {
  // Offline: the first call of the recorded run replays, the budget stops the second.
  const replay = await crucible([
    'solve',
    ...common.map((a) => (a === 'calls=6,wall=2min' ? 'calls=1' : a)),
    '--model',
    `${f.server.url}#fake-model`,
    '--offline',
  ]);
  assert.equal(replay.code, 1, replay.stderr);
  assert.match(replay.stdout, /^abstained: budget spent: 1 of 1 model calls/m);
  assert.match(replay.stdout, /^cost: 1 model call \(1 from the cache\)/m);
});

test('solve explains a task that cannot be found', async () => {
  const missing = await crucible(['solve', '--task', join(dir, 'nope.json'), '--model', `${f.server.url}#m`]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no such file\. Give a task file \(JSON\), DATASET_FILE:TASK_ID/);
});
