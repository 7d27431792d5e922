/** `crucible eval --model --strategy`: a strategy generates each task's answer, and the hidden tests score it. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { builtin, fenced, scriptedModel } from './strategies-support.js';

const BIN = join(import.meta.dirname, '../bin/crucible.js');
const dir = mkdtempSync(join(tmpdir(), 'crucible-eval-model-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test(
  'eval --model --strategy sample on the first two built-in tasks: one verified and right, one abstained',
  { timeout: 120_000 },
  async () => {
    const rle = builtin('builtin/py/run-length-encode');
    const merge = builtin('builtin/py/merge-intervals');
    const f = await scriptedModel({
      programs: [fenced(rle.program('groupby')), fenced(merge.program('assumes-sorted'))],
    });
    try {
      const json = join(dir, 'eval.json');
      const args = [
        'eval',
        '--model',
        `${f.server.url}#fake-model`,
        '--strategy',
        'sample',
        '--candidates',
        '1',
        '--limit',
        '2',
        '--budget',
        'calls=2',
        '--seed',
        '4',
        '--workers',
        '1',
      ];
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [BIN, ...args, '--json', json, '--db', join(dir, 'runs.db'), '--cache-dir', join(dir, 'cache')],
        { cwd: dir },
      );
      assert.match(stdout, /builtin \(sample, http:\/\/127\.0\.0\.1:\d+\/v1#fake-model\): 2 tasks, 2 samples/);
      assert.match(stdout, /strategy: 1 verified, 0 unverified, 1 abstained of 2 tasks \(coverage 50\.0%/);
      assert.match(stdout, /answered: 1 right on the hidden tests, error among answered 0\.0%/);
      assert.match(
        stdout,
        /builtin\/py\/merge-intervals #0 +fail +abstained: none of 1 samples passes the visible checks/,
      );
      const result = JSON.parse(readFileSync(json, 'utf8'));
      assert.equal(result.summary.pass_at_k.plus['1'], 0.5, 'the abstention counts as a failure');
      assert.equal(result.summary.strategy.verified, 1);
      assert.deepEqual(
        result.samples.map((s: { strategy: { status: string } }) => s.strategy.status),
        ['verified', 'abstained'],
      );
      assert.equal(result.generation.oracle, false);
      assert.equal(f.server.requests.length, 2);
      // Recorded: the eval's own run, with its figures and what the strategy spent, beside each task's solve run.
      const listed = await promisify(execFile)(process.execPath, [BIN, 'runs', '--db', join(dir, 'runs.db'), '--json']);
      const runs: Array<{
        strategy: string;
        status: string;
        model: string;
        headline: unknown;
        usage: { modelCalls: number } | null;
      }> = JSON.parse(listed.stdout);
      const evalRun = runs.find((r) => r.strategy === 'eval')!;
      assert.deepEqual(
        [evalRun.status, evalRun.model, evalRun.usage?.modelCalls],
        ['finished', `${f.server.url}#fake-model`, 2],
      );
      assert.deepEqual(evalRun.headline, result.summary);
      assert.deepEqual(
        runs
          .filter((r) => r.strategy === 'sample')
          .map((r) => r.status)
          .sort(),
        ['abstained', 'verified'],
      );
      // The strategy saw the prompt, never the hidden tests.
      assert.doesNotMatch(JSON.stringify(f.server.requests[0]!.messages), /def check\(candidate\)/);
    } finally {
      await f.close();
    }
  },
);
