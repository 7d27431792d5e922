/** The `crucible` command as a user runs it: real process, real sandbox, real files. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BIN, crucible, writeJsonl } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test(
  'eval with no arguments judges the built-in suite and writes the documented JSON',
  { timeout: 300_000 },
  async () => {
    const file = join(dir, 'builtin.json');
    // In a folder of its own, as the quickstart runs it: the run and its report go to ./.crucible.
    const { code, stdout, stderr } = await crucible(['eval', '--json', file], { cwd: dir });
    assert.equal(code, 0, stdout);
    assert.match(stdout, /built-in suite: 30 tasks/);
    // It ends by saying where its report is: the recorded run's, beside the store.
    const run = /recorded as run (\S+)/.exec(stderr)?.[1];
    assert.ok(run, stderr);
    const report = join('.crucible', 'reports', `${run}.html`);
    assert.match(
      stdout,
      new RegExp(`report written to ${report.replace(/\./g, '\\.')} \\(open it in a browser\\)\\n$`),
    );
    assert.match(readFileSync(join(dir, report), 'utf8'), /<meta name="generator" content="crucible report">/);
    assert.match(stdout, /pass@1/);
    // Small runs list every verdict, with the smallest facts that explain a failure.
    assert.match(
      stdout,
      /builtin\/py\/run-length-encode #1 +fail +output differs from expected \| input \['a'\] \| expected 'a1' \| got ''/,
    );
    const json = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(json.summary.tasks, 30);
    assert.equal(json.summary.samples, json.samples.length);
    assert.equal(typeof json.summary.pass_at_k.base['1'], 'number');
    assert.equal(typeof json.summary.pass_at_k.plus['1'], 'number');
    const counts = json.summary.status_counts as Record<string, number>;
    assert.equal(
      Object.values(counts).reduce((a, b) => a + b, 0),
      json.samples.length,
    );
    for (const status of ['pass', 'fail', 'error', 'timeout', 'memory', 'output-limit'])
      assert.ok(counts[status]! > 0, `no ${status} in the built-in suite`);
    assert.equal(counts['no-verdict'], 0);
    const sample = json.samples.find((s: { status: string }) => s.status === 'fail');
    assert.deepEqual(Object.keys(sample).slice(0, 6), [
      'task_id',
      'index',
      'program',
      'status',
      'suites',
      'first_failure',
    ]);
    assert.equal(typeof sample.program, 'string');
    assert.equal(typeof sample.first_failure.message, 'string');
    for (const suite of Object.values(sample.suites) as Array<{ status: string; passed: number; total: number }>) {
      assert.ok(suite.passed <= suite.total);
    }
  },
);

test('eval scores a samples file against a dataset, with index per task', { timeout: 120_000 }, async () => {
  const dataset = join(dir, 'tiny.jsonl');
  const prompt = 'def double(x):\n    """Twice x."""\n';
  writeJsonl(dataset, [
    {
      task_id: 'T/0',
      prompt,
      canonical_solution: '    return 2 * x\n',
      entry_point: 'double',
      test: 'def check(c):\n    assert c(2) == 4\n    assert c(-1) == -2\n',
    },
  ]);
  const samples = join(dir, 'samples.jsonl');
  writeJsonl(samples, [
    { task_id: 'T/0', completion: '    return x + x\n' },
    { task_id: 'T/0', completion: '    return x * x\n' },
    { task_id: 'T/0', solution: 'def double(x):\n    return 2 * x\n' },
  ]);
  const file = join(dir, 'tiny.json');
  const { code, stdout } = await crucible(['eval', '--dataset', dataset, '--samples', samples, '--json', file]);
  assert.equal(code, 0, stdout);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(
    json.samples.map((s: { index: number; status: string }) => [s.index, s.status]),
    [
      [0, 'pass'],
      [1, 'fail'],
      [2, 'pass'],
    ],
  );
  assert.ok(Math.abs(json.summary.pass_at_k.base['1'] - 2 / 3) < 1e-9);
  assert.ok(Math.abs(json.summary.pass_at_k.base['2'] - 1) < 1e-9);
  assert.deepEqual(json.samples[1].first_failure, {
    input: '(-1,)',
    expected: null,
    actual: '1',
    message: 'assertion failed: assert c(-1) == -2',
  });
});

test(
  'a memory limit too low for the interpreter itself is no verdict naming the limit, and exit code 3, never failed programs',
  { timeout: 120_000 },
  async () => {
    const dataset = join(dir, 'tiny.jsonl');
    const samples = join(dir, 'samples.jsonl');
    const file = join(dir, 'low-memory.json');
    const { code, stderr } = await crucible([
      'eval',
      '--dataset',
      dataset,
      '--samples',
      samples,
      '--memory-mb',
      '20',
      '--workers',
      '1',
      '--json',
      file,
    ]);
    assert.equal(code, 3, stderr);
    assert.match(stderr, /3 samples got no verdict.*results are incomplete/);
    assert.match(stderr, /does not load under these limits \(memory 20 MiB.*raise --memory-mb/);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(
      json.samples.map((s: { status: string }) => s.status),
      ['no-verdict', 'no-verdict', 'no-verdict'],
    );
  },
);

test('eval --augment generates inputs only for the tasks that have samples', { timeout: 120_000 }, async () => {
  const dataset = join(dir, 'two-tasks.jsonl');
  const task = (id: string, name: string) => ({
    task_id: id,
    prompt: `def ${name}(x: int) -> int:\n    \"\"\"Twice x.\n    >>> ${name}(2)\n    4\n    \"\"\"\n`,
    canonical_solution: '    return 2 * x\n',
    entry_point: name,
    test: `def check(c):\n    assert c(2) == 4\n`,
  });
  writeJsonl(dataset, [task('T/0', 'double'), task('T/1', 'twice')]);
  const samples = join(dir, 'one-task.jsonl');
  writeJsonl(samples, [{ task_id: 'T/1', completion: '    return x + x\n' }]);
  const file = join(dir, 'augment-sampled.json');
  const { code, stderr } = await crucible([
    'eval',
    '--dataset',
    dataset,
    '--samples',
    samples,
    '--augment',
    '--seed',
    '1',
    '--augment-inputs',
    '20',
    '--json',
    file,
  ]);
  assert.equal(code, 0, stderr);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(Object.keys(json.augment.tasks), ['T/1']);
  assert.equal(json.samples[0].status, 'pass');
});

test(
  '--limit N judges only the first N tasks that have samples (eval) or the first N tasks (audit)',
  { timeout: 300_000 },
  async () => {
    const dataset = join(dir, 'two-tasks.jsonl');
    const samples = join(dir, 'both-tasks.jsonl');
    writeJsonl(samples, [
      { task_id: 'T/1', completion: '    return x + x\n' },
      { task_id: 'T/0', completion: '    return 2 * x\n' },
    ]);
    const file = join(dir, 'limited.json');
    const evaluated = await crucible([
      'eval',
      '--dataset',
      dataset,
      '--samples',
      samples,
      '--limit',
      '1',
      '--json',
      file,
    ]);
    assert.equal(evaluated.code, 0, evaluated.stderr);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(
      json.samples.map((s: { task_id: string }) => s.task_id),
      ['T/0'],
      'the first task of the dataset, not of the file',
    );
    assert.equal(json.summary.tasks, 1);
    const audited = await crucible(['audit', '--limit', '1', '--json', join(dir, 'audit-limited.json')]);
    assert.equal(audited.code, 0, audited.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, 'audit-limited.json'), 'utf8')).references.total, 1);
  },
);

test('--version prints the package version, also through the full command tree', async () => {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8'));
  for (const args of [['--version'], ['-V'], ['eval', '--version']]) {
    const { code, stdout } = await crucible(args);
    assert.equal(code, 0);
    assert.equal(stdout, `${version}\n`);
  }
});

test('bad input gets a message that says what to do, and a non-zero exit', async () => {
  const missing = await crucible(['eval', '--dataset', join(dir, 'nope.jsonl')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.jsonl/);
  const unknown = join(dir, 'unknown.jsonl');
  writeJsonl(unknown, [{ question: 'x', answer: 'y' }]);
  const format = await crucible(['eval', '--dataset', unknown]);
  assert.equal(format.code, 2);
  assert.match(format.stderr, /question/);
  const workers = await crucible(['eval', '--workers', 'zero']);
  assert.notEqual(workers.code, 0);
  assert.match(workers.stderr, /whole number/);
});

test(
  'samples for task ids the dataset does not have are an error naming the nearest ids, unless --allow-missing',
  { timeout: 120_000 },
  async () => {
    const dataset = join(dir, 'tiny-missing.jsonl');
    writeJsonl(dataset, [
      {
        task_id: 'HumanEval/0',
        prompt: 'def one():\n',
        canonical_solution: '    return 1\n',
        entry_point: 'one',
        test: 'def check(c):\n    assert c() == 1\n',
      },
    ]);
    const samples = join(dir, 'samples-missing.jsonl');
    writeJsonl(samples, [
      { task_id: 'HumanEval/0', completion: '    return 1\n' },
      { task_id: 'humaneval/0', completion: '    return 1\n' },
      { task_id: 'HumanEval/0 ', completion: '    return 2\n' },
    ]);
    const refused = await crucible(['eval', '--dataset', dataset, '--samples', samples]);
    assert.equal(refused.code, 2, refused.stdout);
    assert.match(
      refused.stderr,
      /2 task ids of the samples are not in .*"humaneval\/0" \(nearest: HumanEval\/0\), "HumanEval\/0 " \(nearest: HumanEval\/0\).*--allow-missing/,
    );
    const allowed = await crucible(['eval', '--dataset', dataset, '--samples', samples, '--allow-missing']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, /skipped 2 samples for 2 task ids/);
  },
);

test('an output file in a folder that does not exist is refused before any work starts', async () => {
  for (const args of [
    ['eval', '--json', join(dir, 'no-such-folder', 'results.json')],
    ['eval', '--disagreements', join(dir, 'no-such-folder', 'd.jsonl')],
    ['audit', '--json', join(dir, 'no-such-folder', 'audit.json')],
    ['eval', '--json', dir],
  ]) {
    const r = await crucible(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /does not exist \(create it first|that is a folder/, args.join(' '));
    // Refused up front: judging the built-in suite first would take seconds more.
    assert.doesNotMatch(r.stdout, /built-in suite|audit of/);
  }
});

test('audit of the built-in suite: references pass, known-wrong programs fail', { timeout: 300_000 }, async () => {
  const { code, stdout } = await crucible(['audit']);
  assert.equal(code, 0, stdout);
  assert.match(stdout, /references passing: +30\/30/);
  assert.match(stdout, /false-positive rate: +0\.00%/);
});

test(
  'Ctrl-C during eval finishes the samples in flight and still writes the results',
  { timeout: 120_000 },
  async () => {
    const file = join(dir, 'interrupted.json');
    const child = spawn(process.execPath, [BIN, 'eval', '--json', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let stderr = '';
    const firstProgress = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/eval: 1\/83/.test(stderr)) resolve();
      }),
    );
    await firstProgress;
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 130, stderr);
    assert.match(stderr, /interrupted; finishing the samples in flight/);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(json.summary.interrupted, true);
    assert.ok(json.samples.length > 0 && json.samples.length < 83, `judged ${json.samples.length}`);
    assert.equal(json.summary.samples, json.samples.length);
    assert.match(stdout, new RegExp(`interrupted: ${json.samples.length} of 83 samples judged`));
  },
);

test(
  'eval --augment adds generated inputs and properties, keeps every right built-in program passing, and shrinks failures',
  { timeout: 300_000 },
  async () => {
    const file = join(dir, 'augment.json');
    const { code, stdout, stderr } = await crucible([
      'eval',
      '--augment',
      '--seed',
      '3',
      '--augment-inputs',
      '60',
      '--json',
      file,
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /seed 3 \(replay with --seed 3\)/);
    assert.match(stdout, /smallest failing generated input/);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(json.augment.seed, 3);
    assert.equal(typeof json.summary.pass_at_k.generated['1'], 'number');
    assert.equal(typeof json.summary.pass_at_k.properties['1'], 'number');
    const { builtinTasks } = await import('../src/bench/builtin/index.js');
    for (const { task, candidates } of builtinTasks) {
      candidates.forEach((c, index) => {
        const sample = json.samples.find(
          (s: { task_id: string; index: number }) => s.task_id === task.id && s.index === index,
        );
        if (c.expected === 'pass')
          assert.equal(
            sample.status,
            'pass',
            `${task.id} #${index} is right but was flagged: ${JSON.stringify(sample.first_failure)}`,
          );
      });
    }
    const shrunk = json.samples.filter((s: { counterexample?: unknown }) => s.counterexample);
    assert.ok(shrunk.length >= 10, `${shrunk.length} counterexamples`);
    for (const s of shrunk)
      assert.ok(s.counterexample.shrunk.length <= s.counterexample.original.length, JSON.stringify(s.counterexample));
  },
);
