/**
 * The skeleton library: function-level skeletons with signature, docstring and verdict; added
 * once; read back; found by what a task says (each HumanEval task's own prompt finds its own
 * reference first); `crucible skeletons add` verifies a dataset's references before adding
 * them, and takes only a verified run's program.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { realFile } from '../src/datasets/testing.js';
import { loadDataset } from '../src/datasets/index.js';
import { SkeletonLibrary, skeletonsOf } from '../src/skeletons/library.js';
import { Store } from '../src/store/index.js';
import { crucible } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-skeletons-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const HUMANEVAL = realFile('humaneval/HumanEval.jsonl.gz');

test('a program gives one skeleton per top-level function, with its signature and docstring', async () => {
  const py = await skeletonsOf(
    'import math\n\ndef area(r: float) -> float:\n    """The area of a circle of radius r."""\n    return math.pi * r * r\n\nclass Shape:\n    def side(self):\n        return 1\n',
    'python',
    { source: 'test', checks: 'passes 3 tests' },
  );
  assert.deepEqual(
    py.map((s) => [s.name, s.signature, s.docstring]),
    [['area', 'def area(r: float) -> float:', 'The area of a circle of radius r.']],
  );
  assert.match(py[0]!.program, /^import math/);
  const js = await skeletonsOf('/** Adds two numbers. */\nfunction add(a, b) {\n  return a + b;\n}\n', 'javascript', {
    source: 'test',
    checks: 'x',
  });
  assert.deepEqual(
    js.map((s) => [s.name, s.signature]),
    [['add', 'function add(a, b) {']],
  );
});

test('each HumanEval prompt finds its own reference first among all 164', { skip: HUMANEVAL.skip }, async () => {
  const dataset = await loadDataset(HUMANEVAL.path);
  const library = SkeletonLibrary.open(join(dir, 'all.jsonl'));
  for (const task of dataset.tasks)
    await library.add(
      await skeletonsOf(task.reference!, 'python', { source: task.id, checks: 'reference', only: task.entryPoint }),
    );
  assert.equal(library.size, 164);
  const first = dataset.tasks.filter((task) => library.search(task.prompt, { k: 1 })[0]?.skeleton.source === task.id);
  // Retrieval by text: a handful of prompts share their words with another task's.
  assert.ok(first.length >= 156, `${first.length} of 164 found their own reference first`);
  // Leave-one-out: without its own, a task gets the nearest other.
  const task = dataset.tasks.find((t) => t.id === 'HumanEval/59')!;
  const other = library.search(task.prompt, { k: 1, exclude: (s) => s.source === task.id })[0]!;
  assert.notEqual(other.skeleton.source, task.id);
  // Added twice, kept once; the file reads back the same.
  assert.deepEqual(
    await library.add(
      await skeletonsOf(task.reference!, 'python', { source: task.id, checks: 'reference', only: task.entryPoint }),
    ),
    [],
  );
  assert.equal(SkeletonLibrary.open(join(dir, 'all.jsonl')).size, 164);
});

test('a bad library line is an error that names it', () => {
  const path = join(dir, 'bad.jsonl');
  writeFileSync(path, '{"id": 1}\n');
  assert.throws(() => SkeletonLibrary.open(path), /bad.jsonl:1: not a skeleton/);
});

test(
  'crucible skeletons add verifies references first, takes only verified runs, and search finds them',
  { skip: HUMANEVAL.skip },
  async () => {
    const library = join(dir, 'cli.jsonl');
    const db = join(dir, 'runs.db');
    const add = await crucible(['skeletons', 'add', '--dataset', HUMANEVAL.path, '--limit', '4', '--library', library]);
    assert.equal(add.code, 0, add.stderr);
    assert.match(add.stdout, /^added 4 skeletons \(0 already there\) to .*cli.jsonl: 4 in all$/m);
    const again = await crucible([
      'skeletons',
      'add',
      '--dataset',
      HUMANEVAL.path,
      '--limit',
      '4',
      '--library',
      library,
    ]);
    assert.match(again.stdout, /^added 0 skeletons \(4 already there\)/m);
    const lines = readFileSync(library, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((s) => s.verdict.status),
      ['pass', 'pass', 'pass', 'pass'],
    );
    assert.match(lines[0].verdict.checks, /^passes the task's \d+ tests$/);
    const search = await crucible([
      'skeletons',
      'search',
      'numbers closer to each other than threshold',
      '--library',
      library,
      '--k',
      '1',
    ]);
    assert.match(search.stdout, /def has_close_elements/);
    // A run: only a verified one's program.
    const store = new Store(db);
    const verified = store.startRun({ task: 't', strategy: 'repair', model: 'm' });
    store.finishRun(verified.id, {
      status: 'verified',
      summary: { reason: 'passes all 3 visible checks', program: 'def double(x):\n    return 2 * x\n' },
    });
    const abstained = store.startRun({ task: 't', strategy: 'repair', model: 'm' });
    store.finishRun(abstained.id, { status: 'abstained', summary: { reason: 'no' } });
    store.close();
    const fromRun = await crucible(['skeletons', 'add', '--run', verified.id, '--db', db, '--library', library]);
    assert.match(fromRun.stdout, /^added 1 skeleton .*5 in all$/m);
    const refused = await crucible(['skeletons', 'add', '--run', abstained.id, '--db', db, '--library', library]);
    assert.match(refused.stderr, /is abstained: only a verified run's program is added/);
    const listed = await crucible(['skeletons', 'list', '--library', library]);
    assert.equal(listed.stdout.trim().split('\n').length, 5);
    assert.match(listed.stdout, /def double\(x\):  \(run /);
  },
);
