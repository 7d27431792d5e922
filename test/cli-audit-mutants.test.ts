/** `crucible audit --mutants` as a user runs it: real process, real sandbox, a tiny dataset with a weak test. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { crucible } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-audit-mutants-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const dataset = join(dir, 'tiny.jsonl');
const prompt = 'def below(xs, k):\n    """How many items are below k."""\n';
writeFileSync(
  dataset,
  [
    // One assert that an empty list has none: almost every mutant gets through.
    { task_id: 'T/weak', test: 'def check(c):\n    assert c([], 3) == 0\n' },
    {
      task_id: 'T/strong',
      test: 'def check(c):\n    assert c([1, 5, 3, 2], 3) == 2\n    assert c([3, 3], 4) == 2\n    assert c([0], 0) == 0\n    assert c([], 0) == 0\n',
    },
  ]
    .map((t) =>
      JSON.stringify({
        ...t,
        prompt,
        entry_point: 'below',
        canonical_solution: '    n = 0\n    for x in xs:\n        if x < k:\n            n += 1\n    return n\n',
      }),
    )
    .join('\n') + '\n',
);

test(
  'audit --mutants scores each task, lists the weakest with a surviving mutant, and writes the scores as JSON',
  { timeout: 300_000 },
  async () => {
    const file = join(dir, 'audit.json');
    const { code, stdout, stderr } = await crucible([
      'audit',
      '--dataset',
      dataset,
      '--mutants',
      '5',
      '--workers',
      '1',
      '--json',
      file,
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /mutants: 10\/10/); // progress, as long runs show it
    assert.match(stdout, /mutation score \(at most 5 mutants of each reference, seed 0\):/);
    assert.match(stdout, /weak tasks \(< 0\.80\): +1/);
    assert.match(stdout, /weakest tasks/);
    assert.match(stdout, /\n {2}T\/weak {2}0\.\d\d \(\d\/5 killed\)\n {4}@@ line \d+ @@ \w/);
    assert.doesNotMatch(stdout, /\n {2}T\/strong /);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const mutation = json.mutation;
    assert.equal(mutation.mutants_per_task, 5);
    const [weak, strong] = mutation.tasks;
    assert.equal(strong.score, 1);
    assert.ok(weak.score < 0.8);
    assert.equal(mutation.mean_score, (weak.score + strong.score) / 2);
    assert.equal(weak.survivors.length, weak.judged - weak.killed);
    assert.match(weak.survivors[0].diff, /^@@ line \d+ @@\n-.*\n\+/);
  },
);

test('audit --mutants 0 is refused with the reason', async () => {
  const { code, stderr } = await crucible(['audit', '--dataset', dataset, '--mutants', '0']);
  assert.notEqual(code, 0);
  assert.match(stderr, /--mutants.*whole number ≥ 1/);
});
