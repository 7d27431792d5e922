/**
 * The contract every model backend passes, one suite for all, run by each backend's own test
 * file with its fixture (as pack-contract.ts runs one suite per domain pack): a model made as a
 * user makes one (`createModel`, or crucible/testing's `inMemoryModel`), asked through the
 * Model API. Replies are scripted in backend-neutral terms and each fixture translates them
 * into its protocol; what reached the endpoint is read back the same way. A clause a backend
 * cannot meet is skipped with its reason, never left out silently.
 */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { escapeRegExp } from '../../src/core/regexp.js';
import type { Price } from '../../src/models/config.js';
import { CacheMissError, ModelCallError, ModelConfigError, ModelTimeoutError } from '../../src/models/errors.js';
import type { ModelOptions } from '../../src/models/model.js';
import type { ChatMessage, GenerateRequest, JsonSchema, Model, TokenUsage } from '../../src/models/types.js';

/** A reply in no protocol's terms; each fixture writes it in its own. */
export type NeutralReply =
  | string
  | {
      readonly text?: string;
      /** A structured reply: the value the model answers with (as JSON text, or as the protocol's structured-output tool call). */
      readonly json?: unknown;
      readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly input: Record<string, unknown> }>;
      readonly usage?: { readonly input: number; readonly output: number };
      readonly delayMs?: number;
    }
  | { readonly status: number; readonly message?: string; readonly retryAfterSeconds?: number };

/** A request as the endpoint received it, read back in no protocol's terms (undefined: not sent). */
export interface SeenRequest {
  readonly model: string;
  /** The system prompt as the protocol carries it (a `system` field, or system messages), joined. */
  readonly system: string;
  /** The other messages, in order. */
  readonly messages: ReadonlyArray<{ readonly role: string; readonly text: string }>;
  /** Where the endpoint reads them (Ollama: `options`). */
  readonly temperature?: number | undefined;
  readonly topP?: number | undefined;
  readonly seed?: number | undefined;
  readonly stop?: readonly string[] | undefined;
  readonly maxTokens?: number | undefined;
  /** Native n, when sent. */
  readonly n?: number | undefined;
  readonly stream: boolean;
  /** The JSON schema the reply is constrained to (response_format, format, output_config, a forced tool). */
  readonly schema?: JsonSchema | undefined;
  /** Tools offered (not the protocol's own structured-output tool), with their required arguments. */
  readonly tools?:
    ReadonlyArray<{ readonly name: string; readonly required?: readonly string[] | undefined }> | undefined;
  readonly toolChoice?: string | undefined;
  readonly logprobs?: boolean | undefined;
}

/** A scripted endpoint: a fake server, or the in-memory backend. */
export interface ScriptedEndpoint {
  enqueue(...replies: NeutralReply[]): void;
  /** Replies not used yet. */
  pending(): number;
  /** Every request received so far, in order. */
  seen(): readonly SeenRequest[];
}

export interface BackendFixture {
  /** The spec the fixture's models resolve to (a config prices it under this key). */
  readonly spec: string;
  /** The model name the endpoint receives. */
  readonly modelId: string;
  /** A model as a user makes one; `prices` go into the config it is made with. */
  model(options?: ModelOptions, prices?: Readonly<Record<string, Price>>): Promise<Model>;
  /** What a call costs with no price in the config: 0 for a local endpoint, the built-in price of a listed model, null when unknown. */
  costWithoutPrice(usage: TokenUsage): number | null;
  /** Settings added to every free-text request (a local decoder: a grammar that keeps the text short and printable, a seed). */
  readonly freeText?: Partial<GenerateRequest>;
  /** Absent for a decoder whose replies cannot be scripted (a GGUF file): clauses then check what holds of any reply. */
  readonly endpoint?: ScriptedEndpoint;
  close(): Promise<void>;
}

export interface BackendContract {
  /** The backend, as the suite names it. */
  readonly name: string;
  /** Clauses this backend cannot meet, each with its reason (the test's skip message). */
  readonly skip?: Partial<Record<Clause, string>>;
  /** Starts the fixture (a fake server, a tiny GGUF file) before the first clause that runs; closed after the last. */
  start(): Promise<BackendFixture>;
}

/** The contract's clauses, by key: a fixture's `skip` names them. */
export const CLAUSES = {
  plain: 'a plain completion: its text, the system prompt and messages as sent, one call recorded with its tokens',
  settings:
    'temperature, topP, seed (where the endpoint takes one), stop and maxTokens reach the endpoint where it reads them',
  n: 'n completions come back, from one call with native n or one call per completion',
  nOnTheWire: 'n on the wire: one request carrying n, or one request per completion with seeds seed, seed+1, …',
  cost: 'cost: without a price as the kind says (0 for a local endpoint, a built-in price, or null); a config price turns tokens into dollars',
  structured: 'structured output: the reply comes back validated as `value`',
  structuredSent: 'structured output: the schema goes out with the request, and the system prompt asks for it',
  structuredRepair: 'structured output: an invalid reply gets one repair request quoting the problem',
  tools: 'tool calls come back parsed, without being executed; the tools reach the endpoint',
  refused: 'a request for what the backend lacks (grammar, tools, logprobs) is refused before any request, saying so',
  streaming: 'streaming: the text arrives in pieces that add up to it, with the usage',
  streamingN: 'streaming n completions: each arrives under its own index, one stream per completion',
  logprobs: 'token log-probabilities for every completion, one per token of its text',
  cache: 'the cache answers a repeated call without a request, and offline names the request it misses',
  retried: '429 and 5xx are retried until an answer comes: one logical call, its attempts counted',
  givesUp: "when retries run out, a ModelCallError names the spec, the status, the attempts and the server's message",
  clientError: "a client error (4xx) is not retried, and the server's message (what to fix) reaches the error",
  timeout: 'an attempt that outlives the timeout fails with a timeout error saying the limit',
  abortInFlight: 'an AbortSignal cancels a request in flight',
  alreadyAborted: 'an already aborted signal makes no request',
  strategy: 'a strategy end to end: repair feeds the counterexample back through this backend, and the run is verified',
} as const;
export type Clause = keyof typeof CLAUSES;

const user = (content: string): ChatMessage[] => [{ role: 'user', content }];
const Point = z.object({ name: z.enum(['a', 'b']), ok: z.boolean() });
const Answer = z.object({ program: z.string(), confidence: z.number().min(0).max(1) });
const tools = {
  run_tests: {
    description: 'run the tests',
    inputSchema: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
  },
};

export function runBackendContract(contract: BackendContract): void {
  const { name } = contract;
  let fixture: Promise<BackendFixture> | undefined;
  let f: BackendFixture;
  const opened: Model[] = [];
  describe(`model backend contract: ${name}`, { concurrency: false }, () => {
    const clause = (key: Clause, body: () => Promise<void>) => {
      const reason = contract.skip?.[key];
      it(CLAUSES[key], reason !== undefined ? { skip: reason } : {}, async () => {
        f = await (fixture ??= contract.start());
        await body();
      });
    };
    after(async () => {
      if (fixture) await (await fixture).close();
    });
    /** A model on the fixture, closed after the clause (a GGUF model holds native memory). */
    const open = async (options: ModelOptions = {}, prices?: Readonly<Record<string, Price>>) => {
      const model = await f.model(options, prices);
      opened.push(model);
      return model;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((m) => m.close()));
    });
    const seenSince = (before: number) => f.endpoint!.seen().slice(before);
    const seenCount = () => f.endpoint?.seen().length ?? 0;
    const freeText = (request: GenerateRequest): GenerateRequest => ({ ...f.freeText, ...request });

    clause('plain', async () => {
      f.endpoint?.enqueue({ text: 'def f(): pass', usage: { input: 11, output: 7 } });
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const result = await model.generate(
        freeText({ messages: [{ role: 'system', content: 'be terse' }, ...user('write f')], label: 'first' }),
      );
      assert.equal(result.completions.length, 1);
      const completion = result.completions[0]!;
      assert.deepEqual(completion.toolCalls, []);
      assert.equal(result.calls.length, 1);
      const call = result.calls[0]!;
      assert.equal(call.label, 'first');
      assert.equal(call.cached, false);
      assert.equal(call.attempts, 1);
      assert.equal(call.completions, 1);
      assert.ok(call.latencyMs > 0);
      assert.deepEqual(call.usage, result.usage);
      assert.deepEqual(model.totals(), {
        calls: 1,
        cachedCalls: 0,
        inputTokens: result.usage.inputTokens,
        cachedInputTokens: result.usage.cachedInputTokens ?? 0,
        outputTokens: result.usage.outputTokens,
        costUsd: result.costUsd,
      });
      if (!f.endpoint) {
        // A real decoder: some text, and tokens counted on both sides.
        assert.equal(typeof completion.text, 'string');
        assert.ok(['stop', 'length'].includes(completion.finishReason), completion.finishReason);
        assert.ok(result.usage.inputTokens > 0 && result.usage.outputTokens > 0, JSON.stringify(result.usage));
        return;
      }
      assert.equal(completion.text, 'def f(): pass');
      assert.equal(completion.finishReason, 'stop');
      assert.deepEqual(result.usage, { inputTokens: 11, outputTokens: 7 });
      const seen = seenSince(before);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.model, f.modelId);
      assert.equal(seen[0]!.system, 'be terse');
      assert.deepEqual(
        seen[0]!.messages,
        [{ role: 'user', text: 'write f' }],
        'no system message left among the messages',
      );
      assert.equal(seen[0]!.stream, false, 'without onText the reply is not streamed');
    });

    clause('settings', async () => {
      f.endpoint!.enqueue('sampled', 'nucleus');
      const model = await open({ cache: 'off' });
      const before = seenCount();
      await model.generate({ messages: user('sample'), temperature: 0.7, seed: 42, stop: ['\n\n'], maxTokens: 64 });
      // topP alone: with a temperature, some SDKs (Anthropic's) send only the temperature.
      await model.generate({ messages: user('nucleus'), topP: 0.9 });
      const [sampled, nucleus] = seenSince(before);
      assert.equal(sampled!.temperature, 0.7);
      assert.deepEqual(sampled!.stop, ['\n\n']);
      assert.equal(sampled!.maxTokens, 64);
      assert.equal(
        sampled!.seed,
        model.capabilities.seed ? 42 : undefined,
        'a seed goes out only where the endpoint takes one',
      );
      assert.equal(nucleus!.topP, 0.9);
    });

    clause('n', async () => {
      f.endpoint?.enqueue('one', 'two', 'three');
      const model = await open({ cache: 'off' });
      const result = await model.generate(freeText({ messages: user('three please'), n: 3, temperature: 1, seed: 40 }));
      assert.equal(result.completions.length, 3);
      const calls = model.capabilities.nativeN ? 1 : 3;
      assert.equal(result.calls.length, calls);
      assert.equal(
        result.calls.reduce((sum, c) => sum + c.completions, 0),
        3,
      );
      assert.equal(model.totals().calls, calls);
      if (f.endpoint) assert.deepEqual(result.completions.map((c) => c.text).sort(), ['one', 'three', 'two']);
    });

    clause('nOnTheWire', async () => {
      f.endpoint!.enqueue('one', 'two', 'three');
      const model = await open({ cache: 'off' });
      const before = seenCount();
      await model.generate({ messages: user('three please'), n: 3, temperature: 1, seed: 40 });
      const seen = seenSince(before);
      assert.ok(seen.every((r) => r.messages.at(-1)!.text === 'three please'));
      if (model.capabilities.nativeN) {
        assert.equal(seen.length, 1);
        assert.equal(seen[0]!.n, 3);
        return;
      }
      assert.equal(seen.length, 3);
      assert.ok(
        seen.every((r) => r.n === undefined),
        'no n in the body',
      );
      assert.deepEqual(
        seen.map((r) => r.seed).sort(),
        model.capabilities.seed ? [40, 41, 42] : [undefined, undefined, undefined],
      );
    });

    clause('cost', async () => {
      f.endpoint?.enqueue(
        { text: 'unpriced', usage: { input: 1000, output: 500 } },
        { text: 'priced', usage: { input: 1000, output: 500 } },
      );
      const unpriced = await open({ cache: 'off' });
      const first = await unpriced.generate(freeText({ messages: user('price me') }));
      const expected = f.costWithoutPrice(first.usage);
      if (expected === null) assert.equal(first.costUsd, null);
      else assert.ok(Math.abs(first.costUsd! - expected) < 1e-12, `cost ${first.costUsd}, expected ${expected}`);
      assert.equal(unpriced.totals().costUsd, first.costUsd);
      const priced = await open({ cache: 'off' }, { [f.spec]: { input: 2, output: 10 } });
      const second = await priced.generate(freeText({ messages: user('price me') }));
      const dollars = (second.usage.inputTokens * 2 + second.usage.outputTokens * 10) / 1e6;
      assert.ok(dollars > 0);
      assert.ok(Math.abs(second.costUsd! - dollars) < 1e-12, `cost ${second.costUsd}, expected ${dollars}`);
      assert.equal(priced.totals().costUsd, second.costUsd);
      if (f.endpoint) assert.equal(second.costUsd, (1000 * 2 + 500 * 10) / 1e6);
    });

    clause('structured', async () => {
      f.endpoint?.enqueue({ json: { name: 'a', ok: true } }, { json: { name: 'b', ok: false } });
      const model = await open({ cache: 'off' });
      const result = await model.generate({
        messages: user('answer'),
        output: { schema: Point, name: 'point' },
        n: 2,
        temperature: 1,
        seed: 3,
      });
      assert.equal(result.completions.length, 2);
      for (const completion of result.completions) {
        assert.equal(completion.outputError, undefined, completion.text);
        assert.deepEqual(Point.parse(completion.value), completion.value);
      }
      if (f.endpoint) {
        assert.deepEqual(
          result.completions.map((c) => c.value).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
          [
            { name: 'a', ok: true },
            { name: 'b', ok: false },
          ],
        );
        assert.ok(
          result.completions.every((c) => c.repaired === undefined),
          'no repair was needed',
        );
      }
    });

    clause('structuredSent', async () => {
      f.endpoint!.enqueue({ json: { name: 'a', ok: true } });
      const model = await open({ cache: 'off' });
      const before = seenCount();
      await model.generate({
        messages: [{ role: 'system', content: 'you write code' }, ...user('answer')],
        output: { schema: Point, name: 'point' },
      });
      const [request] = seenSince(before);
      const schema = request!.schema as { type?: string; required?: string[] } | undefined;
      assert.equal(schema?.type, 'object');
      assert.deepEqual(schema?.required, ['name', 'ok']);
      assert.match(request!.system, /JSON Schema/);
      assert.match(request!.system, /you write code/, 'both system messages reach the endpoint');
    });

    clause('structuredRepair', async () => {
      const wrong = { program: 'print(1)', confidence: 7 };
      f.endpoint!.enqueue({ json: wrong }, { json: { program: 'print(1)', confidence: 0.7 } });
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const result = await model.generate({ messages: user('answer'), output: { schema: Answer }, label: 'final' });
      assert.deepEqual(result.completions[0]!.value, { program: 'print(1)', confidence: 0.7 });
      assert.equal(result.completions[0]!.repaired, true);
      assert.deepEqual(
        result.calls.map((c) => c.label),
        ['final', 'final:repair'],
      );
      const repair = seenSince(before)[1]!;
      assert.ok(repair.schema, 'the repair request is constrained by the schema too');
      assert.equal(repair.messages.at(-2)!.role, 'assistant');
      assert.deepEqual(JSON.parse(repair.messages.at(-2)!.text), wrong, 'the invalid reply is quoted back');
      assert.match(repair.messages.at(-1)!.text, /at \$\.confidence/);
    });

    clause('tools', async () => {
      f.endpoint!.enqueue({ toolCalls: [{ name: 'run_tests', input: { file: 'a.py' } }] });
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const result = await model.generate({ messages: user('test it'), tools, toolChoice: 'required' });
      const [request] = seenSince(before);
      assert.deepEqual(request!.tools, [{ name: 'run_tests', required: ['file'] }]);
      assert.equal(request!.toolChoice, 'required');
      const completion = result.completions[0]!;
      assert.equal(completion.finishReason, 'tool-calls');
      assert.deepEqual(
        completion.toolCalls.map((c) => [c.name, c.input]),
        [['run_tests', { file: 'a.py' }]],
      );
      assert.ok(
        completion.toolCalls.every((c) => typeof c.id === 'string' && c.id.length > 0),
        'each call has an id',
      );
    });

    clause('refused', async () => {
      const model = await open({ cache: 'off' });
      const caps = model.capabilities;
      const asks: Array<[boolean, Partial<GenerateRequest>, RegExp]> = [
        [caps.grammar === false, { grammar: 'root ::= "yes"' }, /cannot decode under a grammar: use a gguf: model/],
        [!caps.tools, { tools }, /does not take tool definitions/],
        [!caps.logprobs, { logprobs: true }, /does not report token log-probabilities/],
      ];
      const lacking = asks.filter(([lacks]) => lacks);
      assert.ok(lacking.length > 0, 'the backend lacks something to refuse');
      const before = seenCount();
      for (const [, ask, message] of lacking) {
        await assert.rejects(
          model.generate({ messages: user('refuse me'), ...ask }),
          (error: unknown) =>
            error instanceof ModelConfigError && message.test(error.message) && error.message.startsWith(model.spec),
        );
      }
      assert.equal(seenCount(), before, 'no request was made');
      assert.equal(model.totals().calls, 0);
    });

    clause('streaming', async () => {
      const text = 'def add(a, b):\n    return a + b\n';
      f.endpoint?.enqueue({ text, usage: { input: 12, output: 9 } });
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const pieces: string[] = [];
      const result = await model.generate(
        freeText({ messages: user('add'), onText: (index, delta) => (assert.equal(index, 0), pieces.push(delta)) }),
      );
      assert.ok(pieces.length > 1, `more than one delta: ${JSON.stringify(pieces)}`);
      assert.equal(pieces.join(''), result.completions[0]!.text);
      assert.ok(result.usage.inputTokens > 0 && result.usage.outputTokens > 0);
      if (!f.endpoint) return;
      assert.equal(result.completions[0]!.text, text);
      assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 9 });
      assert.deepEqual(
        seenSince(before).map((r) => r.stream),
        [true],
      );
    });

    clause('streamingN', async () => {
      f.endpoint?.enqueue('alpha', 'beta');
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const texts = ['', ''];
      const result = await model.generate(
        freeText({
          messages: user('two'),
          n: 2,
          temperature: 1,
          seed: 21,
          onText: (index, delta) => (texts[index] += delta),
        }),
      );
      assert.deepEqual(
        result.completions.map((c) => c.text),
        texts,
        'completion i is the text streamed under index i',
      );
      if (!f.endpoint) return;
      assert.deepEqual([...texts].sort(), ['alpha', 'beta']);
      assert.deepEqual(
        seenSince(before).map((r) => r.stream),
        [true, true],
        'one stream per completion',
      );
    });

    clause('logprobs', async () => {
      f.endpoint?.enqueue('return 1', 'return 22');
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const result = await model.generate(
        freeText({ messages: user('lp'), n: 2, temperature: 1, seed: 9, logprobs: true }),
      );
      assert.equal(result.completions.length, 2);
      for (const completion of result.completions) {
        assert.ok(completion.logprobs && completion.logprobs.length > 0, 'log-probabilities came back');
        assert.equal(completion.logprobs.map((t) => t.token).join(''), completion.text);
        assert.ok(
          completion.logprobs.every((t) => Number.isFinite(t.logprob) && (f.endpoint ? t.logprob < 0 : t.logprob <= 0)),
          JSON.stringify(completion.logprobs),
        );
      }
      if (f.endpoint) {
        assert.deepEqual(result.completions.map((c) => c.text).sort(), ['return 1', 'return 22']);
        assert.ok(seenSince(before).every((r) => r.logprobs === true));
      }
    });

    clause('cache', async () => {
      f.endpoint?.enqueue('recorded once');
      const ask = freeText({ messages: user(`cache me (${name})`), temperature: 0 });
      const first = await (await open()).generate(ask);
      const before = seenCount();
      const again = await (await open()).generate(ask);
      assert.equal(seenCount(), before, 'no request reached the endpoint');
      assert.deepEqual(again.completions, first.completions);
      assert.deepEqual(again.usage, first.usage);
      assert.equal(again.calls[0]!.cached, true);
      assert.equal(again.calls[0]!.attempts, 0);
      if (f.endpoint) assert.equal(again.completions[0]!.text, 'recorded once');
      const offline = await open({ cache: 'offline' });
      await assert.rejects(
        offline.generate(freeText({ messages: user(`never recorded for ${name}`) })),
        (error: unknown) => {
          assert.ok(error instanceof CacheMissError);
          assert.match(
            error.message,
            new RegExp(
              `^offline: no cached response for request [0-9a-f]{64} \\(.*never recorded for ${escapeRegExp(name)}`,
            ),
          );
          return true;
        },
      );
      assert.equal(seenCount(), before);
    });

    clause('retried', async () => {
      f.endpoint!.enqueue(
        { status: 429, retryAfterSeconds: 0 },
        { status: 500 },
        { status: 503, message: 'server busy, please try again' },
        'finally',
      );
      const model = await open({ cache: 'off', retry: { baseDelayMs: 1 } });
      const before = seenCount();
      const result = await model.generate({ messages: user('retry me') });
      assert.equal(result.completions[0]!.text, 'finally');
      assert.equal(seenCount() - before, 4);
      assert.equal(result.calls[0]!.attempts, 4);
      assert.equal(model.totals().calls, 1, 'retries are one logical call');
    });

    clause('givesUp', async () => {
      const failure = { status: 503, message: 'try again later' };
      f.endpoint!.enqueue(failure, failure, failure);
      const model = await open({ cache: 'off', retry: { retries: 2, baseDelayMs: 1 } });
      await assert.rejects(model.generate({ messages: user('never') }), (error: unknown) => {
        assert.ok(error instanceof ModelCallError);
        assert.equal(error.statusCode, 503);
        assert.equal(error.attempts, 3);
        assert.match(
          error.message,
          new RegExp(`^${escapeRegExp(model.spec)}: HTTP 503 after 3 attempts: .*try again later`),
        );
        return true;
      });
      assert.equal(f.endpoint!.pending(), 0);
    });

    clause('clientError', async () => {
      f.endpoint!.enqueue({ status: 400, message: 'messages: the last message must be from the user' }, 'not reached');
      const model = await open({ cache: 'off', retry: { baseDelayMs: 1 } });
      await assert.rejects(model.generate({ messages: user('bad') }), (error: unknown) => {
        assert.ok(error instanceof ModelCallError);
        assert.equal(error.statusCode, 400);
        assert.equal(error.attempts, 1, 'a 400 is not retried');
        assert.match(error.message, /HTTP 400: .*the last message must be from the user/);
        return true;
      });
      assert.equal(f.endpoint!.pending(), 1);
      assert.equal(
        (await model.generate({ messages: user('takes the reply left') })).completions[0]!.text,
        'not reached',
      );
    });

    clause('timeout', async () => {
      f.endpoint!.enqueue({ text: 'too late', delayMs: 5_000 });
      const model = await open({ cache: 'off', timeoutMs: 150, retry: { retries: 0 } });
      await assert.rejects(
        model.generate({ messages: user('slow') }),
        (error: unknown) => error instanceof ModelTimeoutError && /no answer within 150 ms/.test(error.message),
      );
    });

    clause('abortInFlight', async () => {
      f.endpoint!.enqueue({ text: 'never seen', delayMs: 5_000 });
      const model = await open({ cache: 'off' });
      const before = seenCount();
      const controller = new AbortController();
      const pending = model.generate({ messages: user('cancel me'), signal: controller.signal });
      // Abort once the endpoint has the request: it is then in flight.
      for (let waited = 0; seenCount() === before; waited++) {
        if (waited > 2000) assert.fail('the request never reached the endpoint');
        await sleep(5);
      }
      controller.abort();
      await assert.rejects(pending, (error: unknown) => (error as Error).name === 'AbortError');
    });

    clause('alreadyAborted', async () => {
      const model = await open({ cache: 'off' });
      const before = seenCount();
      await assert.rejects(
        model.generate(freeText({ messages: user('x'), signal: AbortSignal.abort() })),
        (error: unknown) => (error as Error).name === 'AbortError',
      );
      assert.equal(seenCount(), before);
      assert.equal(model.totals().calls, 0);
    });

    clause('strategy', async () => {
      // Imported here: the strategies take most of a second to load, which the other clauses do not need.
      const [{ solveTask }, { inMemoryHarness }, { builtin, fenced, standInRuntime }] = await Promise.all([
        import('../../src/strategies/index.js'),
        import('../../src/testing/index.js'),
        import('../strategies-support.js'),
      ]);
      const brackets = builtin('builtin/py/balanced-brackets');
      f.endpoint!.enqueue(fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal')));
      const model = await open({ cache: 'off', retry: { retries: 0 } });
      // The subject is the conversation through this backend; programs are judged in memory.
      const harness = inMemoryHarness(standInRuntime());
      const before = seenCount();
      try {
        const { result } = await solveTask({
          task: brackets.task,
          strategy: 'repair',
          model,
          harness,
          budget: { modelCalls: 4 },
          seed: 7,
          options: { modelTests: false },
        });
        assert.equal(result.status, 'verified', result.reason);
        assert.equal(result.program, brackets.program('pair-removal'));
      } finally {
        await harness.close();
      }
      const seen = seenSince(before);
      assert.equal(seen.length, 2);
      assert.ok(
        seen.every((r) => r.system.length > 0),
        "the strategy's system prompt reached the endpoint",
      );
      const feedback = seen[1]!.messages.at(-1)!;
      assert.equal(feedback.role, 'user');
      assert.match(feedback.text, /Input: is_balanced\(\["\("\]\)|Input: is_balanced\("\("\)/);
      assert.match(feedback.text, /Your program returned: True/);
      assert.equal(seen[1]!.messages.at(-2)!.role, 'assistant', 'the wrong program is in the conversation');
    });
  });
}
