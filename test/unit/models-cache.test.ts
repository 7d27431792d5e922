/** The content-addressed cache: record, replay exactly, and offline misses that say what missed. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createHash } from 'node:crypto';
import { canonicalJson, requestHash } from '../../src/models/cache.js';
import { CacheMissError } from '../../src/models/errors.js';
import type { GenerateRequest, Model } from '../../src/models/types.js';
import { fixture, user, type Fixture } from '../models-support.js';

let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

/** A small "run": the same prompt sampled twice, then n=2, then a follow-up. */
async function run(model: Model) {
  const ask = (request: GenerateRequest) => model.generate(request);
  const a = await ask({ messages: user('solve task 7'), temperature: 1 });
  const b = await ask({ messages: user('solve task 7'), temperature: 1 });
  const c = await ask({ messages: user('solve task 7 twice'), temperature: 1, n: 2 });
  const d = await ask({
    messages: [...user('solve task 7'), { role: 'assistant', content: a.completions[0]!.text }, ...user('fix it')],
  });
  return [a, b, c, d];
}

test('a run replays exactly from the cache, offline, without touching the server', async () => {
  f.server.enqueue('answer A', 'answer B', 'C1', 'C2', 'answer D');
  const recorded = await run(await f.model());
  assert.deepEqual(
    recorded.map((r) => r.completions.map((c) => c.text)),
    [['answer A'], ['answer B'], ['C1', 'C2'], ['answer D']],
  );
  assert.ok(recorded.every((r) => r.calls.every((c) => !c.cached)));

  const before = f.server.requests.length;
  const offline = await f.model({ cache: 'offline' });
  const replayed = await run(offline);
  assert.equal(f.server.requests.length, before, 'no request reached the server');
  assert.deepEqual(
    replayed.map((r) => r.completions),
    recorded.map((r) => r.completions),
  );
  assert.deepEqual(
    replayed.map((r) => r.usage),
    recorded.map((r) => r.usage),
  );
  assert.deepEqual(
    replayed.map((r) => r.calls.map((c) => c.requestHash)),
    recorded.map((r) => r.calls.map((c) => c.requestHash)),
  );
  assert.ok(replayed.every((r) => r.calls.every((c) => c.cached && c.attempts === 0)));
  assert.equal(offline.totals().cachedCalls, 4);
});

test('offline: a request never recorded fails and says which one', async () => {
  const offline = await f.model({ cache: 'offline' });
  await assert.rejects(offline.generate({ messages: user('a prompt nobody recorded'), seed: 9 }), (error: unknown) => {
    assert.ok(error instanceof CacheMissError);
    assert.match(error.message, /^offline: no cached response for request [0-9a-f]{64}/);
    assert.match(error.message, /a prompt nobody recorded/);
    assert.match(error.message, /run once without --offline/);
    return true;
  });
});

test('a setting that changes the request changes the key', async () => {
  f.server.enqueue('t=0', 't=0.5');
  const model = await f.model();
  const cold = await model.generate({ messages: user('settings matter'), temperature: 0 });
  const warm = await model.generate({ messages: user('settings matter'), temperature: 0.5 });
  assert.notEqual(cold.calls[0]!.requestHash, warm.calls[0]!.requestHash);
  assert.equal(warm.completions[0]!.text, 't=0.5');
});

test('failed calls are not cached', async () => {
  f.server.enqueue({ status: 500 });
  const model = await f.model({ retry: { retries: 0 } });
  await assert.rejects(model.generate({ messages: user('fails once') }));
  const offline = await f.model({ cache: 'offline' });
  await assert.rejects(offline.generate({ messages: user('fails once') }), CacheMissError);
});

test('refresh calls the endpoint again and records the new answer; off neither reads nor writes', async () => {
  f.server.enqueue('old', 'new', 'uncached');
  await (await f.model()).generate({ messages: user('refresh me') });
  const refreshed = await (await f.model({ cache: 'refresh' })).generate({ messages: user('refresh me') });
  assert.equal(refreshed.completions[0]!.text, 'new');
  const replay = await (await f.model({ cache: 'offline' })).generate({ messages: user('refresh me') });
  assert.equal(replay.completions[0]!.text, 'new');
  await (await f.model({ cache: 'off' })).generate({ messages: user('never stored') });
  await assert.rejects(
    (await f.model({ cache: 'offline' })).generate({ messages: user('never stored') }),
    CacheMissError,
  );
});

test('a cached streamed call still delivers its text to onText', async () => {
  f.server.enqueue('streamed once');
  await (await f.model()).generate({ messages: user('stream and cache'), onText: () => {} });
  let seen = '';
  const replay = await (
    await f.model({ cache: 'offline' })
  ).generate({ messages: user('stream and cache'), onText: (_i, delta) => (seen += delta) });
  assert.equal(seen, 'streamed once');
  assert.equal(replay.calls[0]!.cached, true);
});

test('cache keys are sha256 of the canonical {v, spec, request, occurrence}, so caches recorded earlier still replay', () => {
  const request = {
    messages: [{ role: 'user', content: 'say "hi"\n\u00e9' }],
    n: 1,
    temperature: 0.5,
    seed: 3,
    responseFormat: { type: 'json', schema: { type: 'object', b: 1, a: [2, { z: 1, y: null }] } },
  };
  // The definition caches were recorded with: JSON.stringify over copies with sorted keys.
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  assert.equal(canonicalJson(request), JSON.stringify(sorted(request)));
  for (const occurrence of [0, 7]) {
    const spec = 'http://127.0.0.1:1/v1#m "x"';
    const expected = createHash('sha256')
      .update(JSON.stringify(sorted({ v: 1, spec, request, occurrence })))
      .digest('hex');
    assert.equal(requestHash(spec, canonicalJson(request), occurrence), expected);
  }
});
