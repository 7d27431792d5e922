/**
 * Disputed inputs through `crucible eval --augment`, as a user runs it: where most samples
 * that pass the given tests answer a degenerate generated input (here the empty list) with
 * one same value the reference does not give, the input is reported (footer, JSON, report)
 * and the reference still judges; with too few samples, or samples that crash, nothing is
 * disputed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { isDegenerate } from '../src/verify/disputed-inputs.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';
import { crucible, writeJsonl } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-disputed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// An MBPP+-style task whose reference happens to answer False for no rows at all (the prompt is silent there).
const TASK = {
  task_id: 'Mbpp/9001',
  prompt: '"""\nWrite a function that tells whether all the given rows have the same length.\n"""\n',
  entry_point: 'same_length',
  canonical_solution: '\ndef same_length(rows):\n    return len(set(len(r) for r in rows)) == 1\n',
  contract:
    '\n    assert isinstance(rows, list), "invalid inputs"\n    assert all(isinstance(r, list) for r in rows), "invalid inputs"\n',
  base_input: [
    [
      [
        [1, 2],
        [3, 4],
      ],
    ],
    [
      [
        [1, 2, 3],
        [4, 5],
      ],
    ],
    [[[1], [2], [3, 4]]],
    [
      [
        [7, 8, 9],
        [1, 2, 3],
        [4, 5, 6],
      ],
    ],
  ],
  plus_input: [
    [
      [
        [1, 2],
        [3, 4],
        [5, 6],
        [7, 8],
      ],
    ],
  ],
  atol: 0,
  assertion: '\nassert same_length([[1, 2], [3, 4]]) == True\n',
};
// Right everywhere but on []: all of no rows have the same length.
const VACUOUS = [
  'def same_length(rows):\n    return all(len(r) == len(rows[0]) for r in rows)\n',
  'def same_length(rows):\n    return len({len(r) for r in rows}) <= 1\n',
  'def same_length(rows):\n    for r in rows:\n        if len(r) != len(rows[0]):\n            return False\n    return True\n',
];
// Wrong on long inputs too: it looks only at the first three rows.
const FIRST_THREE = 'def same_length(rows):\n    return len({len(r) for r in rows[:3]}) <= 1\n';

async function evalAugmented(name: string, programs: readonly string[]) {
  const dataset = join(dir, `${name}-tasks.jsonl`);
  const samples = join(dir, `${name}-samples.jsonl`);
  const file = join(dir, `${name}.json`);
  const report = join(dir, `${name}.html`);
  writeJsonl(dataset, [TASK]);
  writeJsonl(
    samples,
    programs.map((solution) => ({ task_id: TASK.task_id, solution })),
  );
  const run = await crucible([
    'eval',
    ...['--dataset', dataset, '--samples', samples, '--augment', '--seed', '3', '--augment-inputs', '60'],
    ...['--json', file, '--html', report, '--no-record'],
  ]);
  assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
  return { stdout: run.stdout, json: JSON.parse(readFileSync(file, 'utf8')), report };
}

test(
  'an empty list most samples answer otherwise than the reference is reported as disputed, and judged by the reference',
  { timeout: 300_000 },
  async () => {
    const { stdout, json, report } = await evalAugmented('pool', [...VACUOUS, FIRST_THREE]);
    const disputed = json.augment.disputed['Mbpp/9001'] as {
      input: string;
      reference: string;
      samples: string;
      agreeing: number;
      of: number;
    }[];
    assert.ok(disputed?.length, JSON.stringify(json.augment));
    assert.deepEqual(disputed, [{ input: '[[]]', reference: 'false', samples: 'true', agreeing: 4, of: 4 }]);
    assert.match(stdout, /disputed: 1 generated input over 1 task where most samples .* judged by the reference/);
    // The verdicts stay the reference's: the three fail on the empty list, shrunk to it.
    for (const sample of json.samples.slice(0, 3)) {
      assert.equal(sample.status, 'fail');
      assert.equal(sample.counterexample?.shrunk, '[[]]');
    }
    assert.equal(json.samples[3].status, 'fail');
    // The report shows the dispute above the samples, both answers side by side.
    const browser = await launchChromium();
    try {
      const { page, errors } = await openPage(browser, pathToFileURL(report));
      const rows = await page.locator('[data-testid="disputed"] tbody tr').allInnerTexts();
      assert.deepEqual(
        rows.map((r) => r.split('\t').map((cell) => cell.trim())),
        [['Mbpp/9001', '[[]]', 'false', 'true', '4 of 4']],
      );
      assert.deepEqual(errors, []);
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot(page, 'disputed');
    } finally {
      await browser.close();
    }
  },
);

test('with fewer than three samples nothing is disputed', { timeout: 300_000 }, async () => {
  const { json } = await evalAugmented('pair', VACUOUS.slice(0, 2));
  assert.deepEqual(json.augment.disputed, {});
  for (const sample of json.samples) {
    assert.equal(sample.status, 'fail');
    assert.equal(sample.counterexample?.shrunk, '[[]]');
  }
});

test('samples that crash on the empty list do not dispute it, however many', { timeout: 300_000 }, async () => {
  const crashing = [
    'def same_length(rows):\n    n = len(rows[0])\n    return all(len(r) == n for r in rows)\n',
    'def same_length(rows):\n    first = rows[0]\n    return all(len(r) == len(first) for r in rows[1:])\n',
    'def same_length(rows):\n    return min(map(len, rows)) == max(map(len, rows))\n',
  ];
  const { json } = await evalAugmented('crashing', crashing);
  assert.deepEqual(json.augment.disputed, {});
  for (const sample of json.samples) {
    assert.equal(sample.status, 'fail');
    assert.equal(sample.counterexample?.shrunk, '[[]]');
  }
});

test('degenerate inputs: an empty or one-element argument, or zero', () => {
  assert.equal(isDegenerate([[]]), true);
  assert.equal(isDegenerate([[56]]), true);
  assert.equal(isDegenerate(['', 3]), true);
  assert.equal(isDegenerate(['a', 3]), false, 'a one-character string is an ordinary value');
  assert.equal(isDegenerate([0, -2]), true);
  assert.equal(isDegenerate([{ $t: 'tuple', v: [1] }]), true);
  assert.equal(isDegenerate([{ $t: 'dict', v: [] }]), true);
  assert.equal(isDegenerate([{ $t: 'int', v: '0' }]), true);
  assert.equal(isDegenerate([[1, 2], 'ab', 5]), false);
  assert.equal(isDegenerate([false, { $t: 'int', v: '100000000000000000000' }]), false);
  assert.equal(isDegenerate([{ a: 1, b: 2 }]), false);
});
