/**
 * Replays the requests volcengine/verl sends to a SandboxFusion URL
 * (verl/utils/reward_score/sandbox_fusion/utils.py: call_sandbox_api and
 * _process_single_case) and applies verl's own reading of the response, field by field,
 * so that pointing verl at Crucible changes nothing but the URL.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, SUM_RIGHT, SUM_WRONG, type TestServer } from './server-support.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ workers: 2 });
});
after(() => server.close());

/** verl's payload, byte for byte the keys and order of json.dumps in call_sandbox_api. */
function verlPayload(code: string, stdin: string, timeout: number, language: string): string {
  return JSON.stringify({
    compile_timeout: timeout,
    run_timeout: timeout,
    code,
    stdin,
    language,
    files: {},
    fetch_files: [],
  });
}

/** verl's _process_single_case after a response arrived: True / False / -1 / -2 / -3 / -4. */
function verlVerdict(api: any, expected: string): boolean | number {
  const compile = api.compile_result;
  const run = api.run_result;
  const status = api.status;
  if (status === 'SandboxError') return -1;
  if (status === 'Failed') {
    const compileError =
      compile &&
      (['Error', 'TimeLimitExceeded'].includes(compile.status) ||
        (compile.status === 'Finished' && compile.return_code !== 0));
    if (compileError) return -4;
    if (run) {
      if (run.status === 'TimeLimitExceeded') return -3;
      if (run.status === 'Error' || (run.status === 'Finished' && run.return_code !== 0)) return -2;
      return -1;
    }
    return -1;
  }
  if (status === 'Success') {
    if (run && run.status === 'Finished')
      return String(run.stdout ?? '').replace(/\n+$/, '') === expected.replace(/\n+$/, '');
    return -1;
  }
  return -1;
}

async function send(payload: string) {
  // verl: requests.post(url, headers={"Content-Type": "application/json", "Accept": "application/json"}, data=payload)
  const response = await fetch(server.url + '/run_code', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: payload,
  });
  // verl retries only on 504 and raises on any other non-2xx: every outcome of a program must be 200.
  assert.equal(response.status, 200);
  return (await response.json()) as any;
}

/** Every field verl reads, with the type verl expects. */
function checkFields(api: any) {
  assert.ok(['Success', 'Failed', 'SandboxError'].includes(api.status), `status ${api.status}`);
  assert.ok('compile_result' in api && 'run_result' in api);
  for (const result of [api.compile_result, api.run_result]) {
    if (result === null) continue;
    assert.ok(['Finished', 'Error', 'TimeLimitExceeded'].includes(result.status));
    assert.ok(result.return_code === null || Number.isInteger(result.return_code));
    assert.ok(result.execution_time === null || typeof result.execution_time === 'number');
    assert.ok(result.stdout === null || typeof result.stdout === 'string');
    assert.ok(result.stderr === null || typeof result.stderr === 'string');
  }
}

const cases: Array<[string, string, string, string, number, boolean | number]> = [
  ['a right answer', 'python', SUM_RIGHT, '3', 10, true],
  ['a wrong answer', 'python', SUM_WRONG, '3', 10, false],
  ['a runtime error', 'python', 'a, b = map(int, input().split())\nprint(a // 0)', '3', 10, -2],
  ['a syntax error (no compile step in Python: a runtime error, as SandboxFusion)', 'python', 'print(', '3', 10, -2],
  ['a timeout', 'python', 'while True:\n    pass', '3', 1, -3],
  [
    'a right nodejs answer',
    'nodejs',
    'const [a, b] = require("fs").readFileSync(0, "utf8").split(" ").map(Number);\nconsole.log(a + b);',
    '3',
    10,
    true,
  ],
  [
    'a right typescript answer',
    'typescript',
    'const [a, b]: number[] = require("fs").readFileSync(0, "utf8").split(" ").map(Number);\nconsole.log(a + b);',
    '3',
    10,
    true,
  ],
  [
    'a language not run here (verl lists it): sandbox error, not a verdict on the code',
    'go',
    'package main',
    '3',
    10,
    -1,
  ],
];

for (const [label, language, code, expected, timeout, verdict] of cases) {
  it(`verl reads ${label} as ${verdict}`, async () => {
    const api = await send(verlPayload(code, '1 2', timeout, language));
    checkFields(api);
    assert.equal(verlVerdict(api, expected), verdict, JSON.stringify(api).slice(0, 500));
  });
}

it('verl-style concurrent calls (its thread pool × a semaphore): every answer 200 and right', async () => {
  const inputs = Array.from({ length: 40 }, (_, i) => [i, i * 7]);
  const answers = await Promise.all(inputs.map(([a, b]) => send(verlPayload(SUM_RIGHT, `${a} ${b}`, 10, 'python'))));
  answers.forEach((api, i) => assert.equal(verlVerdict(api, String(inputs[i]![0]! + inputs[i]![1]!)), true));
});
