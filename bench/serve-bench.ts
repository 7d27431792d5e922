/**
 * `npm run bench:serve`: Crucible's /run_code under load, against a naive spawn-per-request
 * server measured in the same run, then a fault test on a 10,000-test batch.
 *
 * - Load: autocannon in this process, each server in its own; 64 concurrent clients send
 *   verl-style one-test /run_code requests, each a HumanEval+ reference program that reads
 *   one base input from stdin and prints the result. BENCH_SECONDS (default 60),
 *   BENCH_CONNECTIONS (64), BENCH_WORKERS (server workers, default one per core).
 * - Fault: POST /v1/verify with one program × 10,000 tests (BENCH_FAULT_TESTS); a sandboxed
 *   worker process of the server is killed mid-batch; every test must get exactly one verdict.
 * Needs ../shared/datasets (HumanEval+); the product does not.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATASET = join(ROOT, '..', 'shared', 'datasets', 'evalplus', 'HumanEvalPlus-v0.1.10.jsonl.gz');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const FAULT_TESTS = Number(process.env.BENCH_FAULT_TESTS ?? 10_000);

interface Program {
  readonly body: string;
  readonly expected: string;
}

/** One verl-style request per HumanEval+ task: the reference as a stdin/stdout program. */
function programs(): Program[] {
  const lines = gunzipSync(readFileSync(DATASET)).toString().trim().split('\n');
  return lines.map((line) => {
    const task = JSON.parse(line) as {
      prompt: string;
      canonical_solution: string;
      entry_point: string;
      base_input: unknown[];
    };
    const code = `${task.prompt}${task.canonical_solution}\n\nimport sys, json\nargs = json.loads(sys.stdin.read())\nprint(repr(${task.entry_point}(*args)))\n`;
    const stdin = JSON.stringify(task.base_input[0]);
    return {
      body: JSON.stringify({
        compile_timeout: 10,
        run_timeout: 10,
        code,
        stdin,
        language: 'python',
        files: {},
        fetch_files: [],
      }),
      expected: '',
    };
  });
}

async function waitFor(url: string, seconds = 60): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

function start(command: string[], port: number): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...command, ...(command[0]!.endsWith('crucible.js') ? [] : [String(port)])],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

interface LoadFigures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  noVerdicts: number;
  failedRuns: number;
}

async function load(url: string, progs: Program[]): Promise<LoadFigures> {
  let noVerdicts = 0;
  let failedRuns = 0;
  let next = 0;
  const result = await autocannon({
    url: `${url}/run_code`,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        setupRequest: (req) => ({ ...req, body: progs[next++ % progs.length]!.body }),
        onResponse: (status, body) => {
          if (status !== 200) return;
          const parsed = JSON.parse(body) as { status: string };
          if (parsed.status === 'SandboxError') noVerdicts++;
          else if (parsed.status !== 'Success') failedRuns++;
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    noVerdicts,
    failedRuns,
  };
}

/** Kills one sandboxed worker of the server (a bwrap process group it started) mid-batch. */
async function faultTest(url: string, serverPid: number): Promise<Record<string, unknown>> {
  const tests = Array.from({ length: FAULT_TESTS }, (_, i) => ({
    stdin: `${i} ${i + 1}\n`,
    expected_stdout: `${2 * i + 1}\n`,
  }));
  const started = performance.now();
  const pending = fetch(`${url}/v1/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      language: 'python',
      candidates: ['a, b = map(int, input().split())\nprint(a + b)\n'],
      tests,
    }),
  });
  await new Promise((r) => setTimeout(r, 3000));
  const children = execFileSync('pgrep', ['-P', String(serverPid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  const victim = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('program_worker'));
  if (victim) process.kill(-victim, 'SIGKILL');
  const response = (await (await pending).json()) as {
    results: Array<{ tests: Array<{ index: number }>; passed: number; status: string }>;
  };
  const verdict = response.results[0]!;
  const indices = new Set(verdict.tests.map((t) => t.index));
  return {
    tests: FAULT_TESTS,
    killedWorkerPid: victim ?? null,
    verdicts: verdict.tests.length,
    distinctTests: indices.size,
    passed: verdict.passed,
    status: verdict.status,
    seconds: (performance.now() - started) / 1000,
    testsPerSecond: FAULT_TESTS / ((performance.now() - started) / 1000),
  };
}

async function main() {
  const progs = programs();
  process.stderr.write(
    `bench:serve: ${progs.length} HumanEval+ programs, ${CONNECTIONS} connections, ${SECONDS}s each, ${WORKERS} workers\n`,
  );
  const crucible = start(['bin/crucible.js', 'serve', '--port', '18480', '--workers', String(WORKERS)], 18480);
  const baseline = start(['bench/serve-baseline.ts'], 18481);
  try {
    await waitFor('http://127.0.0.1:18480/healthz');
    await waitFor('http://127.0.0.1:18481/');
    // Warm both (first forks, page cache) before measuring.
    for (const p of progs.slice(0, 20))
      await fetch('http://127.0.0.1:18480/run_code', {
        method: 'POST',
        body: p.body,
        headers: { 'content-type': 'application/json' },
      });
    const ours = await load('http://127.0.0.1:18480', progs);
    const naive = await load('http://127.0.0.1:18481', progs);
    const fault = await faultTest('http://127.0.0.1:18480', crucible.pid!);
    const report = { crucible: ours, spawnPerRequest: naive, speedup: ours.rps / naive.rps, fault };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await stop(crucible);
    await stop(baseline);
  }
}

await main();
