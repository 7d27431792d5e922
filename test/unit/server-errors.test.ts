/**
 * The server maps errors by their code once: a user's mistake is a 400 that says what to
 * fix; anything else thrown inside (a V8 RangeError included) is a 500 that blames Crucible.
 * Through the app itself (hono's app.request), with a task verifier that throws on cue.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BadRequestError } from '../../src/core/errors.js';
import { createApp } from '../../src/server/app.js';
import type { Executor } from '../../src/runtimes/executor.js';
import { Metrics } from '../../src/server/metrics.js';
import { TaskVerifier } from '../../src/server/verify-task.js';

class Throwing extends TaskVerifier {
  constructor(private readonly error: Error) {
    super();
  }
  override check(): void {
    throw this.error;
  }
}

const unused = new Proxy({}, { get: () => assert.fail('no program runs in this test') }) as Executor;
const appThrowing = (error: Error) =>
  createApp({
    executor: unused,
    metrics: new Metrics(),
    maxBodyBytes: 1 << 20,
    requestTimeoutSeconds: 30,
    version: 'test',
    tasks: new Throwing(error),
  });
const body = JSON.stringify({
  task: { language: 'python', prompt: 'def f(x):\n', entry_point: 'f', tests: [{ input: '1', output: '1' }] },
  candidates: ['def f(x):\n    return x\n'],
});
const post = (app: ReturnType<typeof createApp>) =>
  app.request('/v1/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

test("a user's mistake is a 400 with its message; an internal RangeError is a 500", async () => {
  const bad = await post(appThrowing(new BadRequestError('task.tests: give at least one test')));
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), { error: 'task.tests: give at least one test' });
  const internal = await post(appThrowing(new RangeError('Maximum call stack size exceeded')));
  assert.equal(internal.status, 500);
  assert.match(((await internal.json()) as { error: string }).error, /bug in Crucible, not in your request/);
});
