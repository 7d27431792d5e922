/** The `ollama:` provider through createModel, against a fake Ollama `/api/chat` over real HTTP. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { EMPTY_CONFIG, type CrucibleConfig } from '../src/models/config.js';
import { CacheMissError, ModelCallError } from '../src/models/errors.js';
import { createModel, type ModelOptions } from '../src/models/model.js';
import { startFakeOllamaServer, type FakeOllamaServer } from '../src/models/testing/index.js';
import { solveTask } from '../src/strategies/index.js';
import { Harness } from '../src/verify/harness.js';
import { user } from './models-support.js';
import { builtin, fenced } from './strategies-support.js';

let server: FakeOllamaServer;
let cacheDir: string;
before(async () => {
  server = await startFakeOllamaServer({ models: ['qwen2.5-coder', 'qwen2.5-coder:7b'] });
  cacheDir = mkdtempSync(join(tmpdir(), 'crucible-ollama-'));
});
after(async () => {
  await server.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

const ollama = (modelId = 'qwen2.5-coder', options: ModelOptions = {}, config: CrucibleConfig = EMPTY_CONFIG, host = server.host) =>
  createModel(`ollama:${modelId}`, { config, env: { OLLAMA_HOST: host }, cacheDir, retry: { baseDelayMs: 5 }, ...options });
const since = (before: number) => server.requests.slice(before);

test('text comes back from /api/chat (stream: false); the system prompt stays a system message; tokens are counted, free unless priced', async () => {
  server.enqueue({ content: 'def f(): pass', usage: { prompt_eval_count: 1000, eval_count: 500 } }, { content: 'priced', usage: { prompt_eval_count: 1000, eval_count: 500 } });
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
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
  server.enqueue('tagged');
  const model = await ollama('qwen2.5-coder:7b', { cache: 'off' }, EMPTY_CONFIG, `${server.url}/`);
  const before = server.requests.length;
  assert.equal((await model.generate({ messages: user('hi') })).completions[0]!.text, 'tagged');
  assert.equal(since(before)[0]!.body.model, 'qwen2.5-coder:7b');
});

test('sampling settings reach Ollama where it reads them: options.temperature, top_p, num_predict, stop', async () => {
  server.enqueue('sampled');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
  await model.generate({ messages: user('sample'), temperature: 0.3, topP: 0.9, maxTokens: 64, stop: ['\n\n'] });
  const { options } = since(before)[0]!;
  assert.deepEqual({ temperature: options.temperature, top_p: options.top_p, num_predict: options.num_predict, stop: options.stop }, { temperature: 0.3, top_p: 0.9, num_predict: 64, stop: ['\n\n'] });
});

test('a seed reaches options.seed (the capability row says seed: true), and n split into requests gets seed, seed+1, ...', async () => {
  server.enqueue('a', 'b');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
  await model.generate({ messages: user('seeded'), seed: 41, n: 2 });
  assert.deepEqual(since(before).map((r) => r.options.seed).sort(), [41, 42]);
});

test('n: 3 makes three requests (no native n) and returns three completions', async () => {
  server.enqueue('one', 'two', 'three');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
  const result = await model.generate({ messages: user('three please'), n: 3 });
  assert.equal(since(before).length, 3);
  assert.deepEqual(result.completions.map((c) => c.text).sort(), ['one', 'three', 'two']);
  assert.equal(result.calls.length, 3);
});

test('429, 500 and 503 are retried until an answer comes', async () => {
  server.enqueue({ status: 429, retryAfterSeconds: 0 }, { status: 500 }, { status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' }, 'finally');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
  const result = await model.generate({ messages: user('retry me') });
  assert.equal(result.completions[0]!.text, 'finally');
  assert.equal(since(before).length, 4);
  assert.equal(result.calls[0]!.attempts, 4);
});

test('a persistent 500 ends in a ModelCallError with the status and the attempts', async () => {
  server.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
  const model = await ollama('qwen2.5-coder', { cache: 'off', retry: { retries: 2, baseDelayMs: 1 } });
  await assert.rejects(model.generate({ messages: user('never') }), (error: unknown) => {
    assert.ok(error instanceof ModelCallError);
    assert.equal(error.statusCode, 500);
    assert.equal(error.attempts, 3);
    assert.match(error.message, /^ollama:qwen2\.5-coder: HTTP 500 after 3 attempts: /);
    return true;
  });
  assert.equal(server.pending(), 0);
});

test('a model that was never pulled fails at once with Ollama\'s own advice', async () => {
  const model = await ollama('llama-not-pulled', { cache: 'off' });
  const before = server.requests.length;
  await assert.rejects(model.generate({ messages: user('hi') }), (error: unknown) => {
    assert.ok(error instanceof ModelCallError);
    assert.equal(error.statusCode, 404);
    assert.equal(error.attempts, 1, 'a 404 is not retried');
    assert.match(error.message, /model "llama-not-pulled" not found, try pulling it first/);
    return true;
  });
  assert.equal(server.requests.length, before, 'refused before it is recorded');
});

test('streaming: NDJSON lines arrive as pieces, usage comes from the done line', async () => {
  const text = 'def add(a, b):\n    return a + b\n';
  server.enqueue({ content: text, usage: { prompt_eval_count: 12, eval_count: 9 } });
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
  const pieces: string[] = [];
  const result = await model.generate({ messages: user('add'), onText: (_index, delta) => pieces.push(delta) });
  assert.ok(pieces.length > 1, 'more than one delta');
  assert.equal(pieces.join(''), text);
  assert.equal(result.completions[0]!.text, text);
  assert.equal(since(before)[0]!.body.stream, true);
  assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 9 });
});

const Answer = z.object({ program: z.string(), confidence: z.number().min(0).max(1) });

test('structured output: the JSON schema goes out as `format`, the reply is validated', async () => {
  server.enqueue('{"program": "print(1)", "confidence": 0.8}');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
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
  server.enqueue('{"program": "print(1)", "confidence": 7}', '{"program": "print(1)", "confidence": 0.7}');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = server.requests.length;
  const result = await model.generate({ messages: user('answer'), output: { schema: Answer } });
  assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.7 });
  assert.equal(result.completions[0]!.repaired, true);
  const repair = since(before)[1]!;
  assert.ok(repair.format, 'the repair request is constrained by the schema too');
  assert.deepEqual(repair.messages.at(-2), { role: 'assistant', content: '{"program": "print(1)", "confidence": 7}' });
  assert.match(repair.messages.at(-1)!.content, /at \$\.confidence/);
});

test('the cache answers a repeated call without a request, and offline names the request it misses', async () => {
  server.enqueue('recorded once');
  const first = await (await ollama()).generate({ messages: user('cache me'), temperature: 0 });
  const before = server.requests.length;
  const again = await (await ollama()).generate({ messages: user('cache me'), temperature: 0 });
  assert.equal(server.requests.length, before, 'no request reached the server');
  assert.equal(again.completions[0]!.text, 'recorded once');
  assert.deepEqual(again.usage, first.usage);
  assert.deepEqual([again.calls[0]!.cached, again.calls[0]!.attempts], [true, 0]);
  await assert.rejects((await ollama('qwen2.5-coder', { cache: 'offline' })).generate({ messages: user('never recorded for ollama') }), (error: unknown) => {
    assert.ok(error instanceof CacheMissError);
    assert.match(error.message, /^offline: no cached response for request [0-9a-f]{64} \(.*never recorded for ollama/);
    return true;
  });
  assert.equal(server.requests.length, before);
});

test('repair end to end on Ollama: a wrong program, the counterexample fed back, then verified', async () => {
  const brackets = builtin('builtin/py/balanced-brackets');
  const harness = new Harness({ workers: 1 });
  const programs = [fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal'))];
  const scripted = await startFakeOllamaServer({ script: () => programs.shift() ?? { status: 500, message: 'no program left' } });
  try {
    const model = await createModel('ollama:qwen2.5-coder', { config: EMPTY_CONFIG, env: { OLLAMA_HOST: scripted.host }, cache: 'off', retry: { retries: 0 } });
    const { result } = await solveTask({ task: brackets.task, strategy: 'repair', model, harness, budget: { modelCalls: 4 }, seed: 7, options: { modelTests: false } });
    assert.equal(result.status, 'verified', result.reason);
    assert.equal(result.program, brackets.program('pair-removal'));
    assert.equal(scripted.requests.length, 2);
    const second = scripted.requests[1]!.messages.at(-1)!;
    assert.equal(second.role, 'user');
    assert.match(second.content, /Input: is_balanced\(\["\("\]\)|Input: is_balanced\("\("\)/);
    assert.match(second.content, /Your program returned: True/);
  } finally {
    await scripted.close();
    await harness.close();
  }
});
