/**
 * A TypeScript candidate's text is input to the compiler, which some programs make
 * exponential (nested `async (a = ...)` defaults, when transpiling) or gigabytes hungry
 * (permutation types, when type checking). Neither may stall Crucible's event loop or fill its
 * heap: each check ends within its limit as a verdict, and the next candidate is judged right.
 *
 * Not in the runtime contract (test/contracts/runtime-contract.ts): the hostile input here is
 * for the TypeScript compiler's own processes (their transpile and type-check deadlines and
 * heap, and the event loop they must leave free), a mechanism only TypeScript has; the
 * contract runs every TypeScript program through the transpiler, with type checking off.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Task } from '../src/core/task.js';
import { ProgramRunner } from '../src/runtimes/program-pool.js';
import { Harness } from '../src/domains/code/harness.js';

const TASK: Task = {
  id: 'isolation/ts-add',
  language: 'typescript',
  prompt: '',
  entryPoint: 'add',
  completionPrefix: '',
  knownWrong: [],
  source: 'test',
  reference: 'function add(a: number, b: number): number { return a + b; }\n',
  suites: [
    { kind: 'script', name: 'base', code: 'const assert = require("node:assert");\nassert.equal(add(1, 2), 3);\n' },
  ],
};
const RIGHT = TASK.reference!;
const WRONG = 'function add(a: number, b: number): number { return a - b; }\n';

/** Exponential for the parser: each level may be an arrow's parameters or a call, decided only at its end. */
function nestedDefaults(depth: number): string {
  let text = '0';
  for (let i = 0; i < depth; i++) text = `async (a = ${text})`;
  return `const f = ${text};\n`;
}

/** All orderings of eight literals, compared with two values: tens of seconds and gigabytes unbounded. */
const PERMUTATIONS = [
  'type P<T extends string, U extends string = T> = [T] extends [never] ? [] : T extends T ? [T, ...P<Exclude<U, T>>] : never;',
  "type A = P<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h'>;",
  "const x: A = ['a'] as any;",
  "const y: A = ['b'];",
  '',
].join('\n');

/** Runs `work` while counting the event loop's turns: a compiler on this thread would leave none. */
async function withTicks<T>(work: () => Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    return { value: await work(), ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('the TypeScript compiler runs away from the event loop, within limits', () => {
  const harness = new Harness({ workers: 1, compilerLimits: { transpileSeconds: 2, checkSeconds: 4, heapMb: 256 } });
  const strict = new Harness({ workers: 1, strictTypes: true, compilerLimits: { checkSeconds: 4, heapMb: 256 } });
  after(() => Promise.all([harness.close(), strict.close()]));

  it('a program that makes transpiling exponential is a load timeout, and the loop keeps turning', async () => {
    const { value: verdict, ticks } = await withTicks(() => harness.judge(TASK, `${nestedDefaults(30)}${RIGHT}`));
    assert.equal(verdict.status, 'timeout', verdict.firstFailure?.message);
    assert.match(verdict.firstFailure?.message ?? '', /compiling took longer than 2s/);
    // Two seconds of compiling at 5 ms a tick: hundreds on an idle machine, none if it ran here.
    assert.ok(ticks >= 20, `the event loop turned only ${ticks} times`);
    assert.equal((await harness.judge(TASK, RIGHT)).status, 'pass');
    assert.equal((await harness.judge(TASK, WRONG)).status, 'fail');
  });

  it('type checks past their time or heap are reported as not done, concurrently, and the next check works', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const { value: verdicts, ticks } = await withTicks(() =>
      Promise.all([1, 2, 3].map(() => harness.judge(TASK, `${PERMUTATIONS}${RIGHT}`))),
    );
    for (const verdict of verdicts) {
      assert.equal(verdict.status, 'pass', 'type errors are reported, not failed, without strictTypes');
      assert.match(
        verdict.typeCheckNotDone ?? '',
        /type checking (took longer than 4s|needed more than the compiler's 256 MB heap)/,
      );
    }
    assert.ok(ticks >= 20, `the event loop turned only ${ticks} times`);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 200 * 2 ** 20, "the checks grew Crucible's own heap");
    const typeError = await harness.judge(TASK, `${RIGHT}const n: number = 'text';\n`);
    assert.equal(typeError.status, 'pass');
    assert.equal(typeError.typeCheckNotDone, undefined);
    assert.match(typeError.typeErrors?.[0] ?? '', /TS2322/);
  });

  it('with strictTypes, a check that could not be done fails the candidate', async () => {
    const verdict = await strict.judge(TASK, `${PERMUTATIONS}${RIGHT}`);
    assert.equal(verdict.status, 'fail');
    assert.match(verdict.firstFailure?.message ?? '', /^type check not done: /);
    assert.equal((await strict.judge(TASK, RIGHT)).status, 'pass');
  });
});

describe('/run_code TypeScript compiles in the compiler processes too', () => {
  const runner = new ProgramRunner({ workers: 1 });
  after(() => runner.close());

  it('a program that makes transpiling exponential is a compile timeout, and the next program runs', async () => {
    const { value: result, ticks } = await withTicks(() =>
      runner.run('typescript', { code: `${nestedDefaults(30)}console.log(1);\n` }),
    );
    assert.equal(result.status, 'timeout');
    assert.equal(result.phase, 'compile');
    assert.ok(ticks >= 20, `the event loop turned only ${ticks} times`);
    const next = await runner.run('typescript', { code: 'const n: number = 6 * 7;\nconsole.log(n);\n' });
    assert.equal(next.status, 'ok');
    assert.equal(next.stdout, '42\n');
  });
});
