import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeArgs } from './generate/encode.js';
import type { ValueType } from './generate/types.js';
import { shrinkFailingInput } from './shrink.js';

const types: ValueType[] = [{ kind: 'list', item: { kind: 'int' } }, { kind: 'str' }];

test('a shrunk input is never larger than the failing one, still fails, and every simpler variant passes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 30 }),
      fc.string({ maxLength: 15 }),
      fc.integer({ min: 0, max: 500 }),
      async (xs, s, limit) => {
        // A "bug" that shows when the list sums past a limit and the string is not empty.
        const fails = (args: readonly unknown[]) =>
          (args[0] as number[]).reduce((a, b) => a + Math.abs(b), 0) > limit && (args[1] as string).length > 0;
        fc.pre(fails([xs, s]));
        let calls = 0;
        const shrunk = await shrinkFailingInput([xs, s], types, async (batch) => {
          calls++;
          const at = batch.findIndex(fails);
          return at < 0 ? undefined : at;
        });
        assert.ok(shrunk.text.length <= encodeArgs([xs, s], types).length);
        assert.ok(fails(shrunk.args), 'still fails');
        assert.equal(shrunk.text, encodeArgs(shrunk.args, types));
        assert.equal(shrunk.rounds, calls, 'one batch per round');
        assert.ok((shrunk.args[1] as string).length === 1, 'the string shrinks to one character');
      },
    ),
    { numRuns: 40 },
  );
});

test('batches hold many variants: shrinking a long list takes far fewer batches than variants tried', async () => {
  const xs = Array.from({ length: 200 }, (_, i) => i);
  let tried = 0;
  const shrunk = await shrinkFailingInput([xs, 'a'], types, async (batch) => {
    tried += batch.length;
    const at = batch.findIndex((args) => (args[0] as number[]).includes(150));
    return at < 0 ? undefined : at;
  });
  assert.deepEqual(shrunk.args[0], [150]);
  assert.ok(shrunk.rounds * 10 < tried, `${shrunk.rounds} batches for ${tried} variants`);
});
