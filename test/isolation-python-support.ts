/**
 * Shared pieces of the Python isolation tests (test/isolation-python-*.test.ts): a small
 * task judged through the public Harness, and checks that every hostile program gets its
 * exact status and leaves the next ordinary candidates judged right.
 */
import assert from 'node:assert/strict';
import type { Task } from '../src/core/task.js';
import type { Status, Verdict } from '../src/core/verdict.js';
import { Harness, type HarnessOptions } from '../src/verify/harness.js';

export const RIGHT = 'def add(a, b):\n    return a + b\n';
export const WRONG = 'def add(a, b):\n    return a - b\n';

/** A reference, a HumanEval-style script suite and an io suite. */
export const TASK: Task = {
  id: 'isolation/add',
  language: 'python',
  prompt: '',
  entryPoint: 'add',
  completionPrefix: '',
  knownWrong: [],
  source: 'test',
  reference: RIGHT,
  suites: [
    {
      kind: 'script',
      name: 'base',
      code: [
        'def check(candidate):',
        '    assert candidate(1, 2) == 3',
        '    assert abs(candidate(0.5, 0.25) - 0.75) < 1e-9',
        '    assert isinstance(candidate(2, 2), int)',
        '    assert len([candidate(0, 0)]) == 1',
        '',
      ].join('\n'),
      invoke: 'check(add)',
    },
    { kind: 'io', name: 'plus', entry: 'add', inputsJson: '[[1, 2], [1.5, 2], [-3, 1]]' },
  ],
};

/**
 * One worker pair, so every candidate of a file runs in the same sandbox as the one before.
 * Short time limits, and the memory and reply limits these tests exercise pinned (the
 * defaults are sized for huge benchmark outputs and would make exhausting them slow).
 */
export function newHarness(options: HarnessOptions = {}): Harness {
  return new Harness({
    workers: 1,
    ...options,
    time: { scriptFloorSeconds: 1, callFloorSeconds: 0.5, ...options.time },
    limits: { memoryBytes: 1 << 30, replyBytes: 16 << 20, outputBytes: 1 << 20, loadSeconds: 2, ...options.limits },
  });
}

export function summary(v: Verdict): string {
  return JSON.stringify({
    status: v.status,
    suites: v.suites.map((s) => [s.name, s.status, s.firstFailure?.message, s.firstFailure?.actual]),
    ms: Math.round(v.timeMs),
  });
}

export interface Expectation {
  /** Status of each suite, in order (base, plus). */
  readonly suites?: readonly Status[];
  /** The run, re-runs included, must be over within this many milliseconds. */
  readonly withinMs?: number;
  /** The first failure's `actual` (repr of what the candidate returned). */
  readonly actual?: string;
}

/** Judges a hostile program, checks its exact status, then that the sandbox still judges right. */
export async function expectVerdict(h: Harness, program: string, status: Status, expectation: Expectation = {}): Promise<void> {
  const started = performance.now();
  const verdict = await h.judge(TASK, program);
  const ms = performance.now() - started;
  assert.equal(verdict.status, status, summary(verdict));
  if (expectation.suites) assert.deepEqual(verdict.suites.map((s) => s.status), expectation.suites, summary(verdict));
  if (expectation.withinMs !== undefined) assert.ok(ms < expectation.withinMs, `took ${Math.round(ms)} ms: ${summary(verdict)}`);
  if (expectation.actual !== undefined) assert.equal(verdict.firstFailure?.actual, expectation.actual, summary(verdict));
  await expectNextJudged(h);
}

/** The next ordinary candidates, in the same worker: a right one passes, a wrong one fails. */
export async function expectNextJudged(h: Harness): Promise<void> {
  const right = await h.judge(TASK, RIGHT);
  assert.equal(right.status, 'pass', `a right candidate after the attack: ${summary(right)}`);
  const wrong = await h.judge(TASK, WRONG);
  assert.equal(wrong.status, 'fail', `a wrong candidate after the attack: ${summary(wrong)}`);
}

/**
 * A probe: Python `body` calls attempt(label, fn) for each thing the sandbox must refuse,
 * and works(label, fn) for each it must allow; `add` returns the labels of the attempts that
 * worked and of the refusals. A control attempt that must work shows the probe itself ran.
 * The verdict is `fail` with exactly ['control'] returned.
 */
export function probe(body: string): string {
  return [
    'import ctypes, errno, os, signal, socket, sys',
    'leaks = []',
    'def attempt(label, fn):',
    '    try:',
    '        ok = fn()',
    '    except Exception:',
    '        return',
    '    if ok is not False:',
    '        leaks.append(label)',
    // What must keep working (the candidate's own process): a refusal is reported as a leak is.
    'def works(label, fn):',
    '    try:',
    '        ok = fn()',
    '    except Exception as exc:',
    '        ok = exc',
    '    if ok is False or isinstance(ok, Exception):',
    "        leaks.append('refused %s: %r' % (label, ok))",
    "attempt('control', lambda: open('/tmp/work/control', 'w').write('x'))",
    body,
    'def add(a, b):',
    '    return leaks',
    '',
  ].join('\n');
}

export async function expectProbeClean(h: Harness, body: string): Promise<void> {
  await expectVerdict(h, probe(body), 'fail', { actual: "['control']" });
}

/** Python source for a literal string. */
export function py(value: string): string {
  return JSON.stringify(value);
}
