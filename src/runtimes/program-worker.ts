import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Status } from '../core/verdict.js';
import { isMessage, type LineProcess } from './line-process.js';
import { PROGRAM, type ProgramReply, type ProgramReport, type ProgramWorkerRequest } from './protocol.js';
import { unlessAborted } from './pool.js';
import type { SandboxMode } from './sandbox.js';
import { buildSeccompFilter, seccompSupported } from './seccomp.js';
import { describeMessage, pingWorker, spawnWorker, type WorkerRecipe } from './worker-process.js';

/**
 * Whole programs run as `python main.py` / `node main.js` would, with stdin, returning
 * stdout and stderr: what SandboxFusion's /run_code does, on warm sandboxed workers
 * (python/program_worker.py, node/program-worker.cjs; PROTOCOL.md).
 */
export interface ProgramLimits {
  /** Wall-clock seconds for the whole program (CPU seconds are capped just above it). */
  readonly wallSeconds: number;
  /** Address space (Python); JavaScript's heap is fixed per pool (see program-pool.ts). */
  readonly memoryBytes: number;
  /** stdout + stderr together, and any one file written; past it the program is stopped. */
  readonly outputBytes: number;
}

export const DEFAULT_PROGRAM_LIMITS: ProgramLimits = {
  wallSeconds: 10,
  memoryBytes: 4 * 2 ** 30,
  outputBytes: 1 << 20,
};

export interface ProgramRequest {
  readonly code: string;
  readonly stdin?: string;
  /** Files to create in the working directory before the run: relative path → base64. */
  readonly files?: Readonly<Record<string, string>>;
  /** Files to return after the run (base64), if the program left them. */
  readonly fetchFiles?: readonly string[];
  readonly limits?: Partial<ProgramLimits>;
}

/**
 * A whole program is not compared with an expected output here, so it neither passes nor
 * fails: `ok` is exit status 0 within every limit, and the rest are the Statuses a program's
 * run can have (`no-verdict`: the sandbox failed, not the program).
 */
export type ProgramStatus = 'ok' | Exclude<Status, 'pass' | 'fail'>;

export interface ProgramResult {
  readonly status: ProgramStatus;
  /** Where an `error` happened: the program did not compile, or failed while running. */
  readonly phase?: 'compile' | 'run';
  readonly exitCode: number | null;
  readonly signal: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallSeconds: number;
  readonly cpuSeconds?: number;
  readonly files: Readonly<Record<string, string>>;
  /** Why the sandbox gave no verdict, or which limit stopped the program. */
  readonly message?: string;
  /** Stopped, or never started, because its request was abandoned (the client left, or was answered 504): nobody reads it. */
  readonly cancelled?: true;
}

/** How to start one language's program worker. */
export interface ProgramRecipe extends WorkerRecipe {
  /** The worker itself dies when a program exhausts memory (one heap, JavaScript). */
  readonly isOutOfMemory?: (stderr: string) => boolean;
  /** A worker that stops answering ran a program past its time (JavaScript); else the sandbox failed. */
  readonly silenceIsTimeout: boolean;
}

const START_MS = 20_000;
/** Beyond the program's own limit: stdin and outputs must also cross the pipes. */
const SLACK_MS = 5_000;
const SIGXCPU = 24;
const SIGXFSZ = 25;

export function noVerdict(message: string): ProgramResult {
  return {
    status: 'no-verdict',
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    wallSeconds: 0,
    files: {},
    message,
  };
}

/** The result of a run whose request was abandoned before it ended (`signal` aborted). */
export function cancelled(): ProgramResult {
  return {
    ...noVerdict('stopped: the request was abandoned (the client went away, or it was answered 504)'),
    cancelled: true,
  };
}

/** Outcome of one attempt; `retry` means the worker died for a reason that is not the program's. */
type Attempt = { result: ProgramResult; retry?: boolean };

export class ProgramWorker {
  private process: LineProcess<ProgramWorkerRequest, ProgramReply> | undefined;
  private readonly dir: string;
  private readonly childSeccomp: string | undefined;

  constructor(
    private readonly recipe: ProgramRecipe,
    private readonly mode: SandboxMode,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'crucible-program-'));
    if (seccompSupported && !recipe.seccompOnWorker) {
      this.childSeccomp = join(this.dir, 'seccomp.bpf');
      writeFileSync(this.childSeccomp, buildSeccompFilter({ forbidExec: true }));
    }
  }

  /** The worker's process id (tests kill it to check that work survives). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  private spawn(): LineProcess<ProgramWorkerRequest, ProgramReply> {
    return spawnWorker({ ...this.recipe, dir: this.dir, mode: this.mode }, PROGRAM);
  }

  private async ensureStarted(): Promise<string | undefined> {
    if (this.process && !this.process.isClosed) return undefined;
    this.process = this.spawn();
    const error = await pingWorker(this.process, START_MS);
    if (!error) return undefined;
    this.kill();
    return `program worker did not start: ${error}`;
  }

  /**
   * Runs one program. When `signal` aborts meanwhile, the worker process is killed (the
   * worker has no way to stop a program but its own end) and the run is `cancelled`; the
   * next run starts a fresh process, so it is judged by a worker in a known state.
   */
  async run(request: ProgramRequest, limits: ProgramLimits, signal?: AbortSignal): Promise<Attempt> {
    if (signal?.aborted) return { result: cancelled() };
    const startError = await this.ensureStarted();
    if (signal?.aborted) return { result: cancelled() };
    if (startError) return { result: noVerdict(startError) };
    const process = this.process!;
    const seccomp = this.childSeccomp ? (this.mode === 'bwrap' ? '/ipc/seccomp.bpf' : this.childSeccomp) : null;
    process.send({
      op: 'run',
      code: request.code,
      stdin: request.stdin ?? '',
      files: request.files ?? {},
      fetch: request.fetchFiles ?? [],
      limits: {
        wallSeconds: limits.wallSeconds,
        cpuSeconds: Math.ceil(limits.wallSeconds) + 1,
        memoryBytes: limits.memoryBytes,
        outputBytes: limits.outputBytes,
      },
      seccomp,
    });
    const reply = await unlessAborted(process.next(limits.wallSeconds * 1000 + SLACK_MS), signal);
    if (reply === undefined) {
      this.kill();
      return { result: cancelled() };
    }
    if (isMessage(reply) && reply.op === 'result') return { result: classify(reply, limits) };
    const stderr = process.stderrTail;
    this.kill();
    if (isMessage(reply) || reply.kind === 'malformed') {
      return {
        result: noVerdict(isMessage(reply) ? `program worker sent ${describeMessage(reply)}` : reply.why),
        retry: true,
      };
    }
    if (reply.kind === 'timeout' && this.recipe.silenceIsTimeout) {
      return {
        result: {
          ...noVerdict(''),
          status: 'timeout',
          wallSeconds: limits.wallSeconds,
          message: `stopped after ${limits.wallSeconds}s`,
        },
      };
    }
    if (reply.kind === 'closed' && this.recipe.isOutOfMemory?.(stderr)) {
      return { result: { ...noVerdict(''), status: 'memory', message: 'the memory limit was reached' } };
    }
    return {
      result: noVerdict(
        `program worker ${reply.kind === 'closed' ? 'died' : 'stopped answering'}: ${stderr.slice(-800)}`,
      ),
      retry: true,
    };
  }

  kill(): void {
    this.process?.kill();
    this.process = undefined;
  }

  async close(): Promise<void> {
    const exited = this.process?.exited;
    this.kill();
    await exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The worker's report as a status: the worker measured, the program could not forge a limit. */
export function classify(reply: ProgramReport, limits: ProgramLimits): ProgramResult {
  const { report, signal, exitCode } = reply;
  const base = {
    exitCode,
    signal,
    stdout: reply.stdout,
    stderr: reply.stderr,
    wallSeconds: reply.wallSeconds,
    ...(reply.cpuSeconds !== undefined ? { cpuSeconds: reply.cpuSeconds } : {}),
    files: reply.files,
  };
  if (reply.noVerdict !== undefined) return { ...base, status: 'no-verdict', message: reply.noVerdict };
  if (report?.phase === 'compile')
    return { ...base, status: 'error', phase: 'compile', message: `${report.error}: the program does not compile` };
  if (reply.truncated || reply.scratchFull || signal === SIGXFSZ)
    return { ...base, status: 'output-limit', message: `printed or wrote more than ${limits.outputBytes} bytes` };
  if (reply.timedOut || signal === SIGXCPU)
    return { ...base, status: 'timeout', message: `ran past ${limits.wallSeconds}s` };
  if (report?.error === 'MemoryError') return { ...base, status: 'memory', message: 'the memory limit was reached' };
  if (exitCode === 0) return { ...base, status: 'ok' };
  return {
    ...base,
    status: 'error',
    phase: 'run',
    message: report?.error ? `uncaught ${report.error}` : `exit status ${exitCode ?? `signal ${signal}`}`,
  };
}
