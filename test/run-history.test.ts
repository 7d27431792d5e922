/** eval, select, calibrate and audit leave their runs in the store: `crucible runs` lists them with the figures their JSON has. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BIN, crucible, writeJsonl } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-history-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface ListedRun {
  id: string;
  task: string;
  strategy: string;
  model: string;
  status: string;
  summary: unknown;
  headline: Record<string, any> | null;
  meta: { command: string; crucible: string; seed?: number; flags: Record<string, unknown> };
}

async function listRuns(db: string): Promise<ListedRun[]> {
  const listed = await crucible(['runs', '--db', db, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout);
}

/** The run a command said it recorded (its id is on stderr). */
function recordedId(stderr: string): string {
  const id = /recorded as run (\S+)/.exec(stderr)?.[1];
  assert.ok(id, `no run id in: ${stderr}`);
  return id;
}

async function shownDocument(db: string, id: string): Promise<{ run: { summary: unknown; status: string } }> {
  const shown = await crucible(['show', id, '--db', db, '--json']);
  assert.equal(shown.code, 0, shown.stderr);
  return JSON.parse(shown.stdout);
}

test(
  'eval and audit are recorded: runs lists them with the --json figures, show has the whole document',
  { timeout: 300_000 },
  async () => {
    const db = join(dir, 'eval-audit.db');
    const evalJson = join(dir, 'eval.json');
    const evaluated = await crucible(['eval', '--limit', '2', '--workers', '1', '--db', db, '--json', evalJson]);
    assert.equal(evaluated.code, 0, evaluated.stderr);
    const auditJson = join(dir, 'audit.json');
    const audited = await crucible(['audit', '--limit', '1', '--workers', '1', '--db', db, '--json', auditJson]);
    assert.equal(audited.code, 0, audited.stderr);

    const [auditRun, evalRun] = await listRuns(db);
    const evalDoc = JSON.parse(readFileSync(evalJson, 'utf8'));
    assert.equal(evalRun!.id, recordedId(evaluated.stderr));
    assert.deepEqual(
      [evalRun!.strategy, evalRun!.status, evalRun!.task, evalRun!.model],
      ['eval', 'finished', 'built-in --limit 2', 'built-in samples'],
    );
    assert.deepEqual(evalRun!.headline, evalDoc.summary);
    assert.equal(evalRun!.summary, null, 'the list leaves the document out');
    assert.equal(evalRun!.meta.flags.limit, 2);
    assert.equal(
      evalRun!.meta.crucible,
      JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')).version,
    );
    const evalShown = await shownDocument(db, evalRun!.id);
    // The very document --json wrote: it is built once.
    assert.deepEqual(evalShown.run.summary, evalDoc);

    const auditDoc = JSON.parse(readFileSync(auditJson, 'utf8'));
    assert.equal(auditRun!.id, recordedId(audited.stderr));
    assert.deepEqual(
      [auditRun!.strategy, auditRun!.status, auditRun!.task],
      ['audit', 'finished', 'built-in --limit 1'],
    );
    assert.deepEqual(auditRun!.headline!.references, auditDoc.references);
    assert.equal(auditRun!.headline!.false_positive_rate, auditDoc.false_positive_rate);
    assert.deepEqual((await shownDocument(db, auditRun!.id)).run.summary, auditDoc);

    const text = await crucible(['runs', '--db', db]);
    const base = (100 * evalDoc.summary.pass_at_k.base['1']).toFixed(1);
    assert.match(
      text.stdout,
      new RegExp(
        `${evalRun!.id}\\s+\\S+ \\S+\\s+finished\\s+eval\\s+built-in samples\\s+built-in --limit 2\\s+pass@1 base ${base}%`,
      ),
    );
    assert.match(
      text.stdout,
      new RegExp(`${auditRun!.id}.*audit.*references ${auditDoc.references.passed}/${auditDoc.references.total} pass`),
    );
    const tree = await crucible(['show', evalRun!.id, '--db', db]);
    assert.match(tree.stdout, new RegExp(`result pass@1 base ${base}%`));
    assert.match(tree.stdout, new RegExp(`samples\\s+${evalDoc.summary.samples}\\n`));
    assert.doesNotMatch(tree.stdout, /no events/);
  },
);

test('calibrate and select are recorded with their seed and figures', { timeout: 300_000 }, async () => {
  const db = join(dir, 'select.db');
  const prompt = 'def double(x: int) -> int:\n    """Twice x.\n    >>> double(2)\n    4\n    """\n';
  const dataset = join(dir, 'double.jsonl');
  writeJsonl(
    dataset,
    [0, 1].map((i) => ({
      task_id: `T/${i}`,
      prompt,
      canonical_solution: '    return 2 * x\n',
      entry_point: 'double',
      test: 'def check(c):\n    assert c(2) == 4\n    assert c(-3) == -6\n',
    })),
  );
  const samples = join(dir, 'double-samples.jsonl');
  writeJsonl(samples, [
    ...['    return x + x\n', '    return 2 * x\n', '    return x * x\n'].map((completion) => ({
      task_id: 'T/0',
      completion,
    })),
    ...['    return x * x\n', '    return 4\n'].map((completion) => ({ task_id: 'T/1', completion })),
  ]);
  const threshold = join(dir, 'threshold.json');
  const calibrated = await crucible([
    'calibrate',
    '--dataset',
    dataset,
    '--samples',
    samples,
    '--out',
    threshold,
    '--alpha',
    '0.5',
    '--delta',
    '0.2',
    '--seed',
    '4',
    '--inputs',
    '20',
    '--workers',
    '1',
    '--db',
    db,
  ]);
  assert.equal(calibrated.code, 0, calibrated.stderr);
  const selectJson = join(dir, 'select.json');
  const selected = await crucible([
    'select',
    '--dataset',
    dataset,
    '--samples',
    samples,
    '--threshold',
    threshold,
    '--seed',
    '4',
    '--inputs',
    '20',
    '--workers',
    '1',
    '--db',
    db,
    '--json',
    selectJson,
  ]);
  assert.equal(selected.code, 0, selected.stderr);

  const [selectRun, calibrateRun] = await listRuns(db);
  const thresholdDoc = JSON.parse(readFileSync(threshold, 'utf8'));
  assert.equal(calibrateRun!.id, recordedId(calibrated.stderr));
  assert.deepEqual(
    [calibrateRun!.strategy, calibrateRun!.status, calibrateRun!.task, calibrateRun!.model, calibrateRun!.meta.seed],
    ['calibrate', 'finished', dataset, samples, 4],
  );
  assert.equal(calibrateRun!.headline!.threshold, thresholdDoc.threshold);
  assert.equal(calibrateRun!.headline!.answered, thresholdDoc.answered);
  assert.deepEqual((await shownDocument(db, calibrateRun!.id)).run.summary, thresholdDoc);

  const selectDoc = JSON.parse(readFileSync(selectJson, 'utf8'));
  assert.equal(selectRun!.id, recordedId(selected.stderr));
  assert.deepEqual([selectRun!.strategy, selectRun!.status, selectRun!.meta.seed], ['select', 'finished', 4]);
  assert.deepEqual(selectRun!.headline, selectDoc.summary);
  const text = await crucible(['runs', '--db', db]);
  assert.match(text.stdout, new RegExp(`${selectRun!.id}.*select.*answered ${selectDoc.summary.answered} of 2 tasks`));
  assert.match(
    text.stdout,
    new RegExp(
      `${calibrateRun!.id}.*calibrate.*${thresholdDoc.threshold === null ? 'no threshold meets' : `threshold ${thresholdDoc.threshold.toFixed(3)}`}`,
    ),
  );
});

test(
  '--no-record leaves no run; a run that fails is recorded as an error with its reason',
  { timeout: 120_000 },
  async () => {
    const db = join(dir, 'quiet.db');
    const quiet = await crucible(['eval', '--limit', '1', '--workers', '1', '--db', db, '--no-record']);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.doesNotMatch(quiet.stderr, /recorded as run/);
    assert.equal(existsSync(db), false, 'no store was even created');

    const failing = await crucible(['audit', '--limit', '1', '--db', db, '--node-path', join(dir, 'no-such-folder')]);
    assert.equal(failing.code, 2);
    const [failed] = await listRuns(db);
    assert.equal(failed!.status, 'error');
    assert.match((failed!.summary as { reason: string }).reason, /--node-path .*no such folder/);
    const text = await crucible(['runs', '--db', db]);
    assert.match(text.stdout, new RegExp(`${failed!.id}.*error\\s+audit\\s.*"--node-path `));
  },
);

/** Starts a command, presses Ctrl-C once its first progress line shows, and waits for it to end. */
async function interruptAfterFirstProgress(
  args: string[],
  progress: RegExp,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (progress.test(stderr)) resolve();
    }),
  );
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}

test(
  'Ctrl-C: eval is recorded as interrupted with the samples it judged; audit, which stops at once, as interrupted',
  { timeout: 120_000 },
  async () => {
    const db = join(dir, 'interrupted.db');
    const file = join(dir, 'interrupted.json');
    const evaluated = await interruptAfterFirstProgress(['eval', '--db', db, '--json', file], /eval: 1\/83/);
    assert.equal(evaluated.code, 130, evaluated.stderr);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const [evalRun] = await listRuns(db);
    assert.equal(evalRun!.status, 'interrupted');
    assert.equal(evalRun!.headline!.interrupted, true);
    assert.equal(evalRun!.headline!.samples, json.samples.length);
    assert.ok(json.samples.length < 83);

    const audited = await interruptAfterFirstProgress(['audit', '--db', db], /audit: 1\//);
    assert.equal(audited.code, 130, audited.stderr);
    const [auditRun] = await listRuns(db);
    assert.equal(auditRun!.strategy, 'audit');
    assert.equal(auditRun!.status, 'interrupted');
    assert.match((auditRun!.summary as { reason: string }).reason, /Ctrl-C/);
  },
);
