/**
 * Function-style `/v1/verify`: tasks written in the request and dataset records, judged by
 * the verification checks (harness suites, prompt examples as public tests, generated
 * inputs against the reference with shrinking), with the gated reward.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, SUM_RIGHT, type TestServer } from './server-support.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ workers: 2, requestTimeoutSeconds: 300 });
});
after(() => server.close());

/** Sums the items' absolute values; the wrong one forgets the negative ones. */
const CLIP_TASK = {
  id: 'clip-sum',
  language: 'python',
  prompt: 'def clip_sum(xs: list[int]) -> int:\n    """The sum of the absolute values of xs."""\n',
  entry_point: 'clip_sum',
  reference: 'def clip_sum(xs: list[int]) -> int:\n    return sum(abs(x) for x in xs)\n',
  // Stated, so generated inputs cover all lists of ints (the tests show no negative item).
  contract: '    assert all(isinstance(x, int) for x in xs)\n',
  tests: [
    { input: '[1, 2]', output: '3', public: true },
    { input: '[]', output: '0' },
  ],
};
const CLIP_RIGHT =
  'def clip_sum(xs):\n    total = 0\n    for x in xs:\n        total += x if x >= 0 else -x\n    return total\n';
const CLIP_WRONG = 'def clip_sum(xs):\n    return sum(xs)\n';

describe('/v1/verify with a task', () => {
  it('a right and a wrong Python candidate, with generated inputs: the wrong one gets a shrunk counterexample and a lower reward', async () => {
    const r = await server.post('/v1/verify', {
      task: CLIP_TASK,
      candidates: [
        { id: 'right', code: CLIP_RIGHT },
        { id: 'wrong', code: CLIP_WRONG },
      ],
      augment: { inputs: 60, seed: 7 },
    });
    assert.equal(r.status, 200, r.text);
    const [right, wrong] = r.json.results;
    assert.equal(right.id, 'right');
    assert.equal(right.status, 'pass', JSON.stringify(right));
    assert.equal(right.reward, 1);
    assert.equal(right.pass_rate, 1);
    assert.equal(right.first_failure, null);
    assert.ok(r.json.summary.task.generated.inputs > 0, JSON.stringify(r.json.summary.task));
    assert.deepEqual(
      right.suites.map((s: { name: string; public: boolean }) => [s.name, s.public]),
      [
        ['public/1', true],
        ['hidden/2', false],
        ['generated', false],
      ],
    );

    assert.equal(wrong.status, 'fail', JSON.stringify(wrong));
    assert.equal(wrong.first_failure.suite, 'generated');
    assert.equal(wrong.minimal_failure.suite, 'generated');
    assert.ok(wrong.minimal_failure.arguments, 'the shrunk argument list');
    assert.ok(
      wrong.minimal_failure.input.length <= wrong.first_failure.input.length,
      `${wrong.minimal_failure.input} vs ${wrong.first_failure.input}`,
    );
    // The shrunk input still shows the fault: a negative item.
    const items = JSON.parse(wrong.minimal_failure.arguments)[0] as number[];
    assert.ok(
      items.some((x) => x < 0),
      wrong.minimal_failure.arguments,
    );
    assert.ok(wrong.reward < right.reward);
    assert.equal(wrong.first_failed_level, 'hidden');
    assert.equal(wrong.gates.publicTests, 1);
    assert.ok(wrong.pass_rate < 1);

    // The same task again: prepared once, the reference's outputs reused.
    const again = await server.post('/v1/verify', {
      task: CLIP_TASK,
      candidates: [CLIP_WRONG],
      augment: { inputs: 60, seed: 7 },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.summary.task.cached, true);
    assert.equal(r.json.summary.task.cached, false);
    assert.deepEqual(again.json.results[0].first_failure, wrong.first_failure);
  });

  it('a candidate that breaks the sandbox limits gets their status, and a syntax error fails the first level', async () => {
    const memory = 'def clip_sum(xs):\n    return len(bytearray(10 ** 12))\n';
    const output = "def clip_sum(xs):\n    print('x' * (3 << 20))\n    return 3\n";
    const broken = 'def clip_sum(xs)\n    return 0\n';
    const r = await server.post('/v1/verify', {
      task: { ...CLIP_TASK, reference: undefined },
      candidates: [memory, output, broken, CLIP_RIGHT],
    });
    assert.equal(r.status, 200, r.text);
    const [m, o, b, ok] = r.json.results;
    assert.equal(m.status, 'memory', JSON.stringify(m));
    assert.equal(o.status, 'output-limit', JSON.stringify(o));
    assert.equal(b.status, 'error', JSON.stringify(b));
    assert.equal(b.first_failed_level, 'parses');
    assert.equal(b.reward, 0);
    assert.equal(ok.status, 'pass');
    for (const v of [m, o]) {
      assert.equal(v.gates.parses, 1);
      assert.ok(v.gates.runs < 1, JSON.stringify(v.gates));
      assert.ok(v.reward !== null && v.reward < ok.reward);
    }
  });

  it('a JavaScript task from a MultiPL-E record, candidates as completions; events stream as for stdin tests', async () => {
    const record = {
      name: 'HumanEval_53_add',
      language: 'js',
      prompt: '//Add two numbers x and y\nfunction add(x, y){\n',
      tests:
        "const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = add;\n  assert.deepEqual(candidate(0, 1),1);\n  assert.deepEqual(candidate(5, 7),12);\n}\n\ntest();\n",
    };
    const response = await fetch(server.url + '/v1/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        dataset_record: record,
        candidates: [
          { id: 'ok', completion: '  return x + y;\n}\n' },
          { id: 'bad', completion: '  return x - y;\n}\n' },
        ],
      }),
    });
    assert.equal(response.headers.get('content-type')?.split(';')[0], 'text/event-stream');
    const text = await response.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!),
    }));
    const verdicts = Object.fromEntries(events.filter((e) => e.event === 'verdict').map((e) => [e.data.id, e.data]));
    assert.equal(verdicts.ok?.status, 'pass', text);
    assert.equal(verdicts.ok.reward, 1);
    assert.equal(verdicts.bad?.status, 'fail', text);
    assert.ok(verdicts.bad.reward < 1);
    assert.equal(verdicts.bad.first_failure.suite, 'base');
    assert.deepEqual(events.filter((e) => e.event === 'progress').at(-1)!.data, { done: 2, total: 2 });
    const done = events.at(-1)!;
    assert.equal(done.event, 'done');
    assert.equal(done.data.task.language, 'javascript');
    assert.equal(done.data.task.source, 'multipl-e');
    assert.equal(done.data.task.has_reference, false);
  });

  it('a HumanEval+ record: its io suites with the reference, the prompt examples as public tests', async () => {
    // Written as text: 2.0 must reach the reference as a float.
    const line =
      '{"task_id": "HumanEval/53", "prompt": "def add(x: int, y: int):\\n    \\"\\"\\"Add two numbers x and y\\n    >>> add(2, 3)\\n    5\\n    >>> add(5, 7)\\n    12\\n    \\"\\"\\"\\n", ' +
      '"entry_point": "add", "canonical_solution": "    return x + y\\n", "test": "def check(candidate): pass", "contract": "", ' +
      '"base_input": [[0, 1], [1, 0], [5, 7]], "atol": 0, "plus_input": [[-3, 2.0], [100, -100]]}';
    const floatsWrong = 'def add(x, y):\n    if isinstance(y, float):\n        return 0\n    return x + y\n';
    const examplesOnly = 'def add(x, y):\n    return 12 if x == 5 else 5\n';
    const body = `{"dataset_record": ${line}, "candidates": ${JSON.stringify(['def add(x, y):\n    return x + y\n', floatsWrong, examplesOnly])}}`;
    const r = await server.post('/v1/verify', body);
    assert.equal(r.status, 200, r.text);
    const [right, ints, onlyExamples] = r.json.results;
    assert.deepEqual(r.json.summary.task.suites, ['example/1', 'example/2', 'base', 'plus']);
    assert.equal(r.json.summary.task.examples.used, 2);
    assert.equal(right.status, 'pass', JSON.stringify(right));
    assert.equal(right.total, 7);
    assert.equal(right.reward, 1);
    // 2.0 reaches the candidate as a float (the record's text is read as written).
    assert.equal(ints.status, 'fail', JSON.stringify(ints));
    assert.equal(ints.first_failure.suite, 'plus');
    // Passes the examples only: public level full, hidden level partly.
    assert.equal(onlyExamples.status, 'fail');
    assert.equal(onlyExamples.gates.publicTests, 1);
    assert.ok(onlyExamples.reward < ints.reward, `${onlyExamples.reward} < ${ints.reward}`);
  });

  it('the gated reward of the stdin form is unchanged beside it', async () => {
    const r = await server.post('/v1/verify', {
      language: 'python',
      candidates: [SUM_RIGHT],
      tests: [{ stdin: '1 2', expected_stdout: '3' }],
    });
    assert.equal(r.status, 200);
    assert.equal(r.json.results[0].reward, 1);
  });

  it('malformed tasks get a 400 that names the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ task: { ...CLIP_TASK, entry_point: undefined }, candidates: [CLIP_RIGHT] }, /task\.entry_point/],
      [{ task: { ...CLIP_TASK, entry_point: 'not a name' }, candidates: [CLIP_RIGHT] }, /function name/],
      [{ task: CLIP_TASK, dataset_record: { task_id: 'x' }, candidates: [CLIP_RIGHT] }, /exactly one of task/],
      [{ task: { ...CLIP_TASK, language: 'cobol' }, candidates: [CLIP_RIGHT] }, /task\.language/],
      [{ task: CLIP_TASK, candidates: [] }, /candidates is empty/],
      [{ task: CLIP_TASK, tests: [], candidates: [CLIP_RIGHT] }, /tests/],
      [{ task: { ...CLIP_TASK, tests: [{ input: '[1]' }] }, candidates: [CLIP_RIGHT] }, /tests\.0\.output/],
      [{ task: { ...CLIP_TASK, tests: [], reference: undefined }, candidates: [CLIP_RIGHT] }, /nothing to check/],
      [{ task: CLIP_TASK, candidates: [CLIP_RIGHT], augment: { inputs: 0 } }, /augment\.inputs/],
      [{ dataset_record: { foo: 1 }, candidates: [CLIP_RIGHT] }, /dataset_record: unknown dataset format/],
      [{ dataset_record: '{"task_id": ', candidates: [CLIP_RIGHT] }, /dataset_record: .*expected a value/],
      [
        {
          dataset_record: { name: 'x', language: 'cobol', prompt: 'function f(){', tests: '' },
          candidates: [CLIP_RIGHT],
        },
        /dataset_record: .*language/,
      ],
    ];
    for (const [body, message] of cases) {
      const r = await server.post('/v1/verify', body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 200)} → ${r.status} ${r.text}`);
      assert.match(r.json.error, message, JSON.stringify(body).slice(0, 200));
    }
  });
});
