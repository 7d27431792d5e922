/** The `anthropic:` provider through createModel, against a fake Messages API over real HTTP. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { EMPTY_CONFIG, type CrucibleConfig } from '../src/models/config.js';
import { createModel, type ModelOptions } from '../src/models/model.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../src/models/testing/index.js';
import { assertCacheThenOffline, assertGivesUpAfterRetries, assertRepairEndToEnd, assertRetriedUntilAnswer, generateInPieces, serverFixture, user, type ServerFixture } from './models-support.js';

let f: ServerFixture<FakeAnthropicServer>;
before(async () => {
  f = await serverFixture(await startFakeAnthropicServer());
});
after(() => f.close());

const HAIKU = 'claude-3-5-haiku-latest';
const anthropic = (modelId: string, options: ModelOptions = {}, config: CrucibleConfig = EMPTY_CONFIG) =>
  createModel(`anthropic:${modelId}`, { config, env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: f.server.url }, cacheDir: f.cacheDir, retry: { baseDelayMs: 5 }, ...options });
const since = (before: number) => f.server.requests.slice(before);

test('the request carries the system prompt as `system`, the settings and the key; tokens and the built-in price are recorded', async () => {
  f.server.enqueue({ text: 'def f(): pass', usage: { input_tokens: 1000, output_tokens: 500 } });
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: [{ role: 'system', content: 'be terse' }, ...user('write f')], temperature: 0.3, stop: ['\n\n'], maxTokens: 256 });
  assert.equal(result.completions[0]!.text, 'def f(): pass');
  assert.equal(result.completions[0]!.finishReason, 'stop');
  const [request] = since(before);
  assert.equal(request!.path, '/v1/messages');
  assert.equal(request!.headers['x-api-key'], 'test-key');
  assert.equal(request!.headers['anthropic-version'], '2023-06-01');
  assert.equal(request!.body.model, HAIKU);
  assert.deepEqual(request!.body.system, [{ type: 'text', text: 'be terse' }]);
  assert.deepEqual(request!.messages, [{ role: 'user', text: 'write f' }], 'no system message left among the messages');
  assert.equal(request!.body.temperature, 0.3);
  assert.equal(request!.body.max_tokens, 256);
  assert.deepEqual(request!.body.stop_sequences, ['\n\n']);
  assert.equal(request!.stream, false, 'generate without onText is one JSON reply');
  assert.deepEqual(result.usage, { inputTokens: 1000, outputTokens: 500 });
  const cost = (1000 * 0.8 + 500 * 4) / 1e6; // the built-in row for claude-3-5-haiku-latest
  assert.ok(Math.abs(result.costUsd! - cost) < 1e-12, `cost ${result.costUsd}`);
  assert.deepEqual({ ...model.totals(), costUsd: null }, { calls: 1, cachedCalls: 0, inputTokens: 1000, outputTokens: 500, costUsd: null });
  assert.ok(Math.abs(model.totals().costUsd! - cost) < 1e-12);
});

test('topP reaches top_p when no temperature is set (with both, the SDK sends only temperature)', async () => {
  f.server.enqueue('p', 'both');
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: user('nucleus'), topP: 0.9 });
  await model.generate({ messages: user('nucleus'), topP: 0.9, temperature: 0.5 });
  const [alone, both] = since(before);
  assert.equal(alone!.body.top_p, 0.9);
  assert.equal(alone!.body.temperature, undefined);
  assert.deepEqual([both!.body.temperature, both!.body.top_p], [0.5, undefined]);
});

test('a model missing from the price table costs null (unknown), until the config prices it', async () => {
  f.server.enqueue({ text: 'a', usage: { input_tokens: 2000, output_tokens: 100 } }, { text: 'b', usage: { input_tokens: 2000, output_tokens: 100 } });
  const unpriced = await anthropic('claude-sonnet-4-5', { cache: 'off' });
  assert.equal((await unpriced.generate({ messages: user('price?') })).costUsd, null);
  assert.equal(unpriced.totals().costUsd, null);
  const priced = await anthropic('claude-sonnet-4-5', { cache: 'off' }, { models: {}, prices: { 'anthropic:claude-sonnet-4-5': { input: 3, output: 15 } } });
  const result = await priced.generate({ messages: user('price?') });
  assert.ok(Math.abs(result.costUsd! - (2000 * 3 + 100 * 15) / 1e6) < 1e-12, `cost ${result.costUsd}`);
});

test('n: 3 makes three requests (no native n) and returns three completions', async () => {
  f.server.enqueue('one', 'two', 'three');
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('three please'), n: 3, temperature: 1 });
  assert.equal(since(before).length, 3);
  assert.ok(since(before).every((r) => r.body.n === undefined && r.messages[0]!.text === 'three please'));
  assert.deepEqual(result.completions.map((c) => c.text).sort(), ['one', 'three', 'two']);
  assert.equal(result.calls.length, 3);
  assert.equal(model.totals().calls, 3);
});

test('429 and 529 (overloaded_error) are retried until an answer comes', () =>
  assertRetriedUntilAnswer(f.server, (options) => anthropic(HAIKU, options), [{ status: 429, retryAfterSeconds: 0 }, { status: 529 }]));

test('a persistent 529 ends in a ModelCallError with the status, the attempts and Anthropic\'s message', () =>
  assertGivesUpAfterRetries(f.server, (options) => anthropic(HAIKU, options), { status: 529, message: 'Overloaded' }, /^anthropic:claude-3-5-haiku-latest: HTTP 529 after 3 attempts: Overloaded$/));

test('streaming: text arrives in pieces over SSE with usage; an overloaded_error event before the first block is retried', async () => {
  const text = 'def add(a, b):\n    return a + b\n';
  f.server.enqueue({ status: 529, inStream: true }, { text, usage: { input_tokens: 12, output_tokens: 9 } });
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await generateInPieces(model, text);
  assert.deepEqual(since(before).map((r) => r.stream), [true, true]);
  assert.equal(result.calls[0]!.attempts, 2);
  assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 9 });
});

const Answer = z.object({ program: z.string(), confidence: z.number().min(0).max(1) });

test('structured output on a model without native schemas: a forced `json` tool, answered with a tool_use block', async () => {
  f.server.enqueue({ toolUse: [{ name: 'json', input: { program: 'print(1)', confidence: 0.8 } }] });
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: [{ role: 'system', content: 'you write code' }, ...user('answer')], output: { schema: Answer, name: 'answer' } });
  assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.8 });
  assert.equal(result.completions[0]!.repaired, undefined);
  const { body, system } = since(before)[0]!;
  assert.deepEqual(body.tools.map((t: { name: string }) => t.name), ['json']);
  assert.deepEqual(body.tools[0].input_schema.required, ['program', 'confidence']);
  assert.equal(body.tool_choice.type, 'any', 'the tool is forced');
  assert.match(system, /JSON Schema/);
  assert.match(system, /you write code/, 'both system messages end up in `system`');
});

test('structured output: an invalid tool_use answer gets one repair request quoting the problem', async () => {
  f.server.enqueue({ toolUse: [{ name: 'json', input: { program: 'print(1)', confidence: 7 } }] }, { toolUse: [{ name: 'json', input: { program: 'print(1)', confidence: 0.7 } }] });
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('answer'), output: { schema: Answer }, label: 'final' });
  assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.7 });
  assert.equal(result.completions[0]!.repaired, true);
  assert.deepEqual(result.calls.map((c) => c.label), ['final', 'final:repair']);
  const repair = since(before)[1]!.messages;
  assert.deepEqual(repair.at(-2), { role: 'assistant', text: '{"program":"print(1)","confidence":7}' });
  assert.match(repair.at(-1)!.text, /at \$\.confidence/);
});

test('structured output on a model with native schemas: output_config.format carries the schema, the text is validated', async () => {
  f.server.enqueue('{"program": "x", "confidence": 0.5}');
  const model = await anthropic('claude-sonnet-4-5', { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('answer'), output: { schema: Answer } });
  assert.deepEqual(result.completions[0]!.value, { program: 'x', confidence: 0.5 });
  const { body } = since(before)[0]!;
  assert.equal(body.output_config.format.type, 'json_schema');
  assert.deepEqual(body.output_config.format.schema.required, ['program', 'confidence']);
  assert.equal(body.tools, undefined);
});

test('the cache answers a repeated call without a request, and offline names the request it misses', () =>
  assertCacheThenOffline(f.server, (options) => anthropic(HAIKU, options), 'claude'));

test('repair end to end on Claude: a wrong program, the counterexample fed back, then verified', async () => {
  const requests = await assertRepairEndToEnd(
    startFakeAnthropicServer,
    (scripted) => createModel(`anthropic:${HAIKU}`, { config: EMPTY_CONFIG, env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: scripted.url }, cache: 'off', retry: { retries: 0 } }),
    (request) => request.messages.at(-1)!,
  );
  assert.ok(requests.every((r) => r.system.length > 0 && r.messages.every((m) => m.role !== 'system')));
});
