/**
 * Generated inputs, differential checks, properties and minimal counterexamples, through
 * the sandboxed harness a user runs.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { builtinTasks } from '../src/bench/builtin/index.js';
import type { Task } from '../src/core/task.js';
import { decodeWire } from '../src/core/wire-values.js';
import {
  augmentTask,
  GENERATED_SUITE,
  minimalCounterexample,
  splitJsonArray,
} from '../src/domains/code/differential.js';
import { Harness } from '../src/domains/code/harness.js';
import { checkProperties, shrinkPropertyViolation, soundProperties } from '../src/domains/code/properties.js';
import { DEPTH_BODY, DEPTH_PROMPT, depthStrict, depthTask } from './plain-task-support.js';

const harness = new Harness({ workers: 2 });
after(() => harness.close());

const PROMPT =
  'def f(xs: list[int], s: str) -> int:\n    """Sum of xs plus the length of s.\n    >>> f([1, 2], "ab")\n    5\n    """\n';

function taskWith(examples: string): Task {
  return {
    id: 'gen/f',
    language: 'python',
    prompt: PROMPT,
    entryPoint: 'f',
    completionPrefix: PROMPT,
    reference: PROMPT + '    return sum(xs) + len(s)\n',
    knownWrong: [],
    suites: [{ kind: 'io', name: 'base', entry: 'f', inputsJson: examples }],
    source: 'test',
  };
}

test('on generated buggy programs, every shrunk counterexample is no larger than where it started and still fails', async () => {
  const task = taskWith('[[[1, 2], "ab"], [[], ""], [[5, -3, 8], "xyz"]]');
  const augmentation = await augmentTask(harness, task, { seed: 11, count: 80 });
  assert.ok(augmentation.kept >= 60, `${augmentation.kept} generated inputs kept`);
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('len(xs) > K', 'sum(xs) > K', "s.count('a') >= K % 3 + 1", 'max(xs, default=0) > K'),
      fc.integer({ min: 1, max: 6 }),
      async (condition, k) => {
        const bug = `${PROMPT}    K = ${k}\n    if ${condition}:\n        return sum(xs) + len(s) + 1\n    return sum(xs) + len(s)\n`;
        const verdict = await harness.judge(augmentation.augmented, bug);
        const suite = verdict.suites.find((s) => s.name === GENERATED_SUITE)!;
        if (suite.status !== 'fail') return; // the bug hides from these inputs
        const original = splitJsonArray(
          augmentation.augmented.suites[1]!.kind === 'io' ? augmentation.augmented.suites[1]!.inputsJson : '[]',
        )[suite.failedAt!]!;
        const counterexample = (await minimalCounterexample(harness, augmentation, bug, verdict))!;
        assert.ok(counterexample, 'a counterexample is found');
        assert.ok(counterexample.shrunk.length <= original.length, `${counterexample.shrunk} vs ${original}`);
        // Judge the shrunk input on its own, from scratch: the reference gives the expected output.
        const alone: Task = {
          ...task,
          id: `gen/f/${checked}`,
          suites: [{ kind: 'io', name: 'one', entry: 'f', inputsJson: `[${counterexample.shrunk}]` }],
        };
        assert.equal((await harness.judge(alone, bug)).status, 'fail', `${counterexample.shrunk} must still fail`);
        assert.equal((await harness.judge(alone, task.reference!)).status, 'pass');
        checked++;
      },
    ),
    { numRuns: 8, seed: 5 },
  );
  assert.ok(checked >= 4, `${checked} counterexamples checked`);
});

test('a contract keeps invalid inputs out: the contracted reference rejects them', async () => {
  const task = {
    ...taskWith('[[[1, 2], "ab"], [[3], "b"]]'),
    contract: '\n    assert all(x >= 0 for x in xs), "invalid inputs"\n',
  };
  const augmentation = await augmentTask(harness, task, { seed: 2, count: 60 });
  const generated = augmentation.inputs!.args;
  assert.ok(generated.length > 10);
  // Integers past 2^53 travel tagged ({$t: 'int'}): decoded, every one is a number.
  assert.ok(generated.every((args) => (decodeWire(args[0]) as number[]).every((x) => x >= 0)));
  assert.ok(augmentation.rejected > 0, 'the generator did produce negative numbers, which were dropped');
});

test('built-in properties and preconditions are sound: the references keep every property on generated inputs', async () => {
  for (const { task } of builtinTasks) {
    const io = task.suites.find((s) => s.kind === 'io');
    if (io?.kind === 'io') {
      for (const text of splitJsonArray(io.inputsJson))
        assert.ok(
          task.precondition!(decodeWire(JSON.parse(text))),
          `${task.id}: precondition rejects its own test input ${text}`,
        );
    }
    assert.deepEqual(soundProperties(task).dropped, [], `${task.id}: a prompt example breaks a property`);
    const augmentation = await augmentTask(harness, task, { seed: 1, count: 60 });
    assert.ok(augmentation.kept > 0, `${task.id}: ${augmentation.reason}`);
    const verdict = await checkProperties(harness, task, task.reference!, task.properties!, augmentation.inputs!);
    assert.equal(
      verdict.status,
      'pass',
      `${task.id}: ${verdict.firstFailure?.message} on ${verdict.firstFailure?.input}`,
    );
    assert.ok(verdict.total > 0);
  }
});

test('properties catch a wrong program without a reference, and the violation shrinks', async () => {
  const { task, candidates } = builtinTasks.find((b) => b.task.id === 'builtin/py/run-length-encode')!;
  const wrong = candidates.find((c) => c.label === 'drops-final-single')!.program;
  const augmentation = await augmentTask(harness, task, { seed: 4, count: 60 });
  const verdict = await checkProperties(harness, task, wrong, task.properties!, augmentation.inputs!);
  assert.equal(verdict.status, 'fail');
  const property = task.properties!.find((p) => p.name === verdict.property)!;
  const failing = augmentation.inputs!.args[verdict.failedAt!]!;
  const shrunk = (await shrinkPropertyViolation(harness, task, wrong, property, failing, augmentation.space.types))!;
  assert.ok(shrunk.shrunk.length <= augmentation.inputs!.texts[verdict.failedAt!]!.length);
  assert.match(shrunk.message, /property broken/);
});

test('a property that a prompt example contradicts is dropped before use', () => {
  const task: Task = {
    ...taskWith('[]'),
    properties: [
      { name: 'output is even', holds: (_, out) => out % 2 === 0 },
      { name: 'output is at least the length of s', holds: ([, s], out) => out >= s.length || true },
    ],
  };
  const sound = soundProperties(task);
  assert.deepEqual(
    sound.kept.map((p) => p.name),
    ['output is at least the length of s'],
  );
  assert.equal(sound.dropped[0]!.property, 'output is even');
  assert.match(sound.dropped[0]!.example, /f\(\[1, 2\], "ab"\) -> 5/);
});

test('an MBPP+-style contract goes after the signature of a whole-function reference, indented like its body', async () => {
  const { contractedReference } = await import('../src/domains/code/differential.js');
  const task: Task = {
    ...taskWith('[]'),
    prompt: '"""\nWrite a function.\nassert g(2) == 4\n"""\n',
    completionPrefix: '"""\nWrite a function.\nassert g(2) == 4\n"""\n',
    entryPoint: 'g',
    reference: '"""\nWrite a function.\nassert g(2) == 4\n"""\ndef g(n):\n  return n * 2\n',
    contract:
      '\n    assert isinstance(n, int), "invalid inputs" # $_CONTRACT_$\n    assert n > 0, "invalid inputs" # $_CONTRACT_$\n',
  };
  const program = contractedReference(task)!;
  assert.match(
    program,
    /def g\(n\):\n {2}assert isinstance\(n, int\), "invalid inputs" # \$_CONTRACT_\$\n {2}assert n > 0, "invalid inputs" # \$_CONTRACT_\$\n {2}return n \* 2\n/,
  );
  const augmentation = await augmentTask(
    harness,
    { ...task, suites: [{ kind: 'io', name: 'base', entry: 'g', inputsJson: '[[2], [5]]' }] },
    { seed: 3, count: 30 },
  );
  assert.ok(augmentation.kept > 5, augmentation.reason);
  assert.ok(augmentation.inputs!.args.every(([n]) => (decodeWire(n) as number) > 0));
});

test('without a contract, generated inputs look like the examples: a right program that refuses other characters passes, a wrong one still fails', async () => {
  const augmentation = await augmentTask(harness, depthTask, { seed: 3, count: 60 });
  assert.ok(augmentation.kept >= 30, `${augmentation.kept} generated inputs kept`);
  assert.match(augmentation.inferredDomain ?? '', /argument 1: string, at least 2 long, of "\(" "\)" " "/);
  for (const text of splitJsonArray(
    (augmentation.augmented.suites.find((s) => s.name === GENERATED_SUITE) as { inputsJson: string }).inputsJson,
  ))
    assert.match(text, /^\["[() ]*"\]$/, `generated ${text}`);
  const strict = await harness.judge(augmentation.augmented, depthStrict);
  assert.equal(strict.status, 'pass', JSON.stringify(strict.firstFailure));
  // Counts the opening parentheses instead of the depth: wrong on "()()", inside the domain.
  const counting = DEPTH_PROMPT + "    return s.count('(')\n";
  const wrong = await harness.judge(augmentation.augmented, counting);
  assert.equal(wrong.status, 'fail');
  const counterexample = await minimalCounterexample(harness, augmentation, counting, wrong);
  assert.ok(counterexample, 'a counterexample');
  assert.match(
    counterexample.shrunk,
    /^\["[() ]+"\]$/,
    `the shrunk input stays in the domain: ${counterexample.shrunk}`,
  );
});

test('without a contract or examples, nothing says which inputs are valid: no generated inputs', async () => {
  const prompt = 'def depth(s: str) -> int:\n    """The deepest nesting of the parentheses in s."""\n';
  const augmentation = await augmentTask(
    harness,
    { ...depthTask, prompt, completionPrefix: prompt, reference: prompt + DEPTH_BODY + '    return m\n' },
    { seed: 3, count: 20 },
  );
  assert.equal(augmentation.kept, 0);
  assert.match(augmentation.reason ?? '', /states no contract and shows no examples/);
});
