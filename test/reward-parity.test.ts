/**
 * One gated reward everywhere: `eval --json` gives each sample the reward `/v1/verify` gives
 * the same program for the same record (with prompt_examples: false: eval scores a dataset's
 * own suites), from the same code pack and the same gatedLevels.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { crucible, writeJsonl } from './cli-support.js';
import { startTestServer, type TestServer } from './server-support.js';

const RECORD =
  '{"task_id": "HumanEval/53", "prompt": "def add(x: int, y: int):\\n    \\"\\"\\"Add two numbers x and y\\n    >>> add(2, 3)\\n    5\\n    \\"\\"\\"\\n", ' +
  '"entry_point": "add", "canonical_solution": "    return x + y\\n", "test": "def check(candidate): pass", "contract": "", ' +
  '"base_input": [[0, 1], [1, 0], [5, 7]], "atol": 0, "plus_input": [[-3, 2.0], [100, -100], [7, 7]]}';
const PROGRAMS = [
  'def add(x, y):\n    return x + y\n',
  // Right on the base inputs, wrong on a float and on a negative.
  'def add(x, y):\n    if isinstance(y, float) or x < 0 or y < 0:\n        return 0\n    return x + y\n',
  'def add(x, y):\n    return x * y\n',
  'def add(x, y)\n    return x\n',
];

let server: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'crucible-reward-parity-'));
before(async () => {
  server = await startTestServer({ workers: 1 });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('eval --json and /v1/verify give every sample the same gated reward', async () => {
  const dataset = join(dir, 'tiny-plus.jsonl');
  writeFileSync(dataset, RECORD + '\n');
  const samples = join(dir, 'samples.jsonl');
  writeJsonl(
    samples,
    PROGRAMS.map((solution) => ({ task_id: 'HumanEval/53', solution })),
  );
  const json = join(dir, 'eval.json');
  const run = await crucible([
    'eval',
    '--dataset',
    dataset,
    '--samples',
    samples,
    '--json',
    json,
    '--workers',
    '1',
    '--no-record',
  ]);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const fromEval = (JSON.parse(readFileSync(json, 'utf8')) as { samples: { reward: number | null }[] }).samples.map(
    (s) => s.reward,
  );

  const body = `{"dataset_record": ${RECORD}, "prompt_examples": false, "candidates": ${JSON.stringify(PROGRAMS)}}`;
  const r = await server.post('/v1/verify', body);
  assert.equal(r.status, 200, r.text);
  const fromServer = (r.json.results as { reward: number | null }[]).map((v) => v.reward);

  assert.deepEqual(fromEval, fromServer);
  // And the rewards tell the programs apart: right, partly right, wrong, does not parse.
  assert.equal(fromEval[0], 1);
  assert.ok(fromEval[1]! < 1 && fromEval[1]! > fromEval[2]!, JSON.stringify(fromEval));
  assert.equal(fromEval[3], 0);
});
