/**
 * Disputed inputs through `crucible eval --augment`, as a user runs it: where most samples
 * that pass the given tests answer a degenerate generated input (here the empty list) with
 * one same value the reference does not give, the input is reported (footer, JSON, report),
 * set aside when the reference treats it as any other input and held when its code singles
 * it out; with too few samples, or samples that crash, nothing is disputed. The relations
 * the reference's answers keep are checked on values.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { decodedObservation, keptRelations, MIN_SUPPORT } from '../src/domains/code/answer-relations.js';
import { isDegenerate } from '../src/domains/code/disputed-inputs.js';
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

async function evalAugmented(name: string, task: typeof TASK, programs: readonly string[]) {
  const dataset = join(dir, `${name}-tasks.jsonl`);
  const samples = join(dir, `${name}-samples.jsonl`);
  const file = join(dir, `${name}.json`);
  const report = join(dir, `${name}.html`);
  writeJsonl(dataset, [task]);
  writeJsonl(
    samples,
    programs.map((solution) => ({ task_id: task.task_id, solution })),
  );
  const run = await crucible([
    'eval',
    ...['--dataset', dataset, '--samples', samples, '--augment', '--seed', '3', '--augment-inputs', '60'],
    ...['--json', file, '--html', report, '--no-record'],
  ]);
  assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
  return { stdout: run.stdout, json: JSON.parse(readFileSync(file, 'utf8')), report };
}

interface Disputed {
  input: string;
  reference: string;
  samples: string;
  agreeing: number;
  of: number;
  setAside: boolean;
  why: string;
}

test(
  'an empty list most samples answer otherwise than a reference that treats it as any other list is set aside',
  { timeout: 300_000 },
  async () => {
    const { stdout, json, report } = await evalAugmented('pool', TASK, [...VACUOUS, FIRST_THREE]);
    const disputed = json.augment.disputed['Mbpp/9001'] as Disputed[];
    assert.ok(disputed?.length, JSON.stringify(json.augment));
    assert.deepEqual(
      disputed.map(({ why: _, ...d }) => d),
      [{ input: '[[]]', reference: 'false', samples: 'true', agreeing: 4, of: 4, setAside: true }],
    );
    assert.match(disputed[0]!.why, /no path of its own/);
    assert.match(stdout, /disputed: 1 generated input over 1 task where most samples .* 1 set aside/);
    // The three that differ only on the empty list pass; the one that reads three rows still fails elsewhere.
    assert.deepEqual(
      json.samples.map((s: { status: string }) => s.status),
      ['pass', 'pass', 'pass', 'fail'],
    );
    assert.notEqual(json.samples[3].counterexample?.shrunk, '[[]]');
    // The report shows the dispute above the samples, both answers side by side, and what became of it.
    const browser = await launchChromium();
    try {
      const { page, errors } = await openPage(browser, pathToFileURL(report));
      const rows = await page.locator('[data-testid="disputed"] tbody tr').allInnerTexts();
      const cells = rows.map((r) => r.split('\t').map((cell) => cell.trim()));
      assert.deepEqual(
        cells.map((r) => r.slice(0, 5)),
        [['Mbpp/9001', '[[]]', 'false', 'true', '4 of 4']],
      );
      assert.match(cells[0]![5]!, /^set aside\s+the reference takes no path/);
      assert.deepEqual(errors, []);
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot(page, 'disputed');
    } finally {
      await browser.close();
    }
  },
);

test(
  'an empty list the reference singles out in its code stays held against the samples that answer it otherwise',
  { timeout: 300_000 },
  async () => {
    const deliberate = {
      ...TASK,
      canonical_solution:
        '\ndef same_length(rows):\n    if not rows:\n        return False\n    return len(set(len(r) for r in rows)) == 1\n',
    };
    const { stdout, json } = await evalAugmented('deliberate', deliberate, VACUOUS);
    const disputed = json.augment.disputed['Mbpp/9001'] as Disputed[];
    assert.deepEqual(
      disputed.map((d) => [d.input, d.setAside]),
      [['[[]]', false]],
    );
    assert.match(disputed[0]!.why, /a path there that no ordinary generated input takes/);
    assert.match(stdout, /0 set aside.* 1 held against the samples/);
    for (const sample of json.samples) {
      assert.equal(sample.status, 'fail');
      assert.equal(sample.counterexample?.shrunk, '[[]]');
    }
  },
);

test('with fewer than three samples nothing is disputed', { timeout: 300_000 }, async () => {
  const { json } = await evalAugmented('pair', TASK, VACUOUS.slice(0, 2));
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
  const { json } = await evalAugmented('crashing', TASK, crashing);
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

test('relations the answers keep: modp(0, 1) = 1 is not below p, where every other answer was', () => {
  // 2^n mod p on ordinary inputs (n > 0), as the reference answers them.
  const observations = [
    [3, 5],
    [5, 7],
    [10, 11],
    [4, 3],
    [7, 9],
    [2, 13],
    [9, 17],
    [6, 4],
    [12, 10],
  ].map(([n, p]) => ({ answer: 2 ** n! % p!, args: [n, p] }));
  const kept = keptRelations(observations).map((r) => r.name);
  assert.ok(kept.includes('answer < argument 2'), kept.join(', '));
  assert.ok(kept.includes('answer >= 0'));
  assert.ok(!kept.includes('answer < argument 1'), '2^2 mod 13 = 4 is not below 2');
  const below = keptRelations(observations).find((r) => r.name === 'answer < argument 2')!;
  assert.equal(below.holds(0, [0, 1]), true);
  assert.equal(below.holds(1, [0, 1]), false);
  assert.equal(below.holds('x', [0, 1]), undefined, 'it does not apply to a string');
  // Too few observations keep nothing: the relations could be chance.
  assert.deepEqual(keptRelations(observations.slice(0, MIN_SUPPORT - 1)), []);
  // Lengths: a swap of first and last keeps the list's length everywhere.
  const swaps = [
    [1, 2],
    [3, 4, 5],
    [6, 7, 8, 9],
    [1, 1],
    [2, 3, 4],
    [5, 6],
    [7, 8, 9],
    [0, 1, 2, 3],
  ].map((xs) => ({
    answer: [xs.at(-1), ...xs.slice(1, -1), xs[0]],
    args: [xs],
  }));
  const lengths = keptRelations(swaps).map((r) => r.name);
  assert.ok(lengths.includes('length of answer = length of argument 1'), lengths.join(', '));
  assert.ok(lengths.includes('answer is a sequence'));
  const decoded = decodedObservation('{"$t":"tuple","v":[1,2]}', '[{"$t":"set","v":[3]}]');
  assert.deepEqual(decoded, { answer: [1, 2], args: [[3]] });
});
