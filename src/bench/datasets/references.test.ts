/**
 * The programs the loaders build must behave as the benchmarks say: every reference passes
 * its tests and every known-wrong program fails them, when run the way the benchmark's own
 * harness runs them (program, then test code, then the invocation).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import vm from 'node:vm';
import type { Task } from '../../core/task.js';
import { loadDataset } from './index.js';
import { realFile } from './testing.js';

const PYTHON = process.env.CRUCIBLE_PYTHON ?? 'python3';
const hasPython = spawnSync(PYTHON, ['--version']).status === 0;

const DRIVER = String.raw`
import io, json, signal, sys, contextlib
def alarm(*_): raise TimeoutError()
signal.signal(signal.SIGALRM, alarm)
sys.setrecursionlimit(5000)
results = {}
for line in sys.stdin:
    job = json.loads(line)
    ok = True
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            signal.setitimer(signal.ITIMER_REAL, job["seconds"])
            exec(compile(job["source"], job["key"], "exec"), {"__name__": "__main__"})
    except BaseException:
        ok = False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    results[job["key"]] = ok
print(json.dumps(results))
`;

interface Job {
  key: string;
  source: string;
  seconds: number;
}

function scriptJobs(tasks: readonly Task[], seconds: number): { right: Job[]; wrong: Job[] } {
  const right: Job[] = [];
  const wrong: Job[] = [];
  for (const task of tasks) {
    const suite = task.suites[0];
    assert.ok(suite?.kind === 'script');
    const tail = `\n${suite.code}\n${suite.invoke ?? ''}\n`;
    if (task.reference !== undefined) right.push({ key: task.id, source: task.reference + tail, seconds: 10 });
    for (const w of task.knownWrong) wrong.push({ key: `${task.id}#${w.label}`, source: w.program + tail, seconds });
  }
  return { right, wrong };
}

function runPython(jobs: readonly Job[]): Record<string, boolean> {
  const out = spawnSync(PYTHON, ['-c', DRIVER], { input: jobs.map((j) => JSON.stringify(j)).join('\n'), encoding: 'utf8', maxBuffer: 1 << 24 });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout) as Record<string, boolean>;
}

const failing = (results: Record<string, boolean>) => Object.keys(results).filter((k) => !results[k]);
const passing = (results: Record<string, boolean>) => Object.keys(results).filter((k) => results[k]);

for (const [file, refs, wrongs] of [
  ['humaneval/HumanEval.jsonl.gz', 164, 0],
  ['humanevalpack/humanevalpack-python.jsonl.gz', 164, 164],
  ['quixbugs-python/quixbugs_python.jsonl', 40, 40],
] as const) {
  const real = realFile(file);
  const skip = real.skip || (hasPython ? false : `no Python interpreter (${PYTHON})`);
  test(`${file}: references pass, known-wrong programs fail (Python)`, { skip }, async () => {
    const { right, wrong } = scriptJobs((await loadDataset(real.path)).tasks, 0.5);
    assert.equal(right.length, refs);
    assert.equal(wrong.length, wrongs);
    assert.deepEqual(failing(runPython(right)), []);
    if (wrong.length) assert.deepEqual(passing(runPython(wrong)), []);
  });
}

/** Runs a JavaScript program and its tests in a fresh context; `console.assert` failures count. */
function runJs(source: string, timeout: number): boolean {
  const failures: unknown[] = [];
  const context = {
    console: {
      assert: (condition: unknown) => {
        if (!condition) failures.push(new Error('Assertion failed'));
      },
      log: () => {},
    },
    require: (name: string) => {
      throw new Error(`module ${name} is not available here`);
    },
  };
  try {
    vm.runInNewContext(source, context, { timeout });
  } catch {
    return false;
  }
  return failures.length === 0;
}

const js = realFile('humanevalpack/humanevalpack-js.jsonl.gz');
test('humanevalpack-js: references pass (but for js-md5), known-wrong programs fail', { skip: js.skip }, async () => {
  const { right, wrong } = scriptJobs((await loadDataset(js.path)).tasks, 0.5);
  assert.deepEqual(
    right.filter((j) => !runJs(j.source, 5000)).map((j) => j.key),
    ['JavaScript/162'], // string_to_md5 needs the npm package js-md5
  );
  assert.deepEqual(
    wrong.filter((j) => runJs(j.source, j.seconds * 1000)).map((j) => j.key),
    [],
  );
});
