/** Shared set-up for the model tests: a fake server and a model on it with its own cache folder. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_CONFIG, type CrucibleConfig } from '../src/models/config.js';
import { CacheMissError, ModelCallError } from '../src/models/errors.js';
import { createModel, type ModelOptions } from '../src/models/model.js';
import type { FakeHttpFailure, FakeHttpServer } from '../src/models/testing/fake-http.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeServerOptions } from '../src/models/testing/fake-openai-server.js';
import type { GenerateResult, Model } from '../src/models/types.js';

/** A fake server of any protocol and a fresh cache folder; close() stops the one and removes the other. */
export interface ServerFixture<S> {
  readonly server: S;
  readonly cacheDir: string;
  close(): Promise<void>;
}

export async function serverFixture<S extends { close(): Promise<void> }>(server: S): Promise<ServerFixture<S>> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-models-'));
  return {
    server,
    cacheDir,
    close: async () => {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

export interface Fixture extends ServerFixture<FakeOpenAIServer> {
  readonly spec: string;
  model(options?: ModelOptions): Promise<Model>;
}

export async function fixture(serverOptions: FakeServerOptions = {}, config: CrucibleConfig = EMPTY_CONFIG): Promise<Fixture> {
  const base = await serverFixture(await startFakeOpenAIServer(serverOptions));
  const spec = `${base.server.url}#fake-model`;
  return { ...base, spec, model: (options = {}) => createModel(spec, { config, env: {}, cacheDir: base.cacheDir, retry: { baseDelayMs: 5 }, ...options }) };
}

export const user = (content: string) => [{ role: 'user' as const, content }];

/** A fake server of any protocol, as the scenarios below script it: failures and plain text. */
type Scripted = FakeHttpServer<unknown, FakeHttpFailure | string>;

/** Each of `failures` is retried, and the answer after them is the result of one call. */
export async function assertRetriedUntilAnswer(server: Scripted, model: (options: ModelOptions) => Promise<Model>, failures: readonly FakeHttpFailure[]): Promise<void> {
  server.enqueue(...failures, 'finally');
  const m = await model({ cache: 'off' });
  const before = server.requests.length;
  const result = await m.generate({ messages: user('retry me') });
  assert.equal(result.completions[0]!.text, 'finally');
  assert.equal(server.requests.length - before, failures.length + 1);
  assert.equal(result.calls[0]!.attempts, failures.length + 1);
}

/** A failure that outlasts two retries ends in a ModelCallError with its status, 3 attempts and `message`. */
export async function assertGivesUpAfterRetries(server: Scripted, model: (options: ModelOptions) => Promise<Model>, failure: FakeHttpFailure, message: RegExp): Promise<void> {
  server.enqueue(failure, failure, failure);
  const m = await model({ cache: 'off', retry: { retries: 2, baseDelayMs: 1 } });
  await assert.rejects(m.generate({ messages: user('never') }), (error: unknown) => {
    assert.ok(error instanceof ModelCallError);
    assert.equal(error.statusCode, failure.status);
    assert.equal(error.attempts, 3);
    assert.match(error.message, message);
    return true;
  });
  assert.equal(server.pending(), 0);
}

/** Generates with onText: the reply, scripted as `text`, arrives in more than one piece and adds up. */
export async function generateInPieces(model: Model, text: string): Promise<GenerateResult> {
  const pieces: string[] = [];
  const result = await model.generate({ messages: user('add'), onText: (_index, delta) => pieces.push(delta) });
  assert.ok(pieces.length > 1, 'more than one delta');
  assert.equal(pieces.join(''), text);
  assert.equal(result.completions[0]!.text, text);
  return result;
}

/**
 * The cache answers a repeated call without a request, and offline names the request it misses.
 * `model` makes a model on the server with the fixture's cache folder.
 */
export async function assertCacheThenOffline(server: Scripted, model: (options?: ModelOptions) => Promise<Model>, name: string): Promise<void> {
  server.enqueue('recorded once');
  const first = await (await model()).generate({ messages: user('cache me'), temperature: 0 });
  const before = server.requests.length;
  const again = await (await model()).generate({ messages: user('cache me'), temperature: 0 });
  assert.equal(server.requests.length, before, 'no request reached the server');
  assert.equal(again.completions[0]!.text, 'recorded once');
  assert.deepEqual(again.usage, first.usage);
  assert.equal(again.calls[0]!.cached, true);
  assert.equal(again.calls[0]!.attempts, 0);
  const offline = await model({ cache: 'offline' });
  await assert.rejects(offline.generate({ messages: user(`never recorded for ${name}`) }), (error: unknown) => {
    assert.ok(error instanceof CacheMissError);
    assert.match(error.message, new RegExp(`^offline: no cached response for request [0-9a-f]{64} \\(.*never recorded for ${name}`));
    return true;
  });
  assert.equal(server.requests.length, before);
}

/**
 * Repair end to end on a scripted provider: a wrong program, the counterexample fed back in the
 * last message of the second request (`lastMessage` reads it in the provider's shape), then verified.
 * Returns the requests for checks of the provider's own.
 */
export async function assertRepairEndToEnd<S extends { readonly requests: readonly unknown[]; close(): Promise<void> }>(
  start: (options: { script: () => string | FakeHttpFailure }) => Promise<S>,
  connect: (server: S) => Promise<Model>,
  lastMessage: (request: S['requests'][number]) => { readonly role: string; readonly text: string },
): Promise<S['requests']> {
  // Imported here: the strategies and the harness take most of a second to load, which the other model tests do not need.
  const [{ solveTask }, { Harness }, { builtin, fenced }] = await Promise.all([import('../src/strategies/index.js'), import('../src/verify/harness.js'), import('./strategies-support.js')]);
  const brackets = builtin('builtin/py/balanced-brackets');
  const harness = new Harness({ workers: 1 });
  const programs = [fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal'))];
  const scripted = await start({ script: () => programs.shift() ?? { status: 500, message: 'no program left' } });
  try {
    const model = await connect(scripted);
    const { result } = await solveTask({ task: brackets.task, strategy: 'repair', model, harness, budget: { modelCalls: 4 }, seed: 7, options: { modelTests: false } });
    assert.equal(result.status, 'verified', result.reason);
    assert.equal(result.program, brackets.program('pair-removal'));
    assert.equal(scripted.requests.length, 2);
    const second = lastMessage(scripted.requests[1]!);
    assert.equal(second.role, 'user');
    assert.match(second.text, /Input: is_balanced\(\["\("\]\)|Input: is_balanced\("\("\)/);
    assert.match(second.text, /Your program returned: True/);
    return scripted.requests;
  } finally {
    await scripted.close();
    await harness.close();
  }
}
