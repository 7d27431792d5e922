import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type Message = Record<string, unknown>;

/**
 * What is said each way on one kind of process's stdin and stdout (protocol.ts has
 * Crucible's). `read` takes a parsed line and returns the reply it holds, or why it holds
 * none; `request` is never set, it carries the type of what Crucible sends.
 */
export interface Channel<Request extends object, Reply extends object> {
  readonly read: (value: unknown) => Reply | string;
  readonly request?: Request;
}

/** Any JSON object each way, unchecked: for a helper whose messages are its caller's own business. */
export const ANY_OBJECT: Channel<Message, Message> = {
  read: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Message) : 'not a JSON object',
};

/** What `next` yields when no message arrived in time, the process is gone, or its line is not a reply (`why`). */
export class NoMessage {
  constructor(
    readonly kind: 'timeout' | 'closed' | 'malformed',
    readonly why = '',
  ) {}
}

/** How a process broke its channel: a line past the length bound, or a line that is not a reply. */
export type ChannelAbuse = 'overlong' | 'malformed';

export interface LineProcessOptions<Request extends object, Reply extends object> {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Extra file descriptors for the child from fd 3 on (e.g. a seccomp program). */
  readonly extraFds?: readonly number[];
  /** Longest line accepted; a process that writes more without a newline is killed (it is not trusted). */
  readonly maxLineBytes?: number;
  /**
   * A line that is not a reply kills the process and no later line is read: for a process whose
   * stdout untrusted code can reach, which could otherwise queue lines here without end.
   */
  readonly killOnMalformed?: boolean;
  /** How its lines are read (default: any JSON object). */
  readonly channel?: Channel<Request, Reply>;
}

const STDERR_TAIL = 8192;

/**
 * A child process spoken to in JSON lines on stdin/stdout: one message per line each
 * way. Replies are read by the channel as they arrive, and queue until taken; a reader
 * can wait with a deadline.
 */
export class LineProcess<Request extends object = Message, Reply extends object = Message> {
  private readonly child: ChildProcess;
  private readonly queue: Array<Reply | NoMessage> = [];
  private waiter: ((m: Reply | NoMessage) => void) | undefined;
  private closed = false;
  private stderr = '';
  private abuse: ChannelAbuse | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(options: LineProcessOptions<Request, Reply>) {
    this.child = spawn(options.file, [...options.args], {
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe', ...(options.extraFds ?? [])],
      detached: true,
    });
    this.child.stdin!.on('error', () => undefined);
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    const maxLineBytes = options.maxLineBytes;
    if (maxLineBytes !== undefined) {
      // readline would buffer an endless line until Crucible ran out of memory.
      let pending = 0;
      this.child.stdout!.on('data', (chunk: Buffer) => {
        const newline = chunk.lastIndexOf(10);
        pending = newline < 0 ? pending + chunk.length : chunk.length - newline - 1;
        if (pending > maxLineBytes) this.killFor('overlong');
      });
    }
    // Without a channel, Reply is its default, Message.
    const read = options.channel?.read ?? (ANY_OBJECT.read as (value: unknown) => Reply | string);
    const lines = createInterface({ input: this.child.stdout!, crlfDelay: Infinity });
    const malformed = (why: string) => {
      if (options.killOnMalformed) this.killFor('malformed');
      this.deliver(new NoMessage('malformed', why));
    };
    lines.on('line', (line) => {
      if (this.abuse) return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        malformed(`not JSON: ${line.slice(0, 200)}`);
        return;
      }
      const reply = read(value);
      if (typeof reply === 'string') malformed(reply);
      else this.deliver(reply);
    });
    this.exited = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.stderr += String(error);
        this.markClosed();
        resolve({ code: null, signal: null });
      });
      this.child.on('exit', (code, signal) => {
        // stdout may still hold complete lines; let readline drain them first.
        lines.once('close', () => this.markClosed());
        setTimeout(() => this.markClosed(), 50).unref();
        resolve({ code, signal });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stderrTail(): string {
    return this.stderr;
  }

  /** Why this process was killed for what it wrote on its stdout, if it was. */
  get channelAbuse(): ChannelAbuse | undefined {
    return this.abuse;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(message: Request): boolean {
    return this.sendLine(JSON.stringify(message));
  }

  /** A message already written as one line of JSON. */
  sendLine(json: string): boolean {
    if (this.closed || !this.child.stdin!.writable) return false;
    this.child.stdin!.write(json + '\n');
    return true;
  }

  /** The next message, or why there is none within `timeoutMs`. */
  next(timeoutMs: number): Promise<Reply | NoMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve(new NoMessage('closed'));
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiter = undefined;
          resolve(new NoMessage('timeout'));
        },
        Math.max(0, timeoutMs),
      );
      this.waiter = (message) => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve(message);
      };
    });
  }

  /** Lets Node exit while this process is idle (a helper kept for speed, not a job to wait for). */
  unref(): void {
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
      (stream as { unref?: () => void } | null)?.unref?.();
  }

  /** Kills the whole process group (the sandbox and everything in it). */
  kill(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private killFor(abuse: ChannelAbuse): void {
    this.abuse ??= abuse;
    this.kill();
  }

  private deliver(message: Reply | NoMessage): void {
    if (this.waiter) this.waiter(message);
    else this.queue.push(message);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.waiter?.(new NoMessage('closed'));
  }
}

export function isMessage<Reply extends object>(value: Reply | NoMessage): value is Reply {
  return !(value instanceof NoMessage);
}
