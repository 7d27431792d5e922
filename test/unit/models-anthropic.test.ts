/**
 * The `anthropic:` provider through createModel, against a fake Messages API over real HTTP:
 * the model-backend contract (test/contracts/backend-contract.ts), then what only this protocol has.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { EMPTY_CONFIG, type CrucibleConfig } from '../../src/models/config.js';
import { createModel, type ModelOptions } from '../../src/models/model.js';
import {
  startFakeAnthropicServer,
  type FakeAnthropicReply,
  type FakeAnthropicRequest,
  type FakeAnthropicServer,
} from '../../src/models/testing/index.js';
import { runBackendContract, type NeutralReply, type SeenRequest } from '../contracts/backend-contract.js';
import {
  assertGivesUpAfterRetries,
  assertRetriedUntilAnswer,
  generateInPieces,
  serverFixture,
  user,
  type ServerFixture,
} from '../models-support.js';

const HAIKU = 'claude-3-5-haiku-latest';
/** The built-in price of claude-3-5-haiku-latest, dollars per million tokens. */
const HAIKU_PRICE = { input: 0.8, output: 4 };

/**
 * A neutral reply as the fake Messages API scripts it. The contract's model (Haiku) has no
 * native JSON schemas: the SDK forces a tool named `json`, so a structured reply is that tool's call.
 */
function anthropicReply(reply: NeutralReply): FakeAnthropicReply {
  if (typeof reply === 'string' || 'status' in reply) return reply;
  const toolUse = [
    ...(reply.json !== undefined ? [{ name: 'json', input: reply.json }] : []),
    ...(reply.toolCalls ?? []),
  ];
  return {
    ...(reply.text !== undefined ? { text: reply.text } : {}),
    ...(toolUse.length ? { toolUse } : {}),
    ...(reply.usage ? { usage: { input_tokens: reply.usage.input, output_tokens: reply.usage.output } } : {}),
    ...(reply.delayMs !== undefined ? { delayMs: reply.delayMs } : {}),
  };
}

function seenAnthropic(request: FakeAnthropicRequest): SeenRequest {
  const body = request.body;
  const offered: Array<{ name: string; input_schema?: { required?: string[] } }> = body.tools ?? [];
  const forced = offered.find((t) => t.name === 'json');
  return {
    model: body.model,
    system: request.system,
    messages: request.messages,
    temperature: body.temperature,
    topP: body.top_p,
    seed: body.seed,
    stop: body.stop_sequences,
    maxTokens: body.max_tokens,
    n: body.n,
    stream: request.stream,
    schema: body.output_config?.format?.schema ?? forced?.input_schema,
    tools:
      offered.length && !forced
        ? offered.map((t) => ({ name: t.name, required: t.input_schema?.required }))
        : undefined,
    toolChoice: body.tool_choice?.type === 'any' ? 'required' : body.tool_choice?.type,
    logprobs: body.logprobs,
  };
}

runBackendContract({
  name: 'anthropic',
  skip: {
    logprobs:
      'the Messages API reports no token log-probabilities (capabilities.logprobs is false; such a request is refused: see "refused")',
  },
  start: async () => {
    const g = await serverFixture(await startFakeAnthropicServer());
    return {
      spec: `anthropic:${HAIKU}`,
      modelId: HAIKU,
      model: (options = {}, prices = {}) =>
        createModel(`anthropic:${HAIKU}`, {
          config: { models: {}, prices },
          env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: g.server.url },
          cacheDir: g.cacheDir,
          retry: { baseDelayMs: 5 },
          ...options,
        }),
      costWithoutPrice: (usage) =>
        (usage.inputTokens * HAIKU_PRICE.input + usage.outputTokens * HAIKU_PRICE.output) / 1e6,
      endpoint: {
        enqueue: (...replies) => g.server.enqueue(...replies.map(anthropicReply)),
        pending: () => g.server.pending(),
        seen: () => g.server.requests.map(seenAnthropic),
      },
      close: () => g.close(),
    };
  },
});

let f: ServerFixture<FakeAnthropicServer>;
before(async () => {
  f = await serverFixture(await startFakeAnthropicServer());
});
after(() => f.close());

const anthropic = (modelId: string, options: ModelOptions = {}, config: CrucibleConfig = EMPTY_CONFIG) =>
  createModel(`anthropic:${modelId}`, {
    config,
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: f.server.url },
    cacheDir: f.cacheDir,
    retry: { baseDelayMs: 5 },
    ...options,
  });
const since = (before: number) => f.server.requests.slice(before);

test('the request goes to /v1/messages with the key and the API version, the system prompt as `system` blocks', async () => {
  f.server.enqueue('def f(): pass');
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: [{ role: 'system', content: 'be terse' }, ...user('write f')] });
  const [request] = since(before);
  assert.equal(request!.path, '/v1/messages');
  assert.equal(request!.headers['x-api-key'], 'test-key');
  assert.equal(request!.headers['anthropic-version'], '2023-06-01');
  assert.deepEqual(request!.body.system, [{ type: 'text', text: 'be terse' }]);
});

test('with both topP and a temperature, the SDK sends only the temperature', async () => {
  f.server.enqueue('both');
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: user('nucleus'), topP: 0.9, temperature: 0.5 });
  const [both] = since(before);
  assert.deepEqual([both!.body.temperature, both!.body.top_p], [0.5, undefined]);
});

test('a model missing from the price table costs null (unknown), until the config prices it', async () => {
  f.server.enqueue(
    { text: 'a', usage: { input_tokens: 2000, output_tokens: 100 } },
    { text: 'b', usage: { input_tokens: 2000, output_tokens: 100 } },
  );
  const unpriced = await anthropic('claude-sonnet-4-5', { cache: 'off' });
  assert.equal((await unpriced.generate({ messages: user('price?') })).costUsd, null);
  assert.equal(unpriced.totals().costUsd, null);
  const priced = await anthropic(
    'claude-sonnet-4-5',
    { cache: 'off' },
    { models: {}, prices: { 'anthropic:claude-sonnet-4-5': { input: 3, output: 15 } } },
  );
  const result = await priced.generate({ messages: user('price?') });
  assert.ok(Math.abs(result.costUsd! - (2000 * 3 + 100 * 15) / 1e6) < 1e-12, `cost ${result.costUsd}`);
});

test('529 (overloaded_error) is retried until an answer comes', () =>
  assertRetriedUntilAnswer(f.server, (options) => anthropic(HAIKU, options), [{ status: 529 }, { status: 529 }]));

test("a persistent 529 ends in a ModelCallError with the status, the attempts and Anthropic's message", () =>
  assertGivesUpAfterRetries(
    f.server,
    (options) => anthropic(HAIKU, options),
    { status: 529, message: 'Overloaded' },
    /^anthropic:claude-3-5-haiku-latest: HTTP 529 after 3 attempts: Overloaded$/,
  ));

test('streaming: an overloaded_error event before the first block is retried', async () => {
  const text = 'def add(a, b):\n    return a + b\n';
  f.server.enqueue({ status: 529, inStream: true }, { text, usage: { input_tokens: 12, output_tokens: 9 } });
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await generateInPieces(model, text);
  assert.deepEqual(
    since(before).map((r) => r.stream),
    [true, true],
  );
  assert.equal(result.calls[0]!.attempts, 2);
  assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 9 });
});

const Answer = z.object({ program: z.string(), confidence: z.number().min(0).max(1) });

test('structured output on a model without native schemas: a forced `json` tool, answered with a tool_use block', async () => {
  f.server.enqueue({ toolUse: [{ name: 'json', input: { program: 'print(1)', confidence: 0.8 } }] });
  const model = await anthropic(HAIKU, { cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({
    messages: [{ role: 'system', content: 'you write code' }, ...user('answer')],
    output: { schema: Answer, name: 'answer' },
  });
  assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.8 });
  assert.equal(result.completions[0]!.repaired, undefined);
  const { body, system } = since(before)[0]!;
  assert.deepEqual(
    body.tools.map((t: { name: string }) => t.name),
    ['json'],
  );
  assert.deepEqual(body.tools[0].input_schema.required, ['program', 'confidence']);
  assert.equal(body.tool_choice.type, 'any', 'the tool is forced');
  assert.match(system, /JSON Schema/);
  assert.match(system, /you write code/, 'both system messages end up in `system`');
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
