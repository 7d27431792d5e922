/**
 * Generated inputs that reach the corners of a task's domain, coverage of the reference in
 * the sandbox, and the record of how the kept inputs were chosen, through the harness a
 * user runs (and `crucible audit --coverage`).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import type { Task } from '../src/core/task.js';
import {
  type CoverageMap,
  coverageFigures,
  coverageMap,
  newArcInputs,
  referenceArcs,
} from '../src/domains/code/coverage.js';
import { augmentTask, GENERATED_SUITE } from '../src/domains/code/differential.js';
import { Harness } from '../src/domains/code/harness.js';

const harness = new Harness();
after(() => harness.close());

function pythonTask(entry: string, signature: string, reference: string, inputs: string, contract = ''): Task {
  const prompt = `def ${entry}${signature}:\n    """A task."""\n`;
  return {
    id: `corner/${entry}`,
    language: 'python',
    prompt,
    entryPoint: entry,
    completionPrefix: prompt,
    reference: prompt + reference,
    contract,
    knownWrong: [],
    suites: [{ kind: 'io', name: 'base', entry, inputsJson: inputs }],
    source: 'test',
  };
}

async function flags(task: Task, program: string): Promise<boolean> {
  const made = await augmentTask(harness, task, { seed: 5, count: 100 });
  const only: Task = { ...made.augmented, suites: made.augmented.suites.filter((s) => s.name === GENERATED_SUITE) };
  assert.ok(only.suites.length, made.reason);
  const verdict = await harness.judge(only, program);
  return verdict.status !== 'pass';
}

const TYPED = '\n    assert isinstance(xs, list), "invalid inputs"\n';

// Plausible wrong programs, each right on the examples and wrong only in a corner of the domain.
const CORNERS: { name: string; task: Task; right: string; wrong: string }[] = [
  {
    name: 'case: a palindrome check that ignores case',
    task: pythonTask(
      'is_pal',
      '(text: str) -> bool',
      '    return text == text[::-1]\n',
      '[["aba"], ["zbcd"], ["aa"]]',
      '\n    assert isinstance(text, str), "invalid inputs"\n',
    ),
    right: 'def is_pal(text):\n    return all(text[i] == text[-1 - i] for i in range(len(text)))\n',
    wrong: 'def is_pal(text):\n    t = text.lower()\n    return t == t[::-1]\n',
  },
  {
    name: 'emptiness: the largest element of a list that may be empty',
    task: pythonTask(
      'largest',
      '(xs: list[int]) -> int',
      '    return max(xs) if xs else -1\n',
      '[[[3, 1, 2]], [[5]], [[-4, 9]]]',
      TYPED,
    ),
    right:
      'def largest(xs):\n    best = -1\n    for i, x in enumerate(xs):\n        best = x if i == 0 or x > best else best\n    return best\n',
    wrong: 'def largest(xs):\n    return max(xs) if len(xs) > 1 else (xs[0] if xs else 0)\n',
  },
  {
    name: 'Python ints: a sum through floats is exact only below 2^53',
    task: pythonTask(
      'add',
      '(a: int, b: int) -> int',
      '    return a + b\n',
      '[[1, 2], [10000000, 3], [7, 7], [4194304, 3]]',
      '\n    assert isinstance(a, int) and isinstance(b, int), "invalid inputs"\n',
    ),
    right: 'def add(a, b):\n    return b + a\n',
    wrong: 'def add(a, b):\n    return int(float(a) + float(b))\n',
  },
  {
    name: 'booleans: True is an int to isinstance, not to type',
    task: pythonTask(
      'only_ints',
      '(xs: list) -> list',
      '    return [x for x in xs if type(x) == int]\n',
      '[[["a", 3.5, 5]], [[1, 2, "abc", []]]]',
      TYPED,
    ),
    right: 'def only_ints(xs):\n    return [x for x in xs if type(x) is int]\n',
    wrong: 'def only_ints(xs):\n    return [x for x in xs if isinstance(x, int)]\n',
  },
  {
    name: 'duplicates: the second largest of a list with ties',
    task: pythonTask(
      'second',
      '(xs: list[int]) -> int',
      '    s = sorted(set(xs))\n    return s[-2] if len(s) > 1 else None\n',
      '[[[1, 2, 3]], [[5, 1, 4, 9]], [[10, 20]]]',
      TYPED,
    ),
    right: 'def second(xs):\n    s = sorted(set(xs), reverse=True)\n    return s[1] if len(s) > 1 else None\n',
    wrong: 'def second(xs):\n    s = sorted(xs)\n    return s[-2] if len(s) > 1 else None\n',
  },
];

for (const corner of CORNERS)
  test(`a plausible wrong program only a corner exposes is flagged, the right one is not (${corner.name})`, async () => {
    assert.equal(await flags(corner.task, corner.wrong), true, 'the wrong program is flagged');
    assert.equal(await flags(corner.task, corner.right), false, 'the right program passes');
  });

const BRANCHY = pythonTask(
  'f',
  '(xs: list[int], k: int) -> int',
  '    total = 0\n    for x in xs:\n        if x > k:\n            total += x\n        elif x == k:\n            total -= 1\n    return total\n',
  '[[[1, 5], 2]]',
);

test("the reference's lines and decision outcomes are measured in the sandbox, input by input", async () => {
  const map = await coverageMap(harness, BRANCHY, BRANCHY.reference!);
  assert.ok(map, 'the map is read');
  assert.equal(map.branches.length, 3, 'for, if and elif');
  await assertEachInputReachesMore(BRANCHY, map);
});

/** On inputs that take each branch in turn, every line and outcome is reached, each input adding some. */
async function assertEachInputReachesMore(task: Task, map: CoverageMap): Promise<void> {
  const texts = ['[[], 1]', '[[5], 1]', '[[1], 1]', '[[0], 1]'];
  const arcs = await referenceArcs(harness, task, task.reference!, texts, 2);
  assert.ok(arcs.every((a) => a !== undefined));
  const empty = coverageFigures(map, arcs.slice(0, 1));
  const all = coverageFigures(map, arcs);
  assert.ok(empty.lines.covered < all.lines.covered);
  assert.equal(all.lines.covered, all.lines.total, 'every line is reached');
  assert.equal(all.branches.covered, all.branches.total, 'every outcome is reached');
  assert.deepEqual(newArcInputs(arcs, 10), [0, 1, 2, 3], 'each input reaches something new');
  assert.deepEqual(newArcInputs([...arcs, arcs[1]], 10), [0, 1, 2, 3], 'a repeat reaches nothing new');
}

const BRANCHY_JS =
  'function f(xs, k) {\n  let total = 0;\n  for (const x of xs) {\n    if (x > k) total += x;\n    else if (x === k) total -= 1;\n  }\n  return total;\n}\n';

function scriptTask(language: 'javascript' | 'typescript', reference: string): Task {
  return {
    id: `corner/${language}`,
    language,
    prompt: '',
    entryPoint: 'f',
    completionPrefix: '',
    reference,
    knownWrong: [],
    suites: [{ kind: 'io', name: 'base', entry: 'f', inputsJson: '[[[1, 5], 2]]' }],
    source: 'test',
  };
}

for (const [language, reference] of [
  // HumanEvalPack's style: the function is a top-level const, a statement that ran at load, not in a call.
  ['javascript', BRANCHY_JS.replace('function f(xs, k) {', 'const f = (xs, k) => {')],
  ['typescript', BRANCHY_JS.replace('f(xs, k)', 'f(xs: number[], k: number): number')],
] as const)
  test(`a ${language} reference's statements and branch outcomes are counted in the sandbox, input by input`, async () => {
    const task = scriptTask(language, reference);
    const map = await coverageMap(harness, task, reference);
    assert.ok(map, 'the reference is instrumented');
    assert.equal(map.branches.length, 2, 'if and else-if');
    await assertEachInputReachesMore(task, map);
    const made = await augmentTask(harness, task, { seed: 11, count: 40 });
    assert.ok(made.record?.kept.coverage && made.record.kept.coverage >= 2, JSON.stringify(made.record));
    assert.deepEqual(made.record.coverage?.branches, { covered: 4, total: 4 });
  });

test('a reference too deep for the instrumenter loses its coverage, and the next reference is counted right', async () => {
  const deep = `function f(x) {\n  return ${'['.repeat(20000)}x${']'.repeat(20000)};\n}\n`;
  assert.equal(await coverageMap(harness, scriptTask('javascript', deep), deep), undefined);
  const map = await coverageMap(harness, scriptTask('javascript', BRANCHY_JS), BRANCHY_JS);
  assert.equal(map?.branches.length, 2);
});

test('a reference that loops on one input loses only that input, and the next is traced right', async () => {
  const looping = pythonTask('g', '(n: int) -> int', '    while n == 3:\n        pass\n    return n\n', '[[1]]');
  const arcs = await referenceArcs(harness, looping, looping.reference!, ['[3]', '[4]'], 0.5);
  assert.equal(arcs[0], undefined);
  assert.ok(arcs[1] && arcs[1].length > 0);
});

test('the kept inputs say why each was kept, with seed, budget and coverage; the same seed replays them', async () => {
  const first = await augmentTask(harness, BRANCHY, { seed: 11, count: 40 });
  const again = await augmentTask(harness, BRANCHY, { seed: 11, count: 40 });
  assert.deepEqual(again.inputs?.texts, first.inputs?.texts);
  const record = first.record!;
  assert.equal(record.seed, 11);
  assert.equal(record.budget, 40);
  assert.equal(
    Object.values(record.kept).reduce((a, b) => a + b, 0),
    first.kept,
  );
  assert.ok(record.kept.coverage >= 2, JSON.stringify(record.kept));
  assert.ok(record.kept.boundary > 0 && record.kept.mutation > 0 && record.kept.arbitrary > 0);
  assert.equal(record.coverage?.branches.covered, record.coverage?.branches.total);
  const without = await augmentTask(harness, BRANCHY, { seed: 11, count: 40, coverage: false });
  assert.equal(without.record?.kept.coverage, 0);
  assert.ok(without.record?.coverageSkipped);
});

test('mutant-killing selection runs mutants of the reference and keeps inputs that tell them apart', async () => {
  const made = await augmentTask(harness, BRANCHY, { seed: 11, count: 20, mutants: 8 });
  const mutants = made.record?.mutants;
  assert.ok(mutants && mutants.run > 0, JSON.stringify(made.record));
  assert.ok(mutants.killed > 0 && mutants.killed <= mutants.run);
});

test('crucible audit --coverage reports each suite and generated inputs beside it', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'audit', '--coverage', '20', '--seed', '3', '--limit', '6', '--no-record'],
    { cwd: new URL('..', import.meta.url), timeout: 240_000 },
  );
  assert.match(stdout, /reference coverage \(lines, decision outcomes\) over \d+ tasks; generated: 20 inputs, seed 3/);
  assert.match(stdout, /generated\s+lines\s+\d+%\s+decisions\s+(\d+%|-)/);
});
