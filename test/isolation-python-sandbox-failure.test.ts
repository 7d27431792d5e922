/**
 * When the Python runtime cannot run at all, no candidate is judged pass or fail. Its own
 * file (its own process), so no other test's interpreter is in play.
 *
 * Not in the runtime contract (test/contracts/runtime-contract.ts): these are no hostile
 * programs but a broken interpreter, chosen by CRUCIBLE_PYTHON, which only Python has (the
 * JavaScript runtime runs the node that runs Crucible).
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Harness } from '../src/domains/code/harness.js';
import { addTaskOf, summary } from './contracts/runtime-contract.js';

const { task: TASK, right: RIGHT, wrong: WRONG } = addTaskOf('python');
const dir = mkdtempSync(join(tmpdir(), 'crucible-broken-python-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const newHarness = () =>
  new Harness({
    workers: 1,
    time: { scriptFloorSeconds: 1, callFloorSeconds: 0.5 },
    limits: { memoryBytes: 1 << 30, loadSeconds: 2 },
  });

describe('sandbox failure', () => {
  it('an interpreter that does not exist: never a verdict of pass or fail', async () => {
    process.env.CRUCIBLE_PYTHON = join(dir, 'no-such-python');
    const h = newHarness();
    try {
      for (const program of [RIGHT, WRONG]) {
        // Today the Harness throws (a configuration error); a no-verdict would do as well.
        const outcome = await h.judge(TASK, program).then(
          (verdict) => verdict,
          (error: unknown) => error as Error,
        );
        if (outcome instanceof Error) assert.match(outcome.message, /Python was not found/);
        else assert.equal(outcome.status, 'no-verdict', summary(outcome));
      }
    } finally {
      await h.close();
    }
  });

  it('an interpreter that cannot start inside the sandbox: no-verdict', async () => {
    // Answers the host's question (sys.executable, site-packages) with a program that is no Python.
    const fake = join(dir, 'python3');
    writeFileSync(fake, '#!/bin/sh\necho \'["/bin/false", []]\'\n');
    chmodSync(fake, 0o755);
    process.env.CRUCIBLE_PYTHON = fake;
    const h = newHarness();
    try {
      for (const program of [RIGHT, WRONG]) {
        const verdict = await h.judge(TASK, program);
        assert.equal(verdict.status, 'no-verdict', summary(verdict));
        assert.ok(
          verdict.suites.every((s) => s.status === 'no-verdict'),
          summary(verdict),
        );
      }
    } finally {
      await h.close();
    }
  });
});
