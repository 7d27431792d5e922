/** The OpenAI-compatible path through the AI SDK provider, against a real HTTP fake server. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createModel } from '../src/models/model.js';
import { MissingApiKeyError, ModelConfigError } from '../src/models/errors.js';
import { fixture, user, type Fixture } from './models-support.js';

let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

test('sampling settings reach the request body, and the call is recorded with tokens and latency', async () => {
  f.server.enqueue({ content: 'def f(): pass', usage: { prompt_tokens: 11, completion_tokens: 7 } });
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: [{ role: 'system', content: 'be terse' }, ...user('write f')], temperature: 0.7, topP: 0.9, seed: 42, stop: ['\n\n'], maxTokens: 64, label: 'first' });
  assert.equal(result.completions.length, 1);
  assert.equal(result.completions[0]!.text, 'def f(): pass');
  assert.equal(result.completions[0]!.finishReason, 'stop');
  const body = f.server.requests[before]!.body;
  assert.equal(body.model, 'fake-model');
  assert.equal(body.temperature, 0.7);
  assert.equal(body.top_p, 0.9);
  assert.equal(body.seed, 42);
  assert.deepEqual(body.stop, ['\n\n']);
  assert.equal(body.max_tokens, 64);
  assert.deepEqual(body.messages, [{ role: 'system', content: 'be terse' }, { role: 'user', content: 'write f' }]);
  assert.deepEqual(result.usage, { inputTokens: 11, outputTokens: 7 });
  assert.equal(result.calls.length, 1);
  const call = result.calls[0]!;
  assert.equal(call.label, 'first');
  assert.equal(call.cached, false);
  assert.equal(call.attempts, 1);
  assert.ok(call.latencyMs > 0);
  assert.equal(result.costUsd, 0, 'a local endpoint with no price costs nothing');
  assert.deepEqual(model.totals(), { calls: 1, cachedCalls: 0, inputTokens: 11, outputTokens: 7, costUsd: 0 });
});

test('n completions come from one request with native n, in order', async () => {
  f.server.enqueue('one', 'two', 'three');
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('three please'), n: 3 });
  assert.deepEqual(result.completions.map((c) => c.text), ['one', 'two', 'three']);
  assert.equal(f.server.requests.length - before, 1);
  assert.equal(f.server.requests[before]!.body.n, 3);
  assert.equal(result.calls[0]!.completions, 3);
});

test('a price from the config turns tokens into dollars', async () => {
  const model = await createModel(f.spec, {
    config: { models: {}, prices: { 'fake-model': { input: 2, output: 10 } } },
    env: {},
    cache: 'off',
  });
  f.server.enqueue({ content: 'x', usage: { prompt_tokens: 1000, completion_tokens: 500 } });
  const result = await model.generate({ messages: user('price me') });
  assert.equal(result.costUsd, (1000 * 2 + 500 * 10) / 1e6);
  assert.equal(model.totals().costUsd, result.costUsd);
});

test('streaming delivers the text in pieces over SSE, and usage from the final chunk', async () => {
  const text = 'def add(a, b):\n    return a + b\n';
  f.server.enqueue({ content: text, usage: { prompt_tokens: 5, completion_tokens: 9 } });
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const pieces: string[] = [];
  const result = await model.generate({ messages: user('add'), onText: (index, delta) => (assert.equal(index, 0), pieces.push(delta)) });
  assert.ok(pieces.length > 1, 'more than one delta');
  assert.equal(pieces.join(''), text);
  assert.equal(result.completions[0]!.text, text);
  const body = f.server.requests[before]!.body;
  assert.equal(body.stream, true);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.deepEqual(result.usage, { inputTokens: 5, outputTokens: 9 });
});

test('streaming n completions makes one stream per completion, each with its index', async () => {
  f.server.enqueue('alpha', 'beta');
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const texts = ['', ''];
  const result = await model.generate({ messages: user('two'), n: 2, onText: (index, delta) => (texts[index] += delta) });
  assert.equal(f.server.requests.length - before, 2);
  assert.deepEqual(texts.sort(), ['alpha', 'beta']);
  assert.deepEqual(result.completions.map((c) => c.text).sort(), ['alpha', 'beta']);
});

const tools = { run_tests: { description: 'run the tests', inputSchema: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] } } };

test('tool calls come back parsed, without being executed', async () => {
  f.server.enqueue({ toolCalls: [{ name: 'run_tests', arguments: { file: 'a.py' } }] });
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('test it'), tools, toolChoice: 'required' });
  const body = f.server.requests[before]!.body;
  assert.equal(body.tools[0].function.name, 'run_tests');
  assert.deepEqual(body.tools[0].function.parameters.required, ['file']);
  assert.equal(body.tool_choice, 'required');
  assert.equal(result.completions[0]!.finishReason, 'tool-calls');
  assert.equal(result.completions[0]!.toolCalls[0]!.name, 'run_tests');
  assert.deepEqual(result.completions[0]!.toolCalls[0]!.input, { file: 'a.py' });
});

test('streamed tool-call arguments arrive in pieces and are reassembled', async () => {
  f.server.enqueue({ toolCalls: [{ name: 'run_tests', arguments: { file: 'tests/test_long_name.py' } }] });
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('test it'), tools, onText: () => {} });
  assert.deepEqual(result.completions[0]!.toolCalls.map((c) => [c.name, c.input]), [['run_tests', { file: 'tests/test_long_name.py' }]]);
});

test('tool calls in the second of n choices are read too', async () => {
  f.server.enqueue('plain', { toolCalls: [{ name: 'run_tests', arguments: { file: 'b.py' } }] });
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('n=2'), tools, n: 2 });
  assert.equal(result.completions[0]!.text, 'plain');
  assert.deepEqual(result.completions[1]!.toolCalls[0]!.input, { file: 'b.py' });
  assert.equal(result.completions[1]!.finishReason, 'tool-calls');
});

test('token log-probabilities for every choice', async () => {
  f.server.enqueue('return 1', 'return 22');
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('lp'), n: 2, logprobs: true });
  assert.equal(f.server.requests[before]!.body.logprobs, true);
  for (const completion of result.completions) {
    assert.ok(completion.logprobs && completion.logprobs.length > 0);
    assert.equal(completion.logprobs.map((t) => t.token).join(''), completion.text);
    assert.ok(completion.logprobs.every((t) => t.logprob < 0));
  }
});

test('a config entry names a model: its defaults, extra body fields, headers and key variable apply', async () => {
  const config = {
    models: {
      coder: {
        spec: f.spec,
        apiKeyEnv: 'MY_SERVER_KEY',
        headers: { 'x-team': 'crucible' },
        extraBody: { top_k: 20 },
        defaults: { temperature: 0.2, maxTokens: 128 },
      },
    },
    prices: {},
  };
  await assert.rejects(createModel('coder', { config, env: {} }), (error: unknown) => error instanceof MissingApiKeyError && /MY_SERVER_KEY/.test(error.message));
  const model = await createModel('coder', { config, env: { MY_SERVER_KEY: 'sk-local' }, cache: 'off' });
  f.server.enqueue('ok');
  const before = f.server.requests.length;
  await model.generate({ messages: user('hi'), maxTokens: 16 });
  const request = f.server.requests[before]!;
  assert.equal(request.body.temperature, 0.2);
  assert.equal(request.body.max_tokens, 16, 'the request overrides the default');
  assert.equal(request.body.top_k, 20);
  assert.equal(request.headers.authorization, 'Bearer sk-local');
  assert.equal(request.headers['x-team'], 'crucible');
});

test('openai: goes through the OpenAI provider; its key comes from OPENAI_API_KEY', async () => {
  await assert.rejects(createModel('openai:gpt-4o', { env: {}, config: { models: {}, prices: {} } }), /set the environment variable OPENAI_API_KEY/);
  await assert.rejects(createModel('anthropic:claude-sonnet-4-0', { env: {}, config: { models: {}, prices: {} } }), /ANTHROPIC_API_KEY/);
  const model = await createModel('openai:gpt-4o', { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: f.server.url }, config: { models: {}, prices: {} }, cache: 'off' });
  f.server.enqueue({ content: 'from openai', usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('hi'), seed: 1 });
  assert.equal(result.completions[0]!.text, 'from openai');
  assert.equal(f.server.requests[before]!.headers.authorization, 'Bearer sk-test');
  assert.equal(f.server.requests[before]!.body.model, 'gpt-4o');
  assert.equal(result.costUsd, 2.5, 'the built-in price of openai:gpt-4o');
});

test('an unknown spec lists the accepted forms and the configured names', async () => {
  await assert.rejects(
    createModel('gpt5', { env: {}, config: { models: { mine: { spec: 'ollama:qwen2.5-coder:7b' } }, prices: {} } }),
    (error: unknown) => error instanceof ModelConfigError && /openai:<model>/.test(error.message) && /configured names: mine/.test(error.message),
  );
  await assert.rejects(createModel('http://localhost:8000/v1', { env: {}, config: { models: {}, prices: {} } }), /#model-name/);
});
