/**
 * Malformed, mutated and oversized bodies at every endpoint: the answer is always a 4xx
 * or a 200 (never a 5xx), and the server keeps answering afterwards.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { request } from 'node:http';
import fc from 'fast-check';
import { startTestServer, SUM_RIGHT, type TestServer } from './server-support.js';

const MAX_BODY = 64 * 1024;
let server: TestServer;
before(async () => {
  server = await startTestServer({ workers: 2, maxBodyBytes: MAX_BODY, requestTimeoutSeconds: 20 });
});
after(() => server.close());

/** A function-style /v1/verify body (the fuzz mutates it like the others, under its own key). */
const VERIFY_TASK = '/v1/verify#task';
const VALID: Record<string, unknown> = {
  '/run_code': {
    code: SUM_RIGHT,
    stdin: '1 2',
    language: 'python',
    compile_timeout: 10,
    run_timeout: 2,
    files: {},
    fetch_files: [],
  },
  '/submit': {
    dataset: 'd',
    id: 1,
    completion: '```python\nprint(1)\n```',
    config: { language: 'python', provided_data: { test: [{ input: { stdin: '' }, output: { stdout: '1' } }] } },
  },
  '/v1/verify': {
    language: 'python',
    candidates: [SUM_RIGHT],
    tests: [{ stdin: '1 2', expected_stdout: '3' }],
    limits: { time_seconds: 2 },
  },
  [VERIFY_TASK]: {
    task: {
      language: 'python',
      prompt: 'def f(x: int) -> int:\n',
      entry_point: 'f',
      reference: 'def f(x: int) -> int:\n    return x + 1\n',
      tests: [{ input: '1', output: '2', public: true }],
      test_code: 'assert f(2) == 3\n',
    },
    candidates: ['def f(x):\n    return x + 1\n', { id: 'c', completion: '    return x\n' }],
    augment: { inputs: 5, seed: 1 },
    prompt_examples: false,
    stop_on_first_failure: false,
  },
  '/v1/rewards/advantages': {
    method: 'grpo',
    rollouts: [
      { group: 'a', reward: 1 },
      { group: 'a', reward: 0 },
    ],
  },
  '/v1/rewards/gated': { levels: { parses: 1, loads: 1, runs: 1, publicTests: 1, hidden: 1 } },
};
const POSTS = Object.keys(VALID);
const GETS = ['/healthz', '/metrics', '/openapi.json', '/nowhere'];

/** A valid body with one field, at any depth, replaced by anything. */
const mutated = fc
  .tuple(fc.constantFrom(...POSTS), fc.jsonValue({ maxDepth: 3 }), fc.nat(), fc.boolean())
  .map(([path, value, pick, drop]) => {
    const body = structuredClone(VALID[path]) as Record<string, any>;
    const slots: Array<[Record<string, any>, string]> = [];
    const walk = (o: any) => {
      if (o && typeof o === 'object')
        for (const k of Object.keys(o)) {
          slots.push([o, k]);
          walk(o[k]);
        }
    };
    walk(body);
    const [owner, key] = slots[pick % slots.length]!;
    if (drop) delete owner[key];
    else owner[key] = value;
    return { path, body: JSON.stringify(body), type: 'application/json' };
  });

const garbage = fc.record({
  path: fc.constantFrom(...POSTS, ...GETS),
  body: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.nat({ max: 20000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
    fc.constant(''),
  ),
  type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
});

async function send(key: string, body: string, type: string) {
  const path = key.split('#')[0]!;
  const isGet = GETS.includes(path) && path !== '/nowhere';
  const response = await fetch(server.url + path, {
    method: isGet ? 'GET' : 'POST',
    headers: type ? { 'content-type': type } : {},
    ...(isGet ? {} : { body }),
  });
  await response.arrayBuffer();
  return response.status;
}

it('malformed and mutated bodies at every endpoint: never a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(garbage, mutated), async ({ path, body, type }) => {
      const status = await send(path, body, type);
      assert.ok(status < 500, `${path} answered ${status} to ${body.slice(0, 300)}`);
    }),
    { numRuns: 400 },
  );
});

/**
 * The status of a POST whose body the server refuses before it is all sent. A streamed
 * (chunked) upload may instead see the connection closed mid-send ('reset'): the server
 * stops reading at the limit, which is the point.
 */
function statusOfUpload(path: string, body: string, chunked: boolean): Promise<number | 'reset'> {
  return new Promise((resolve) => {
    const req = request(
      server.url + path,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve('reset'));
    // The client's own late write to a socket the server closed (EPIPE): not the server's doing.
    req.on('socket', (socket) => socket.on('error', () => resolve('reset')));
    req.end(body);
  });
}

it('oversized bodies at every endpoint, declared or streamed: 413, and the server still answers', async () => {
  for (const key of POSTS) {
    const path = key.split('#')[0]!;
    for (const size of [MAX_BODY + 1, 4 * MAX_BODY, 10 * 2 ** 20]) {
      const body = JSON.stringify({ ...(VALID[key] as object), padding: 'x'.repeat(size) });
      assert.equal(await statusOfUpload(path, body, false), 413, `${path} ${size}`);
      assert.ok([413, 'reset'].includes(await statusOfUpload(path, body, true)), `${path} ${size} chunked`);
    }
  }
  const ok = await server.post('/run_code', VALID['/run_code']);
  assert.equal(ok.json.run_result.stdout, '3\n');
  assert.equal((await server.get('/healthz')).json.status, 'ok');
  const task = await server.post('/v1/verify', VALID[VERIFY_TASK]);
  assert.equal(task.status, 200, task.text);
  assert.deepEqual(
    task.json.results.map((r: { status: string }) => r.status),
    ['pass', 'fail'],
  );
});
