/**
 * Local GGUF decoding through node-llama-cpp on a tiny random-weight model written by the
 * test: nonsense text, but real tokenization, sampling, seeds, grammars and probabilities.
 * The model-backend contract (test/contracts/backend-contract.ts) runs first, on what holds of
 * any reply (a local decoder's replies cannot be scripted); then what only a local decoder has.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createModel } from '../../src/models/model.js';
import { lintGbnf } from '../../src/models/local/gbnf-lint.js';
import { writeTinyGguf } from '../../src/models/testing/tiny-gguf.js';
import type { ChatMessage, Model } from '../../src/models/types.js';
import { runBackendContract } from '../contracts/backend-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-gguf-'));
const modelPath = join(dir, 'tiny.gguf');
let model: Model;

// One thread: on a shared, busy machine many threads decode far slower than one.
const entry = { spec: `gguf:${modelPath}`, gpu: false, threads: 1, contextSize: 2048 };
const config = { models: { tiny: entry }, prices: {} };

const NO_WIRE = 'no request to inspect: a local decoder in this process';
const NO_SCRIPT = 'replies cannot be scripted: a random-weight model writes nonsense';
const NO_HTTP = 'no HTTP: a local decoder has no status codes, rate limits or server errors';

runBackendContract({
  name: 'gguf',
  skip: {
    settings: `${NO_WIRE}; maxTokens and seeds are checked by their effects below`,
    nOnTheWire: `${NO_WIRE}; that n uses seeds seed, seed+1, … is checked by its effect below`,
    structuredSent: `${NO_WIRE}; the schema becomes a grammar, checked by "structured output: the reply comes back validated"`,
    structuredRepair: `${NO_SCRIPT}; the repair after an invalid value is checked by the known fault below`,
    tools: 'capabilities.tools is false: a request with tools is refused (see "refused")',
    retried: NO_HTTP,
    givesUp: NO_HTTP,
    clientError: NO_HTTP,
    timeout: 'no scripted delay: the tiny model decodes in milliseconds',
    abortInFlight: 'the tiny model decodes in milliseconds: nothing stays in flight long enough to cancel from outside',
    strategy: `${NO_SCRIPT}, not programs (dccd on a GGUF model is in strategies-dccd)`,
  },
  start: async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-gguf-cache-'));
    const path = join(cacheDir, 'contract.gguf');
    writeTinyGguf(path);
    const spec = `gguf:${path}`;
    return {
      spec,
      modelId: path,
      model: (options = {}, prices = {}) =>
        createModel('tiny', {
          config: { models: { tiny: { ...entry, spec } }, prices },
          env: {},
          cacheDir,
          ...options,
        }),
      costWithoutPrice: () => 0,
      // Six lowercase letters: short, and one printable token each, so that log-probabilities and streamed pieces line up with the text.
      freeText: { grammar: 'root ::= [a-z]{6}', temperature: 1, seed: 5 },
      close: async () => rmSync(cacheDir, { recursive: true, force: true }),
    };
  },
});

before(async () => {
  const size = writeTinyGguf(modelPath);
  assert.ok(size > 100_000 && size < 200_000, `fixture is ${size} bytes`);
  model = await createModel('tiny', { config, env: {}, cache: 'off' });
});
after(async () => {
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ask = [{ role: 'user' as const, content: 'Write a number.' }];

test('free text: tokens are counted and generation stops at maxTokens', { timeout: 120_000 }, async () => {
  const result = await model.generate({ messages: ask, maxTokens: 12, temperature: 1, seed: 5 });
  const completion = result.completions[0]!;
  assert.equal(completion.finishReason, 'length');
  assert.equal(result.usage.outputTokens, 12);
  assert.ok(result.usage.inputTokens > ask[0]!.content.length / 4, 'the chat template adds tokens to the prompt');
  assert.equal(model.kind, 'gguf');
});

test('the same seed gives the same text; another seed (almost surely) another', { timeout: 120_000 }, async () => {
  const run = (seed: number) => model.generate({ messages: ask, maxTokens: 24, temperature: 1, seed });
  const [a, b, c] = [await run(11), await run(11), await run(12)];
  assert.equal(a.completions[0]!.text, b.completions[0]!.text);
  assert.notEqual(a.completions[0]!.text, c.completions[0]!.text);
});

test(
  'n completions use seeds seed, seed+1, … and equal single calls with those seeds',
  { timeout: 120_000 },
  async () => {
    const many = await model.generate({ messages: ask, maxTokens: 16, temperature: 1, seed: 40, n: 3 });
    assert.equal(many.completions.length, 3);
    assert.equal(many.calls.length, 3);
    const third = await model.generate({ messages: ask, maxTokens: 16, temperature: 1, seed: 42 });
    assert.equal(many.completions[2]!.text, third.completions[0]!.text);
  },
);

test(
  'the KV cache of a shared prefix is kept across calls, and the text is what a fresh context writes',
  { timeout: 180_000 },
  async () => {
    const withEntry = (extra: object) =>
      createModel('tiny', { config: { models: { tiny: { ...entry, ...extra } }, prices: {} }, env: {}, cache: 'off' });
    const reusing = await withEntry({});
    const task: ChatMessage[] = [
      { role: 'user', content: 'Write a function that returns the sum of a list of numbers.' },
    ];
    const call = (m: Model, messages: ChatMessage[], seed: number) =>
      m.generate({ messages, maxTokens: 16, temperature: 1, seed });
    /** What a model that has evaluated nothing yet writes. */
    const fresh = async (messages: ChatMessage[], seed: number) => {
      const m = await withEntry({});
      try {
        const result = await call(m, messages, seed);
        assert.equal(result.usage.cachedInputTokens, 0);
        return result.completions[0]!.text;
      } finally {
        await m.close();
      }
    };
    try {
      // Candidates of one task: the second pays only the prompt's last token.
      const first = await call(reusing, task, 1);
      const second = await call(reusing, task, 2);
      assert.equal(second.usage.cachedInputTokens, second.usage.inputTokens - 1);
      assert.equal(second.completions[0]!.text, await fresh(task, 2));
      // A repair turn extends the conversation: what came before the reply is kept.
      const repair: ChatMessage[] = [
        ...task,
        { role: 'assistant', content: second.completions[0]!.text },
        { role: 'user', content: 'It fails on the empty list. Fix it.' },
      ];
      const repaired = await call(reusing, repair, 3);
      assert.ok(repaired.usage.cachedInputTokens! >= first.usage.inputTokens - 8, JSON.stringify(repaired.usage));
      assert.equal(repaired.completions[0]!.text, await fresh(repair, 3));
      // Another task shares only the chat template's start.
      const other = await call(reusing, [{ role: 'user', content: 'Name a colour.' }], 4);
      assert.ok(other.usage.cachedInputTokens! < other.usage.inputTokens / 2, JSON.stringify(other.usage));
      assert.equal(
        reusing.totals().cachedInputTokens,
        [second, repaired, other].reduce((sum, r) => sum + r.usage.cachedInputTokens!, 0),
      );
    } finally {
      await reusing.close();
    }
    const whole = await withEntry({ prefixCache: false });
    try {
      await call(whole, task, 1);
      const again = await call(whole, task, 2);
      assert.equal(again.usage.cachedInputTokens, 0, 'prefixCache: false evaluates every prompt');
      // Starting over leaves nothing of the call before (node-llama-cpp's clearHistory did).
      assert.equal(again.completions[0]!.text, await fresh(task, 2));
    } finally {
      await whole.close();
    }
  },
);

test('a GBNF grammar constrains every sample', { timeout: 120_000 }, async () => {
  const grammar = 'root ::= ("yes" | "no") " " [0-9] [0-9]?';
  for (const seed of [1, 2, 3, 4]) {
    const result = await model.generate({ messages: ask, grammar, temperature: 1.5, seed });
    assert.match(result.completions[0]!.text, /^(yes|no) [0-9][0-9]?$/, `seed ${seed}`);
  }
});

test(
  "known fault: node-llama-cpp's integer grammar admits exponents; validation rejects the overflowing values",
  { timeout: 180_000 },
  async () => {
    const outcomes = [];
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const result = await model.generate({
        messages: ask,
        output: { schema: { type: 'integer' } },
        temperature: 1,
        seed,
      });
      outcomes.push(result.completions[0]!);
    }
    for (const completion of outcomes) {
      if (completion.value !== undefined) {
        assert.ok(Number.isInteger(completion.value), `accepted ${completion.text}`);
      } else {
        // What the grammar let through: digits with an exponent, which JSON reads as ±Infinity.
        assert.match(completion.text.trim(), /^-?[0-9]+[eE][-+]?[0-9]+$/);
        assert.ok(!Number.isFinite(JSON.parse(completion.text)));
        assert.match(completion.outputError!, /Infinity/);
        assert.equal(completion.repaired, true, 'an error is reported only after the one repair attempt');
      }
    }
    // Random weights pick an exponent often (3 of the first 4 seeds here); eight seeds make the fault show on any CPU.
    assert.ok(
      outcomes.some((c) => c.outputError !== undefined),
      'the fixture reproduces the fault',
    );
  },
);

test(
  'known fault: an invalid grammar that node-llama-cpp would run to an empty string is refused, saying why',
  { timeout: 60_000 },
  async () => {
    await assert.rejects(
      model.generate({ messages: ask, grammar: 'root ::= "yes" |' }),
      /grammar is invalid[\s\S]*rule root: the rule is empty, or its last alternative is/,
    );
    await assert.rejects(
      model.generate({ messages: ask, grammar: 'root ::= answer' }),
      /refers to rule "answer", which is not defined/,
    );
  },
);

test('grammar lint: valid grammars pass, each kind of mistake is named', () => {
  assert.deepEqual(lintGbnf('root ::= item ("," item)*\nitem ::= [a-z]+ | "\\"q\\"" # comment with | bar\n'), []);
  assert.deepEqual(lintGbnf('root ::= ("a" | "b"){2,3} ws?\nws ::= [ \\t\\n]*'), []);
  const messages = (g: string) =>
    lintGbnf(g)
      .map((p) => p.message)
      .join('; ');
  assert.match(messages('item ::= "x"'), /no `root/);
  assert.match(messages('root ::= "a" | | "b"'), /alternative is empty/);
  assert.match(messages('root ::= ("a" | )'), /group or one of its alternatives is empty/);
  assert.match(messages('root ::= "abc'), /string is not closed/);
  assert.match(messages('root ::= [a-z'), /character class is not closed/);
  assert.match(messages('root ::= ("a"'), /"\(" is not closed/);
});
