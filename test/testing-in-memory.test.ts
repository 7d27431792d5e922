/**
 * crucible/testing itself: the in-memory backend passes the model-backend contract the real
 * backends pass, the Model's own logic runs over it, and the in-memory runtime answers a
 * Harness (scripted outcomes, modelled functions, record runs) or says what it cannot answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ModelCallError } from '../src/models/errors.js';
import { PriceTable } from '../src/models/prices.js';
import type { RunRequest, TimedSuite } from '../src/runtimes/runtime.js';
import { publicSuites } from '../src/domains/code/generate/examples.js';
import * as testing from 'crucible/testing';
import {
  createInMemoryRuntime,
  inMemoryBackend,
  inMemoryHarness,
  inMemoryModel,
  InMemoryRuntimeError,
  ProgramError,
  ProgramTimeout,
  pythonRepr,
  type InMemoryRequest,
  type ScriptedReply,
} from '../src/testing/index.js';
import { runBackendContract, type NeutralReply, type SeenRequest } from './contracts/backend-contract.js';
import { builtin, lruMisses } from './strategies-support.js';

const user = (content: string) => [{ role: 'user' as const, content }];

function memoryReply(reply: NeutralReply): ScriptedReply {
  if (typeof reply === 'string' || 'status' in reply) return reply;
  return {
    ...(reply.text !== undefined || reply.json !== undefined ? { text: reply.text ?? JSON.stringify(reply.json) } : {}),
    ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}),
    ...(reply.usage ? { usage: reply.usage } : {}),
    ...(reply.delayMs !== undefined ? { delayMs: reply.delayMs } : {}),
  };
}

function seenMemory(request: InMemoryRequest): SeenRequest {
  return {
    model: 'scripted',
    system: request.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n'),
    messages: request.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, text: m.content })),
    temperature: request.temperature,
    topP: request.topP,
    seed: request.seed,
    stop: request.stop,
    maxTokens: request.maxTokens,
    n: request.n > 1 ? request.n : undefined,
    stream: request.stream === true,
    schema: request.responseFormat?.schema,
    tools:
      request.tools &&
      Object.entries(request.tools).map(([name, tool]) => ({
        name,
        required: (tool.inputSchema as { required?: string[] }).required,
      })),
    toolChoice: request.toolChoice,
    logprobs: request.logprobs,
  };
}

// The in-memory backend stands in for real ones only if it behaves as they do.
runBackendContract({
  name: 'in-memory',
  start: async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-in-memory-'));
    const backend = inMemoryBackend();
    return {
      spec: 'memory:scripted',
      modelId: 'scripted',
      model: async (options = {}, prices = {}) =>
        inMemoryModel({ backend, cache: 'read-write', cacheDir, prices: new PriceTable(prices), ...options }),
      costWithoutPrice: () => 0,
      endpoint: {
        enqueue: (...replies) => backend.enqueue(...replies.map(memoryReply)),
        pending: () => backend.pending(),
        seen: () => backend.requests.map(seenMemory),
      },
      close: async () => rmSync(cacheDir, { recursive: true, force: true }),
    };
  },
});

describe('in-memory model', () => {
  test('is a Model: the default cache is off, and the handle shows what was asked', async () => {
    const model = inMemoryModel({ replies: ['first', 'first again'] });
    assert.equal(model.spec, 'memory:scripted');
    assert.equal(model.kind, 'openai-compatible');
    const a = await model.generate({ messages: user('same question') });
    const b = await model.generate({ messages: user('same question') });
    assert.deepEqual(
      [a.completions[0]!.text, b.completions[0]!.text],
      ['first', 'first again'],
      'no cache: the second call reached the backend',
    );
    assert.deepEqual(model.lastUserMessages(), ['same question', 'same question']);
    assert.equal(model.pending(), 0);
  });

  test('a kind without native n splits n into calls with seeds seed, seed+1, …; a paid kind costs null without a price', async () => {
    const model = inMemoryModel({ kind: 'openai', replies: ['a', 'b', 'c'] });
    const result = await model.generate({ messages: user('three'), n: 3, seed: 7 });
    assert.equal(model.requests.length, 3);
    assert.deepEqual(
      model.requests.map((r) => r.seed),
      [7, 8, 9],
    );
    assert.deepEqual(result.completions.map((c) => c.text).sort(), ['a', 'b', 'c']);
    assert.equal(result.costUsd, null);
    const anthropic = inMemoryModel({ kind: 'anthropic', replies: ['x'] });
    await anthropic.generate({ messages: user('seeded?'), seed: 3 });
    assert.equal(anthropic.requests[0]!.seed, undefined, 'capabilities.seed is false for anthropic: no seed sent');
    const priced = inMemoryModel({
      kind: 'openai',
      replies: [{ text: 'y', usage: { input: 1000, output: 100 } }],
      prices: new PriceTable({ 'memory:scripted': { input: 1, output: 2 } }),
    });
    assert.equal((await priced.generate({ messages: user('price') })).costUsd, (1000 + 200) / 1e6);
  });

  test('a script answers from the request; running out of replies is an error naming the request, not retried', async () => {
    const model = inMemoryModel({
      script: (request) => (request.responseFormat ? '{"code": "x"}' : `echo: ${request.messages.at(-1)!.content}`),
    });
    assert.equal((await model.generate({ messages: user('hello') })).completions[0]!.text, 'echo: hello');
    const structured = await model.generate({
      messages: user('json'),
      output: { schema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } },
    });
    assert.deepEqual(structured.completions[0]!.value, { code: 'x' });
    const empty = inMemoryModel({ replies: ['only one'] });
    await empty.generate({ messages: user('one') });
    await assert.rejects(empty.generate({ messages: user('two') }), (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.attempts, 1);
      assert.match(error.message, /no scripted reply left for request #2 .*"two"/);
      return true;
    });
  });

  test('models may share one backend (one script across runs)', async () => {
    const backend = inMemoryBackend({ replies: ['run 1', 'run 2'] });
    const first = inMemoryModel({ backend });
    const second = inMemoryModel({ backend });
    assert.equal((await first.generate({ messages: user('a') })).completions[0]!.text, 'run 1');
    assert.equal((await second.generate({ messages: user('b') })).completions[0]!.text, 'run 2');
    assert.equal(second.requests.length, 2);
  });
});

const io = (name: string, entry: string, inputs: unknown[][], extra: Partial<TimedSuite> = {}): TimedSuite =>
  ({ kind: 'io', name, entry, inputsJson: JSON.stringify(inputs), ...extra }) as TimedSuite;
const script = (name: string, code = 'assert True'): TimedSuite => ({ kind: 'script', name, code });
const runOf = (program: string, suites: TimedSuite[], extra: Partial<RunRequest> = {}): RunRequest => ({
  program,
  suites,
  ...extra,
});

describe('in-memory runtime', () => {
  test('scripted: every suite passes by default; a status, an outcome per suite, a load error or a whole result can be given', async () => {
    const runtime = createInMemoryRuntime({
      programs: [
        { match: 'def slow(): pass', status: 'timeout' },
        { match: /raise SyntaxError/, loadError: 'SyntaxError: invalid syntax' },
        { match: (p) => p.includes('sandbox breaks'), result: { kind: 'no-verdict', why: 'bwrap failed' } },
        {
          match: 'def mixed(): pass',
          suites: {
            a: 'pass',
            b: { status: 'fail', firstFailure: { input: '(1,)', expected: '2', actual: '3', message: 'scripted' } },
          },
        },
      ],
    });
    const passes = await runtime.run(runOf('anything else', [script('s'), io('i', 'f', [[1], [2]])]));
    assert.equal(passes.kind, 'ran');
    assert.deepEqual(passes.kind === 'ran' && passes.suites.map((s) => [s.name, s.status, s.passed, s.total]), [
      ['s', 'pass', 1, 1],
      ['i', 'pass', 2, 2],
    ]);
    const slow = await runtime.run(runOf('def slow(): pass\n\n', [script('a'), script('b')]));
    assert.deepEqual(
      slow.kind === 'ran' && slow.suites.map((s) => s.status),
      ['timeout', 'skipped'],
      'matched without the trailing whitespace; a timeout stops the candidate',
    );
    const broken = await runtime.run(runOf('raise SyntaxError', [script('a')]));
    assert.deepEqual(broken.kind === 'ran' && broken.load, {
      ok: false,
      status: 'error',
      message: 'SyntaxError: invalid syntax',
    });
    assert.deepEqual(await runtime.run(runOf('# sandbox breaks', [])), { kind: 'no-verdict', why: 'bwrap failed' });
    const mixed = await runtime.run(runOf('def mixed(): pass', [script('a'), script('b')]));
    assert.deepEqual(mixed.kind === 'ran' && mixed.suites.map((s) => [s.status, s.firstFailure?.actual ?? null]), [
      ['pass', null],
      ['fail', '3'],
    ]);
    runtime.add({ match: 'anything else', status: 'fail' });
    const added = await runtime.run(runOf('anything else', [script('s')]));
    assert.equal(added.kind === 'ran' && added.suites[0]!.status, 'fail', 'an added program matches first');
    assert.equal(runtime.runs.length, 6);
  });

  test('a record run of an io suite needs functions or scripted outputs: otherwise an explicit error', async () => {
    const runtime = createInMemoryRuntime({
      programs: [{ match: 'recorded', suites: { i: { status: 'pass', outputs: '["1"]', times: [0.1] } } }],
    });
    await assert.rejects(
      runtime.run(runOf('scripted only', [io('i', 'f', [[1]])], { record: true })),
      (error: unknown) =>
        error instanceof InMemoryRuntimeError && /record mode.*give it `functions`/.test(error.message),
    );
    const recorded = await runtime.run(runOf('recorded', [io('i', 'f', [[1]])], { record: true }));
    assert.equal(recorded.kind === 'ran' && recorded.suites[0]!.outputs, '["1"]');
  });

  test("modelled: io suites call the functions, compare with the expected outputs or record them, in the judge's encoding", async () => {
    const python = createInMemoryRuntime({
      programs: [
        { match: 'reference', functions: { half: (n: number) => n / 2, name: (s: string) => ({ s, ok: true }) } },
        { match: 'wrong', functions: { half: (n: number) => Math.floor(n / 2) } },
        {
          match: 'raises',
          functions: {
            half: (n: number) => {
              if (n === 0) throw new ProgramError('ZeroDivisionError', 'division by zero');
              return n;
            },
          },
        },
        {
          match: 'hangs',
          functions: {
            half: (n: number) => {
              if (n > 1) throw new ProgramTimeout();
              return n;
            },
          },
        },
      ],
    });
    const recorded = await python.run(
      runOf('reference', [io('i', 'half', [[4], [3]]), io('j', 'name', [['x']])], { record: true }),
    );
    assert.ok(recorded.kind === 'ran');
    assert.equal(recorded.suites[0]!.outputs, JSON.stringify(['2', '1.5']), 'Python: each output as its encoded text');
    assert.equal(recorded.suites[1]!.outputs, JSON.stringify(['{"s":"x","ok":true}']));
    const expectedJson = recorded.suites[0]!.outputs!;
    const wrong = await python.run(runOf('wrong', [io('i', 'half', [[4], [3]], { expectedJson })]));
    assert.ok(wrong.kind === 'ran');
    assert.deepEqual(
      { ...wrong.suites[0]! },
      {
        name: 'i',
        status: 'fail',
        passed: 1,
        total: 2,
        failedAt: 1,
        firstFailure: { input: '[3]', expected: '1.5', actual: '1', message: 'output differs from expected' },
      },
    );
    const raises = await python.run(runOf('raises', [io('i', 'half', [[0], [2]])], { record: true }));
    assert.ok(raises.kind === 'ran');
    assert.equal(
      raises.suites[0]!.outputs,
      JSON.stringify([{ $raised: 'ZeroDivisionError' }, '2']),
      'a raise is behaviour, recorded as such',
    );
    assert.equal(raises.suites[0]!.firstFailure!.message, 'ZeroDivisionError: division by zero');
    const hangs = await python.run(
      runOf('hangs', [io('i', 'half', [[1], [2], [3]], { limits: [1, 1, 1] }), script('after')], { record: true }),
    );
    assert.ok(hangs.kind === 'ran');
    assert.deepEqual(
      hangs.suites.map((s) => s.status),
      ['timeout', 'skipped'],
    );
    assert.equal(hangs.suites[0]!.outputs, JSON.stringify(['1']), 'the list stops at the input that timed out');
    assert.equal(hangs.suites[0]!.firstFailure!.message, 'time limit of 1.00s exceeded');
    const javascript = createInMemoryRuntime({
      language: 'javascript',
      programs: [{ match: 'js', functions: { pair: (a: number) => [a, a] } }],
    });
    const js = await javascript.run(runOf('js', [io('i', 'pair', [[1]])], { record: true }));
    assert.equal(js.kind === 'ran' && js.suites[0]!.outputs, '[[1,1]]', 'JavaScript: the wire values themselves');
  });

  test('modelled: the example suites Crucible writes run (Python and JavaScript); other script suites must be scripted', async () => {
    const examples = [
      { argsText: '"(()"', outputText: 'False' },
      { argsText: '"()"', outputText: 'True' },
    ];
    const suites = publicSuites('python', 'is_balanced', examples);
    const python = createInMemoryRuntime({
      programs: [
        { match: 'right', functions: { is_balanced: (s: string) => s === '()' } },
        { match: 'always', functions: { is_balanced: () => true } },
        { match: 'dataset', functions: { is_balanced: () => true }, suites: { base: 'pass' } },
      ],
    });
    const right = await python.run(runOf('right', suites));
    assert.deepEqual(right.kind === 'ran' && right.suites.map((s) => s.status), ['pass', 'pass']);
    const always = await python.run(runOf('always', suites));
    assert.ok(always.kind === 'ran');
    assert.deepEqual(
      always.suites.map((s) => s.status),
      ['fail', 'pass'],
    );
    assert.deepEqual(always.suites[0]!.firstFailure, {
      input: "('(()',)",
      expected: null,
      actual: 'True',
      message: 'AssertionError: expected False, got True',
    });
    await assert.rejects(
      python.run(runOf('always', [script('base', 'def check(candidate):\n    assert candidate("") is True\n')])),
      (error: unknown) =>
        error instanceof InMemoryRuntimeError && /script suite "base" is not one Crucible wrote/.test(error.message),
    );
    const dataset = await python.run(runOf('dataset', [script('base')]));
    assert.equal(dataset.kind === 'ran' && dataset.suites[0]!.status, 'pass');
    const javascript = createInMemoryRuntime({
      language: 'javascript',
      programs: [{ match: 'js', functions: { add: (a: number, b: number) => a + b + (a === 2 ? 1 : 0) } }],
    });
    const jsSuites = publicSuites('javascript', 'add', [
      { argsText: '1, 2', outputText: '3' },
      { argsText: '2, 3', outputText: '5' },
    ]);
    const js = await javascript.run(runOf('js', jsSuites));
    assert.deepEqual(js.kind === 'ran' && js.suites.map((s) => s.status), ['pass', 'fail']);
  });

  test("a Harness over it judges a task: the reference's recorded outputs become the expected ones", async () => {
    const lru = builtin('builtin/py/lru-misses');
    // The task's own "base" suite is a dataset's check code: scripted; its "plus" io suite runs on the stand-ins.
    const runtime = createInMemoryRuntime({
      programs: [
        {
          match: lru.reference,
          functions: { count_misses: (c: number, r: number[]) => lruMisses(c, r, true) },
          suites: { base: 'pass' },
        },
        {
          match: lru.program('fifo-not-lru'),
          functions: { count_misses: (c: number, r: number[]) => lruMisses(c, r, false) },
          suites: { base: 'pass' },
        },
      ],
      otherwise: { loadError: 'SyntaxError: not modelled' },
    });
    const harness = inMemoryHarness(runtime);
    try {
      const right = await harness.judge(lru.task, lru.reference);
      assert.equal(right.status, 'pass', JSON.stringify(right.suites));
      const fifo = await harness.judge(lru.task, lru.program('fifo-not-lru'));
      assert.equal(fifo.status, 'fail');
      const plus = fifo.suites.find((s) => s.name === 'plus')!;
      assert.equal(plus.status, 'fail');
      assert.equal(plus.failedAt, 0, 'the first plus input, [2, [1, 2, 1, 3, 1]], tells FIFO from LRU');
      assert.deepEqual(plus.firstFailure, {
        input: '[2, [1, 2, 1, 3, 1]]',
        expected: '3',
        actual: '4',
        message: 'output differs from expected',
      });
      const broken = await harness.judge(lru.task, 'def count_misses(:\n');
      assert.equal(broken.loadFailure, 'SyntaxError: not modelled');
      assert.equal(runtime.runs.filter((r) => r.record).length, 1, 'the reference was recorded once for the task');
    } finally {
      await harness.close();
    }
    const unmodelled = inMemoryHarness(createInMemoryRuntime());
    try {
      await assert.rejects(
        unmodelled.judge(lru.task, lru.reference),
        (error: unknown) =>
          error instanceof InMemoryRuntimeError && /io suite "plus" is run in record mode/.test(error.message),
      );
    } finally {
      await unmodelled.close();
    }
    const pythonOnly = inMemoryHarness(createInMemoryRuntime({ language: 'python' }));
    assert.throws(
      () => pythonOnly.runtime('javascript'),
      /in-memory harness: no runtime for javascript \(it has python\)/,
    );
    await pythonOnly.close();
  });

  test("Python's repr of decoded values", () => {
    assert.equal(
      pythonRepr([1, 2.5, "it's", 'a"b', true, null, { k: [false] }]),
      `[1, 2.5, "it's", 'a"b', True, None, {'k': [False]}]`,
    );
    assert.equal(pythonRepr('tab\there\n'), "'tab\\there\\n'");
    assert.equal(pythonRepr(1e-7), '1e-07');
  });

  test('crucible/testing (the package export) is this module, and also carries the fake servers and the tiny GGUF writer', () => {
    assert.equal(testing.inMemoryModel, inMemoryModel);
    for (const name of [
      'startFakeOpenAIServer',
      'startFakeAnthropicServer',
      'startFakeOllamaServer',
      'writeTinyGguf',
      'inMemoryModel',
      'createInMemoryRuntime',
      'inMemoryHarness',
    ]) {
      assert.equal(typeof (testing as Record<string, unknown>)[name], 'function', name);
    }
  });
});
