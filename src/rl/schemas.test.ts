import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ZodError } from 'zod';
import { computeAdvantages } from './advantages.js';
import { crossLanguageAdvantages } from './cross-language.js';
import { batchGroupAdvantages } from './group-advantage.js';
import { AdvantagesRequestSchema, GatedRewardRequestSchema } from './schemas.js';
import { vcpoAdvantages } from './vcpo.js';

/** Parses and returns the ZodError's messages joined (paths included). */
function zodMessages(body: unknown, schema: { parse(x: unknown): unknown } = AdvantagesRequestSchema): string {
  try {
    schema.parse(body);
  } catch (error) {
    assert.ok(error instanceof ZodError, `expected a ZodError, got ${String(error)}`);
    return error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
  }
  assert.fail('expected the body to be rejected');
}

test('request bodies are rejected with messages that say what to fix', () => {
  assert.match(zodMessages({ method: 'grpo', rollouts: [] }), /rollouts: rollouts is empty/);
  assert.match(
    zodMessages({ method: 'grpo', rollouts: [{ group: 'a', reward: Number.NaN }] }),
    /rollouts\.0\.reward: reward must be a finite number/,
  );
  assert.match(
    zodMessages({ method: 'grpo', rollouts: [{ group: 'a', reward: 1 }], options: { scaleBystd: false } }),
    /scaleBystd/,
  );
  assert.match(
    zodMessages({ method: 'grpo', rollouts: [{ group: 'a', reward: 1 }], options: { epsilon: -1 } }),
    /epsilon must be ≥ 0/,
  );
  assert.match(zodMessages({ method: 'gxpo', rollouts: [{ problem: 'p', reward: 1 }] }), /rollouts\.0\.language/);
  assert.match(
    zodMessages({
      method: 'gxpo',
      rollouts: [{ problem: 'p', language: 'c', reward: 1 }],
      options: { languageWeight: 2 },
    }),
    /languageWeight must be in \[0, 1\]/,
  );
  assert.match(
    zodMessages({ method: 'vcpo', rollouts: [{ group: 'a', reward: 1, weight: -1, gradNorm: 1 }] }),
    /weight must be ≥ 0/,
  );
  assert.match(
    zodMessages({ method: 'vcpo', rollouts: [{ group: 'a', reward: 1, weight: 1, logWeight: 0, gradNorm: 1 }] }),
    /exactly one of weight and logWeight/,
  );
  assert.match(zodMessages({ method: 'ppo', rollouts: [] }), /method/);
  assert.match(
    zodMessages(
      { levels: { parses: 1, loads: 1, runs: 1, publicTests: { passed: 0, total: 0 }, hidden: 1 } },
      GatedRewardRequestSchema,
    ),
    /vacuous/,
  );
  assert.match(
    zodMessages({ levels: { parses: 1, loads: 1, runs: 2, publicTests: 1, hidden: 1 } }, GatedRewardRequestSchema),
    /levels\.runs/,
  );
});

test('computeAdvantages dispatches to the library functions', () => {
  const grpo = [
    { group: 'a', reward: 1 },
    { group: 'a', reward: 0 },
  ];
  assert.deepEqual(computeAdvantages({ method: 'grpo', rollouts: grpo }), {
    method: 'grpo',
    advantages: batchGroupAdvantages(grpo),
  });
  const gxpo = [
    { problem: 'p', language: 'python', reward: 1 },
    { problem: 'p', language: 'rust', reward: 0 },
  ];
  const terms = crossLanguageAdvantages(gxpo, { languageWeight: 0.25 });
  assert.deepEqual(computeAdvantages({ method: 'gxpo', rollouts: gxpo, options: { languageWeight: 0.25 } }), {
    method: 'gxpo',
    advantages: terms.map((t) => t.advantage),
    terms,
  });
  const vcpo = [
    { group: 'a', reward: 1, logWeight: 0.3, gradNorm: 2 },
    { group: 'a', reward: 0, logWeight: -0.1, gradNorm: 1 },
  ];
  assert.deepEqual(computeAdvantages({ method: 'vcpo', rollouts: vcpo, options: { rule: 'linear' } }), {
    method: 'vcpo',
    ...vcpoAdvantages(vcpo, { rule: 'linear' }),
  });
  assert.throws(() => computeAdvantages({ method: 'grpo', rollouts: [] }), ZodError);
});
