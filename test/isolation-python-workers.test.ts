/**
 * Worker death: a candidate cannot kill its worker from inside (the worker is its PID
 * namespace's init); when a worker dies anyway (killed from outside here), the candidate
 * running on it gets a status that is not a pass, the sandbox failure of the trusted judge
 * is `no-verdict`, and the pool starts fresh workers for the next candidate.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Harness } from '../src/verify/harness.js';
import { expectNextJudged, newHarness, summary, TASK } from './isolation-python-support.js';

let h: Harness;
before(async () => {
  h = newHarness();
  await expectNextJudged(h); // the reference's baseline, and warm workers
});
after(() => h.close());

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly cmd: string;
}

function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      all.set(Number(name), { pid: Number(name), ppid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** Host pid of this test's worker running `script` (the one bwrap started, not a forked candidate). */
function workerPid(script: string): number {
  const all = processes();
  const ours = (p: Proc): boolean => {
    for (let q: Proc | undefined = p; q; q = all.get(q.ppid)) if (q.pid === process.pid) return true;
    return false;
  };
  const found = [...all.values()].filter(
    (p) => p.cmd.includes(script) && !p.cmd.includes('bwrap') && all.get(p.ppid)?.cmd.includes('bwrap') && ours(p),
  );
  assert.equal(found.length, 1, `one ${script} of this test: ${JSON.stringify(found)}`);
  return found[0]!.pid;
}

const SLOW_RIGHT = 'import time\ndef add(a, b):\n    time.sleep(0.6)\n    return a + b\n';

async function judgeWhileKilling(script: string): Promise<Awaited<ReturnType<Harness['judge']>>> {
  const pid = workerPid(script);
  const verdict = h.judge(TASK, SLOW_RIGHT);
  await new Promise((resolve) => setTimeout(resolve, 250));
  process.kill(pid, 'SIGKILL');
  return verdict;
}

describe('worker death', () => {
  it('a candidate cannot kill, stop or interrupt its worker from inside', async () => {
    const before = workerPid('candidate_worker.py');
    for (const sig of ['SIGKILL', 'SIGSTOP', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR1']) {
      // Refused (PermissionError, the seccomp filter) or, were it sent, dropped by the kernel.
      const program = `import os, signal\nfor pid in (os.getppid(), 1):\n    try:\n        os.kill(pid, signal.${sig})\n    except PermissionError:\n        pass\ndef add(a, b):\n    return a - b\n`;
      const verdict = await h.judge(TASK, program);
      assert.equal(verdict.status, 'fail', `${sig}: ${summary(verdict)}`);
    }
    await expectNextJudged(h);
    assert.equal(workerPid('candidate_worker.py'), before, 'the same candidate worker is still serving');
  });

  it('a candidate whose worker dies under it is not a pass (error), and the pool recovers', async () => {
    const before = workerPid('candidate_worker.py');
    const verdict = await judgeWhileKilling('candidate_worker.py');
    assert.equal(verdict.status, 'error', summary(verdict));
    await expectNextJudged(h);
    assert.notEqual(workerPid('candidate_worker.py'), before, 'a fresh candidate worker');
  });

  it('a judge that dies is a sandbox failure: no-verdict, and the pool recovers', async () => {
    const verdict = await judgeWhileKilling('judge_worker.py');
    assert.equal(verdict.status, 'no-verdict', summary(verdict));
    assert.ok(verdict.suites.every((s) => s.status === 'no-verdict'), summary(verdict));
    await expectNextJudged(h);
  });
});
