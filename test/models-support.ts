/** Shared set-up for the model tests: a fake server and a model on it with its own cache folder. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_CONFIG, type CrucibleConfig } from '../src/models/config.js';
import { ModelCallError } from '../src/models/errors.js';
import { createModel, type ModelOptions } from '../src/models/model.js';
import type { FakeHttpFailure, FakeHttpServer } from '../src/models/testing/fake-http.js';
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeServerOptions,
} from '../src/models/testing/fake-openai-server.js';
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

export async function fixture(
  serverOptions: FakeServerOptions = {},
  config: CrucibleConfig = EMPTY_CONFIG,
): Promise<Fixture> {
  const base = await serverFixture(await startFakeOpenAIServer(serverOptions));
  const spec = `${base.server.url}#fake-model`;
  return {
    ...base,
    spec,
    model: (options = {}) =>
      createModel(spec, { config, env: {}, cacheDir: base.cacheDir, retry: { baseDelayMs: 5 }, ...options }),
  };
}

export const user = (content: string) => [{ role: 'user' as const, content }];

/** A fake server of any protocol, as the scenarios below script it: failures and plain text. */
type Scripted = FakeHttpServer<unknown, FakeHttpFailure | string>;

/** Each of `failures` is retried, and the answer after them is the result of one call. */
export async function assertRetriedUntilAnswer(
  server: Scripted,
  model: (options: ModelOptions) => Promise<Model>,
  failures: readonly FakeHttpFailure[],
): Promise<void> {
  server.enqueue(...failures, 'finally');
  const m = await model({ cache: 'off' });
  const before = server.requests.length;
  const result = await m.generate({ messages: user('retry me') });
  assert.equal(result.completions[0]!.text, 'finally');
  assert.equal(server.requests.length - before, failures.length + 1);
  assert.equal(result.calls[0]!.attempts, failures.length + 1);
}

/** A failure that outlasts two retries ends in a ModelCallError with its status, 3 attempts and `message`. */
export async function assertGivesUpAfterRetries(
  server: Scripted,
  model: (options: ModelOptions) => Promise<Model>,
  failure: FakeHttpFailure,
  message: RegExp,
): Promise<void> {
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
