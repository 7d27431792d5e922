/**
 * graft (FCGraft): the task retrieves its closest verified skeletons, the model patches one with
 * SEARCH/REPLACE blocks, and the patched program is verified like any other — end to end on the
 * real sandbox and a fake OpenAI-compatible server. A patch that does not apply is said so and the
 * model tries again; the skeletons and the reply's form are in the prompt.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SkeletonLibrary, skeletonsOf } from '../src/skeletons/library.js';
import { applyBlocks, blocksBetween, formatPatchReply, parsePatchReply, stitch } from '../src/skeletons/patch.js';
import { prepareCodeChecks, solveTask } from '../src/strategies/index.js';
import { Harness } from '../src/domains/code/harness.js';
import { builtin, fenced, scriptedModel } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-graft-'));
const libraryPath = join(dir, 'skeletons.jsonl');
const brackets = builtin('builtin/py/balanced-brackets');
/** A verified neighbour: balanced round brackets only. */
const ROUND = `def is_balanced_round(text: str) -> bool:
    """Return True if the round brackets in text are balanced."""
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0
`;
/** Another: the opening bracket of a closing one (a stitched patch uses it). */
const OPENING = `def opening_of(ch: str) -> str:
    """The opening bracket that a closing bracket ), ] or } closes."""
    return {")": "(", "]": "[", "}": "{"}[ch]
`;
let harness: Harness;
let skeletonId: string;
let openingId: string;

before(async () => {
  harness = new Harness();
  const library = SkeletonLibrary.open(libraryPath);
  const [skeleton] = await library.add(
    await skeletonsOf(ROUND, 'python', { source: 'test:round', checks: 'passes 6 tests' }),
  );
  skeletonId = skeleton!.id;
  const [opening] = await library.add(
    await skeletonsOf(OPENING, 'python', { source: 'test:opening', checks: 'passes 3 tests' }),
  );
  openingId = opening!.id;
});
after(async () => {
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
});

test('blocks between two programs apply back to the second, and a block that does not match is refused', () => {
  const blocks = blocksBetween(ROUND, brackets.reference);
  const applied = applyBlocks(ROUND, blocks);
  assert.ok('program' in applied && applied.program === brackets.reference);
  const reply = parsePatchReply(formatPatchReply('abc', blocks))!;
  assert.deepEqual(reply.bases, ['abc']);
  assert.deepEqual(parsePatchReply('BASE: `a1` + b2\n')!.bases, ['a1', 'b2']);
  assert.equal(reply.blocks.length, blocks.length);
  assert.match(
    (applyBlocks(ROUND, [{ search: 'no such line', replace: 'x' }]) as { error: string }).error,
    /block 1: its SEARCH text is not in the program/,
  );
  assert.match(
    (applyBlocks('a\nb\na\n', [{ search: 'a', replace: 'x' }]) as { error: string }).error,
    /occurs more than once/,
  );
});

async function solve(replies: string[]) {
  const fake = await scriptedModel({ programs: replies });
  try {
    const view = await prepareCodeChecks(harness, brackets.task, { audience: 'solver', seed: 1, oracle: true });
    const { result } = await solveTask({
      task: brackets.task,
      strategy: 'graft',
      model: await fake.model({ cache: 'off' }),
      harness,
      budget: { modelCalls: 4 },
      seed: 1,
      view,
      options: { library: libraryPath },
    });
    return { result, prompts: fake.lastUserMessages() };
  } finally {
    await fake.close();
  }
}

test('a patch of the closest skeleton is applied and verified; the prompt shows the skeleton and the form', async () => {
  const patch = formatPatchReply(skeletonId, blocksBetween(ROUND, brackets.reference));
  const { result, prompts } = await solve([patch]);
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, brackets.reference);
  assert.match(prompts[0]!, new RegExp(`Skeleton ${skeletonId} \\(passes 6 tests; from test:round\\)`));
  assert.match(prompts[0]!, /def is_balanced_round/);
  assert.match(prompts[0]!, /BASE: <its id>/);
});

test('a patch that does not apply is said so, and the next reply (a whole function) is verified', async () => {
  const bad = `BASE: ${skeletonId}\n<<<<<<< SEARCH\n    return depth == 1\n=======\n    return True\n>>>>>>> REPLACE`;
  const { result, prompts } = await solve([bad, fenced(brackets.reference)]);
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.attempts, 1, 'the patch that did not apply was never judged');
  assert.match(prompts[1]!, /the patch does not apply to \w+: block 1: its SEARCH text is not in the program/);
});

test('an unknown base is named, with the bases there are', async () => {
  const { result, prompts } = await solve([
    'BASE: nope\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE',
    fenced(brackets.reference),
  ]);
  assert.equal(result.status, 'verified');
  assert.match(prompts[1]!, new RegExp(`there is no skeleton nope; the bases are .*${skeletonId}`));
});

test('a patch may stitch several skeletons: their programs joined, in the order named, then patched', async () => {
  const stitched = stitch([ROUND, OPENING]);
  const wanted = stitched
    .replace('def is_balanced_round(text: str) -> bool:', 'def is_balanced(text: str) -> bool:')
    .replace(
      /    depth = 0\n[\s\S]*?    return depth == 0\n/,
      '    stack = []\n    for ch in text:\n        if ch in "([{":\n            stack.append(ch)\n' +
        '        elif ch in ")]}":\n            if not stack or stack.pop() != opening_of(ch):\n                return False\n    return not stack\n',
    );
  assert.notEqual(wanted, stitched);
  const { result, prompts } = await solve([formatPatchReply([skeletonId, openingId], blocksBetween(stitched, wanted))]);
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, wanted, 'both functions, as patched');
  assert.match(prompts[0]!, /stitch them: `BASE: <id> \+ <id>`/);
  assert.match(prompts[0]!, new RegExp(`Skeleton ${openingId} `), 'the second skeleton is shown');
});
