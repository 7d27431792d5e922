/**
 * What a user reads on the console: multi-line assertions shown whole, type errors said
 * without --json, the first failures of a long run, labels from another test suite not called
 * wrong, and no empty disagreements file left in the working folder.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SampleResult } from '../src/bench/evaluate.js';
import { compareWithLabels } from '../src/bench/labels.js';
import { formatFirstFailures, formatSamples } from '../src/bench/report.js';
import type { Task } from '../src/core/task.js';
import { Harness } from '../src/domains/code/harness.js';
import { crucible, writeJsonl } from './cli-support.js';

const harness = new Harness({ workers: 1, typeCheck: false });
after(() => harness.close());

const sample = (index: number, status: SampleResult['status'], extra: Partial<SampleResult> = {}): SampleResult => ({
  task_id: 'T/0',
  index,
  status,
  suites: {},
  first_failure:
    status === 'pass' ? null : { input: null, expected: null, actual: null, message: `${status} #${index}` },
  time_ms: 1,
  reward: status === 'pass' ? 1 : 0,
  ...extra,
});

test('a console.assert written over several lines is shown whole', async () => {
  const task: Task = {
    id: 'T/js',
    language: 'javascript',
    prompt: '',
    entryPoint: 'add',
    completionPrefix: '',
    knownWrong: [],
    source: 'test',
    suites: [{ kind: 'script', name: 'base', code: 'console.assert(\n  add(1, 2) ===\n    3\n);\n' }],
  };
  const verdict = await harness.judge(task, 'function add(a, b) { return a - b; }');
  assert.equal(verdict.status, 'fail');
  assert.match(
    verdict.firstFailure?.message ?? '',
    /console\.assert failed at line 1: console\.assert\( add\(1, 2\) === 3 \);/,
  );
});

test('type errors are on the console line of their sample', () => {
  const line = formatSamples([
    sample(0, 'pass', { type_errors: ["line 1, column 7: TS2322: Type 'string' is not assignable to type 'number'."] }),
  ]);
  assert.match(line, /T\/0 #0 +pass +1 type error: line 1, column 7: TS2322/);
});

test('a long run lists the first samples of each status but pass, and how many more', () => {
  const results = [
    ...Array.from({ length: 150 }, (_, i) => sample(i, 'pass')),
    ...Array.from({ length: 5 }, (_, i) => sample(150 + i, 'fail')),
    sample(155, 'timeout'),
  ];
  const text = formatFirstFailures(results, 3);
  assert.equal((text.match(/#\d+ +fail/g) ?? []).length, 3);
  assert.match(text, /T\/0 #155 +timeout/);
  assert.match(text, /\(2 more fail\)/);
  assert.doesNotMatch(text, /#\d+ +pass/);
});

test('a label made with another test suite is not called wrong', () => {
  const candidates = [{ taskId: 'T/0', index: 0, program: 'def f():\n    return 1\n' }];
  const results = [sample(0, 'fail')];
  const [other] = compareWithLabels(candidates, [{ passed: true, testSuite: 'HumanEval+' }], results).disagreements;
  assert.match(other!.explanation, /made with the test suite "HumanEval\+".*--label-suite/);
  assert.doesNotMatch(other!.explanation, /likely wrong/);
  const [plain] = compareWithLabels(candidates, [{ passed: true }], results).disagreements;
  assert.match(plain!.explanation, /likely wrong/);
});

test(
  'eval with labels that all agree writes no disagreements file unless one is asked for',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crucible-diag-'));
    const dataset = join(dir, 'tiny.jsonl');
    writeJsonl(dataset, [
      {
        task_id: 'T/0',
        prompt: 'def double(x):\n    """Twice x."""\n',
        canonical_solution: '    return 2 * x\n',
        entry_point: 'double',
        test: 'def check(c):\n    assert c(2) == 4\n',
      },
    ]);
    const samples = join(dir, 'labelled.jsonl');
    writeJsonl(samples, [{ task_id: 'T/0', completion: '    return x + x\n', passed: true }]);
    const run = async (cwd: string, args: string[]) => {
      const previous = process.cwd();
      process.chdir(cwd);
      try {
        return await crucible(['eval', '--dataset', dataset, '--samples', samples, '--workers', '1', ...args]);
      } finally {
        process.chdir(previous);
      }
    };
    const quiet = await run(dir, []);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.match(quiet.stdout, /no disagreement: nothing written/);
    assert.equal(existsSync(join(dir, 'crucible-disagreements.jsonl')), false);
    const asked = join(dir, 'asked.jsonl');
    const written = await run(dir, ['--disagreements', asked]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(readFileSync(asked, 'utf8'), '');
  },
);
