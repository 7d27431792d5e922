/** Retries, timeouts, cancellation and the concurrency limit, against real HTTP. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ModelCallError, ModelTimeoutError } from '../src/models/errors.js';
import { fixture, user, type Fixture } from './models-support.js';

let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

test('429 and 500 are retried with backoff until an answer comes', async () => {
  f.server.enqueue({ status: 429, retryAfterSeconds: 0 }, { status: 500 }, { status: 503 }, 'finally');
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('retry me') });
  assert.equal(result.completions[0]!.text, 'finally');
  assert.equal(f.server.requests.length - before, 4);
  assert.equal(result.calls[0]!.attempts, 4);
  assert.equal(model.totals().calls, 1, 'retries are one logical call');
});

test('when retries run out the error names the status and the attempts', async () => {
  f.server.enqueue({ status: 429, message: 'slow down' }, { status: 429, message: 'slow down' }, { status: 429, message: 'slow down' });
  const model = await f.model({ cache: 'off', retry: { retries: 2, baseDelayMs: 1 } });
  await assert.rejects(model.generate({ messages: user('never') }), (error: unknown) => {
    assert.ok(error instanceof ModelCallError);
    assert.equal(error.statusCode, 429);
    assert.equal(error.attempts, 3);
    assert.match(error.message, /HTTP 429 after 3 attempts: slow down/);
    return true;
  });
  assert.equal(f.server.pending(), 0);
});

test('a client error (400) is not retried', async () => {
  f.server.enqueue({ status: 400, message: 'bad schema' }, 'not reached');
  const model = await f.model({ cache: 'off' });
  await assert.rejects(model.generate({ messages: user('bad') }), (error: unknown) => error instanceof ModelCallError && error.statusCode === 400 && error.attempts === 1);
  assert.equal(f.server.pending(), 1);
  await (await f.model({ cache: 'off' })).generate({ messages: user('takes the reply left in the queue') });
});

test('a request that outlives the timeout fails with a timeout error', async () => {
  f.server.enqueue({ content: 'too late', delayMs: 5_000 });
  const model = await f.model({ cache: 'off', timeoutMs: 150, retry: { retries: 0 } });
  await assert.rejects(model.generate({ messages: user('slow') }), (error: unknown) => error instanceof ModelTimeoutError && /150 ms/.test(error.message));
});

test('an AbortSignal cancels a request in flight', async () => {
  f.server.enqueue({ content: 'never seen', delayMs: 5_000 });
  const model = await f.model({ cache: 'off' });
  const controller = new AbortController();
  const pending = model.generate({ messages: user('cancel me'), signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(pending, (error: unknown) => (error as Error).name === 'AbortError');
});

test('an already aborted signal makes no request', async () => {
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  await assert.rejects(model.generate({ messages: user('x'), signal: AbortSignal.abort() }), (error: unknown) => (error as Error).name === 'AbortError');
  assert.equal(f.server.requests.length, before);
});

test('the concurrency limit bounds requests in flight', async () => {
  const g = await (await import('./models-support.js')).fixture({ script: () => ({ content: 'slow answer', delayMs: 80 }) });
  try {
    const model = await g.model({ cache: 'off', concurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => model.generate({ messages: user(`request ${i}`) })));
    assert.equal(results.length, 6);
    assert.equal(g.server.requests.length, 6);
    assert.ok(g.server.maxInFlight <= 2, `at most 2 in flight, saw ${g.server.maxInFlight}`);
    // Non-native n is split into several requests: they obey the same limit.
  } finally {
    await g.close();
  }
});
