/**
 * `node --import tsx bench/serve-queue-bench.ts`: `crucible serve --queue` with two
 * `crucible worker` processes on a private redis-server, against the in-process
 * `crucible serve` with the same number of sandboxed workers, measured in the same run.
 *
 * - Batch throughput: POST /v1/verify with one program × BENCH_BATCH_TESTS (10,000) tests.
 * - Load: autocannon, BENCH_CONNECTIONS (64) clients sending verl-style one-test /run_code
 *   requests (HumanEval+ references reading their input from stdin when ../shared/datasets
 *   is there, else a small stdin program) for BENCH_SECONDS (20) each.
 * - Fault: a 10,000-test batch (BENCH_FAULT_TESTS) during which a whole `crucible worker`
 *   holding jobs is SIGKILLed at a quarter of the batch: every test must still get exactly
 *   one verdict.
 * BENCH_WORKERS (default: one per core) sandboxed workers in all: the in-process server gets
 * them all, each of the two crucible workers half. Needs redis-server (scripts/setup.sh).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { freePort, startLocalRedis, stopChild, waitUntil } from '../src/server/queue/local-redis.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATASET = join(ROOT, '..', 'shared', 'datasets', 'evalplus', 'HumanEvalPlus-v0.1.10.jsonl.gz');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const BATCH_TESTS = Number(process.env.BENCH_BATCH_TESTS ?? 10_000);
const FAULT_TESTS = Number(process.env.BENCH_FAULT_TESTS ?? 10_000);
const SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';

function crucible(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** verl-style /run_code bodies. */
function runCodeBodies(): string[] {
  if (!existsSync(DATASET)) {
    return Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        code: SUM,
        stdin: `${i} ${i}\n`,
        language: 'python',
        run_timeout: 10,
        compile_timeout: 10,
        files: {},
        fetch_files: [],
      }),
    );
  }
  return gunzipSync(readFileSync(DATASET))
    .toString()
    .trim()
    .split('\n')
    .map((line) => {
      const task = JSON.parse(line) as {
        prompt: string;
        canonical_solution: string;
        entry_point: string;
        base_input: unknown[];
      };
      const code = `${task.prompt}${task.canonical_solution}\n\nimport sys, json\nargs = json.loads(sys.stdin.read())\nprint(repr(${task.entry_point}(*args)))\n`;
      return JSON.stringify({
        compile_timeout: 10,
        run_timeout: 10,
        code,
        stdin: JSON.stringify(task.base_input[0]),
        language: 'python',
        files: {},
        fetch_files: [],
      });
    });
}

async function load(url: string, bodies: string[]) {
  let sandboxErrors = 0;
  let next = 0;
  const result = await autocannon({
    url: `${url}/run_code`,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 60,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length]! }),
        onResponse: (status, body) => {
          if (status === 200 && (JSON.parse(body) as { status: string }).status === 'SandboxError') sandboxErrors++;
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
    noVerdicts: sandboxErrors,
  };
}

const sumTests = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ stdin: `${i} ${i + 1}\n`, expected_stdout: `${2 * i + 1}\n` }));

async function batch(url: string, n: number) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ language: 'python', candidates: [SUM], tests: sumTests(n) }),
  });
  const json = (await response.json()) as {
    results: Array<{ tests: Array<{ index: number; status: string }>; passed: number }>;
  };
  const seconds = (performance.now() - started) / 1000;
  const v = json.results[0]!;
  const statuses: Record<string, number> = {};
  for (const t of v.tests) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
  return {
    tests: n,
    seconds,
    testsPerSecond: n / seconds,
    verdicts: v.tests.length,
    distinct: new Set(v.tests.map((t) => t.index)).size,
    passed: v.passed,
    statuses,
  };
}

/** The 10,000-test batch; at a quarter, SIGKILL the crucible worker that holds the most jobs. */
async function fault(url: string, redis: Redis, workers: ChildProcess[]) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ language: 'python', candidates: [SUM], tests: sumTests(FAULT_TESTS) }),
  });
  let killed: Promise<{ pid: number; activeJobs: number; atTest: number }> | undefined;
  let verdict: { tests: Array<{ index: number; status: string }>; passed: number; status: string } | undefined;
  let summary: Record<string, unknown> | undefined;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
      if (event === 'progress' && !killed && data.done >= data.total / 4) {
        const atTest = data.done as number;
        killed = waitUntil(
          'a worker holding jobs',
          async () => {
            const active = await redis.lrange('crucible:programs:active', 0, -1);
            const holders = await Promise.all(active.map((id) => redis.hget(`crucible:programs:${id}`, 'pb')));
            for (const child of workers) {
              const held = holders.filter((h) => h === `${hostname()}:${child.pid}`).length;
              if (held === 0 || child.exitCode !== null || child.signalCode !== null) continue;
              child.kill('SIGKILL');
              return { pid: child.pid!, activeJobs: held, atTest };
            }
            return undefined;
          },
          30,
        );
      }
      if (event === 'verdict') verdict = data;
      if (event === 'done') summary = data;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const indices = verdict!.tests.map((t) => t.index);
  return {
    tests: FAULT_TESTS,
    killedWorker: killed ? await killed : null,
    verdicts: indices.length,
    distinctTests: new Set(indices).size,
    noVerdicts: verdict!.tests.filter((t) => t.status === 'no-verdict').length,
    passed: verdict!.passed,
    status: verdict!.status,
    executions: summary?.executions,
    duplicateResultsDropped: Number(/crucible_queue_duplicate_results_total (\d+)/.exec(metrics)?.[1] ?? NaN),
    exactlyOnce: indices.length === FAULT_TESTS && new Set(indices).size === FAULT_TESTS,
    seconds,
    testsPerSecond: FAULT_TESTS / seconds,
  };
}

async function main() {
  const localRedis = await startLocalRedis();
  const queue = localRedis.url;
  const redis = localRedis.client;
  const children: ChildProcess[] = [];
  const bodies = runCodeBodies();
  const perWorker = Math.max(1, Math.floor(WORKERS / 2));
  process.stderr.write(
    `bench:serve-queue: ${WORKERS} sandboxed workers in-process vs 2 crucible workers × ${perWorker}; ${BATCH_TESTS}-test batches; ${CONNECTIONS} clients × ${SECONDS}s of /run_code (${bodies.length} programs)\n`,
  );
  try {
    const [localPort, queuePort] = [await freePort(), await freePort()];
    const local = `http://127.0.0.1:${localPort}`;
    const queued = `http://127.0.0.1:${queuePort}`;

    // In-process first, alone on the machine.
    const localServer = crucible(['serve', '--port', String(localPort), '--workers', String(WORKERS)]);
    children.push(localServer);
    await waitUntil('the in-process server', async () => ((await fetch(`${local}/healthz`)).ok ? true : undefined));
    await batch(local, 200); // warm
    const localBatch = await batch(local, BATCH_TESTS);
    const localLoad = await load(local, bodies);
    await stopChild(localServer);

    const queueServer = crucible(['serve', '--port', String(queuePort), '--queue', queue]);
    children.push(queueServer);
    const workers = [
      crucible(['worker', '--queue', queue, '--workers', String(perWorker)]),
      crucible(['worker', '--queue', queue, '--workers', String(perWorker)]),
    ];
    children.push(...workers);
    await waitUntil('two crucible workers', async () =>
      (await (await fetch(`${queued}/healthz`)).json()).workers === 2 * perWorker ? true : undefined,
    );
    await batch(queued, 200); // warm
    const queueBatch = await batch(queued, BATCH_TESTS);
    const queueLoad = await load(queued, bodies);
    const faultResult = await fault(queued, redis, workers);

    console.log(
      JSON.stringify(
        {
          workers: { inProcess: WORKERS, queue: `2 × ${perWorker}` },
          batch: {
            inProcess: localBatch,
            queue: queueBatch,
            queueOverInProcess: queueBatch.testsPerSecond / localBatch.testsPerSecond,
          },
          runCodeLoad: { inProcess: localLoad, queue: queueLoad, queueOverInProcess: queueLoad.rps / localLoad.rps },
          fault: faultResult,
        },
        null,
        2,
      ),
    );
  } finally {
    await Promise.all(children.map(stopChild));
    await localRedis.stop();
  }
}

await main();
