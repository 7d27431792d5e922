/**
 * The `ollama:` provider through createModel, against a fake Ollama `/api/chat` over real HTTP:
 * the model-backend contract (test/contracts/backend-contract.ts), then what only Ollama has.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EMPTY_CONFIG, type CrucibleConfig } from '../../src/models/config.js';
import { ModelCallError } from '../../src/models/errors.js';
import { createModel, type ModelOptions } from '../../src/models/model.js';
import {
  startFakeOllamaServer,
  type FakeOllamaReply,
  type FakeOllamaRequest,
  type FakeOllamaServer,
} from '../../src/models/testing/index.js';
import { runBackendContract, type NeutralReply, type SeenRequest } from '../contracts/backend-contract.js';
import { serverFixture, user, type ServerFixture } from '../models-support.js';

const MODELS = ['qwen2.5-coder', 'qwen2.5-coder:7b'];

function ollamaReply(reply: NeutralReply): FakeOllamaReply {
  if (typeof reply === 'string' || 'status' in reply) return reply;
  return {
    ...(reply.text !== undefined || reply.json !== undefined
      ? { content: reply.text ?? JSON.stringify(reply.json) }
      : {}),
    ...(reply.toolCalls ? { toolCalls: reply.toolCalls.map((t) => ({ name: t.name, arguments: t.input })) } : {}),
    ...(reply.usage ? { usage: { prompt_eval_count: reply.usage.input, eval_count: reply.usage.output } } : {}),
    ...(reply.delayMs !== undefined ? { delayMs: reply.delayMs } : {}),
  };
}

/** Sampling settings are read where Ollama reads them: `options` (its provider also writes some at the top, which Ollama ignores). */
function seenOllama(request: FakeOllamaRequest): SeenRequest {
  const { options, body } = request;
  return {
    model: body.model,
    system: request.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n'),
    messages: request.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, text: m.content })),
    temperature: options.temperature as number | undefined,
    topP: options.top_p as number | undefined,
    seed: options.seed as number | undefined,
    stop: options.stop as string[] | undefined,
    maxTokens: options.num_predict as number | undefined,
    n: body.n,
    stream: request.stream,
    schema:
      typeof request.format === 'object' && request.format !== null
        ? (request.format as Record<string, unknown>)
        : undefined,
    tools: body.tools?.map((t: { function: { name: string; parameters?: { required?: string[] } } }) => ({
      name: t.function.name,
      required: t.function.parameters?.required,
    })),
    toolChoice: body.tool_choice,
    logprobs: body.logprobs,
  };
}

runBackendContract({
  name: 'ollama',
  skip: {
    logprobs:
      'Ollama\'s chat API reports no token log-probabilities (capabilities.logprobs is false; such a request is refused: see "refused")',
  },
  start: async () => {
    const g = await serverFixture(await startFakeOllamaServer({ models: MODELS }));
    return {
      spec: 'ollama:qwen2.5-coder',
      modelId: 'qwen2.5-coder',
      model: (options = {}, prices = {}) =>
        createModel('ollama:qwen2.5-coder', {
          config: { models: {}, prices },
          env: { OLLAMA_HOST: g.server.host },
          cacheDir: g.cacheDir,
          retry: { baseDelayMs: 5 },
          ...options,
        }),
      costWithoutPrice: () => 0,
      endpoint: {
        enqueue: (...replies) => g.server.enqueue(...replies.map(ollamaReply)),
        pending: () => g.server.pending(),
        seen: () => g.server.requests.map(seenOllama),
      },
      close: () => g.close(),
    };
  },
});

let f: ServerFixture<FakeOllamaServer>;
before(async () => {
  f = await serverFixture(await startFakeOllamaServer({ models: MODELS }));
});
after(() => f.close());

const ollama = (
  modelId = 'qwen2.5-coder',
  options: ModelOptions = {},
  config: CrucibleConfig = EMPTY_CONFIG,
  host = f.server.host,
) =>
  createModel(`ollama:${modelId}`, {
    config,
    env: { OLLAMA_HOST: host },
    cacheDir: f.cacheDir,
    retry: { baseDelayMs: 5 },
    ...options,
  });
const since = (before: number) => f.server.requests.slice(before);

test('text comes back from /api/chat with stream: false; the system prompt stays a system message', async () => {
  f.server.enqueue('def f(): pass');
  const model = await ollama('qwen2.5-coder', { cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: [{ role: 'system', content: 'be terse' }, ...user('write f')] });
  const [request] = since(before);
  assert.equal(request!.path, '/api/chat');
  assert.equal(request!.body.stream, false);
  assert.deepEqual(request!.messages, [
    { role: 'system', content: 'be terse' },
    { role: 'user', content: 'write f' },
  ]);
});

test('OLLAMA_HOST may carry a scheme and a trailing slash; a model tag (`:7b`) is sent as is', async () => {
  f.server.enqueue('tagged');
  const model = await ollama('qwen2.5-coder:7b', { cache: 'off' }, EMPTY_CONFIG, `${f.server.url}/`);
  const before = f.server.requests.length;
  assert.equal((await model.generate({ messages: user('hi') })).completions[0]!.text, 'tagged');
  assert.equal(since(before)[0]!.body.model, 'qwen2.5-coder:7b');
});

test("a model that was never pulled fails at once with Ollama's own advice", async () => {
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
