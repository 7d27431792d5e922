import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { crossLanguageAdvantages } from './cross-language.js';
import { batchGroupAdvantages } from './group-advantage.js';
import type { LanguageReward } from './schemas.js';

const close = (a: number, b: number, tol = 1e-12, what = '') =>
  assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b} (±${tol})`);

test('worked example: Python solves it once, Rust never (hand-computed, population std, ε = 0)', () => {
  const rollouts: LanguageReward[] = [
    { problem: 'p', language: 'python', reward: 1 },
    { problem: 'p', language: 'python', reward: 0 },
    { problem: 'p', language: 'rust', reward: 0 },
    { problem: 'p', language: 'rust', reward: 0 },
  ];
  const out = crossLanguageAdvantages(rollouts, { std: 'population', epsilon: 0 });
  // language term: python [1, 0] → [1, −1]; rust [0, 0] is degenerate → [0, 0]
  assert.deepEqual(
    out.map((o) => o.languageAdvantage),
    [1, -1, 0, 0],
  );
  // cross term over all four: mean 0.25, std √3/4 → [√3, −1/√3, −1/√3, −1/√3]
  const r3 = Math.sqrt(3);
  [r3, -1 / r3, -1 / r3, -1 / r3].forEach((x, i) => close(out[i]!.crossAdvantage, x, 1e-12, `cross[${i}]`));
  // α = 0.5: [(1+√3)/2, (−1−1/√3)/2, −1/(2√3), −1/(2√3)] — Rust's failures get signal only from the cross term
  [(1 + r3) / 2, (-1 - 1 / r3) / 2, -1 / (2 * r3), -1 / (2 * r3)].forEach((x, i) =>
    close(out[i]!.advantage, x, 1e-12, `A[${i}]`),
  );
});

test('α = 1 is per-language GRPO, α = 0 is GRPO over the pooled problem group', () => {
  const rollouts: LanguageReward[] = [
    { problem: 'p', language: 'python', reward: 1 },
    { problem: 'q', language: 'go', reward: 0.5 },
    { problem: 'p', language: 'rust', reward: 0 },
    { problem: 'p', language: 'python', reward: 0.25 },
    { problem: 'q', language: 'go', reward: 1 },
    { problem: 'p', language: 'rust', reward: 1 },
  ];
  const perLanguage = batchGroupAdvantages(
    rollouts.map((r) => ({ group: `${r.problem}/${r.language}`, reward: r.reward })),
  );
  const pooled = batchGroupAdvantages(rollouts.map((r) => ({ group: r.problem, reward: r.reward })));
  assert.deepEqual(
    crossLanguageAdvantages(rollouts, { languageWeight: 1 }).map((o) => o.advantage),
    perLanguage,
  );
  assert.deepEqual(
    crossLanguageAdvantages(rollouts, { languageWeight: 0 }).map((o) => o.advantage),
    pooled,
  );
});

test('clear errors: empty batch, NaN reward, languageWeight outside [0, 1]', () => {
  assert.throws(() => crossLanguageAdvantages([]), { name: 'BadRequestError', message: /rollouts is empty/ });
  assert.throws(() => crossLanguageAdvantages([{ problem: 'p', language: 'c', reward: Number.NaN }]), {
    name: 'BadRequestError',
    message: /rollouts\[0\]\.reward/,
  });
  assert.throws(() => crossLanguageAdvantages([{ problem: 'p', language: 'c', reward: 1 }], { languageWeight: 1.5 }), {
    name: 'BadRequestError',
    message: /languageWeight/,
  });
});

const rollout = fc.record({
  problem: fc.constantFrom('p', 'q'),
  language: fc.constantFrom('python', 'rust', 'go', 'ocaml'),
  reward: fc.integer({ min: 0, max: 8 }).map((k) => k / 8),
});
const batch = fc.array(rollout, { minLength: 1, maxLength: 48 });
const alpha = fc.double({ min: 0, max: 1, noNaN: true });

test('property: language term is zero-mean per (problem, language); cross term and A per problem', () => {
  fc.assert(
    fc.property(
      batch,
      alpha,
      fc.constantFrom('sample' as const, 'population' as const),
      (rollouts, languageWeight, std) => {
        const out = crossLanguageAdvantages(rollouts, { languageWeight, std });
        const total = (keep: (r: LanguageReward) => boolean, pick: (i: number) => number) =>
          rollouts.reduce((s, r, i) => (keep(r) ? s + pick(i) : s), 0);
        for (const problem of ['p', 'q']) {
          close(
            total(
              (r) => r.problem === problem,
              (i) => out[i]!.crossAdvantage,
            ),
            0,
            1e-9,
          );
          close(
            total(
              (r) => r.problem === problem,
              (i) => out[i]!.advantage,
            ),
            0,
            1e-9,
          );
          for (const language of ['python', 'rust', 'go', 'ocaml'])
            close(
              total(
                (r) => r.problem === problem && r.language === language,
                (i) => out[i]!.languageAdvantage,
              ),
              0,
              1e-9,
            );
        }
        assert.ok(out.every((o) => Number.isFinite(o.advantage)));
      },
    ),
  );
});

test('property: problems are independent and rollout order does not matter', () => {
  fc.assert(
    fc.property(batch, alpha, (rollouts, languageWeight) => {
      const all = crossLanguageAdvantages(rollouts, { languageWeight });
      const onlyP = rollouts.flatMap((r, i) => (r.problem === 'p' ? [i] : []));
      if (onlyP.length === 0) return;
      const alone = crossLanguageAdvantages(
        onlyP.map((i) => rollouts[i]!),
        { languageWeight },
      );
      onlyP.forEach((i, k) => assert.equal(all[i]!.advantage, alone[k]!.advantage));
      const reversed = crossLanguageAdvantages([...rollouts].reverse(), { languageWeight }).reverse();
      reversed.forEach((o, i) => close(o.advantage, all[i]!.advantage, 1e-9));
    }),
  );
});
