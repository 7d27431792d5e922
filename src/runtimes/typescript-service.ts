import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMessage, LineProcess } from './line-process.js';
import { COMPILER, type CompilerReply, type CompilerRequest } from './protocol.js';
import { isNodeOutOfMemory } from './worker-process.js';
import type { Instrumented } from './instrument.js';
import type { Transpiled } from './typescript.js';

/**
 * TypeScript compiling and type checking, in processes of their own. A candidate's text is
 * untrusted input to the compiler: some programs make transpiling exponential (nested default
 * parameters) or type checking take gigabytes (permutation types). In Crucible's process that
 * would stall every other client and could take the server down; here each request has a
 * deadline and the process a heap cap, and a process past either is killed and replaced.
 */
export interface CompilerLimits {
  /** Heap of each compiler process (MB). */
  readonly heapMb: number;
  readonly transpileSeconds: number;
  readonly checkSeconds: number;
}

export const DEFAULT_COMPILER_LIMITS: CompilerLimits = { heapMb: 1024, transpileSeconds: 10, checkSeconds: 30 };

/** The compiler gave no answer: past its deadline, out of its heap, or failed on the input. */
export interface CompilerStopped {
  readonly stopped: 'timeout' | 'memory' | 'failed';
  readonly message: string;
}

export type TranspileOutcome = Transpiled | CompilerStopped;
export type CheckOutcome = { readonly errors: readonly string[] } | CompilerStopped;
export type InstrumentOutcome = Instrumented | CompilerStopped;

export function compilerStopped(
  outcome: TranspileOutcome | CheckOutcome | InstrumentOutcome,
): outcome is CompilerStopped {
  return 'stopped' in outcome;
}

/**
 * A TypeScript program made JavaScript for the JavaScript workers, or why it cannot run: it
 * does not parse (`errors`, the compiler's lines), or the compiler stopped on it (`timeout`,
 * `memory`; `error` when it failed). Either way a load failure of the program, never a
 * sandbox failure. The one transpile step of candidates and whole programs alike.
 */
export type ProgramTranspile =
  | { readonly ok: true; readonly code: string }
  | {
      readonly ok: false;
      readonly status: 'error' | 'timeout' | 'memory';
      readonly message: string;
      readonly errors: readonly string[];
    };

export async function transpileProgram(
  compiler: TypeScriptService,
  source: string,
  fileName: string,
): Promise<ProgramTranspile> {
  const out = await compiler.transpile(source, fileName);
  if (compilerStopped(out))
    return { ok: false, status: out.stopped === 'failed' ? 'error' : out.stopped, message: out.message, errors: [] };
  if (out.errors.length > 0)
    return {
      ok: false,
      status: 'error',
      message: `SyntaxError: ${out.errors.join('\n')}`.slice(0, 2000),
      errors: out.errors,
    };
  return { ok: true, code: out.code };
}

const WORKER = fileURLToPath(new URL('./typescript-worker.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
/** Loading node, tsx and the compiler, on a busy machine. */
const START_SECONDS = 60;

type CompilerProcess = LineProcess<CompilerRequest, CompilerReply>;

export class TypeScriptService {
  private readonly idle: CompilerProcess[] = [];
  private readonly waiting: Array<(process: CompilerProcess | undefined) => void> = [];
  private running = 0;
  readonly limits: CompilerLimits;
  readonly processes: number;

  constructor(options: { processes?: number; limits?: Partial<CompilerLimits> } = {}) {
    this.limits = { ...DEFAULT_COMPILER_LIMITS, ...options.limits };
    this.processes = Math.max(1, options.processes ?? availableParallelism());
  }

  async transpile(source: string, fileName: string): Promise<TranspileOutcome> {
    const reply = await this.ask(
      { op: 'transpile', source, fileName },
      'transpiled',
      this.limits.transpileSeconds,
      'compiling',
    );
    return compilerStopped(reply) ? reply : { code: reply.code, errors: reply.errors };
  }

  async typeCheck(program: string, extra?: string): Promise<CheckOutcome> {
    const reply = await this.ask(
      { op: 'check', program, ...(extra !== undefined ? { extra } : {}) },
      'checked',
      this.limits.checkSeconds,
      'type checking',
    );
    return compilerStopped(reply) ? reply : { errors: reply.errors };
  }

  /** A reference made to count what it runs (instrument.ts), within the transpile deadline. */
  async instrument(source: string, typescript: boolean): Promise<InstrumentOutcome> {
    const reply = await this.ask(
      { op: 'instrument', source, typescript },
      'instrumented',
      this.limits.transpileSeconds,
      'instrumenting',
    );
    if (compilerStopped(reply)) return reply;
    const { op: _op, ...instrumented } = reply;
    return instrumented;
  }

  /** The compiler's reply to `request` if it is the `answer` wanted; else why there is none (the process is then replaced). */
  private async ask<Op extends 'transpiled' | 'checked' | 'instrumented'>(
    request: CompilerRequest,
    answer: Op,
    seconds: number,
    what: string,
  ): Promise<Extract<CompilerReply, { op: Op }> | CompilerStopped> {
    const process = await this.acquire();
    if (!process) return { stopped: 'failed', message: `the TypeScript compiler process did not start` };
    process.send(request);
    const reply = await process.next(seconds * 1000);
    if (isMessage(reply) && isAnswer(reply, answer)) {
      this.release(process);
      return reply;
    }
    this.discard(process);
    if (isMessage(reply) || reply.kind === 'malformed') {
      const why = !isMessage(reply) ? reply.why : reply.op === 'failed' ? reply.message : reply.op;
      return { stopped: 'failed', message: `the TypeScript compiler failed on this program: ${why}` };
    }
    if (reply.kind === 'timeout') {
      return { stopped: 'timeout', message: `${what} took longer than ${seconds}s (the compiler was stopped)` };
    }
    await process.exited;
    const tail = process.stderrTail;
    if (isNodeOutOfMemory(tail)) {
      return { stopped: 'memory', message: `${what} needed more than the compiler's ${this.limits.heapMb} MB heap` };
    }
    return {
      stopped: 'failed',
      message: `the TypeScript compiler stopped while ${what}: ${tail.trim().split('\n').pop() ?? ''}`.slice(0, 500),
    };
  }

  private async acquire(): Promise<CompilerProcess | undefined> {
    const ready = this.idle.pop();
    if (ready) return ready;
    if (this.running >= this.processes) return new Promise((resolve) => this.waiting.push(resolve));
    this.running++;
    return this.start();
  }

  private async start(): Promise<CompilerProcess | undefined> {
    const child = new LineProcess({
      file: process.execPath,
      args: [`--max-old-space-size=${this.limits.heapMb}`, '--no-warnings', '--import', TSX, WORKER],
      env: process.env,
      channel: COMPILER,
    });
    // Kept for speed, not work to wait for: Crucible may exit while these idle.
    child.unref();
    child.send({ op: 'ping' });
    const pong = await child.next(START_SECONDS * 1000);
    if (isMessage(pong) && pong.op === 'pong') return child;
    this.discard(child);
    return undefined;
  }

  private release(process: CompilerProcess): void {
    const next = this.waiting.shift();
    if (next) next(process);
    else this.idle.push(process);
  }

  /** A process that overran or died is killed; a waiting request gets a new one. */
  private discard(process: CompilerProcess): void {
    process.kill();
    this.running--;
    const next = this.waiting.shift();
    if (next) {
      this.running++;
      void this.start().then(next);
    }
  }

  close(): void {
    for (const process of this.idle.splice(0)) process.kill();
  }
}

function isAnswer<Op extends CompilerReply['op']>(
  reply: CompilerReply,
  op: Op,
): reply is Extract<CompilerReply, { op: Op }> {
  return reply.op === op;
}

let shared: TypeScriptService | undefined;

/** The process-wide service: compiler processes start on first use and are shared by every runtime. */
export function typescriptService(): TypeScriptService {
  shared ??= new TypeScriptService();
  return shared;
}
