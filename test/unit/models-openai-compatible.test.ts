/**
 * The OpenAI-compatible path through the AI SDK provider, against a real HTTP fake server:
 * the model-backend contract (test/contracts/backend-contract.ts), then what only this protocol has.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createModel } from '../../src/models/model.js';
import { MissingApiKeyError, ModelConfigError } from '../../src/models/errors.js';
import type { FakeChatRequest, FakeOpenAIServer, FakeReply } from '../../src/models/testing/index.js';
import { runBackendContract, type NeutralReply, type SeenRequest } from '../contracts/backend-contract.js';
import { fixture, user, type Fixture } from '../models-support.js';

/** A neutral reply as the fake OpenAI-compatible server scripts it. */
export function openAIReply(reply: NeutralReply): FakeReply {
  if (typeof reply === 'string' || 'status' in reply) return reply;
  return {
    ...(reply.text !== undefined || reply.json !== undefined
      ? { content: reply.text ?? JSON.stringify(reply.json) }
      : {}),
    ...(reply.toolCalls ? { toolCalls: reply.toolCalls.map((t) => ({ name: t.name, arguments: t.input })) } : {}),
    ...(reply.usage ? { usage: { prompt_tokens: reply.usage.input, completion_tokens: reply.usage.output } } : {}),
    ...(reply.delayMs !== undefined ? { delayMs: reply.delayMs } : {}),
  };
}

/** A chat completions request read back in the contract's terms. */
export function seenOpenAI(request: FakeChatRequest): SeenRequest {
  const body = request.body;
  const messages = request.messages.map((m) => ({
    role: m.role,
    text: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
  }));
  return {
    model: body.model,
    system: messages
      .filter((m) => m.role === 'system')
      .map((m) => m.text)
      .join('\n\n'),
    messages: messages.filter((m) => m.role !== 'system'),
    temperature: body.temperature,
    topP: body.top_p,
    seed: body.seed,
    stop: body.stop,
    maxTokens: body.max_tokens,
    n: body.n,
    stream: request.stream,
    schema: body.response_format?.json_schema?.schema,
    tools: body.tools?.map((t: { function: { name: string; parameters?: { required?: string[] } } }) => ({
      name: t.function.name,
      required: t.function.parameters?.required,
    })),
    toolChoice: body.tool_choice,
    logprobs: body.logprobs,
  };
}

export function openAIEndpoint(server: FakeOpenAIServer) {
  return {
    enqueue: (...replies: NeutralReply[]) => server.enqueue(...replies.map(openAIReply)),
    pending: () => server.pending(),
    seen: () => server.requests.map(seenOpenAI),
  };
}

runBackendContract({
  name: 'openai-compatible',
  start: async () => {
    const g = await fixture();
    return {
      spec: g.spec,
      modelId: 'fake-model',
      model: (options = {}, prices = {}) =>
        createModel(g.spec, {
          config: { models: {}, prices },
          env: {},
          cacheDir: g.cacheDir,
          retry: { baseDelayMs: 5 },
          ...options,
        }),
      costWithoutPrice: () => 0,
      endpoint: openAIEndpoint(g.server),
      close: () => g.close(),
    };
  },
});

let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

test('the tokens an endpoint read from its prompt cache are reported as cachedInputTokens', async () => {
  f.server.enqueue({ content: 'cached', usage: { prompt_tokens: 1200, completion_tokens: 3, cached_tokens: 1024 } });
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('add') });
  assert.deepEqual(result.usage, { inputTokens: 1200, outputTokens: 3, cachedInputTokens: 1024 });
  assert.equal(model.totals().cachedInputTokens, 1024);
});

test('streaming asks for the usage in the final chunk (stream_options.include_usage)', async () => {
  f.server.enqueue({ content: 'streamed', usage: { prompt_tokens: 5, completion_tokens: 9 } });
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('add'), onText: () => {} });
  assert.deepEqual(f.server.requests[before]!.body.stream_options, { include_usage: true });
  assert.deepEqual(result.usage, { inputTokens: 5, outputTokens: 9 });
});

const tools = {
  run_tests: {
    description: 'run the tests',
    inputSchema: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
  },
};

test('tools go out as functions with their JSON Schema parameters', async () => {
  f.server.enqueue({ toolCalls: [{ name: 'run_tests', arguments: { file: 'a.py' } }] });
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: user('test it'), tools, toolChoice: 'required' });
  const body = f.server.requests[before]!.body;
  assert.equal(body.tools[0].type, 'function');
  assert.deepEqual(body.tools[0].function.parameters, tools.run_tests.inputSchema);
  assert.equal(body.tools[0].function.description, 'run the tests');
});

test('streamed tool-call arguments arrive in pieces and are reassembled', async () => {
  f.server.enqueue({ toolCalls: [{ name: 'run_tests', arguments: { file: 'tests/test_long_name.py' } }] });
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('test it'), tools, onText: () => {} });
  assert.deepEqual(
    result.completions[0]!.toolCalls.map((c) => [c.name, c.input]),
    [['run_tests', { file: 'tests/test_long_name.py' }]],
  );
});

test('tool calls in the second of n choices are read too', async () => {
  f.server.enqueue('plain', { toolCalls: [{ name: 'run_tests', arguments: { file: 'b.py' } }] });
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('n=2'), tools, n: 2 });
  assert.equal(result.completions[0]!.text, 'plain');
  assert.deepEqual(result.completions[1]!.toolCalls[0]!.input, { file: 'b.py' });
  assert.equal(result.completions[1]!.finishReason, 'tool-calls');
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
  await assert.rejects(
    createModel('coder', { config, env: {} }),
    (error: unknown) => error instanceof MissingApiKeyError && /MY_SERVER_KEY/.test(error.message),
  );
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
  await assert.rejects(
    createModel('openai:gpt-4o', { env: {}, config: { models: {}, prices: {} } }),
    /set the environment variable OPENAI_API_KEY/,
  );
  await assert.rejects(
    createModel('anthropic:claude-sonnet-4-0', { env: {}, config: { models: {}, prices: {} } }),
    /ANTHROPIC_API_KEY/,
  );
  const model = await createModel('openai:gpt-4o', {
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: f.server.url },
    config: { models: {}, prices: {} },
    cache: 'off',
  });
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
    (error: unknown) =>
      error instanceof ModelConfigError &&
      /openai:<model>/.test(error.message) &&
      /configured names: mine/.test(error.message),
  );
  await assert.rejects(
    createModel('http://localhost:8000/v1', { env: {}, config: { models: {}, prices: {} } }),
    /#model-name/,
  );
});
