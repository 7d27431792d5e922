/** The `ollama:` provider through createModel, against a fake Ollama `/api/chat` over real HTTP. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { EMPTY_CONFIG, type CrucibleConfig } from '../src/models/config.js';
import { ModelCallError } from '../src/models/errors.js';
import { createModel, type ModelOptions } from '../src/models/model.js';
import { startFakeOllamaServer, type FakeOllamaServer } from '../src/models/testing/index.js';
import { assertCacheThenOffline, assertGivesUpAfterRetries, assertRepairEndToEnd, assertRetriedUntilAnswer, generateInPieces, serverFixture, user, type ServerFixture } from './models-support.js';

let f: ServerFixture<FakeOllamaServer>;
before(async () => {
  f = await serverFixture(await startFakeOllamaServer({ models: ['qwen2.5-coder', 'qwen2.5-coder:7b'] }));
});
after(() => f.close());

const ollama = (modelId = 'qwen2.5-coder', options: ModelOptions = {}, config: CrucibleConfig = EMPTY_CONFIG, host = f.server.host) =>
  createModel(`ollama:${modelId}`, { config, env: { OLLAMA_HOST: host }, cacheDir: f.cacheDir, retry: { baseDelayMs: 5 }, ...options });
const since = (before: number) => f.server.requests.slice(before);

test('text comes back from /api/chat (stream: false); the system prompt stays a system message; tokens are counted, free unless priced', async () => {
  f.server.enqueue({ content: 'def f(): pass', usage: { prompt_eval_count: 1000, eval_count: 500 } }, { content: 'priced', usage: { prompt_eval_count: 1000, eval_count: 500 } });
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: [{ role: 'system', content: 'be terse' }, ...user('write f')] });
  assert.equal(result.completions[0]!.text, 'def f(): pass');
  assert.equal(result.completions[0]!.finishReason, 'stop');
  const [request] = since(before);
  assert.equal(request!.path, '/api/chat');
  assert.equal(request!.body.model, 'qwen2.5-coder');
  assert.equal(request!.body.stream, false);
  assert.deepEqual(request!.messages, [{ role: 'system', content: 'be terse' }, { role: 'user', content: 'write f' }]);
  assert.deepEqual(result.usage, { inputTokens: 1000, outputTokens: 500 });
  assert.equal(result.costUsd, 0, 'a local model costs nothing');
  assert.deepEqual(model.totals(), { calls: 1, cachedCalls: 0, inputTokens: 1000, outputTokens: 500, costUsd: 0 });
  const priced = await ollama('qwen2.5-coder', { cache: 'off' }, { models: {}, prices: { 'ollama:qwen2.5-coder': { input: 1, output: 2 } } });
  assert.equal((await priced.generate({ messages: user('price me') })).costUsd, (1000 * 1 + 500 * 2) / 1e6);
});

test('OLLAMA_HOST may carry a scheme and a trailing slash; a model tag (`:7b`) is sent as is', async () => {
  f.server.enqueue('tagged');
  const model = await ollama('qwen2.5-coder:7b', { cache: 'off' }, EMPTY_CONFIG, `${f.server.url}/`);
  const before = f.server.requests.length;
  assert.equal((await model.generate({ messages: user('hi') })).completions[0]!.text, 'tagged');
  assert.equal(since(before)[0]!.body.model, 'qwen2.5-coder:7b');
});

test('sampling settings reach Ollama where it reads them: options.temperature, top_p, num_predict, stop', async () => {
  f.server.enqueue('sampled');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: user('sample'), temperature: 0.3, topP: 0.9, maxTokens: 64, stop: ['\n\n'] });
  const { options } = since(before)[0]!;
  assert.deepEqual({ temperature: options.temperature, top_p: options.top_p, num_predict: options.num_predict, stop: options.stop }, { temperature: 0.3, top_p: 0.9, num_predict: 64, stop: ['\n\n'] });
});

test('a seed reaches options.seed (the capability row says seed: true), and n split into requests gets seed, seed+1, ...', async () => {
  f.server.enqueue('a', 'b');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: user('seeded'), seed: 41, n: 2 });
  assert.deepEqual(since(before).map((r) => r.options.seed).sort(), [41, 42]);
});

test('n: 3 makes three requests (no native n) and returns three completions', async () => {
  f.server.enqueue('one', 'two', 'three');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('three please'), n: 3 });
  assert.equal(since(before).length, 3);
  assert.deepEqual(result.completions.map((c) => c.text).sort(), ['one', 'three', 'two']);
  assert.equal(result.calls.length, 3);
});

test('429, 500 and 503 are retried until an answer comes', () =>
  assertRetriedUntilAnswer(f.server, (options) => ollama('qwen2.5-coder', options), [
    { status: 429, retryAfterSeconds: 0 },
    { status: 500 },
    { status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' },
  ]));

test('a persistent 500 ends in a ModelCallError with the status and the attempts', () =>
  assertGivesUpAfterRetries(f.server, (options) => ollama('qwen2.5-coder', options), { status: 500 }, /^ollama:qwen2\.5-coder: HTTP 500 after 3 attempts: /));

test('a model that was never pulled fails at once with Ollama\'s own advice', async () => {
  const model = await ollama('llama-not-pulled', { cache: 'off' });
  const before = f.server.requests.length;
  await assert.rejects(model.generate({ messages: user('hi') }), (error: unknown) => {
    assert.ok(error instanceof ModelCallError);
    assert.equal(error.statusCode, 404);
    assert.equal(error.attempts, 1, 'a 404 is not retried');
    assert.match(error.message, /model "llama-not-pulled" not found, try pulling it first/);
    return true;
  });
  assert.equal(f.server.requests.length, before, 'refused before it is recorded');
});

test('streaming: NDJSON lines arrive as pieces, usage comes from the done line', async () => {
  const text = 'def add(a, b):\n    return a + b\n';
  f.server.enqueue({ content: text, usage: { prompt_eval_count: 12, eval_count: 9 } });
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  const result = await generateInPieces(model, text);
  assert.equal(since(before)[0]!.body.stream, true);
  assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 9 });
});

const Answer = z.object({ program: z.string(), confidence: z.number().min(0).max(1) });

test('structured output: the JSON schema goes out as `format`, the reply is validated', async () => {
  f.server.enqueue('{"program": "print(1)", "confidence": 0.8}');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('answer'), output: { schema: Answer } });
  assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.8 });
  const request = since(before)[0]!;
  const format = request.format as { type: string; required: string[] };
  assert.equal(format.type, 'object');
  assert.deepEqual(format.required, ['program', 'confidence']);
  assert.equal(request.messages[0]!.role, 'system');
  assert.match(request.messages[0]!.content, /JSON Schema/);
});

test('structured output: an invalid reply gets one repair request quoting the problem', async () => {
  f.server.enqueue('{"program": "print(1)", "confidence": 7}', '{"program": "print(1)", "confidence": 0.7}');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('answer'), output: { schema: Answer } });
  assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.7 });
  assert.equal(result.completions[0]!.repaired, true);
  const repair = since(before)[1]!;
  assert.ok(repair.format, 'the repair request is constrained by the schema too');
  assert.deepEqual(repair.messages.at(-2), { role: 'assistant', content: '{"program": "print(1)", "confidence": 7}' });
  assert.match(repair.messages.at(-1)!.content, /at \$\.confidence/);
});

test('the cache answers a repeated call without a request, and offline names the request it misses', () =>
  assertCacheThenOffline(f.server, (options) => ollama('qwen2.5-coder', options), 'ollama'));

test('repair end to end on Ollama: a wrong program, the counterexample fed back, then verified', async () => {
  await assertRepairEndToEnd(
    startFakeOllamaServer,
    (scripted) => createModel('ollama:qwen2.5-coder', { config: EMPTY_CONFIG, env: { OLLAMA_HOST: scripted.host }, cache: 'off', retry: { retries: 0 } }),
    (request) => {
      const { role, content } = request.messages.at(-1)!;
      return { role, text: content };
    },
  );
});
