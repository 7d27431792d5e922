import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMessage, type Channel, type LineProcess } from './line-process.js';
import {
  CANDIDATE,
  JUDGE,
  UNTRUSTED_JUDGE,
  type CandidateReply,
  type CandidateRequest,
  type JudgeReply,
  type JudgeRequest,
  type JudgeRun,
  type JudgeSuite,
} from './protocol.js';
import { DEFAULT_LIMITS, type CandidateExit, type Limits, type RunRequest, type RunResult } from './runtime.js';
import { withAddressLimit, type SandboxMode } from './sandbox.js';
import { buildSeccompFilter, seccompSupported } from './seccomp.js';
import { describeMessage, pingWorker, spawnWorker, type WorkerRecipe } from './worker-process.js';

/** How to start the two workers of one language; `seccompOnWorker` applies to the candidate worker only. */
export interface SlotRecipe extends Omit<WorkerRecipe, 'command'> {
  /** Commands inside the sandbox; paths as seen there. */
  readonly candidateCommand: (limits: Limits) => string[];
  readonly judgeCommand: string[];
  /** Tells a worker crash that means "out of memory" from others (stderr text). */
  readonly isOutOfMemory?: (stderr: string) => boolean;
  /**
   * The worker runs candidate code on its only thread, so a candidate that overran its
   * limit cannot be told to stop: kill the whole worker instead of asking (JavaScript).
   */
  readonly killWorkerToStop?: boolean;
  /**
   * Judge arguments that make it run each untrusted run in a process of its own, forked and
   * gone with the run (Python: `--fork-per-run`). Without them, an untrusted run gets a
   * whole judge process, killed after it (JavaScript: node cannot fork).
   */
  readonly forkingJudgeArgs?: readonly string[];
}

const START_SECONDS = 20;
const EXIT_REPORT_SECONDS = 10;
const RETIRE_SECONDS = 1;
/** An untrusted judge's one result line, at most: past it the judge is killed (it writes what it likes). */
const UNTRUSTED_RESULT_BYTES = 256 << 20;
/**
 * A candidate worker's replies are a few short objects (protocol.ts), but its stdout is reachable
 * by the candidate (a JavaScript program's fd 1): a longer line, or one that is not a reply, kills
 * it, and the run is judged by that (statusOfDeath) instead of being read into Crucible's memory.
 */
const CANDIDATE_LINE_BYTES = 64 << 10;
const CANDIDATE_CHANNEL = { maxLineBytes: CANDIDATE_LINE_BYTES, killOnMalformed: true } as const;
/** Address space a judge needs besides the values it holds (node reserves ~0.7 GB at start). */
const JUDGE_ADDRESS_OVERHEAD = 1 << 30;

type CandidateProcess = LineProcess<CandidateRequest, CandidateReply>;
type JudgeProcess = LineProcess<JudgeRequest, JudgeReply>;
/** A worker started ahead: its process, its ping, and the command it was started with (JSON). */
type Started<P> = { process: P; ready: Promise<string | undefined>; command: string };

/**
 * One judge and one candidate worker, connected by two FIFOs in a private directory.
 * Crucible speaks to each over stdin/stdout; they speak to each other directly.
 */
export class Slot {
  private readonly dir: string;
  private candidate: CandidateProcess | undefined;
  private candidateCommand: string | undefined;
  /** A replacement candidate worker being started (after a tainted run): its ping. */
  private candidateStarting: Promise<string | undefined> | undefined;
  /**
   * From the first run that tainted its worker on, the slot keeps one started worker in
   * reserve, so the next such run swaps it in instead of waiting for a worker to boot.
   */
  private spare: Started<CandidateProcess> | undefined;
  /** A tainted worker's exit: no run starts before it is gone (it could write to the FIFOs). */
  private retiring: Promise<unknown> | undefined;
  private judge: JudgeProcess | undefined;
  /** The untrusted judge's command (its memory limit changes with the run's limits). */
  private judgeCommand: string | undefined;
  /** A judge per run: the judge for the next run, started while this one runs. */
  private spareJudge: Started<JudgeProcess> | undefined;
  private readonly seccompPath: string | undefined;

  constructor(
    private readonly recipe: SlotRecipe,
    private readonly mode: SandboxMode,
    /** Each run's test code may be hostile: a fresh, filtered judge per run (PoolOptions.untrustedTests). */
    private readonly untrustedTests = false,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'crucible-slot-'));
    execFileSync('mkfifo', ['-m', '666', join(this.dir, 'j2c'), join(this.dir, 'c2j')]);
    execFileSync('mkdir', ['-m', '777', join(this.dir, 'scratch')]);
    if (seccompSupported) {
      this.seccompPath = join(this.dir, 'seccomp.bpf');
      writeFileSync(this.seccompPath, buildSeccompFilter({ forbidExec: true }));
    }
  }

  private spawn<Request extends object, Reply extends object>(
    channel: Channel<Request, Reply>,
    command: readonly string[],
    seccompOnWorker: boolean,
    untrusted: { readonly maxLineBytes?: number; readonly killOnMalformed?: boolean } = {},
  ): LineProcess<Request, Reply> {
    const { readOnly, harnessDir, scratchBytes, binds } = this.recipe;
    return spawnWorker(
      {
        command,
        readOnly,
        harnessDir,
        scratchBytes,
        dir: this.dir,
        mode: this.mode,
        seccompOnWorker,
        ...(binds ? { binds } : {}),
        ...untrusted,
      },
      channel,
    );
  }

  /** A judge for untrusted test code: the candidates' memory limit (and a forking one's arguments). */
  private untrustedJudgeCommand(limits: Limits): string[] {
    return withAddressLimit(
      [...this.recipe.judgeCommand, ...(this.recipe.forkingJudgeArgs ?? [])],
      limits.memoryBytes + JUDGE_ADDRESS_OVERHEAD,
    );
  }

  /** Untrusted tests in a judge that cannot fork: a whole judge per run, under bwrap's no-new-processes filter. */
  private get judgePerRun(): boolean {
    return this.untrustedTests && this.recipe.forkingJudgeArgs === undefined;
  }

  private startUntrustedJudge(limits: Limits): Started<JudgeProcess> {
    const command = this.untrustedJudgeCommand(limits);
    // A forking judge forks (its children install the candidates' filter on themselves).
    // What it writes is checked before any of it is believed (protocol.ts, UNTRUSTED_JUDGE).
    const process = this.spawn(UNTRUSTED_JUDGE, command, this.judgePerRun, { maxLineBytes: UNTRUSTED_RESULT_BYTES });
    return { process, ready: pingWorker(process, START_SECONDS * 1000), command: JSON.stringify(command) };
  }

  /**
   * The judge for an untrusted run: a forking judge is kept while its limits hold; otherwise
   * the spare if it fits these limits, else a new judge. Either way it has answered a ping.
   */
  private async untrustedJudge(limits: Limits): Promise<string | undefined> {
    const wanted = JSON.stringify(this.untrustedJudgeCommand(limits));
    if (!this.judgePerRun && this.judge && !this.judge.isClosed && this.judgeCommand === wanted) return undefined;
    this.judge?.kill();
    let next = this.spareJudge;
    this.spareJudge = undefined;
    if (!next || next.process.isClosed || next.command !== wanted) {
      next?.process.kill();
      next = this.startUntrustedJudge(limits);
    }
    this.judge = next.process;
    this.judgeCommand = wanted;
    const error = await next.ready;
    return error ? `judge worker did not start: ${error}` : undefined;
  }

  /** An untrusted judge serves one run: it is killed (and the next one started) as the run ends. */
  private retireUntrustedJudge(limits: Limits): void {
    this.judge?.kill();
    this.judge = undefined;
    this.spareJudge ??= this.startUntrustedJudge(limits);
  }

  private async ensureWorkers(limits: Limits): Promise<string | undefined> {
    const command = this.recipe.candidateCommand(limits);
    // Limits such as the JavaScript heap are fixed when the worker starts.
    const stale = this.candidateCommand !== undefined && this.candidateCommand !== JSON.stringify(command);
    const retiring = this.retiring;
    this.retiring = undefined;
    if (retiring) await retiring;
    const starting = this.candidateStarting;
    this.candidateStarting = undefined;
    if (starting && !stale) {
      const error = await starting;
      if (error) return `candidate worker did not start: ${error}`;
    }
    if (stale) {
      this.spare?.process.kill();
      this.spare = undefined;
    }
    if (!this.candidate || this.candidate.isClosed || stale) {
      this.candidate?.kill();
      this.candidateCommand = JSON.stringify(command);
      this.candidate = this.spawn(CANDIDATE, command, this.recipe.seccompOnWorker, CANDIDATE_CHANNEL);
      const error = await pingWorker(this.candidate, START_SECONDS * 1000);
      if (error) return `candidate worker did not start: ${error}`;
    }
    if (this.untrustedTests) return this.untrustedJudge(limits);
    if (!this.judge || this.judge.isClosed) {
      this.judge?.kill();
      this.judge = this.spawn(JUDGE, this.recipe.judgeCommand, false);
      const error = await pingWorker(this.judge, START_SECONDS * 1000);
      if (error) return `judge worker did not start: ${error}`;
    }
    return undefined;
  }

  async run(request: RunRequest): Promise<RunResult> {
    const limits: Limits = { ...DEFAULT_LIMITS, ...request.limits };
    // Abandoned midway: both workers are killed, which ends the run as a no-verdict at once.
    const stop = () => this.reset();
    request.signal?.addEventListener('abort', stop, { once: true });
    try {
      return await this.runWith(request, limits);
    } finally {
      request.signal?.removeEventListener('abort', stop);
      if (this.judgePerRun) this.retireUntrustedJudge(limits);
    }
  }

  private async runWith(request: RunRequest, limits: Limits): Promise<RunResult> {
    const startError = await this.ensureWorkers(limits);
    if (startError) {
      this.reset();
      return { kind: 'no-verdict', why: startError };
    }
    const candidate = this.candidate!;
    const judge = this.judge!;
    const sandboxPath = (name: string) => (this.mode === 'bwrap' ? `/ipc/${name}` : join(this.dir, name));
    candidate.send({
      op: 'start',
      limits: {
        memoryBytes: limits.memoryBytes,
        cpuSeconds: limits.cpuSeconds,
        outputBytes: limits.outputBytes,
        replyBytes: limits.replyBytes,
      },
      seccomp: this.seccompPath ? sandboxPath('seccomp.bpf') : null,
    });
    // The judge is told at once: it connects to the candidate as soon as it is ready.
    const run: JudgeRun = {
      op: 'run',
      program: request.program,
      record: Boolean(request.record),
      loadSeconds: limits.loadSeconds,
      replyBytes: limits.replyBytes,
      connectSeconds: START_SECONDS,
      suites: request.suites.map((suite) => toJudgeSuite(suite)),
      // An untrusted judge's Python also installs the candidates' own, stricter filter on itself.
      ...(this.untrustedTests && this.seccompPath ? { seccomp: sandboxPath('seccomp.bpf') } : {}),
    };
    // Expected outputs (JSON the judges themselves wrote when recording the reference) join
    // the line as JSON, not as a string in it: escaping and unescaping hundreds of MB twice
    // cost a visible share of HumanEval+'s heaviest tasks.
    const expected = request.suites.map((suite) =>
      suite.kind === 'io' && suite.expectedJson !== undefined ? suite.expectedJson : 'null',
    );
    judge.sendLine(`${JSON.stringify(run).slice(0, -1)},"expected":[${expected.join(',')}]}`);
    const started = await candidate.next(START_SECONDS * 1000);
    if (!isMessage(started) || started.op !== 'started') {
      const why = `candidate worker did not start a run (${describeMessage(started)}): ${candidate.stderrTail.slice(-500)}`;
      this.reset();
      return { kind: 'no-verdict', why };
    }
    const deadline = overallDeadlineSeconds(request, limits);
    const result = await judge.next(deadline * 1000);
    // Nothing a judge per run writes after its result is read; its end closes the FIFOs, so the
    // candidate's execution ends too (a forking judge's child is dead before its result is sent).
    if (this.judgePerRun) judge.kill();
    if (!isMessage(result) && result.kind === 'malformed' && this.untrustedTests) {
      // What the run's test code made its judge write: no verdict. A forking judge is kept (its
      // child wrote the line and is gone); the candidate is not, whatever state it was left in.
      this.candidate?.kill();
      this.candidate = undefined;
      return { kind: 'no-verdict', why: result.why };
    }
    if (!isMessage(result) || result.op !== 'result' || 'internalError' in result) {
      // The judge is ours: if it hangs it is because the candidate never answered
      // (stopped from outside: a timeout); if it dies or errs, the sandbox failed.
      this.reset();
      if (!isMessage(result) && result.kind === 'timeout') return { kind: 'hung', seconds: deadline };
      const failure = !isMessage(result)
        ? describeMessage(result)
        : result.op === 'result'
          ? result.internalError
          : result.op;
      return { kind: 'no-verdict', why: `judge failed (${failure}): ${judge.stderrTail.slice(-500)}` };
    }
    const { load, suites } = result;
    if (result.kill && this.recipe.killWorkerToStop) {
      candidate.kill();
      this.candidate = undefined;
      return { kind: 'ran', load, suites };
    }
    if (result.kill) candidate.send({ op: 'kill' });
    let exited = await candidate.next(EXIT_REPORT_SECONDS * 1000);
    // The candidate was lent the worker's own node objects (node-surface.cjs): it could have
    // changed the worker, so the worker is not used again.
    let tainted = false;
    while (isMessage(exited) && exited.op === 'tainted') {
      tainted = true;
      exited = await candidate.next(EXIT_REPORT_SECONDS * 1000);
    }
    if (tainted) this.replaceCandidate(candidate);
    if (isMessage(exited) && exited.op === 'exited') {
      const { op: _, ...exit } = exited;
      return { kind: 'ran', load, suites, exit };
    }
    // The worker itself is gone (a candidate may kill it, or exhaust a limit that
    // takes the whole worker down); start a fresh one next time.
    const exit: CandidateExit = {
      code: null,
      signal: null,
      outputBytes: 0,
      ...(this.recipe.isOutOfMemory?.(candidate.stderrTail) ? { outOfMemory: true } : {}),
      ...(candidate.channelAbuse ? { channelAbuse: candidate.channelAbuse } : {}),
    };
    if (!tainted) {
      candidate.kill();
      this.candidate = undefined;
    }
    return { kind: 'ran', load, suites, exit };
  }

  private startCandidate(command: string): Started<CandidateProcess> {
    const process = this.spawn(
      CANDIDATE,
      JSON.parse(command) as string[],
      this.recipe.seccompOnWorker,
      CANDIDATE_CHANNEL,
    );
    return { process, ready: pingWorker(process, START_SECONDS * 1000), command };
  }

  /**
   * Retires a tainted candidate worker (it exits by itself right after its run; killed if it
   * has not within a second); the spare takes its place and a new spare starts.
   */
  private replaceCandidate(old: CandidateProcess): void {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, RETIRE_SECONDS * 1000);
    });
    this.retiring = Promise.race([old.exited, late]).then(() => {
      clearTimeout(timer);
      old.kill();
      return old.exited;
    });
    this.candidate = undefined;
    const command = this.candidateCommand;
    if (command === undefined) return;
    const spare = this.spare;
    const next = spare && spare.command === command && !spare.process.isClosed ? spare : this.startCandidate(command);
    if (spare && spare !== next) spare.process.kill();
    this.candidate = next.process;
    this.candidateStarting = next.ready;
    this.spare = this.startCandidate(command);
  }

  /** Kill both workers; the next run starts fresh ones. */
  reset(): void {
    this.candidate?.kill();
    this.judge?.kill();
    this.spare?.process.kill();
    this.spareJudge?.process.kill();
    this.spareJudge = undefined;
    this.candidate = undefined;
    this.judge = undefined;
    this.candidateStarting = undefined;
    this.spare = undefined;
  }

  async close(): Promise<void> {
    const exits = [
      this.candidate?.exited,
      this.judge?.exited,
      this.spare?.process.exited,
      this.spareJudge?.process.exited,
    ];
    this.reset();
    await Promise.all(exits);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function toJudgeSuite(suite: RunRequest['suites'][number]): JudgeSuite {
  if (suite.kind === 'io') {
    return {
      kind: 'io',
      name: suite.name,
      entry: suite.entry,
      inputs: suite.inputsJson,
      atol: suite.atol ?? 0,
      oracle: suite.oracle ?? null,
      inputAdapter: suite.inputAdapter ?? null,
      limits: suite.limits ?? null,
      limit: suite.limit ?? 10,
    };
  }
  return {
    kind: 'script',
    name: suite.name,
    code: suite.code,
    invoke: suite.invoke ?? null,
    helpers: suite.helpers ?? null,
    limit: suite.limit ?? 10,
  };
}

/** Past this, Crucible stops the pair from outside: every per-test limit plus slack. */
function overallDeadlineSeconds(request: RunRequest, limits: Limits): number {
  let total = limits.loadSeconds + START_SECONDS;
  for (const suite of request.suites) {
    if (suite.kind === 'io' && suite.limits) total += suite.limits.reduce((a, b) => a + b, 0);
    else total += suite.limit ?? 10;
  }
  return total + 5;
}
