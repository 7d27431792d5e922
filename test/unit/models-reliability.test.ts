/**
 * The concurrency limit, against real HTTP. Retries, timeouts and cancellation are clauses of
 * the model-backend contract (test/contracts/backend-contract.ts), run for every backend.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, user } from '../models-support.js';

test('the concurrency limit bounds requests in flight', async () => {
  const g = await fixture({ script: () => ({ content: 'slow answer', delayMs: 80 }) });
  try {
    const model = await g.model({ cache: 'off', concurrency: 2 });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => model.generate({ messages: user(`request ${i}`) })),
    );
    assert.equal(results.length, 6);
    assert.equal(g.server.requests.length, 6);
    assert.ok(g.server.maxInFlight <= 2, `at most 2 in flight, saw ${g.server.maxInFlight}`);
    // Non-native n is split into several requests: they obey the same limit.
  } finally {
    await g.close();
  }
});
