/**
 * The contract every language's runtime passes against hostile programs, one table for all,
 * run by test/runtime-python.test.ts, runtime-javascript.test.ts and runtime-typescript.test.ts
 * through the public Harness — as hono runs one suite against every router.
 *
 * Each behaviour (escape the sandbox, exhaust a limit, fake the verdict, crash, leave
 * something for the next candidate...) has one program per language, the verdict it must
 * get, and after it the same runtime (one worker pair, so the same sandbox) must still judge
 * a right candidate `pass` and a wrong one `fail`. TypeScript reuses the JavaScript program
 * with a type declaration appended, so that every run goes through the transpiler. Where a
 * language cannot express a behaviour, or behaves differently by design, its entry is
 * skipped with the reason; where it should hold but does not yet, the entry runs as a `todo`
 * with the reason (a known gap, visible in every run: its failure does not fail the file),
 * or, when only the next candidates' check is what fails, that check is a todo subtest.
 *
 * The table holds every hostile program the language-specific isolation tests had (the
 * Python escape, faking, limits and worker files, the judge file, the JavaScript isolation
 * file), each listed once, paired across languages where the behaviour is the same.
 *
 * No timing assertions: a bounded run is one that ends (with its status); the machine's load
 * decides how fast.
 */
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Language, Suite, Task } from '../../src/core/task.js';
import type { Status, Verdict } from '../../src/core/verdict.js';
import { Harness, type HarnessOptions } from '../../src/domains/code/harness.js';

// Set when this module loads, before any worker exists: no worker may inherit it.
const SECRET = `crucible-secret-${process.pid}-${Date.now()}`;
process.env.CRUCIBLE_TEST_SECRET = SECRET;

/** What the host side of a run offers the programs to find: its secrets, its servers. */
export interface Host {
  readonly secret: string;
  readonly hostSecret: string;
  /** Written only when the tests run as root. */
  readonly rootSecret: string | undefined;
  readonly tcpPort: number;
  readonly udpPort: number;
  readonly abstractName: string;
  readonly addresses: readonly string[];
  /** Connections and datagrams the host's servers received so far. */
  connections(): number;
  datagrams(): number;
}

/** A program's text, or one made from what the host offers. */
type Code = string | ((host: Host) => string);

/** One language's program for a behaviour and what it must get. */
interface Program {
  readonly program: Code;
  /** The program is a probe body (see the behaviour's `probe`). */
  readonly probe?: true;
  /** The verdict's status, or the statuses it may be (default: the behaviour's). */
  readonly status?: Status | readonly Status[];
  /** The status of each suite, in order. */
  readonly suites?: readonly Status[];
  /** The first failure's `actual`. */
  readonly actual?: string;
  /** Matches the first failure's message. */
  readonly message?: RegExp;
  /** Judged on a task of its own: these script suites (and `io`, with `reference`), instead of the language's add task. */
  readonly tests?: readonly TestCode[];
  readonly io?: { readonly entry: string; readonly inputsJson: string };
  readonly reference?: string;
  readonly prompt?: string;
  /** Runs the program this many times, each followed by the next candidates. */
  readonly repeat?: number;
  /** Anything else the verdict must show. */
  readonly check?: (verdict: Verdict, host: Host) => void;
  /** Judged right after it on the same runtime, and must pass: nothing was left behind. */
  readonly then?: Code | Program;
  /** Waits this long after the verdict, before the next candidates (for work the program scheduled to come due). */
  readonly pauseMs?: number;
  /** A known gap in what follows the program: the check of the next candidates runs as a todo subtest, with this reason. */
  readonly nextGap?: string;
}

/** A script suite's code, with the call that runs it (Python's `check(add)`). */
type TestCode = string | { readonly code: string; readonly invoke: string };

/** A behaviour this language cannot express, or handles otherwise by design. */
interface Gap {
  readonly skip: string;
}

/** Should hold and does not yet: the entry runs, its failure is reported as a todo. */
interface KnownGap {
  readonly todo: string;
  readonly side: Code | Program | Body;
}

/** A behaviour whose steps do not fit a table row (several harnesses, processes killed from outside). */
interface Body {
  readonly body: (ctx: Context) => Promise<void>;
}

type Side = Code | Program | Gap | KnownGap | Body;

export interface Behaviour {
  readonly name: string;
  /** The status every language's program must get unless its side says otherwise. */
  readonly status?: Status | readonly Status[];
  readonly harness?: HarnessKind;
  /**
   * Each side given as plain code is a probe body (pythonProbe, javascriptProbe): it tries
   * what the sandbox must refuse and returns what worked, which must be only its control.
   */
  readonly probe?: true;
  readonly python: Side;
  readonly javascript: Side;
  /** Default: the JavaScript side, with a type declaration appended to each program. */
  readonly typescript?: Side;
  /** Checked on the host after the run (a server saw no connection...). */
  readonly after?: (host: Host) => void;
  /** A bound on the whole entry far above what it takes, only where a run that never ends is the failure to catch. */
  readonly timeoutMs?: number;
}

/**
 * Harnesses with one worker pair each, so every candidate of a file runs in the sandbox of
 * the one before. Short time limits; the memory and reply limits these tests exhaust are
 * pinned (the defaults are sized for huge benchmark outputs, and exhausting them is slow).
 */
const HARNESSES = {
  default: {},
  /** Exhausting memory takes a moment on a busy machine: it must be reported as memory, not as the time it took. */
  memory: { time: { scriptFloorSeconds: 10, callFloorSeconds: 10 } },
  /**
   * Making 100 MB takes a moment on a slow machine (a fresh VM here took 0.36 s to build the
   * string and 1.1 s to write it): it must be reported as output, not as the time it took.
   */
  output: { time: { scriptFloorSeconds: 10, callFloorSeconds: 10 } },
  /** Wall-clock limits far away, so that the CPU limit (2 s) is what stops a candidate. */
  cpu: { time: { scriptFloorSeconds: 30, callFloorSeconds: 30 }, limits: { cpuSeconds: 2 } },
  /** Test code from someone not trusted: a fresh, filtered judge per run. */
  untrusted: { untrustedTests: true },
  /** Room for a reply large enough to be slow to decode. */
  largeReply: { limits: { replyBytes: 64 << 20 } },
  /** A reply cap small enough to be reached before a value's encoding fills the heap. */
  smallReply: { limits: { replyBytes: 1 << 20 } },
} satisfies Record<string, HarnessOptions>;
export type HarnessKind = keyof typeof HARNESSES;

interface LanguageSetup {
  readonly right: string;
  readonly wrong: string;
  /** The add task: a reference, a script suite `base` and an io suite `plus`. */
  readonly task: Task;
  readonly memoryBytes: number;
  /** A probe program around a body (pythonProbe, javascriptProbe). */
  readonly probe: (body: string) => string;
  /** What a probe returns when only its control worked. */
  readonly control: string;
  /** Command-line marks of the two worker processes. */
  readonly workers: { readonly candidate: string; readonly judge: string };
}

const PY_RIGHT = 'def add(a, b):\n    return a + b\n';
const PY_WRONG = 'def add(a, b):\n    return a - b\n';
const JS_RIGHT = 'function add(a, b) { return a + b; }\n';
const JS_WRONG = 'function add(a, b) { return a - b; }\n';
const TS_RIGHT = 'function add(a: number, b: number): number { return a + b; }\n';
const TS_WRONG = 'function add(a: number, b: number): number { return a - b; }\n';

const PY_BASE = [
  'def check(candidate):',
  '    assert candidate(1, 2) == 3',
  '    assert abs(candidate(0.5, 0.25) - 0.75) < 1e-9',
  '    assert isinstance(candidate(2, 2), int)',
  '    assert len([candidate(0, 0)]) == 1',
  '',
].join('\n');
const JS_BASE = [
  "const assert = require('node:assert');",
  'assert.equal(add(1, 2), 3);',
  'assert.ok(Math.abs(add(0.5, 0.25) - 0.75) < 1e-9);',
  'assert.ok(Number.isInteger(add(2, 2)));',
  'assert.equal([add(0, 0)].length, 1);',
  '',
].join('\n');
const PLUS: Suite = { kind: 'io', name: 'plus', entry: 'add', inputsJson: '[[1, 2], [1.5, 2], [-3, 1]]' };

function addTask(language: Language, reference: string, base: Suite): Task {
  return {
    id: `contract/${language}/add`,
    language,
    prompt: '',
    entryPoint: 'add',
    completionPrefix: '',
    knownWrong: [],
    source: 'test',
    reference,
    suites: [base, PLUS],
  };
}

/**
 * A probe: `body` calls attempt(label, fn) for each thing the sandbox must refuse, and
 * works(label, fn) for each it must allow; `add` returns the labels of the attempts that
 * worked and of the refusals. A control attempt that must work shows the probe itself ran.
 */
function pythonProbe(body: string): string {
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

function javascriptProbe(body: string): string {
  return [
    "const fs = require('fs');",
    'const leaks = [];',
    'function attempt(label, fn) {',
    '  let ok;',
    '  try { ok = fn(); } catch (e) { return; }',
    '  if (ok !== false) leaks.push(label);',
    '}',
    // The scratch directory of a JavaScript candidate is /tmp itself.
    "attempt('control', () => fs.writeFileSync('/tmp/control', 'x'));",
    body,
    'function add(a, b) { return leaks; }',
    '',
  ].join('\n');
}

const SETUPS: Record<Language, LanguageSetup> = {
  python: {
    right: PY_RIGHT,
    wrong: PY_WRONG,
    task: addTask('python', PY_RIGHT, { kind: 'script', name: 'base', code: PY_BASE, invoke: 'check(add)' }),
    memoryBytes: 1 << 30,
    probe: pythonProbe,
    control: "['control']",
    workers: { candidate: 'candidate_worker.py', judge: 'judge_worker.py' },
  },
  javascript: {
    right: JS_RIGHT,
    wrong: JS_WRONG,
    task: addTask('javascript', JS_RIGHT, { kind: 'script', name: 'base', code: JS_BASE }),
    // As the JavaScript runtime's own tests always had it: a heap that fills quickly.
    memoryBytes: 256 << 20,
    probe: javascriptProbe,
    control: '["control"]',
    workers: { candidate: 'candidate-worker.cjs', judge: 'judge-worker.cjs' },
  },
  typescript: {
    right: TS_RIGHT,
    wrong: TS_WRONG,
    task: addTask('typescript', TS_RIGHT, { kind: 'script', name: 'base', code: JS_BASE }),
    memoryBytes: 256 << 20,
    probe: (body) => typed(javascriptProbe(body)),
    control: '["control"]',
    workers: { candidate: 'candidate-worker.cjs', judge: 'judge-worker.cjs' },
  },
};

/** The contract's add task of a language, with a right and a wrong program for it (other tests judge them too). */
export function addTaskOf(language: Language): { readonly task: Task; readonly right: string; readonly wrong: string } {
  const { task, right, wrong } = SETUPS[language];
  return { task, right, wrong };
}

/** A JavaScript program as TypeScript: a declaration JavaScript would reject, erased by the transpiler. */
function typed(program: string): string {
  return `${program}\ntype ContractChecked = { readonly program: string };\n`;
}

export function summary(v: Verdict): string {
  return JSON.stringify({
    status: v.status,
    suites: v.suites.map((s) => [
      s.name,
      s.status,
      s.passed,
      s.firstFailure?.message?.slice(0, 300),
      s.firstFailure?.actual?.slice(0, 200),
      ...(s.inline ? ['inline'] : []),
    ]),
    ...(v.loadFailure ? { loadFailure: v.loadFailure.slice(0, 300) } : {}),
  });
}

/** What a behaviour's body gets: its language's harnesses, tasks and checks. */
export interface Context {
  readonly language: Language;
  readonly host: Host;
  readonly setup: LanguageSetup;
  /** The file's shared harness of that kind (or the harness given). */
  harness(kind?: HarnessKind | Harness): Harness;
  /** A harness of the body's own, which it closes. */
  newHarness(kind?: HarnessKind): Harness;
  /**
   * A harness alone in this process (the shared ones are closed first), to tell its worker
   * processes apart: `workers` lists those started since.
   */
  ownHarness(
    kind: HarnessKind,
  ): Promise<{ harness: Harness; workers(which: 'candidate' | 'judge'): number[]; close(): Promise<void> }>;
  /** Judges `program` on the add task (or `task`). */
  judge(program: string, task?: Task, kind?: HarnessKind | Harness): Promise<Verdict>;
  /** Judges a program, checks its status, then that the runtime still judges right. */
  expect(
    program: string,
    status: Status,
    options?: {
      task?: Task;
      kind?: HarnessKind | Harness;
      suites?: readonly Status[];
      actual?: string;
      message?: RegExp;
    },
  ): Promise<Verdict>;
  /** The next ordinary candidates: a right one passes, a wrong one fails. */
  expectNext(kind?: HarnessKind | Harness): Promise<void>;
  /** A task of script suites only (no reference), in this language. */
  scriptTask(tests: readonly TestCode[], extra?: Partial<Task>): Task;
  /** A JavaScript program as this language's (TypeScript: typed). */
  typed(program: string): string;
}

/** Host pids of this test process's descendants whose command line mentions `mark` (not bwrap itself). */
export function workerPids(mark: string): number[] {
  const parent = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  // The worker bwrap started, not a candidate it forked (whose parent is the worker).
  return [...commands.entries()]
    .filter(
      ([pid, cmd]) =>
        cmd.includes(mark) &&
        !cmd.includes('bwrap') &&
        (commands.get(parent.get(pid) ?? 0) ?? '').includes('bwrap') &&
        ours(pid),
    )
    .map(([pid]) => pid);
}

/** CPU ticks (user + system) a process used so far; undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Python's candidates are children of the worker, forked per run. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Resolves once the candidate worker `pid` is running a candidate that computes: its own
 * CPU time (JavaScript runs candidates in the worker) or a child's (Python forks one per
 * candidate) grows. However loaded the machine, a spinning candidate gets there.
 */
export async function untilComputing(pid: number): Promise<void> {
  const busy = () => [pid, ...childPids(pid)].reduce((sum, p) => sum + (cpuTicks(p) ?? 0), 0);
  const start = busy();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (busy() - start >= 10) return;
  }
}

// --- the table ---------------------------------------------------------------------------

const NO_FFI = 'node has no foreign-function interface: a raw system call cannot be written in JavaScript';
const ONE_PROCESS =
  'a JavaScript candidate runs inside its worker (PID 1 of its sandbox), in a V8 context of its own: there is no separate worker process to reach, and the context escapes are the "no way out of the context" entries';
const NO_EVENT_LOOP =
  "node starts a connection, a datagram or a lookup only from its event loop (process.nextTick, libuv), which a candidate's synchronous call never yields to: there is nothing to observe; the TCP entry covers what a candidate can try";
const PYTHON_HAS_NO_REALM =
  "Python candidates run in a process of their own, forked per run: there is no shared realm, context or node surface to escape or taint (their escapes are the sandbox's, in the other groups)";

/** Python: the function returns the right answer only if the attempt really worked. */
function pyAttempt(attempt: string): string {
  return `import ctypes, multiprocessing, os, subprocess\ndef add(a, b):\n    try:\n${attempt.replace(/^/gm, '        ')}\n    except Exception:\n        return "refused"\n    return a + b\n`;
}

/** JavaScript: the same shape. */
function jsAttempt(attempt: string): string {
  return `function add(a, b) {\n  try {\n    ${attempt}\n  } catch (e) {\n    return 'refused';\n  }\n  return a + b;\n}\n`;
}

const ENVIRONMENT_SEEN = `const seen = look();\nif (seen.includes(${JSON.stringify(SECRET)}) || seen.includes('CRUCIBLE_TEST_SECRET')) throw new Error('leak');\nif (!seen.startsWith('{} {} [')) throw new Error(seen);`;
const CONNECT_TRIED = "require('node:assert').equal(connect(), 'tried,tried,ReferenceError,tried,Error')";

const REFUSED = { python: "'refused'", javascript: '"refused"' } as const;
function refused(program: string, language: 'python' | 'javascript'): Program {
  return { program, actual: REFUSED[language] };
}

const ESCAPE_PROCESSES: Behaviour[] = [
  {
    name: 'starts a process without a shell (os.fork / execFileSync)',
    status: 'fail',
    python: refused(pyAttempt('pid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)'), 'python'),
    javascript: refused(jsAttempt("require('child_process').execFileSync('/bin/true');"), 'javascript'),
  },
  {
    name: 'runs a command (os.system / spawnSync)',
    status: 'fail',
    python: refused(pyAttempt('assert os.system("/bin/true") == 0'), 'python'),
    javascript: refused(
      jsAttempt("if (require('child_process').spawnSync('/bin/true').status !== 0) throw new Error('did not run');"),
      'javascript',
    ),
  },
  {
    name: 'subprocess.run / spawn: a started child has a pid',
    status: 'fail',
    python: refused(pyAttempt('assert subprocess.run(["/bin/true"]).returncode == 0'), 'python'),
    javascript: refused(
      jsAttempt("if (typeof require('child_process').spawn('/bin/true').pid !== 'number') throw new Error('no pid');"),
      'javascript',
    ),
  },
  {
    name: "a command through a shell (refused, reported as the candidate's error)",
    status: 'fail',
    python: refused(pyAttempt('assert subprocess.check_output("echo hi", shell=True) == b"hi\\n"'), 'python'),
    javascript: {
      program: "function add(a, b) { return require('child_process').execSync('echo hi').toString() }",
      message: /EPERM/,
    },
  },
  {
    name: 'multiprocessing.Process / child_process.fork',
    status: 'fail',
    python: refused(
      pyAttempt('p = multiprocessing.Process(target=print)\np.start()\np.join()\nassert p.exitcode == 0'),
      'python',
    ),
    javascript: refused(
      jsAttempt("if (typeof require('child_process').fork('/dev/null').pid !== 'number') throw new Error('no pid');"),
      'javascript',
    ),
  },
  {
    name: 'a pool of workers (multiprocessing.Pool / worker_threads)',
    status: 'fail',
    python: refused(
      pyAttempt('with multiprocessing.Pool(2) as pool:\n    assert pool.map(abs, [-1]) == [1]'),
      'python',
    ),
    javascript: {
      program: "function add(a, b) { return require('node:worker_threads') }",
      message: /worker_threads is not available/,
    },
  },
  {
    name: 'os.posix_spawn',
    status: 'fail',
    python: refused(pyAttempt('os.waitpid(os.posix_spawn("/bin/true", ["/bin/true"], {}), 0)'), 'python'),
    javascript: {
      skip: 'node has no posix_spawn of its own: child_process (the entries above) is its only way to start a process',
    },
  },
  {
    name: 'os.forkpty',
    status: 'fail',
    python: refused(pyAttempt('pid, fd = os.forkpty()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)'), 'python'),
    javascript: { skip: 'node has no pseudo-terminal API' },
  },
  {
    name: 'os.execv in a call',
    status: 'fail',
    python: refused(pyAttempt('os.execv("/bin/true", ["/bin/true"])'), 'python'),
    javascript: { skip: 'node cannot replace its own process image (no exec)' },
  },
  {
    name: 'a raw clone() via ctypes',
    status: 'fail',
    python: refused(pyAttempt('assert ctypes.CDLL(None).syscall(56, 17, 0, 0, 0, 0) >= 0  # clone(SIGCHLD)'), 'python'),
    javascript: { skip: NO_FFI },
  },
  {
    name: 'a raw vfork() via ctypes',
    status: 'fail',
    python: refused(pyAttempt('assert ctypes.CDLL(None).syscall(58) >= 0'), 'python'),
    javascript: { skip: NO_FFI },
  },
  {
    name: 'starting a process at load time (the program never becomes another one)',
    status: 'error',
    python: 'import os\nos.execv("/bin/true", ["/bin/true"])\ndef add(a, b):\n    return a + b\n',
    javascript: "require('child_process').execSync('/bin/true');\nfunction add(a, b) { return a + b }\n",
  },
  {
    name: "test code that starts processes (an untrusted request's)",
    harness: 'untrusted',
    python: {
      program: PY_RIGHT,
      tests: ['import subprocess\nsubprocess.run(["/bin/true"])\n'],
      status: 'fail',
      message: /PermissionError|Operation not permitted/,
    },
    javascript: {
      program: JS_RIGHT,
      tests: ['require("node:child_process").execSync("true");\n'],
      status: 'fail',
      message: /EPERM|EAGAIN|spawn/,
    },
  },
];

const NETWORK: Behaviour[] = [
  {
    name: 'reaching a TCP server of the host on 127.0.0.1 (sockets; fetch, net, WebSocket, import() and process.binding)',
    probe: true,
    python: (host) =>
      `attempt('tcp', lambda: socket.create_connection(('127.0.0.1', ${host.tcpPort}), timeout=0.5).recv(5))`,
    // fetch rejects and net.connect never gets a turn of the event loop (nor a route out of
    // the sandbox's network namespace); the server must see nothing either way.
    javascript: {
      program: (host) => connectToHost(host, 'this'),
      tests: [CONNECT_TRIED],
      status: 'pass',
      pauseMs: 200,
    },
    // Strict mode (TypeScript's output) has no `this` in a plain call: the context's global object is reached by name.
    typescript: {
      program: (host) => typed(connectToHost(host, 'globalThis')),
      tests: [CONNECT_TRIED],
      status: 'pass',
      pauseMs: 200,
    },
    after: (host) => assert.equal(host.connections(), 0),
  },
  {
    name: 'reaching the host through any of its addresses',
    probe: true,
    python: (host) =>
      host.addresses
        .map((a) => `attempt('tcp ${a}', lambda: socket.create_connection((${py(a)}, ${host.tcpPort}), timeout=0.5))`)
        .join('\n') || 'pass',
    javascript: { skip: NO_EVENT_LOOP },
    after: (host) => assert.equal(host.connections(), 0),
  },
  {
    name: 'reaching an abstract unix socket of the host',
    probe: true,
    python: (host) =>
      `def unix():\n    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n    s.connect(${py(`\0${host.abstractName}`)})\n    return s.recv(5)\nattempt('abstract unix socket', unix)`,
    javascript: { skip: NO_EVENT_LOOP },
    after: (host) => assert.equal(host.connections(), 0),
  },
  {
    name: 'exchanging UDP datagrams with the host',
    probe: true,
    python: (host) =>
      [
        'def udp():',
        '    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)',
        '    s.settimeout(0.5)',
        `    s.sendto(b"ping", ("127.0.0.1", ${host.udpPort}))`,
        '    return s.recvfrom(16)',
        "attempt('udp', udp)",
      ].join('\n'),
    javascript: { skip: NO_EVENT_LOOP },
    after: (host) => assert.equal(host.datagrams(), 0),
  },
  {
    name: 'resolving names (DNS)',
    probe: true,
    python: [
      "attempt('dns example.com', lambda: socket.getaddrinfo('example.com', 80))",
      "attempt('dns github.com', lambda: socket.gethostbyname('github.com'))",
    ].join('\n'),
    javascript: { skip: NO_EVENT_LOOP },
  },
  {
    name: 'reaching an outside address',
    probe: true,
    python: "attempt('tcp 1.1.1.1', lambda: socket.create_connection(('1.1.1.1', 53), timeout=0.5))",
    javascript: { skip: NO_EVENT_LOOP },
  },
];

const WRITABLE = [
  '/etc/crucible',
  '/usr/crucible',
  '/crucible',
  '/ipc/crucible',
  '/root/crucible',
  '/dev/shm/crucible',
  '/dev/crucible',
  '/proc/crucible',
  '/bin/crucible',
];

const FILES: Behaviour[] = [
  {
    name: 'writing anywhere but its scratch directory',
    probe: true,
    python: [...WRITABLE, '/crucible/python/crucible']
      .map((p) => `attempt(${py(`write ${p}`)}, lambda: open(${py(p)}, 'w').write('x'))`)
      .join('\n'),
    javascript: [...WRITABLE, '/crucible/node/crucible']
      .map((p) => `attempt(${js(`write ${p}`)}, () => fs.writeFileSync(${js(p)}, 'x'));`)
      .join('\n'),
  },
  {
    name: 'replacing the worker scripts or the seccomp program',
    probe: true,
    python: ['/crucible/python/judge_worker.py', '/crucible/python/wire.py', '/ipc/seccomp.bpf']
      .map((p) => `attempt(${py(`overwrite ${p}`)}, lambda: open(${py(p)}, 'r+b').write(b'#'))`)
      .join('\n'),
    javascript: [
      '/crucible/node/judge-worker.cjs',
      '/crucible/node/candidate-worker.cjs',
      '/crucible/node/wire.cjs',
      '/ipc/seccomp.bpf',
    ]
      .map((p) => `attempt(${js(`overwrite ${p}`)}, () => fs.writeSync(fs.openSync(${js(p)}, 'r+'), '#'));`)
      .join('\n'),
  },
  {
    name: 'reading secrets of the host (its temp dir, /root, /etc)',
    probe: true,
    python: (host) =>
      secretPaths(host)
        .map((p) => `attempt(${py(`read ${p}`)}, lambda: os.stat(${py(p)}))`)
        .join('\n'),
    javascript: (host) =>
      secretPaths(host)
        .map((p) => `attempt(${js(`read ${p}`)}, () => fs.statSync(${js(p)}));`)
        .join('\n'),
  },
  {
    name: 'finding the secret anywhere in its file system',
    probe: true,
    python: (host) =>
      [
        'import stat',
        'def search():',
        '    for top in ("/root", "/tmp", "/ipc", "/etc", "/crucible", "/dev"):',
        '        for root, dirs, files in os.walk(top):',
        "            dirs[:] = [d for d in dirs if d != '.pyenv']  # the interpreter: thousands of files",
        '            for f in files:',
        '                path = os.path.join(root, f)',
        '                try:',
        '                    if not stat.S_ISREG(os.lstat(path).st_mode):',
        '                        continue  # FIFOs and devices (/ipc/j2c, /dev/ptmx) would block',
        `                    if ${py(host.secret)}.encode() in open(path, "rb").read(1 << 20):`,
        '                        return True',
        '                except OSError:',
        '                    pass',
        '    return False',
        "attempt('secret found', search)",
      ].join('\n'),
    javascript: (host) =>
      [
        'function search() {',
        "  for (const top of ['/root', '/tmp', '/ipc', '/etc', '/crucible', '/dev']) {",
        '    const dirs = [top];',
        '    while (dirs.length > 0) {',
        '      const dir = dirs.pop();',
        '      let names;',
        '      try { names = fs.readdirSync(dir); } catch { continue; }',
        '      for (const name of names) {',
        "        const path = dir + '/' + name;",
        '        try {',
        '          const st = fs.lstatSync(path);',
        '          if (st.isDirectory()) dirs.push(path);',
        // FIFOs and devices (/ipc/j2c, /dev/ptmx) would block.
        `          else if (st.isFile() && fs.readFileSync(path).subarray(0, 1 << 20).includes(${js(host.secret)})) return true;`,
        '        } catch {}',
        '      }',
        '    }',
        '  }',
        '  return false;',
        '}',
        "attempt('secret found', search);",
      ].join('\n'),
  },
  {
    name: "seeing the host's environment (os.environ / process.env, an escaped process, the globals, /proc/self/environ, /proc/1/environ)",
    probe: true,
    python: (host) =>
      [
        `attempt('os.environ', lambda: ${py(host.secret)} in str(dict(os.environ)) or 'CRUCIBLE_TEST_SECRET' in os.environ or False)`,
        ...['/proc/self/environ', '/proc/1/environ', '/proc/thread-self/environ'].map(
          (p) => `attempt(${py(p)}, lambda: b'CRUCIBLE_TEST_SECRET' in open(${py(p)}, 'rb').read() or False)`,
        ),
      ].join('\n'),
    javascript: { program: lookAtEnvironment('this'), tests: [ENVIRONMENT_SEEN], status: 'pass' },
    // Strict mode (TypeScript's output) has no `this` in a plain call: the context's global object is reached by name.
    typescript: { program: typed(lookAtEnvironment('globalThis')), tests: [ENVIRONMENT_SEEN], status: 'pass' },
  },
];

/** What the "other processes" probes try on the worker. */
const KERNEL: Behaviour[] = [
  {
    name: 'writing host-wide sysctls in /proc/sys (the sandbox user is root outside when Crucible is)',
    probe: true,
    // Opening for writing is the test; nothing is ever written.
    python: PROC_SYS()
      .map((p) => `attempt(${py(`open ${p}`)}, lambda: os.close(os.open(${py(p)}, os.O_WRONLY)))`)
      .join('\n'),
    javascript: PROC_SYS()
      .map((p) => `attempt(${js(`open ${p}`)}, () => fs.closeSync(fs.openSync(${js(p)}, fs.constants.O_WRONLY)));`)
      .join('\n'),
  },
  {
    name: "changing the host's device nodes bound into /dev (chmod, xattrs)",
    probe: true,
    python: [
      'import stat',
      // The same mode again: a no-op if it were ever allowed.
      ...DEVICES().map(
        (p) => `attempt(${py(`chmod ${p}`)}, lambda: os.chmod(${py(p)}, stat.S_IMODE(os.stat(${py(p)}).st_mode)))`,
      ),
      'def xattr():',
      "    os.setxattr('/dev/null', 'user.crucible', b'x')",
      "    os.removexattr('/dev/null', 'user.crucible')",
      "attempt('setxattr /dev/null', xattr)",
    ].join('\n'),
    // node has no xattr API: chmod only.
    javascript: DEVICES()
      .map((p) => `attempt(${js(`chmod ${p}`)}, () => fs.chmodSync(${js(p)}, fs.statSync(${js(p)}).mode & 0o7777));`)
      .join('\n'),
  },
  {
    name: "reading or writing the worker's memory, files or limits",
    probe: true,
    python: [
      "attempt('/proc/1/mem', lambda: open('/proc/1/mem', 'rb').close())",
      "attempt('/proc/ppid/mem', lambda: open('/proc/%d/mem' % os.getppid(), 'r+b').close())",
      "attempt('/proc/1/fd/0 link', lambda: os.readlink('/proc/1/fd/0'))",
      "attempt('/proc/1/fd/1', lambda: os.close(os.open('/proc/1/fd/1', os.O_WRONLY)))",
      "attempt('/proc/1/maps', lambda: open('/proc/1/maps').read())",
      'import resource',
      "attempt('prlimit on the worker', lambda: resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3)))",
      "attempt('prlimit read of the worker', lambda: resource.prlimit(1, resource.RLIMIT_AS))",
      'def vm():',
      '    class iovec(ctypes.Structure):',
      "        _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]",
      '    buf = ctypes.create_string_buffer(8)',
      '    local = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)',
      '    remote = iovec(0x400000, 8)',
      '    libc = ctypes.CDLL(None, use_errno=True)',
      '    libc.process_vm_readv(os.getppid(), ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)',
      '    return ctypes.get_errno() != errno.EPERM',
      "attempt('process_vm_readv', vm)",
      "attempt('ptrace attach', lambda: ctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0) == 0 or False)",
      "attempt('ptrace traceme', lambda: ctypes.CDLL(None).ptrace(0, 0, 0, 0) == 0 or False)",
    ].join('\n'),
    javascript: { skip: ONE_PROCESS },
  },
  {
    name: 'creating state that would outlive it (SysV IPC, message queues, keys) or new namespaces',
    probe: true,
    python: [
      'libc = ctypes.CDLL(None, use_errno=True)',
      "attempt('shmget', lambda: libc.shmget(0, 1 << 20, 0o1600) >= 0 or False)",
      "attempt('semget', lambda: libc.semget(0, 1, 0o1600) >= 0 or False)",
      "attempt('msgget', lambda: libc.msgget(0, 0o1600) >= 0 or False)",
      "attempt('mq_open', lambda: libc.syscall(240, b'q', 0o100 | 2, 0o600, None) >= 0 or False)",
      "attempt('add_key', lambda: libc.syscall(248, b'user', b'k', b'v', 1, -3) >= 0 or False)",
      "attempt('unshare user', lambda: libc.unshare(0x10000000) == 0 or False)",
      "attempt('unshare mount', lambda: libc.unshare(0x00020000) == 0 or False)",
      "attempt('bpf', lambda: libc.syscall(321, 0, None, 0) >= 0 or False)",
      "attempt('userfaultfd', lambda: libc.syscall(323, 0) >= 0 or False)",
    ].join('\n'),
    javascript: { skip: NO_FFI },
  },
  {
    name: "lowering its worker's priority, CPUs, scheduling policy or I/O priority, which later candidates inherit",
    python: { body: (ctx) => inheritedState(ctx) },
    javascript: { skip: `${ONE_PROCESS}; no later candidate is forked from it` },
  },
  {
    name: 'signalling its worker or its process group (kill, tkill, tgkill, sigqueue, pidfds, SIGIO owners)',
    probe: true,
    python: [
      'import fcntl, struct, threading',
      'libc = ctypes.CDLL(None, use_errno=True)',
      // Signal 0 tests the permission and delivers nothing.
      "attempt('kill pid 1', lambda: os.kill(1, 0))",
      "attempt('kill its process group', lambda: os.kill(0, 0))",
      "attempt('kill(-1)', lambda: os.kill(-1, 0))",
      "attempt('tkill pid 1', lambda: libc.syscall(200, 1, 0) == 0 or False)",
      "attempt('tgkill pid 1', lambda: libc.syscall(234, 1, 1, 0) == 0 or False)",
      // A siginfo with si_code SI_QUEUE, as sigqueue() sends.
      "info = struct.pack('iii', 0, 0, -1) + bytes(116)",
      "attempt('rt_sigqueueinfo pid 1', lambda: libc.syscall(129, 1, 0, info) == 0 or False)",
      "attempt('rt_tgsigqueueinfo pid 1', lambda: libc.syscall(297, 1, 1, 0, info) == 0 or False)",
      "attempt('pidfd_open pid 1', lambda: os.pidfd_open(1))",
      "attempt('pidfd_send_signal to /proc/1', lambda: signal.pidfd_send_signal(os.open('/proc/1', os.O_RDONLY | os.O_DIRECTORY), 0))",
      // The owner of a file receives its SIGIO (or the signal F_SETSIG names).
      'def owned(set_owner):',
      '    a, b = socket.socketpair()',
      '    set_owner(a.fileno())',
      "attempt('F_SETOWN pid 1', lambda: owned(lambda fd: fcntl.fcntl(fd, 8, 1)))",
      "attempt('F_SETOWN its process group', lambda: owned(lambda fd: fcntl.fcntl(fd, 8, -1)))",
      "attempt('F_SETOWN_EX pid 1', lambda: owned(lambda fd: fcntl.fcntl(fd, 15, struct.pack('ii', 1, 1))))",
      "attempt('FIOSETOWN pid 1', lambda: owned(lambda fd: fcntl.ioctl(fd, 0x8901, struct.pack('i', 1))))",
      "attempt('SIOCSPGRP pid 1', lambda: owned(lambda fd: fcntl.ioctl(fd, 0x8902, struct.pack('i', 1))))",
      // Itself (its pid is 2 or more), as threads, timeouts and crashes do.
      "works('kill itself', lambda: os.kill(os.getpid(), 0))",
      "works('pthread_kill of its thread', lambda: signal.pthread_kill(threading.get_ident(), 0))",
      'got = []',
      'signal.signal(signal.SIGUSR1, lambda *a: got.append(1))',
      "works('raise_signal', lambda: signal.raise_signal(signal.SIGUSR1) or got[0])",
      "works('fcntl F_GETFL', lambda: fcntl.fcntl(0, fcntl.F_GETFL))",
    ].join('\n'),
    // process.kill is the only signal API node has; the rest needs FFI.
    javascript: [
      "attempt('kill pid 1', () => process.kill(1, 0));",
      "attempt('kill its process group', () => process.kill(0, 0));",
      "attempt('kill(-1)', () => process.kill(-1, 0));",
      "attempt('kill its parent', () => process.kill(process.ppid, 0));",
    ].join('\n'),
  },
  {
    name: 'opening sockets other than between processes, io_uring or memory files',
    probe: true,
    python: [
      'libc = ctypes.CDLL(None, use_errno=True)',
      "attempt('AF_INET socket', lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))",
      "attempt('AF_INET6 socket', lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM))",
      "attempt('AF_NETLINK socket', lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))",
      "attempt('AF_VSOCK socket', lambda: socket.socket(40, socket.SOCK_STREAM))",
      "attempt('AF_PACKET socket', lambda: socket.socket(17, socket.SOCK_RAW, 0))",
      "attempt('AF_ALG socket', lambda: socket.socket(38, socket.SOCK_SEQPACKET, 0))",
      "attempt('socketpair AF_INET', lambda: libc.socketpair(2, 1, 0, ctypes.create_string_buffer(8)) == 0 or False)",
      // struct io_uring_params is 120 bytes.
      "attempt('io_uring_setup', lambda: libc.syscall(425, 4, ctypes.create_string_buffer(120)) >= 0 or False)",
      "attempt('memfd_create', lambda: os.memfd_create('crucible'))",
      "attempt('memfd_secret', lambda: libc.syscall(447, 0) >= 0 or False)",
      "works('AF_UNIX socket', lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))",
      "works('socketpair', lambda: socket.socketpair())",
    ].join('\n'),
    javascript: {
      skip: `node opens a socket only within an asynchronous connect, bind or listen (see the network entries); ${NO_FFI}`,
    },
  },
];

function PROC_SYS(): string[] {
  return [
    '/proc/sys/vm/drop_caches',
    '/proc/sys/kernel/core_pattern',
    '/proc/sys/kernel/hostname',
    '/proc/sysrq-trigger',
  ];
}
function DEVICES(): string[] {
  return ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'];
}
function secretPaths(host: Host): string[] {
  return [
    host.hostSecret,
    ...(host.rootSecret ? [host.rootSecret] : []),
    '/etc/shadow',
    '/etc/passwd',
    '/root/.bash_history',
    '/root/.ssh',
  ];
}

/** Python source for a literal string. */
function py(value: string): string {
  return JSON.stringify(value);
}
/** JavaScript source for a literal string. */
function js(value: string): string {
  return JSON.stringify(value);
}

/**
 * What a Python candidate inherits from its worker (forked from it): nice value, CPUs,
 * scheduling policy and I/O priority, of itself and of the worker (PID 1). Read before and
 * after a probe that tries to lower the worker's: they must be the same.
 */
async function inheritedState(ctx: Context): Promise<void> {
  const INHERITED = [
    'import ctypes, os',
    'def state(pid):',
    '    ioprio = ctypes.CDLL(None).syscall(252, 1, pid)  # ioprio_get(IOPRIO_WHO_PROCESS)',
    '    return (os.getpriority(os.PRIO_PROCESS, pid), sorted(os.sched_getaffinity(pid)), os.sched_getscheduler(pid), ioprio)',
    'STATE = [state(0), state(1)]',
    'def add(a, b):',
    '    return STATE',
    '',
  ].join('\n');
  const before = await ctx.judge(INHERITED);
  assert.ok(before.firstFailure?.actual, summary(before));
  await ctx.expect(
    pythonProbe(
      [
        'import struct',
        'libc = ctypes.CDLL(None, use_errno=True)',
        "attempt('setpriority of pid 1', lambda: os.setpriority(os.PRIO_PROCESS, 1, 19))",
        "attempt('setpriority of its process group', lambda: os.setpriority(os.PRIO_PGRP, 0, 19))",
        "attempt('setpriority of its user', lambda: os.setpriority(os.PRIO_USER, 0, 19))",
        "attempt('sched_setaffinity of pid 1', lambda: os.sched_setaffinity(1, {min(os.sched_getaffinity(1))}))",
        "attempt('sched_setscheduler of pid 1', lambda: os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0)))",
        "attempt('sched_setparam of pid 1', lambda: os.sched_setparam(1, os.sched_param(0)))",
        // struct sched_attr: size, policy SCHED_IDLE, flags, nice 19, priority, runtime, deadline, period.
        "attempt('sched_setattr of pid 1', lambda: libc.syscall(314, 1, struct.pack('IIQiIQQQ', 48, 5, 0, 19, 0, 0, 0, 0), 0) == 0 or False)",
        // ioprio_set(IOPRIO_WHO_PROCESS / _PGRP / _USER, who, the idle class).
        "attempt('ioprio_set of pid 1', lambda: libc.syscall(251, 1, 1, 3 << 13) == 0 or False)",
        "attempt('ioprio_set of its process group', lambda: libc.syscall(251, 2, 0, 3 << 13) == 0 or False)",
        "attempt('ioprio_set of its user', lambda: libc.syscall(251, 3, 0, 3 << 13) == 0 or False)",
        // Its own, which no later candidate inherits.
        "works('os.nice', lambda: os.nice(1))",
        "works('sched_setaffinity of itself', lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)))",
        "works('ioprio_set of itself', lambda: libc.syscall(251, 1, 0, 3 << 13) == 0)",
      ].join('\n'),
    ),
    'fail',
    { actual: "['control']" },
  );
  await ctx.expect(INHERITED, 'fail', { actual: before.firstFailure!.actual! });
}

function lookAtEnvironment(self: string): string {
  return `function look() {
      const seen = [];
      const read = (path) => require('fs').readFileSync(path, 'latin1');
      for (const get of [() => process.env, () => ${self}.constructor.constructor('return process')().env, () => Object.getOwnPropertyNames(globalThis),
                         () => read('/proc/self/environ'), () => read('/proc/1/environ'), () => read('/proc/thread-self/environ')]) {
        try { seen.push(JSON.stringify(get())) } catch (e) { seen.push(e.name) }
      }
      return seen.join(' ');
    }`;
}

function connectToHost(host: Host, self: string): string {
  return `function connect() {
        const tries = [
          () => fetch('http://127.0.0.1:${host.tcpPort}/'),
          () => require('net').connect(${host.tcpPort}, '127.0.0.1'),
          () => new WebSocket('ws://127.0.0.1:${host.tcpPort}/'),
          () => import('node:net').then((net) => net.connect(${host.tcpPort}, '127.0.0.1')),
          () => ${self}.constructor.constructor('return process')().binding('tcp_wrap'),
        ];
        return tries.map((t) => { try { t(); return 'tried' } catch (e) { return e.name } }).join(',');
      }`;
}

/** Python: `body` in the function before it returns the right answer, after `prelude`. */
function fn(body: string, prelude = ''): string {
  return `${prelude}\ndef add(a, b):\n${body.replace(/^/gm, '    ')}\n    return a + b\n`;
}
/** JavaScript: the same. */
function jsFn(body: string, prelude = ''): string {
  return `${prelude}\nfunction add(a, b) {\n  ${body}\n  return a + b;\n}\n`;
}

const NO_THREADS = 'JavaScript candidates have no threads (node:worker_threads is refused: see the processes entries)';
const NO_MICROTASKS = 'Python has no microtask queue: the call returns, or it does not';
const NO_DEFERRED =
  "a Python candidate's process ends with its run: nothing it defers (weakref finalizers, atexit handlers, pending callbacks) can run after it, and there is no realm of its worker's to reach";

const TIME: Behaviour[] = [
  { name: 'an infinite loop', status: 'timeout', python: fn('while True:\n    pass'), javascript: jsFn('for (;;);') },
  {
    name: 'a long sleep (time.sleep / Atomics.wait with a timeout)',
    status: 'timeout',
    python: fn('time.sleep(1000)', 'import time'),
    javascript: jsFn('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1e9);'),
  },
  {
    name: 'waiting on an event nobody sets (threading.Event / Atomics.wait)',
    status: 'timeout',
    python: fn('threading.Event().wait()', 'import threading'),
    javascript: jsFn('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);'),
  },
  {
    name: 'signal.pause()',
    status: 'timeout',
    python: fn('signal.pause()', 'import signal'),
    javascript: { skip: 'node has no pause(); a blocking wait is the Atomics.wait entries' },
  },
  {
    name: 'reading its own end of the judge channel',
    status: 'timeout',
    python: fn('os.read(4, 1)\nos.read(4, 1 << 20)', 'import os'),
    javascript: jsFn("const fs = require('fs');\n  fs.readSync(fs.openSync('/ipc/j2c', 'r'), Buffer.alloc(1 << 20));"),
  },
  {
    name: 'a loop inside an exception handler',
    status: 'timeout',
    python: fn('try:\n    1 / 0\nexcept ZeroDivisionError:\n    while True:\n        pass'),
    javascript: jsFn('try { throw new Error("x"); } catch (e) { for (;;); }'),
  },
  {
    name: 'a loop that swallows every exception (catching and retrying: the timeout is not an exception)',
    status: 'timeout',
    python: fn('while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass'),
    javascript: jsFn('for (;;) { try { for (;;); } catch (e) {} }'),
  },
  {
    name: 'a loop in a finally clause',
    status: 'timeout',
    python: fn('try:\n    return a + b\nfinally:\n    while True:\n        pass'),
    javascript: jsFn('try { return a + b; } finally { for (;;); }'),
  },
  {
    name: 'handlers that ignore SIGXCPU, SIGALRM, SIGTERM, SIGINT, SIGHUP',
    status: 'timeout',
    python: fn(
      'for s in (signal.SIGXCPU, signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):\n' +
        '    signal.signal(s, lambda *args: None)\nsignal.alarm(1)\nwhile True:\n    pass',
      'import signal',
    ),
    javascript: jsFn(
      "for (const s of ['SIGXCPU', 'SIGALRM', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR1']) process.on(s, () => {});\n  for (;;);",
    ),
  },
  {
    name: 'busy threads joined forever',
    status: 'timeout',
    python: fn(
      'ts = [threading.Thread(target=spin) for _ in range(8)]\nfor t in ts:\n    t.start()\nfor t in ts:\n    t.join()',
      'import threading\ndef spin():\n    while True:\n        pass',
    ),
    javascript: { skip: NO_THREADS },
  },
  {
    name: 'an infinite loop at load time',
    status: 'timeout',
    python: 'while True:\n    pass\n' + fn(''),
    javascript: 'while (true) {}\n' + JS_RIGHT,
  },
  {
    name: 'a loop on one input only: timeout in that io suite, after the inputs before it',
    status: 'timeout',
    python: {
      program: fn('while a == -3:\n    pass'),
      suites: ['pass', 'timeout'],
      check: (v) => assert.equal(v.suites[1]?.passed, 2, summary(v)),
    },
    javascript: {
      program: jsFn('while (a === -3);'),
      suites: ['pass', 'timeout'],
      check: (v) => assert.equal(v.suites[1]?.passed, 2, summary(v)),
    },
  },
  {
    name: 'the CPU limit stops it even when SIGXCPU is ignored, with wall-clock limits far away',
    status: 'timeout',
    harness: 'cpu',
    python: fn(
      'signal.signal(signal.SIGXCPU, signal.SIG_IGN)\nfor _ in range(3):\n    threading.Thread(target=spin, daemon=True).start()\nspin()',
      'import signal, threading\ndef spin():\n    while True:\n        pass',
    ),
    // The worker's budget for a candidate is its CPU seconds (one thread: its wall-clock time computing).
    javascript: jsFn("process.on('SIGXCPU', () => {});\n  for (;;);"),
  },
  {
    name: 'an endless promise microtask',
    status: 'timeout',
    python: { skip: NO_MICROTASKS },
    javascript: 'function add(a, b) { Promise.resolve().then(function spin() { for (;;); }); return a + b }',
  },
  {
    name: 'an endless chain of promise microtasks',
    status: 'timeout',
    python: { skip: NO_MICROTASKS },
    javascript: 'function add(a, b) { const again = () => Promise.resolve().then(again); again(); return a + b }',
  },
  {
    name: 'an endless queueMicrotask chain',
    status: 'timeout',
    python: { skip: NO_MICROTASKS },
    javascript: 'function add(a, b) { queueMicrotask(function again() { queueMicrotask(again) }); return a + b }',
  },
  {
    name: 'a getter read while encoding the result',
    status: 'timeout',
    python: {
      skip: "Python values cross by their type (wire.py): no property of the candidate's runs while its result is encoded, and an __eq__ or __repr__ that raises is the lying-values entries",
    },
    javascript: 'function add(a, b) { return { get x() { for (;;); } } }',
  },
  {
    name: 'a Proxy trap while encoding the result',
    status: 'timeout',
    python: { skip: 'Python has no Proxy objects; see the getter entry' },
    javascript: 'function add(a, b) { return new Proxy([1], { get() { for (;;); }, ownKeys() { for (;;); } }) }',
  },
  {
    name: 'printing something whose string conversion loops (__str__ / toString)',
    status: 'timeout',
    python:
      'class X:\n    def __str__(self):\n        while True:\n            pass\ndef add(a, b):\n    print(X())\n    return a + b\n',
    javascript: 'function add(a, b) { console.log({ toString() { for (;;); } }); return a + b }',
  },
  {
    name: 'a setter node triggers after the timeout',
    status: 'timeout',
    python: { skip: "Python's judge does not write to properties of the candidate's objects after a timeout" },
    javascript:
      "function add(a, b) { Object.defineProperty(Object.prototype, 'code', { set() { for (;;); } }); for (;;); }",
  },
  {
    name: 'a value thrown at load time whose conversion loops (__str__ and __repr__ / a Proxy), which the loader must not describe untimed',
    status: 'timeout',
    python:
      'class E(Exception):\n    def __str__(self):\n        while True:\n            pass\n    def __repr__(self):\n        while True:\n            pass\nraise E()\n' +
      PY_RIGHT,
    javascript: 'throw new Proxy({}, { get() { for (;;); } })\n',
  },
  {
    name: 'a value thrown at load time whose stack and name getters loop',
    status: 'timeout',
    python: {
      skip: 'Python exceptions have no getters for their traceback or name: the entry above (__str__, __repr__) is the Python case',
    },
    javascript: 'throw { get stack() { for (;;); }, get name() { for (;;); } }\n',
  },
  {
    name: 'a setter on Error.prototype.code cannot even be installed',
    status: 'error',
    python: {
      skip: "JavaScript's intrinsics are frozen in its worker's realm; Python has no shared intrinsics (see the patching entries)",
    },
    javascript: {
      program: "Object.defineProperty(Error.prototype, 'code', { set() { for (;;); } });\n" + JS_RIGHT,
      message: /Cannot redefine property: code/,
    },
  },
];

const MEMORY: Behaviour[] = [
  {
    name: 'a list that doubles',
    status: 'memory',
    harness: 'memory',
    python: fn('x = [0]\nwhile True:\n    x = x + x'),
    javascript: jsFn('let x = [0];\n  for (;;) x = x.concat(x);'),
  },
  {
    name: 'growing lists exhaust the memory (a list of strings / arrays of numbers: the JavaScript worker dies, the next candidate gets a fresh one)',
    status: 'memory',
    harness: 'memory',
    python: fn('x = []\nwhile True:\n    x.append(" " * (1 << 24))'),
    javascript: {
      program: 'function add(a, b) { const x = []; for (;;) x.push(new Array(1e5).fill(1.5)); }',
      message: /memory limit exceeded/,
    },
  },
  {
    name: 'one allocation past the limit (bytearray(10**10) / a 4 GB ArrayBuffer, the address-space limit)',
    status: 'memory',
    harness: 'memory',
    python: fn('bytearray(10**10)'),
    javascript:
      'function add(a, b) { const b8 = new ArrayBuffer(4 * 2 ** 30); new Uint8Array(b8).fill(1); return b8.byteLength }',
  },
  {
    name: 'a string too large (a 10 GB string / one past V8 limits, an ordinary exception there)',
    harness: 'memory',
    python: { program: fn('" " * 10**10'), status: 'memory' },
    javascript: {
      program: 'function add(a, b) { let s = "x"; for (;;) s += s; }',
      status: 'fail',
      message: /Invalid string length/,
    },
  },
  {
    name: 'list(range(10**10)) / an array of 2**32 - 1 numbers',
    status: 'memory',
    harness: 'memory',
    python: fn('list(range(10**10))'),
    javascript: 'function add(a, b) { return Array.from({ length: 2 ** 32 - 1 }, (_, i) => i) }',
  },
  {
    name: 'memory outside the heap (an anonymous 10 GB mmap / many filled buffers)',
    status: 'memory',
    harness: 'memory',
    python: fn('mmap.mmap(-1, 10**10)', 'import mmap'),
    javascript:
      'function add(a, b) { const keep = []; for (let i = 0; i < 64; i++) { const b8 = new Uint8Array(256 * 2 ** 20); b8.fill(1); keep.push(b8) } return keep.length }',
  },
  {
    name: 'memory exhausted at load time',
    status: 'memory',
    harness: 'memory',
    python: 'BIG = bytearray(10**10)\n' + fn(''),
    javascript: 'const BIG = new Uint8Array(new ArrayBuffer(4 * 2 ** 30)).fill(1);\n' + JS_RIGHT,
  },
  {
    name: 'unbounded recursion is an ordinary exception (RecursionError / RangeError)',
    status: 'fail',
    harness: 'memory',
    python: 'def f(n):\n    return f(n + 1)\ndef add(a, b):\n    return f(0)\n',
    javascript: {
      program: 'function f(n) { return f(n + 1) }\nfunction add(a, b) { return f(0) }\n',
      message: /Maximum call stack size exceeded/,
    },
  },
  {
    name: 'a C-stack overflow never passes (recursion limit lifted, recursion through C)',
    status: 'error',
    harness: 'memory',
    python: fn('f(0)', 'import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return list(map(f, [n + 1]))'),
    javascript: { skip: 'V8 bounds every recursion, through built-ins too, with a RangeError: the recursion entry' },
  },
];

/** 100 MB in 1 MB writes: JavaScript builds no 100 MB string (that would be the memory limit, not the output's). */
const JS_MB = "const mb = 'x'.repeat(1 << 20);";

const OUTPUT: Behaviour[] = [
  {
    name: 'printing 100 MB, even when the candidate catches the error',
    status: 'output-limit',
    python: fn('x = "x" * 10**8\nprint(x)'),
    javascript:
      'function add(a, b) { const s = "x".repeat(1e6); for (let i = 0; i < 100; i++) try { console.log(s) } catch {} return a + b }',
  },
  {
    name: 'writing 100 MB to the real stdout stream (sys.__stdout__ / process.stdout.write)',
    status: 'output-limit',
    python: fn('x = "x" * 10**8\nsys.__stdout__.write(x)\nsys.__stdout__.flush()', 'import sys'),
    javascript:
      "function add(a, b) { const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 3000; i++) process.stdout.write(line); return a + b }",
  },
  {
    name: 'writing 100 MB to stderr (sys.stderr / process.stderr)',
    status: 'output-limit',
    python: fn('x = "x" * 10**8\nsys.stderr.write(x)\nsys.stderr.flush()', 'import sys'),
    javascript: jsFn(`${JS_MB}\n  for (let i = 0; i < 100; i++) process.stderr.write(mb);`),
  },
  {
    name: 'writing 100 MB to file descriptor 1',
    python: { program: fn('os.write(1, b"x" * 10**8)', 'import os'), status: 'output-limit' },
    // fd 1 of the JavaScript worker is its protocol channel to Crucible, which reads lines of
    // bounded length and kills the worker at the first one past it.
    javascript: {
      program: jsFn(`${JS_MB}\n  for (let i = 0; i < 100; i++) require('fs').writeSync(1, mb);`),
      status: 'output-limit',
      message: /file descriptor 1/,
    },
  },
  {
    name: 'many short lines to file descriptor 1',
    python: {
      program: fn('for _ in range(10**6):\n    os.write(1, b"x\\n" * 100)', 'import os'),
      status: 'output-limit',
    },
    // Each line would be a message for Crucible to queue: the first that is not a reply ends the worker.
    javascript: {
      program: jsFn(
        "const lines = 'x\\n'.repeat(100);\n  for (let i = 0; i < 1e6; i++) require('fs').writeSync(1, lines);",
      ),
      status: 'error',
      message: /file descriptor 1/,
    },
  },
  {
    name: 'writing 100 MB to file descriptor 2',
    status: 'output-limit',
    python: fn('os.write(2, b"x" * 10**8)', 'import os'),
    javascript: {
      todo: 'known gap: fd 2 of the JavaScript worker is its stderr, which Crucible drains keeping only its tail, and raw writes to it are not counted against outputBytes: the candidate passes',
      side: jsFn(`${JS_MB}\n  for (let i = 0; i < 100; i++) require('fs').writeSync(2, mb);`),
    },
  },
  {
    name: 'many small prints',
    status: 'output-limit',
    python: fn('while True:\n    print("spam")'),
    javascript: 'function add(a, b) { for (;;) console.log("spam") }',
  },
  {
    name: '/dev/stdout reopened',
    python: { program: fn('with open("/dev/stdout", "wb") as f:\n    f.write(b"x" * 10**8)'), status: 'output-limit' },
    javascript: {
      program: jsFn(
        `${JS_MB}\n  const fd = require('fs').openSync('/dev/stdout', 'w');\n  for (let i = 0; i < 100; i++) require('fs').writeSync(fd, mb);`,
      ),
      status: 'fail',
      message: /ENXIO/,
    },
  },
  {
    name: 'printing that tries to hide its size (truncate, seek back, swallow errors)',
    status: 'output-limit',
    python: fn(
      'for _ in range(100):\n    try:\n        os.ftruncate(1, 0)\n        os.lseek(1, 0, 0)\n    except OSError:\n        pass\n    os.write(1, b"x" * ((1 << 20) - 1))',
      'import os',
    ),
    javascript: {
      skip: "a JavaScript candidate's stdout is the harness's counted stream, with no descriptor to truncate or seek; its fd 1 is the worker's channel (the fd 1 entry)",
    },
  },
  {
    name: 'a huge file in the scratch directory',
    python: { program: fn('with open("big", "wb") as f:\n    f.write(b"x" * 10**8)'), status: 'output-limit' },
    // The JavaScript scratch directory is bounded by its size (a 16 MiB tmpfs): the write fails.
    javascript: {
      program: jsFn(
        `${JS_MB}\n  const fd = require('fs').openSync('big', 'w');\n  for (let i = 0; i < 100; i++) require('fs').writeSync(fd, mb);`,
      ),
      status: 'fail',
      message: /ENOSPC/,
    },
  },
  {
    name: 'a huge file, the error swallowed (and SIGXFSZ ignored)',
    harness: 'output',
    python: {
      program: fn(
        'signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\ntry:\n    with open("/tmp/big", "wb") as f:\n        f.write(b"x" * 10**8)\nexcept OSError:\n    pass',
        'import signal',
      ),
      status: 'output-limit',
    },
    // By design: JavaScript bounds the scratch directory's size, not each file's; the program caught ENOSPC and answered right.
    javascript: {
      program: jsFn(
        `${JS_MB}\n  try {\n    const fd = require('fs').openSync('/tmp/big', 'w');\n    for (let i = 0; i < 100; i++) require('fs').writeSync(fd, mb);\n  } catch {}`,
      ),
      status: 'pass',
    },
  },
  {
    name: 'filling the scratch directory with files under the size limit',
    python: {
      program: fn(
        'try:\n    for i in range(1000):\n        with open("/tmp/f%d" % i, "wb") as f:\n            f.write(b"x" * 1000000)\nexcept OSError:\n    pass',
      ),
      status: 'output-limit',
    },
    // As above: a full JavaScript scratch directory is a write that fails (ENOSPC), caught here.
    javascript: {
      program: jsFn(
        "try { for (let i = 0; i < 1000; i++) require('fs').writeFileSync('/tmp/f' + i, 'x'.repeat(1000000)) } catch {}",
      ),
      status: 'pass',
    },
  },
  {
    name: 'a 100 MB return value (larger than replyBytes)',
    harness: 'output',
    status: 'output-limit',
    python: 'def add(a, b):\n    return "x" * 10**8\n',
    javascript: {
      program: 'function add(a, b) { return "x".repeat(1e8) }',
      message: /return value larger than 16777216 bytes/,
    },
  },
  {
    name: 'printing 100 MB at load time',
    status: 'output-limit',
    python: 'print("x" * 10**8)\n' + fn(''),
    javascript: 'console.log("x".repeat(1e8));\n' + JS_RIGHT,
  },
  {
    name: 'a result too deep or too wide does not hurt the worker (a reply cap reached before the heap)',
    harness: 'smallReply',
    python: {
      program:
        'def deep():\n    a = []\n    for _ in range(10**5):\n        a = [a]\n    return a\ndef wide():\n    a = [1]\n    for _ in range(40):\n        a = [a, a]\n    return a\n',
      tests: ['assert deep() == []\n', 'wide()\n'],
      // The shared-list DAG (2**40 leaves) is encoded until the time limit: Python's encoder is not bounded by the reply cap first.
      status: 'fail',
      suites: ['fail', 'timeout'],
    },
    javascript: {
      program:
        'function deep() { let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return a }\nfunction wide() { let a = [1]; for (let i = 0; i < 40; i++) a = [a, a]; return a }',
      tests: ["require('assert').deepEqual(deep(), [])", 'wide()'],
      status: 'fail',
      suites: ['fail', 'output-limit'],
    },
  },
];

const PY_BASE_EXCEPTIONS =
  "Python's BaseException subclasses that are not Exception have meanings of their own; JavaScript throws values, none of them special (the judge-signal entry is the JavaScript case)";

const EXITING: Behaviour[] = [
  {
    name: 'exiting with code 0 at load time (sys.exit / process.exit, caught, then a kill of PID 1)',
    status: 'error',
    python: 'import sys\nsys.exit(0)\n' + PY_RIGHT,
    javascript: {
      program: "try { process.exit(0) } catch {}\ntry { process.kill(1, 'SIGKILL') } catch {}\n" + JS_RIGHT,
      message: /ProcessExit: process\.exit\(0\) was called/,
    },
  },
  {
    name: 'os._exit(0) at import',
    status: 'error',
    python: 'import os\nos._exit(0)\n' + PY_RIGHT,
    javascript: { skip: 'node has one exit for programs, process.exit (the entry above)' },
  },
  {
    name: 'raise SystemExit at import',
    status: 'error',
    python: 'raise SystemExit(0)\n' + PY_RIGHT,
    javascript: { skip: 'Python-specific: SystemExit is how sys.exit unwinds' },
  },
  {
    name: 'exiting with code 0 in the function (sys.exit / process.exit, caught: the program fails, and neither the worker nor the judge ends)',
    status: 'fail',
    python: 'import sys\ndef add(a, b):\n    sys.exit(0)\n',
    javascript: 'function add(a, b) { try { process.exit(0) } catch {} return a + b }',
  },
  {
    name: 'os._exit(0) in the function',
    status: 'error',
    python: 'import os\ndef add(a, b):\n    os._exit(0)\n',
    javascript: { skip: 'node has one exit for programs, process.exit (the entry above)' },
  },
  {
    name: 'raise KeyboardInterrupt',
    status: 'fail',
    python: 'def add(a, b):\n    raise KeyboardInterrupt\n',
    javascript: { skip: PY_BASE_EXCEPTIONS },
  },
  {
    name: 'raise GeneratorExit',
    status: 'fail',
    python: 'def add(a, b):\n    raise GeneratorExit\n',
    javascript: { skip: PY_BASE_EXCEPTIONS },
  },
  {
    name: 'raise StopIteration',
    status: 'fail',
    python: 'def add(a, b):\n    raise StopIteration\n',
    javascript: { skip: PY_BASE_EXCEPTIONS },
  },
  {
    name: 'an exception named like a judge signal',
    status: 'fail',
    python: 'class Timeout(BaseException):\n    pass\ndef add(a, b):\n    raise Timeout()\n',
    javascript: 'class Timeout extends Error {}\nfunction add(a, b) { throw new Timeout() }\n',
  },
  {
    name: 'closing every file descriptor at load time',
    status: 'error',
    python: 'import os\nos.closerange(0, 1024)\n' + PY_RIGHT,
    javascript:
      "const fs = require('fs');\nfor (let fd = 0; fd < 1024; fd++) try { fs.closeSync(fd) } catch {}\n" + JS_RIGHT,
  },
  {
    name: 'closing every file descriptor in the function',
    status: 'error',
    python: 'import os\ndef add(a, b):\n    os.closerange(0, 1024)\n    return a + b\n',
    javascript:
      "function add(a, b) { const fs = require('fs'); for (let fd = 0; fd < 1024; fd++) try { fs.closeSync(fd) } catch {} return a + b }",
  },
  {
    name: 'a thrown Proxy whose traps raise is described safely',
    status: 'fail',
    python: {
      skip: 'Python has no Proxy objects; an exception whose __str__ and __repr__ misbehave is the load-time entry (limits)',
    },
    javascript: 'function add(a, b) { throw new Proxy({}, { get() { throw new Error("x") } }) }',
  },
  {
    name: 'a thrown value whose name getter loops is described within the time limit',
    status: 'timeout',
    python: { skip: 'Python exceptions have no getter for their name' },
    javascript: 'function add(a, b) { throw { get name() { for (;;); } } }',
  },
];

const SUBCLASS_EQ =
  "Python's == asks the subclass's __eq__; a JavaScript comparison has no user hook but valueOf, toJSON and Symbol.toPrimitive, which the entry above lies with";

const LYING: Behaviour[] = [
  {
    name: 'an object equal to everything (__eq__ / valueOf, toJSON, Symbol.toPrimitive, equals), under every kind of assertion',
    status: 'fail',
    python:
      'class Yes:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\ndef add(a, b):\n    return Yes()\n',
    javascript: {
      program: `
      function liar() { return { valueOf() { return 42 }, toJSON() { return 42 }, [Symbol.toPrimitive]() { return 42 }, toString() { return '42' }, equals() { return true } } }
      class Liar { valueOf() { return 42 } toJSON() { return 42 } [Symbol.toPrimitive]() { return 42 } }
      function instance() { return new Liar() }
    `,
      tests: [
        "require('node:assert').deepEqual(liar(), 42)",
        "require('node:assert').equal(liar(), 42)",
        'console.assert(liar() == 42)',
        'console.assert(instance() == 42)',
        "console.assert(JSON.stringify(instance()) === '42')",
        "require('node:assert').deepEqual(instance(), {})",
      ],
      io: { entry: 'instance', inputsJson: '[[]]' },
      reference: 'function liar() { return 42 }\nfunction instance() { return 42 }\n',
      suites: ['fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail'],
    },
  },
  {
    name: 'an int subclass with a lying __eq__',
    status: 'fail',
    python:
      'class I(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\ndef add(a, b):\n    return I(0)\n',
    javascript: { skip: SUBCLASS_EQ },
  },
  {
    name: 'a float subclass with a lying __eq__ and __sub__',
    status: 'fail',
    python:
      'class F(float):\n    def __eq__(self, o):\n        return True\n    def __sub__(self, o):\n        return 0.0\n    __hash__ = float.__hash__\ndef add(a, b):\n    return F(0)\n',
    javascript: { skip: SUBCLASS_EQ },
  },
  {
    name: 'a str subclass with a lying __eq__',
    status: 'fail',
    python:
      'class S(str):\n    def __eq__(self, other):\n        return True\n    __hash__ = str.__hash__\ndef add(a, b):\n    return S("")\n',
    javascript: { skip: SUBCLASS_EQ },
  },
  {
    name: 'a list subclass with a lying __eq__',
    status: 'fail',
    python: 'class L(list):\n    def __eq__(self, other):\n        return True\ndef add(a, b):\n    return L()\n',
    javascript: { skip: SUBCLASS_EQ },
  },
  {
    name: 'a numpy-like object (a fake numpy module)',
    status: 'fail',
    python:
      'import sys, types\nnp = types.ModuleType("numpy")\nclass generic:\n    def item(self):\n        return self\n    def __eq__(self, o):\n        return True\ngeneric.__module__ = "numpy"\nnp.generic = generic\nnp.ndarray = generic\nsys.modules["numpy"] = np\ndef add(a, b):\n    return generic()\n',
    javascript: { skip: "Python's judge unwraps numpy scalars and arrays; JavaScript has no such library values" },
  },
  {
    name: 'an object whose repr and encoding raise (__repr__ / Proxy traps)',
    status: 'fail',
    python:
      'class Bad:\n    def __repr__(self):\n        raise RuntimeError\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return [Bad()]\n',
    javascript:
      "function add(a, b) { return [new Proxy({}, { get() { throw new Error('x') }, ownKeys() { throw new Error('x') }, getPrototypeOf() { throw new Error('x') } })] }",
  },
  {
    name: 'a value that contains itself',
    status: 'fail',
    python: 'def add(a, b):\n    x = []\n    x.append(x)\n    return x\n',
    javascript: 'function add(a, b) { const x = []; x.push(x); return x }',
  },
  {
    name: 'an opaque value the test passes back does not move the test into its process (a class instance / a function)',
    status: 'fail',
    python: {
      // A value that cannot cross would run the test inline, beside the candidate, which then
      // decides the outcome: here it answers its own Box with the expected 3.
      program: 'class Box:\n    pass\ndef add(a, b):\n    return 3 if isinstance(a, Box) else Box()\n',
      tests: [
        {
          code: 'def check(candidate):\n    r = candidate(1, 2)\n    assert candidate(r, 0) == 3\n',
          invoke: 'check(add)',
        },
      ],
      check: (v) => assert.equal(v.suites[0]?.inline, undefined, summary(v)),
      then: {
        program: PY_RIGHT,
        tests: [
          {
            code: 'def check(candidate):\n    r = candidate(1, 2)\n    assert candidate(r, 0) == 3\n',
            invoke: 'check(add)',
          },
        ],
      },
    },
    javascript: {
      program:
        'function make(n) { return () => n; }\nfunction add(f) { return { valueOf() { return 3; }, toString() { return "3"; } } ; }\nglobalThis.assert = { equal() {} };\n',
      tests: ['const assert = require("node:assert");\nassert.equal(add(make(3)), 3);\n'],
      message: /not plain data/,
      check: (v) => assert.ok(!v.suites[0]!.inline, summary(v)),
    },
  },
  {
    name: 'a generator the test passes back crosses as its items (right: pass; lying: fail; never inline)',
    status: 'fail',
    python: {
      program:
        'class Yes:\n    def __eq__(self, other):\n        return True\ndef make(n):\n    return (i for i in range(n))\ndef add(items):\n    return Yes()\n',
      tests: [
        {
          code: 'def check(candidate):\n    assert candidate(make(3)) == 3\n    assert candidate(make(5)) == 5\n',
          invoke: 'check(add)',
        },
      ],
      check: (v) => assert.ok(!v.suites[0]!.inline, summary(v)),
      then: {
        program: 'def make(n):\n    return (i for i in range(n))\ndef add(items):\n    return sum(1 for _ in items)\n',
        tests: [
          {
            code: 'def check(candidate):\n    assert candidate(make(3)) == 3\n    assert candidate(make(5)) == 5\n',
            invoke: 'check(add)',
          },
        ],
        check: (v) => assert.ok(!v.suites[0]!.inline, summary(v)),
      },
    },
    javascript: {
      skip: "Python's generators cross as their items; a JavaScript generator is an object of a class, opaque (the entry above)",
    },
  },
  {
    name: 'a value nested just shallow enough to cross, which the test wraps and passes back, is a failure, never inline',
    status: 'fail',
    python: {
      program:
        'class Yes:\n    def __eq__(self, other):\n        return True\ndef make():\n    x = []\n    for _ in range(199):\n        x = [x]\n    return x\ndef add(v):\n    return Yes()\n',
      tests: ['assert add([make()]) == 3\n'],
      check: (v) => assert.ok(!v.suites[0]!.inline, summary(v)),
    },
    javascript: {
      program:
        'function make() { let x = []; for (let i = 0; i < 199; i++) x = [x]; return x; }\nfunction add(v) { return { valueOf() { return 3; } }; }\n',
      tests: ['if (add([make()]) != 3) throw new Error("wrong");\n'],
      check: (v) => assert.ok(!v.suites[0]!.inline, summary(v)),
    },
  },
];

const PATCHING: Behaviour[] = [
  {
    name: "patching what the tests' assertions use, in its own realm (builtins.abs, round, AssertionError / console.assert, console)",
    status: 'fail',
    python: {
      program:
        'import builtins\nbuiltins.abs = lambda x: 0\nbuiltins.round = lambda *a: 0\nbuiltins.AssertionError = type("N", (Exception,), {})\n' +
        PY_WRONG,
      suites: ['fail', 'fail'],
    },
    javascript: {
      program: 'console.assert = () => {};\nglobalThis.console = { assert() {}, log() {} };\nconst f = () => 1;\n',
      tests: ['console.assert(f() === 2)'],
    },
  },
  {
    // Top-level names reach the test code's namespace; builtins must not be replaced there.
    name: "top-level names that shadow what the test uses (abs, isinstance, len, AssertionError / require, console) or inject code through the judge's lookups",
    status: 'fail',
    python: {
      program:
        'def abs(x):\n    return 0\ndef isinstance(*a):\n    return True\ndef len(x):\n    return 1\nclass AssertionError(Exception):\n    pass\ndef add(a, b):\n    return 0 if type(a) is float else a + b\n',
      suites: ['fail', 'fail'],
    },
    javascript: {
      program: `
      module.exports['a){throw new Error("injected")}//'] = () => 1;
      module.exports['constructor'] = () => 1;
      function require() { return { strictEqual() {} } }
      function console() {}
      function f() { return 2 }
    `,
      tests: ["const assert = require('assert');\nassert.strictEqual(f(), 1);"],
      message: /Expected values to be strictly equal/,
    },
  },
  {
    name: "reaching the judge's own encoder (the wire module, encoding everything as 3 / require of the harness's own files and absolute paths: not found)",
    python: {
      program: 'import wire\nwire.encode = lambda x, *a, **k: 3\n' + PY_WRONG,
      status: 'fail',
      suites: ['fail', 'fail'],
    },
    javascript: {
      program: "function f(target) { try { require(target); return 'loaded' } catch (e) { return e.code } }",
      tests: ['/crucible/node/wire.cjs', '../crucible/node/wire.cjs', './candidate-worker.cjs', '/etc/passwd'].map(
        (target) => `require('node:assert').equal(f(${JSON.stringify(target)}), 'MODULE_NOT_FOUND')`,
      ),
      status: 'pass',
    },
  },
  {
    name: 'the JSON module its worker encodes with (json.dumps / JSON.stringify and JSON.parse)',
    status: 'fail',
    python: {
      program: 'import json\njson.dumps = lambda *a, **k: \'{"ok": true, "v": 3}\'\n' + PY_WRONG,
      suites: ['fail', 'fail'],
    },
    javascript: {
      program: 'JSON.stringify = () => \'{"ok":true,"v":3}\';\nJSON.parse = () => 3;\n' + JS_WRONG,
      suites: ['fail', 'fail'],
    },
  },
  // The worker's own code (its replies, json) keeps the originals: the program is judged on what it returns.
  {
    name: 'builtins its worker code uses, patched: len (Array.isArray, Object.keys, Number.isInteger) and a wrong answer',
    status: 'fail',
    python: 'import builtins\nbuiltins.len = lambda x: 1\n' + PY_WRONG,
    javascript: 'Array.isArray = () => true;\nObject.keys = () => [];\nNumber.isInteger = () => true;\n' + JS_WRONG,
  },
  {
    name: 'builtins its worker code uses, patched: isinstance and a wrong answer',
    status: 'fail',
    python: 'import builtins\nbuiltins.isinstance = lambda *a: True\n' + PY_WRONG,
    javascript: { skip: 'the entry above patches the JavaScript counterparts together' },
  },
  {
    name: 'builtins its worker code uses, patched, and a right answer: judged on what it returns (its own results are not corrupted)',
    status: 'pass',
    python: 'import builtins\nbuiltins.len = lambda x: 1\nbuiltins.isinstance = lambda *a: True\n' + PY_RIGHT,
    javascript: {
      program: `
      Object.prototype.polluted = 'yes';
      Object.defineProperty(Array.prototype, '0', { get() { return 'lie' }, set() { throw new Error('setter') }, configurable: true });
      Object.defineProperty(Object.prototype, 'v', { get() { return 'lie' }, set() {}, configurable: true });
      Array.prototype.map = () => ['lie'];
      Array.isArray = () => false;
      Object.keys = () => [];
      JSON.stringify = () => '"lie"';
      JSON.parse = () => 'lie';
      Reflect.apply = () => 'lie';
      Function.prototype.call = function () { return 'lie' };
      Function.prototype.apply = function () { return 'lie' };
      Map.prototype.forEach = () => {};
      String.prototype.slice = () => 'lie';
      Object.getPrototypeOf = () => null;
      function f(x) { return [x, { a: x, list: [x, x] }, new Map([[x, x]])] }
    `,
      tests: ["require('node:assert').deepStrictEqual(f(1), [1, { a: 1, list: [1, 1] }, new Map([[1, 1]])])"],
    },
  },
  {
    name: 'the wire module made to write unknown tags: error, not a judge failure',
    status: 'error',
    python: 'import wire\nwire.encode = lambda x, *a, **k: {"$t": "evil"}\n' + PY_RIGHT,
    javascript: {
      skip: "a JavaScript candidate cannot reach its encoder (the entry on the judge's own encoder); forged tags on its channel are the forged-replies entries",
    },
  },
];

const C2J_LEAK =
  "known gap: lines a JavaScript candidate writes itself on /ipc/c2j (its reply channel to the judge) can outlive its run: one time in four or five (4 and 6 of 25 runs of the not-an-object program, before and after the runtime-stack merge), the next candidate stalls for ten seconds and is judged error ('the candidate process exited ... before its tests finished (while loading)')";

/** A JavaScript side that writes on the judge channel: its own verdict is checked, the next candidates' check is a todo (C2J_LEAK). */
function leaky(side: Code | Program): Program {
  return { ...asProgram(side), nextGap: C2J_LEAK };
}

/** JavaScript: writes `text` (a JavaScript expression) on the candidate's reply channel to its judge. */
function jsForge(text: string): string {
  return `require('fs').writeSync(require('fs').openSync('/ipc/c2j', 'w'), ${text})`;
}

const FORGED: Behaviour[] = [
  {
    name: 'a forged load reply and answers at load time',
    status: 'fail',
    python: 'import os\nos.write(3, b\'{"ok":true,"names":["add"]}\\n\' + b\'{"ok":true,"v":3}\\n\' * 50)\n' + PY_WRONG,
    javascript: leaky(
      `${jsForge('\'{"ok":true,"names":["add"]}\\n\' + \'{"ok":true,"v":3}\\n\'.repeat(50)')};\n${JS_WRONG}`,
    ),
  },
  {
    name: 'forged answers in the function',
    status: 'fail',
    python: 'import os\ndef add(a, b):\n    os.write(3, b\'{"ok":true,"v":3}\\n\' * 50)\n    return a - b\n',
    javascript: leaky(`function add(a, b) { ${jsForge('\'{"ok":true,"v":3}\\n\'.repeat(50)')}; return a - b }`),
  },
  {
    name: "a forged pass result on stdout (the candidate's own / its worker's protocol channel)",
    status: 'fail',
    python:
      'import os\nos.write(1, b\'{"op":"result","load":{"ok":true},"suites":[{"name":"base","status":"pass","passed":1,"total":1}]}\\n\')\n' +
      PY_WRONG,
    // Not a reply the JavaScript worker sends: the worker is killed at it, and the candidate's tests end in error.
    javascript: {
      program: `require('fs').writeSync(1, '{"op":"result","load":{"ok":true},"suites":[{"name":"base","status":"pass","passed":1,"total":1}]}\\n{"op":"exited","code":0,"signal":null,"outputBytes":0}\\n');\n${JS_WRONG}`,
      status: 'error',
      message: /file descriptor 1/,
    },
  },
  {
    // A reply the worker does send: the results are still the judge's; the worker (tainted by fs) is replaced.
    name: "a forged exit report on stdout (its worker's protocol channel)",
    status: 'fail',
    python: 'import os\nos.write(1, b\'{"op":"exited","code":0,"signal":null,"outputBytes":0}\\n\')\n' + PY_WRONG,
    javascript: `require('fs').writeSync(1, '{"op":"exited","code":0,"signal":null,"outputBytes":0}\\n');\n${JS_WRONG}`,
  },
  {
    name: 'a reply that is not JSON',
    status: 'error',
    python: 'import os\ndef add(a, b):\n    os.write(3, b"garbage\\n")\n    return a - b\n',
    javascript: leaky(`function add(a, b) { ${jsForge("'garbage\\n'")}; return a - b }`),
  },
  {
    name: 'a reply that is not an object',
    python: {
      program: 'import os\ndef add(a, b):\n    os.write(3, b"[1, 2]\\n")\n    return a - b\n',
      status: 'error',
    },
    // JavaScript reports it as the call's failure.
    javascript: leaky({ program: `function add(a, b) { ${jsForge("'[1, 2]\\n'")}; return a - b }`, status: 'fail' }),
  },
  {
    name: 'a reply nested 100000 deep',
    status: 'error',
    python:
      'import os\ndef add(a, b):\n    os.write(3, b\'{"ok":true,"v":\' + b"[" * 100000 + b"]" * 100000 + b"}\\n")\n    return a - b\n',
    javascript: {
      todo: "known gap: the JavaScript judge's decoder overflows its stack on the forged reply and the run is reported as a judge failure (no-verdict), which a candidate can choose",
      side: `function add(a, b) { ${jsForge("'{\"ok\":true,\"v\":' + '['.repeat(100000) + ']'.repeat(100000) + '}\\n'")}; return a - b }`,
    },
  },
  {
    name: 'a reply with an absurd int',
    python: {
      program:
        'import os\ndef add(a, b):\n    os.write(3, b\'{"ok":true,"v":{"$t":"int","v":"\' + b"9" * 100000 + b\'"}}\\n\')\n    return a - b\n',
      status: 'error',
    },
    // A JavaScript BigInt of 100000 digits is a value like any other, and a wrong one.
    javascript: leaky({
      program: `function add(a, b) { ${jsForge('\'{"ok":true,"v":{"$t":"bigint","v":"\' + \'9\'.repeat(100000) + \'"}}\\n\'')}; return a - b }`,
      status: 'fail',
    }),
  },
  {
    name: 'an endless reply line',
    python: {
      program: 'import os\ndef add(a, b):\n    while True:\n        os.write(3, b"x" * (1 << 20))\n',
      status: 'output-limit',
    },
    // The JavaScript judge gives up on the line at V8's longest string (a failed call), or the
    // candidate's worker is replaced first (an error): either way not a pass.
    javascript: leaky({
      program:
        "function add(a, b) { const fs = require('fs'); const fd = fs.openSync('/ipc/c2j', 'w'); const mb = 'x'.repeat(1 << 20); for (;;) fs.writeSync(fd, mb); }",
      status: ['fail', 'error'],
    }),
  },
  {
    name: 'a load reply with bad names',
    python: { program: 'import os\nos.write(3, b\'{"ok":true,"names":5}\\n\')\n' + PY_WRONG, status: 'error' },
    javascript: leaky({ program: `${jsForge('\'{"ok":true,"names":5}\\n\'')};\n${JS_WRONG}`, status: 'fail' }),
  },
  // The real load reply then arrives as the first call's reply: a reply without a value.
  {
    name: 'a load reply naming dunders (or constructor, __proto__)',
    python: {
      program: 'import os\nos.write(3, b\'{"ok":true,"names":["__builtins__","add","abs"]}\\n\')\n' + PY_WRONG,
      status: 'error',
    },
    javascript: leaky({
      program: `${jsForge('\'{"ok":true,"names":["constructor","add","__proto__"]}\\n\'')};\n${JS_WRONG}`,
      status: 'fail',
    }),
  },
];

const NO_DECODE_GAP =
  "known gap: a forged reply the JavaScript judge cannot decode makes it fail (a judge failure: no-verdict for every suite), which a candidate can choose; Python reports it as that suite's error";

/** Right on the script suite's inputs; on the io suite's last input (-3, 1) it writes a forged line first. */
function pyForgedIo(line: string): string {
  return `import os\ndef add(a, b):\n    if a == -3:\n        os.write(3, ${line})\n    return a + b\n`;
}
function jsForgedIo(text: string): string {
  return `function add(a, b) { if (a === -3) ${jsForge(text)}; return a + b }`;
}
const IN_THAT_SUITE = ['pass', 'error'] as const;

const FORGED_IO: Behaviour[] = [
  {
    name: 'a forged io reply: not JSON',
    status: 'error',
    python: { program: pyForgedIo('b"garbage\\n"'), suites: IN_THAT_SUITE },
    javascript: leaky({ program: jsForgedIo("'garbage\\n'"), suites: IN_THAT_SUITE }),
  },
  {
    name: 'a forged io reply: not an object',
    python: { program: pyForgedIo('b"[1, 2]\\n"'), status: 'error', suites: IN_THAT_SUITE },
    javascript: leaky({ program: jsForgedIo("'[1, 2]\\n'"), status: 'fail', suites: ['pass', 'fail'] }),
  },
  {
    name: 'a forged io reply: an unknown tag',
    status: 'error',
    python: { program: pyForgedIo('b\'{"ok":true,"dt":0,"v":{"$t":"evil"}}\\n\''), suites: IN_THAT_SUITE },
    javascript: {
      todo: NO_DECODE_GAP,
      side: { program: jsForgedIo('\'{"ok":true,"dt":0,"v":{"$t":"evil"}}\\n\''), suites: IN_THAT_SUITE },
    },
  },
  {
    name: 'a forged io reply: no value',
    python: { program: pyForgedIo('b\'{"ok":true,"dt":0}\\n\''), status: 'error', suites: IN_THAT_SUITE },
    // JavaScript reads a reply without a value as `undefined`, a wrong output.
    javascript: leaky({ program: jsForgedIo('\'{"ok":true,"dt":0}\\n\''), status: 'fail', suites: ['pass', 'fail'] }),
  },
  {
    name: 'a forged io reply: an absurd int',
    python: {
      program: pyForgedIo('b\'{"ok":true,"v":{"$t":"int","v":"\' + b"9" * 100000 + b\'"}}\\n\''),
      status: 'error',
      suites: IN_THAT_SUITE,
    },
    javascript: leaky({
      program: jsForgedIo('\'{"ok":true,"v":{"$t":"bigint","v":"\' + \'9\'.repeat(100000) + \'"}}\\n\''),
      status: 'fail',
      suites: ['pass', 'fail'],
    }),
  },
  {
    name: 'a forged io reply: nesting 100000 deep',
    status: 'error',
    python: {
      program: pyForgedIo('b\'{"ok":true,"v":\' + b"[" * 100000 + b"]" * 100000 + b"}\\n"'),
      suites: IN_THAT_SUITE,
    },
    javascript: {
      todo: NO_DECODE_GAP,
      side: {
        program: jsForgedIo("'{\"ok\":true,\"v\":' + '['.repeat(100000) + ']'.repeat(100000) + '}\\n'"),
        suites: IN_THAT_SUITE,
      },
    },
  },
  {
    name: 'a forged io reply: an unhashable key',
    python: {
      program: pyForgedIo('b\'{"ok":true,"v":{"$t":"dict","v":[[[1],2]]}}\\n\''),
      status: 'error',
      suites: IN_THAT_SUITE,
    },
    // Any value is a JavaScript Map key: a wrong output.
    javascript: leaky({
      program: jsForgedIo('\'{"ok":true,"v":{"$t":"dict","v":[[[1],2]]}}\\n\''),
      status: 'fail',
      suites: ['pass', 'fail'],
    }),
  },
  {
    name: 'a forged io reply: a malformed map',
    status: 'error',
    python: { skip: "the JavaScript wire's map tag; Python's malformed containers are the packed-float entries" },
    javascript: {
      todo: NO_DECODE_GAP,
      side: { program: jsForgedIo('\'{"ok":true,"dt":0,"v":{"$t":"map","v":5}}\\n\''), suites: IN_THAT_SUITE },
    },
  },
  ...(
    [
      ['packed floats that are not base64', 'b\'{"ok":true,"v":{"$t":"f64","ints":[],"v":"!!"}}\\n\''],
      ['packed floats cut mid-double', 'b\'{"ok":true,"v":{"$t":"f64","ints":[],"v":"AAAA"}}\\n\''],
      [
        'packed floats with an int position past the end',
        'b\'{"ok":true,"v":{"$t":"f64","ints":[9],"v":"AAAAAAAA8D8="}}\\n\'',
      ],
      [
        'packed floats whose int position holds nan',
        'b\'{"ok":true,"v":{"$t":"f64","ints":[0],"v":"AAAAAAAA+H8="}}\\n\'',
      ],
    ] as const
  ).map(([label, line]): Behaviour => ({
    name: `a forged io reply: ${label}`,
    status: 'error',
    python: { program: pyForgedIo(line), suites: IN_THAT_SUITE },
    javascript: {
      skip: "packed floats (f64) are Python's wire format; to the JavaScript judge the tag is unknown (the unknown-tag entry)",
    },
  })),
];

const SIGNALS: Behaviour[] = [
  {
    name: 'killing its worker (os.kill(os.getppid(), SIGKILL) / process.kill(process.ppid))',
    status: 'fail',
    python: 'import os, signal\ndef add(a, b):\n    os.kill(os.getppid(), signal.SIGKILL)\n    return a - b\n',
    javascript: "function add(a, b) { try { process.kill(process.ppid, 'SIGKILL') } catch {} return a - b }",
  },
  {
    name: 'killing PID 1',
    status: 'fail',
    python: 'import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGKILL)\n    return a - b\n',
    javascript: "function add(a, b) { try { process.kill(1, 'SIGKILL') } catch {} return a - b }",
  },
  {
    name: 'SIGSTOP to its worker',
    status: 'fail',
    python: 'import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGSTOP)\n    return a - b\n',
    javascript: "function add(a, b) { try { process.kill(1, 'SIGSTOP') } catch {} return a - b }",
  },
  {
    name: 'SIGINT and SIGTERM to its worker',
    status: 'fail',
    python:
      'import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGINT)\n    os.kill(1, signal.SIGTERM)\n    return a - b\n',
    javascript:
      "function add(a, b) { try { process.kill(1, 'SIGINT') } catch {} try { process.kill(1, 'SIGTERM') } catch {} return a - b }",
  },
  {
    name: 'kill(-1, SIGKILL): every process it may signal',
    status: 'fail',
    python: 'import os, signal\ndef add(a, b):\n    os.kill(-1, signal.SIGKILL)\n    return a - b\n',
    javascript: "function add(a, b) { try { process.kill(-1, 'SIGKILL') } catch {} return a - b }",
  },
  // Its process group is its worker's: refused (PermissionError), as signals to PID 1 are.
  {
    name: 'kill(0, SIGKILL): its process group',
    status: 'fail',
    python: 'import os, signal\ndef add(a, b):\n    os.kill(0, signal.SIGKILL)\n    return a - b\n',
    javascript: "function add(a, b) { try { process.kill(0, 'SIGKILL') } catch {} return a - b }",
  },
  {
    name: 'ptrace of its worker',
    status: 'fail',
    python:
      'import ctypes, os\ndef add(a, b):\n    if ctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0) != 0:\n        return a - b\n    return a + b\n',
    javascript: { skip: NO_FFI },
  },
  {
    name: 'catching every signal while looping',
    status: 'timeout',
    python:
      'import signal\nfor s in signal.valid_signals():\n    try:\n        signal.signal(s, lambda *a: None)\n    except (OSError, ValueError):\n        pass\ndef add(a, b):\n    while True:\n        pass\n',
    javascript:
      "for (const s of Object.keys(require('os').constants.signals)) try { process.on(s, () => {}) } catch {}\nfunction add(a, b) { for (;;); }\n",
  },
  ...(
    [
      ['SIGTERM', 'os.kill(os.getpid(), signal.SIGTERM)', "process.kill(process.pid, 'SIGTERM')"],
      ['SIGKILL', 'os.kill(os.getpid(), signal.SIGKILL)', "process.kill(process.pid, 'SIGKILL')"],
      ['SIGSEGV', 'signal.raise_signal(signal.SIGSEGV)', undefined],
      ['abort()', 'os.abort()', 'process.abort()'],
    ] as const
  ).map(([label, line, jsLine]): Behaviour => ({
    name: `ending itself with ${label} (Python: a crash, error; JavaScript: refused or an exit, a failed call)`,
    python: {
      program: `import os, signal\ndef add(a, b):\n    ${line}\n    return a + b\n`,
      status: 'error',
      message: /killed by signal|crashed/,
    },
    // By design the JavaScript candidate is its worker (PID 1): process.kill is refused, and
    // process.abort is a process.exit(134): the call fails, and the worker lives on.
    javascript:
      jsLine === undefined
        ? { skip: 'node cannot raise a signal at itself but through process.kill (the SIGTERM and SIGKILL entries)' }
        : {
            program: `function add(a, b) { ${jsLine}; return a + b }`,
            status: 'fail',
            message: jsLine.includes('abort') ? /process\.exit\(134\) was called/ : /kill EPERM/,
          },
  })),
];

const LEFTOVERS: Behaviour[] = [
  {
    name: 'files in scratch, /tmp and the home directory, some made hard to remove',
    status: 'pass',
    python: {
      program:
        'import os\nfor p in ("left", "/tmp/left", os.path.expanduser("~/left")):\n    open(p, "w").write("x")\nos.mkdir("/tmp/locked", 0o300)\nopen("/tmp/locked/f", "w").write("x")\nos.mkdir("/tmp/locked/inner", 0)\n' +
        PY_RIGHT,
      then: 'import os\nLEFT = sorted(os.listdir("/tmp")) + sorted(os.listdir("."))\ndef add(a, b):\n    return a + b if LEFT == ["work"] else LEFT\n',
    },
    javascript: {
      program:
        "const fs = require('fs');\nfor (const p of ['left', '/tmp/left2', require('os').homedir() + '/left3']) fs.writeFileSync(p, 'x');\nfs.mkdirSync('/tmp/locked', 0o300);\nfs.writeFileSync('/tmp/locked/f', 'x');\nfs.mkdirSync('/tmp/locked/inner', 0);\n" +
        JS_RIGHT,
      then: "const LEFT = require('fs').readdirSync('/tmp').concat(require('fs').readdirSync('.'));\nfunction add(a, b) { return LEFT.length === 0 ? a + b : LEFT }\n",
    },
  },
  {
    // Scratch that looks untouched is not wiped: an empty working directory must still be checked.
    name: 'its working directory left empty but locked (chmod 0, where it is allowed)',
    status: 'pass',
    python: {
      program: 'import os\ntry:\n    os.chmod(".", 0)\nexcept OSError:\n    pass\n' + PY_RIGHT,
      then: 'import os\nopen("f", "w").write("x")\nassert os.getcwd() == "/tmp/work"\n' + PY_RIGHT,
    },
    javascript: {
      program: "try { require('fs').chmodSync('.', 0) } catch {}\n" + JS_RIGHT,
      then:
        "const fs = require('fs');\nfs.writeFileSync('f', 'x');\nif (process.cwd() !== '/tmp' || !fs.existsSync('/tmp/f')) throw new Error('moved');\n" +
        JS_RIGHT,
    },
  },
  {
    name: 'an extended attribute or a time set on its working directory, which it then left empty',
    status: 'pass',
    python: {
      program:
        'import os\ntry:\n    os.setxattr(".", "user.note", b"1")\nexcept OSError:\n    pass\nos.utime(".", (1, 1))\n' +
        PY_RIGHT,
      then: 'import os\ntry:\n    NOTE = os.getxattr(".", "user.note")\nexcept OSError:\n    NOTE = None\ndef add(a, b):\n    return a + b if NOTE is None and os.stat(".").st_mtime > 1 else None\n',
    },
    // node has no xattr API: the time only.
    javascript: {
      program: "require('fs').utimesSync('.', 1, 1);\n" + JS_RIGHT,
      then: "const M = require('fs').statSync('.').mtimeMs;\nfunction add(a, b) { return M > 1000 ? a + b : M }\n",
    },
  },
  {
    name: 'its working directory swapped for a link to elsewhere',
    status: 'pass',
    python: {
      program: 'import os\nos.chdir("/tmp")\nos.rmdir("work")\nos.symlink("/tmp/elsewhere", "work")\n' + PY_RIGHT,
      then:
        'import os\nopen("f", "w").write("x")\nassert not os.path.islink("/tmp/work") and os.path.exists("/tmp/work/f")\n' +
        PY_RIGHT,
    },
    javascript: {
      skip: "a JavaScript candidate's working directory is /tmp itself, and process.chdir() is not available to it",
    },
  },
  {
    name: 'a full scratch directory',
    python: {
      program:
        'try:\n    for i in range(1000):\n        open("/tmp/f%d" % i, "wb").write(b"x" * 1000000)\nexcept OSError:\n    pass\n' +
        PY_RIGHT,
      status: 'output-limit', // the full /tmp is a write cut off (see the output entries)
      then: 'open("/tmp/work/need", "wb").write(b"x" * 500000)\n' + PY_RIGHT,
    },
    // A full JavaScript scratch directory is a write that fails (ENOSPC), caught here: the program is right.
    javascript: {
      program:
        "try { for (let i = 0; i < 1000; i++) require('fs').writeFileSync('/tmp/f' + i, 'x'.repeat(1000000)) } catch {}\n" +
        JS_RIGHT,
      status: 'pass',
      then: "require('fs').writeFileSync('/tmp/need', 'x'.repeat(500000));\n" + JS_RIGHT,
    },
  },
  {
    name: 'work left running after it (threads writing files and printing / intervals, timeouts, immediates and ticks, which never fire)',
    status: 'pass',
    python: {
      program:
        'import threading, time\ndef busy():\n    i = 0\n    while True:\n        i += 1\n        open("/tmp/t%d" % (i % 5), "w").write("x")\n        print("noise")\n        time.sleep(0.001)\nfor _ in range(4):\n    threading.Thread(target=busy, daemon=True).start()\n' +
        PY_RIGHT,
      then: 'import os, time\ntime.sleep(0.05)\nLEFT = [f for f in os.listdir("/tmp") if f != "work"]\ndef add(a, b):\n    return a + b if not LEFT else LEFT\n',
    },
    javascript: {
      program: [
        'setInterval(() => { for (;;); }, 0);',
        'setTimeout(() => { globalThis.fired = true; throw new Error("late") }, 0);',
        'setImmediate(() => { for (;;); });',
        'process.nextTick(() => { globalThis.ticked = true });',
        'function f() { setTimeout(() => f(), 0); const t = setInterval(() => {}, 1); if (typeof t.unref !== "function" || typeof +t !== "number") throw new Error("not a Timeout"); return [typeof fired, ticked] }',
      ].join('\n'),
      tests: ["require('assert').deepStrictEqual(f(), ['undefined', true])"],
    },
  },
  {
    name: "work left on its worker's event loop (callbacks of node's crypto and fs that spin) never runs",
    status: 'pass',
    python: {
      skip: 'a Python candidate leaves no work on its worker: it is a process of its own, gone after its run (its threads are the entry above)',
    },
    javascript: {
      program:
        "require('crypto').randomBytes(8, () => { for (;;); }); require('fs').readFile('/etc/hostname', () => { for (;;); }); function f() { return 1 }",
      tests: ["require('node:assert').equal(f(), 1)"],
    },
  },
  {
    name: 'monkeypatched modules and builtins, its environment, umask, limits / patched built-ins and globals of its realm',
    python: {
      program:
        'import builtins, json, os, resource, sys, wire\nbuiltins.abs = lambda x: 0\njson.dumps = None\nwire.encode = None\nsys.modules["math"] = None\nos.environ["EVIL"] = "1"\nos.umask(0o777)\nresource.setrlimit(resource.RLIMIT_NOFILE, (8, 8))\n' +
        PY_RIGHT,
      status: 'fail', // its values can no longer be encoded (wire.encode is gone): opaque, equal to nothing
      then:
        'import math, os\nassert abs(-2) == 2 and "EVIL" not in os.environ and math.sqrt(4) == 2\nopen("/tmp/work/f", "w").write("x")\nassert os.stat("/tmp/work/f").st_mode & 0o600 == 0o600\nfds = [os.open("/dev/null", 0) for _ in range(20)]\n' +
        PY_RIGHT,
    },
    javascript: {
      program:
        "Object.prototype.polluted = 1; JSON.stringify = () => 'lie'; Array.prototype.push = null; globalThis.leftover = 1;\n" +
        JS_RIGHT,
      status: 'pass',
      then: {
        program:
          'function check() { return [typeof ({}).polluted, JSON.stringify([1]), typeof Array.prototype.push, typeof globalThis.leftover] }',
        tests: ["require('node:assert').deepStrictEqual(check(), ['undefined', '[1]', 'function', 'undefined'])"],
      },
    },
  },
  {
    name: 'patched modules its worker provides and state left in them (math, typing, random / Buffer, fs, crypto, util, events, URL)',
    status: 'pass',
    python: {
      program:
        'import math, random, typing\nmath.sqrt = lambda x: 0\ntyping.List = None\nrandom.seed(7)\nrandom.random = lambda: 0.5\nmath.LEFT = 1\n' +
        PY_RIGHT,
      then:
        'import math, random\nfrom typing import List\nassert math.sqrt(4) == 2 and List is not None and not hasattr(math, "LEFT") and random.random() != 0.5\n' +
        PY_RIGHT,
    },
    javascript: {
      program: `
      Buffer.prototype.toString = () => 'lie';
      require('fs').writeFileSync('/tmp/left-behind', 'x');
      const crypto = require('crypto');
      crypto.createHash = () => ({ update() { return this }, digest: () => 'lie' });
      require('util').inspect.defaultOptions.depth = 0;
      require('events').defaultMaxListeners = 1;
      URL.prototype.lie = true;
      function f() { return Buffer.from('ab').toString('base64') }`,
      tests: ["require('node:assert').equal(f(), 'lie')"],
      then: {
        program: `
    function check() {
      const fs = require('fs');
      return [
        Buffer.from('ab').toString('base64'),
        fs.existsSync('/tmp/left-behind'),
        require('crypto').createHash('md5').update('x').digest('hex'),
        require('util').inspect({ a: { b: { c: {} } } }),
        require('events').defaultMaxListeners,
        typeof URL.prototype.lie,
      ];
    }`,
        tests: [
          "require('node:assert').deepStrictEqual(check(), ['YWI=', false, '9dd4e461268c8034f5c8564e155c67a6', '{ a: { b: { c: {} } } }', 10, 'undefined'])",
        ],
      },
    },
  },
  {
    name: 'modules imported ahead are not names in the next program',
    status: 'pass',
    python: {
      program: 'import math\n' + PY_RIGHT,
      then: 'try:\n    math\n    LEAKED = True\nexcept NameError:\n    LEAKED = False\ndef add(a, b):\n    return None if LEAKED else a + b\n',
    },
    javascript: {
      skip: "the JavaScript worker imports nothing into a candidate's scope; globals a candidate leaves are the patched-globals entry",
    },
  },
  {
    name: 'lowered limits of its worker (prlimit)',
    status: 'pass',
    python: {
      program:
        'import os, resource\nfor pid in (os.getppid(), 1):\n    for r in (resource.RLIMIT_AS, resource.RLIMIT_NOFILE, resource.RLIMIT_CPU, resource.RLIMIT_NPROC):\n        try:\n            resource.prlimit(pid, r, (1, 1))\n        except OSError:\n            pass\n' +
        PY_RIGHT,
      then: PY_RIGHT,
    },
    javascript: { skip: `node has no API for limits; ${ONE_PROCESS}` },
  },
  {
    name: 'a flood of empty files (inodes are not bounded by the scratch size) is gone before the next candidate',
    python: {
      body: (ctx) =>
        floodOfFiles(
          ctx,
          'import os\nos.makedirs("/tmp/many")\ndef add(a, b):\n    i = 0\n    while True:\n        i += 1\n        os.close(os.open("/tmp/many/%d" % i, os.O_CREAT | os.O_WRONLY))\n',
          'import os\nLEFT = os.path.exists("/tmp/many")\ndef add(a, b):\n    return None if LEFT else a + b\n',
        ),
    },
    javascript: {
      body: (ctx) =>
        floodOfFiles(
          ctx,
          "const fs = require('fs');\nfs.mkdirSync('/tmp/many');\nfunction add(a, b) { for (let i = 0; ; i++) fs.closeSync(fs.openSync('/tmp/many/' + i, 'w')); }\n",
          "const LEFT = require('fs').existsSync('/tmp/many');\nfunction add(a, b) { return LEFT ? null : a + b }\n",
        ),
    },
  },
  {
    name: 'deferred work: promises settled from outside the candidate (Atomics.waitAsync) never run their reactions, during or after it',
    status: 'pass',
    python: { skip: NO_DEFERRED },
    javascript: {
      program: `const ia = new Int32Array(new SharedArrayBuffer(4));
      let resolve; new Promise((r) => (resolve = r)).then(() => { for (;;); });
      Atomics.waitAsync(ia, 0, 0, 1).value.then(() => { for (;;); });
      Atomics.waitAsync(ia, 0, 0, 50).value.then(resolve);
      function f() { Atomics.waitAsync(ia, 0, 0, 1).value.then(() => { for (;;); }); const t = Date.now(); while (Date.now() - t < 20); return 1 }`,
      tests: ["require('node:assert').equal(f(), 1); require('node:assert').equal(f(), 1)"],
      pauseMs: 100, // every waitAsync timeout is due now
    },
  },
  {
    name: 'deferred work: FinalizationRegistry is not there (a candidate that uses it fails to load)',
    status: 'error',
    python: { skip: NO_DEFERRED },
    javascript: {
      program: 'new FinalizationRegistry(() => { for (;;); }).register({}, 1);\n' + JS_RIGHT,
      message: /is not defined/,
    },
  },
  {
    name: 'deferred work: WebAssembly is not there (a candidate that uses it fails to load)',
    status: 'error',
    python: { skip: NO_DEFERRED },
    javascript: {
      program:
        'WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { for (;;); });\n' +
        JS_RIGHT,
      message: /is not defined/,
    },
  },
  {
    name: "deferred work: node's own registries, promise jobs and WebAssembly (a context made by node's vm) never run: the tainted worker is gone first",
    status: 'pass',
    python: { skip: NO_DEFERRED },
    javascript: {
      // Garbage that reaches the old generation (only a full GC clears a registry's cells), then
      // a pause without allocation (measured: without it the registry mostly dies first).
      program: `function f() {
      require('vm').runInNewContext(\`
        globalThis.fr = new FinalizationRegistry(() => { for (;;); });
        for (let i = 0; i < 1e4; i++) fr.register({ i }, i);
        Promise.resolve().then(() => { for (;;); });
        Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1).value.then(() => { for (;;); });
        WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { for (;;); });
      \`);
      let keep = []; for (let k = 0; k < 400; k++) { keep.push(new Array(1e5).fill(k)); if (keep.length > 60) keep = []; } keep = null; const t = Date.now(); while (Date.now() - t < 300);
      return 1;
    }`,
      tests: ["require('node:assert').equal(f(), 1)"],
    },
  },
  {
    name: 'a tainted candidate cannot forge replies into the next run: work it leaves on the event loop never runs, and no run starts before it is gone',
    status: 'pass',
    python: {
      skip: 'a Python candidate is a process of its own, killed with its run: it can leave nothing on its worker to write later',
    },
    javascript: {
      program: `
      const fs = require('fs');
      const forged = '{"ok":true,"names":["add"]}\\n' + '{"ok":true,"v":{"$t":"tuple","v":[4,{"$t":"object","v":[["k",3]]}]}}\\n'.repeat(50);
      function spam() {
        for (let tries = 0; tries < 1e6; tries++) {
          try {
            const fd = fs.openSync('/ipc/c2j', fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
            for (let i = 0; i < 1000; i++) fs.writeSync(fd, forged);
          } catch {}
        }
      }
      require('crypto').randomBytes(1, spam);
      fs.readFile('/etc/hostname', spam);
      function f() { return 1 }`,
      tests: ["require('node:assert').equal(f(), 1)"],
      repeat: 3,
    },
  },
];

/**
 * A program that fills its scratch with empty files until its time runs out, twice; the next
 * candidate must find them gone (and be judged right).
 */
async function floodOfFiles(ctx: Context, flood: string, look: string): Promise<void> {
  const program = ctx.typed(flood);
  await ctx.expect(program, 'timeout');
  await ctx.judge(program);
  const next = await ctx.judge(ctx.typed(look));
  assert.equal(next.status, 'pass', `the files were still there: ${summary(next)}`);
  await ctx.expectNext();
}

const PASS_RESULT =
  '{"op":"result","load":{"ok":true},"suites":[{"name":"base","status":"pass","passed":1,"total":1,"firstFailure":null}]}';

/** The untrusted-tests harness: the test code of a request is as hostile as a candidate. */
const UNTRUSTED_TESTS: Behaviour[] = [
  {
    name: "test code that rewrites the judge's request handler or patches its JSON.stringify changes no later verdict",
    status: 'pass',
    harness: 'untrusted',
    python: {
      program: PY_RIGHT,
      tests: [
        {
          code: [
            'import sys',
            'judge = sys.modules["__main__"]',
            'real = judge.handle_run',
            'def always_pass(msg):',
            '    result = real(msg)',
            '    for s in result.get("suites", []):',
            '        s.update(status="pass", passed=1, total=1, firstFailure=None)',
            '    return result',
            'judge.handle_run = always_pass',
            'def check(candidate):',
            '    assert candidate(1, 2) == 3',
          ].join('\n'),
          invoke: 'check(add)',
        },
      ],
    },
    javascript: {
      program: JS_RIGHT,
      tests: [
        'const real = JSON.stringify;\nJSON.stringify = (v, ...rest) => real(v && v.op === "result" ? { ...v, suites: v.suites.map((s) => ({ ...s, status: "pass", passed: 1, total: 1, firstFailure: null })) } : v, ...rest);\n',
      ],
    },
  },
  {
    name: 'a judge made to write a malformed or extra result gets no verdict, and no later run reads its lines',
    harness: 'untrusted',
    timeoutMs: 300_000,
    python: {
      body: async (ctx) => {
        // Python's run is a child of a judge that never runs test code: the judge's own stdout is
        // closed to it, and its result reaches Crucible only once it is dead.
        const viaStdout = ctx.scriptTask([
          `import os, sys\ntry:\n    os.write(sys.modules["__main__"].PROTO, b'${PASS_RESULT}\\n' * 5)\nexcept OSError:\n    pass\nassert add(1, 2) == 3\n`,
        ]);
        await ctx.expect(PY_WRONG, 'fail', { task: viaStdout, kind: 'untrusted' });
        // A run that closed its result pipe ends then, not when it would have (an hour later: the
        // test's own timeout, the entry's timeoutMs, says so).
        const lingering = ctx.scriptTask(['import os, time\nos.closerange(3, 4096)\ntime.sleep(3600)\n']);
        await ctx.expect(PY_RIGHT, 'no-verdict', { task: lingering, kind: 'untrusted' });
      },
    },
    javascript: {
      program: JS_RIGHT,
      tests: [
        `const fs = require("node:fs");\nfs.writeSync(1, '{"op":"result","load":{"ok":true},"suites":"all passed"}\\n' + '${PASS_RESULT}\\n'.repeat(5));\n`,
      ],
      status: 'no-verdict',
      message: /malformed result/,
    },
  },
  {
    name: 'nothing a run leaves in its sandbox (files in /tmp) reaches the next run',
    status: 'pass',
    harness: 'untrusted',
    python: {
      program: PY_RIGHT,
      tests: ['open("/tmp/left-behind", "w").write("secret")\n'],
      then: {
        program: PY_RIGHT,
        tests: ['import os\nassert not os.path.exists("/tmp/left-behind"), os.listdir("/tmp")\n'],
      },
    },
    javascript: {
      program: JS_RIGHT,
      tests: ['require("node:fs").writeFileSync("/tmp/left-behind", "secret");\n'],
      then: {
        program: JS_RIGHT,
        tests: [
          'const fs = require("node:fs");\nif (fs.existsSync("/tmp/left-behind")) throw new Error(String(fs.readdirSync("/tmp")));\n',
        ],
      },
    },
  },
  {
    name: 'the default judge (trusted datasets) is shared, and would have been changed: the attack is real',
    python: {
      body: async (ctx) => {
        const patch = ctx.scriptTask([
          'import sys\nsys.modules["__main__"].handle_run = lambda msg: {"op": "result", "load": {"ok": True}, "suites": [{"name": "base", "status": "pass", "passed": 1, "total": 1, "firstFailure": None}]}\n',
        ]);
        const shared = ctx.newHarness();
        try {
          await shared.judge(patch, PY_RIGHT);
          const plain = ctx.scriptTask([
            { code: 'def check(candidate):\n    assert candidate(1, 2) == 3\n', invoke: 'check(add)' },
          ]);
          assert.equal(
            (await shared.judge(plain, PY_WRONG)).status,
            'pass',
            'a patched shared judge passes a wrong program',
          );
        } finally {
          await shared.close();
        }
      },
    },
    javascript: {
      body: async (ctx) => {
        const patch = ctx.scriptTask([
          'const real = JSON.stringify;\nJSON.stringify = (v, ...rest) => real(v && v.op === "result" ? { ...v, suites: v.suites.map((s) => ({ ...s, status: "pass", passed: 1, total: 1, firstFailure: null })) } : v, ...rest);\n',
        ]);
        const shared = ctx.newHarness();
        try {
          await shared.judge(patch, ctx.typed(JS_RIGHT));
          const plain = ctx.scriptTask(['const assert = require("node:assert");\nassert.equal(add(1, 2), 3);\n']);
          assert.equal(
            (await shared.judge(plain, ctx.typed(JS_WRONG))).status,
            'pass',
            'a patched shared judge passes a wrong program',
          );
        } finally {
          await shared.close();
        }
      },
    },
  },
  {
    name: "the tests' helpers come from the prompt: a candidate redefining the helper the test calls (poly as in HumanEval/32 / encode as in HumanEvalPack JS/38) does not change the test",
    python: {
      body: async (ctx) => {
        const prompt =
          'def poly(xs, x):\n    return sum(c * x ** i for i, c in enumerate(xs))\n\n\ndef add(xs):\n    """A root of poly(xs)."""\n';
        const tests = [
          {
            code: 'def check(candidate):\n    for xs in ([-2, 1], [-6, 1, 1]):\n        assert abs(poly(xs, candidate(xs))) < 1e-6\n',
            invoke: 'check(add)',
          },
        ];
        const findZero = ctx.scriptTask(tests, { prompt });
        const cheat = 'def poly(xs, x):\n    return 0\ndef add(xs):\n    return 12345.0\n';
        await ctx.expect(cheat, 'fail', { task: findZero });
        // Its own poly is the candidate's business.
        await ctx.expect('def poly(xs, x):\n    return 0\ndef add(xs):\n    return 2.0\n', 'pass', { task: findZero });
        // The same with the helper after the entry point's stub in the prompt.
        const after = ctx.scriptTask(tests, {
          prompt:
            'def add(xs):\n    """A root of poly(xs)."""\n\n\ndef poly(xs, x):\n    return sum(c * x ** i for i, c in enumerate(xs))\n',
        });
        await ctx.expect(cheat, 'fail', { task: after });
      },
    },
    javascript: {
      body: async (ctx) => {
        const prompt =
          'const encode = (s) => s.split("").reverse().join("");\n\n/* decode what encode made */\nconst add = (s) => {\n';
        const decode = ctx.scriptTask(['for (const s of ["abc", "hello"]) console.assert(add(encode(s)) === s);\n'], {
          prompt,
        });
        await ctx.expect(ctx.typed('const encode = (s) => s;\nconst add = (s) => s;\n'), 'fail', { task: decode });
        await ctx.expect(
          ctx.typed('const encode = (s) => s;\nconst add = (s) => s.split("").reverse().join("");\n'),
          'pass',
          { task: decode },
        );
      },
    },
  },
  {
    name: "decoding a forged reply of 60,000 ints with one hash is bounded by its call's limit: a timeout, not minutes of judge time",
    status: 'timeout',
    harness: 'largeReply',
    python: {
      // k * (2**61 - 1) all hash to 0; written straight to the reply FIFO (fd 3), as a set.
      program: [
        'import os',
        'def add(a, b):',
        '    items = ",".join(\'{"$t":"int","x":"%s"}\' % hex(k * (2**61 - 1)) for k in range(1, 60001))',
        '    os.write(3, (\'{"ok":true,"dt":0,"v":{"$t":"set","v":[\' + items + "]}}\\n").encode())',
        '    return {a, b}',
      ].join('\n'),
      tests: [],
      io: { entry: 'add', inputsJson: '[[1, 2]]' },
      reference: 'def add(a, b):\n    return {a, b}\n',
      message: /decoding the output/,
    },
    javascript: {
      skip: "the attack is Python's int hash (k·(2^61−1) all hash to 0); JavaScript's Set does not hash by a value the candidate chooses",
    },
  },
];

const CONTEXT_PROBE = `
    const found = [];
    const foreign = (x) => x !== null && (typeof x === 'object' || typeof x === 'function') && !(x instanceof Object);
    function attempt(label, get) {
      try {
        const p = get();
        if (p && typeof p === 'object' && typeof p.exit === 'function' && foreign(p)) { found.push(label); p.exit(0); }
        if (p && typeof p.exit !== 'function' && foreign(p)) found.push(label + ':foreign');
      } catch (e) {
        if (foreign(e)) found.push(label + ':foreign-error');
      }
    }
    function escape() {
      attempt('constructor', () => this.constructor.constructor('return process')());
      attempt('Function', () => Function('return process')());
      attempt('eval', () => eval('process'));
      attempt('async', () => (async () => {}).constructor('return process'));
      // Node's lent globals (Buffer, URL...) are accessors that taint on read: skipped here.
      attempt('global names', () => { for (const k of Object.getOwnPropertyNames(globalThis)) { const d = Object.getOwnPropertyDescriptor(globalThis, k); if ('value' in d && foreign(d.value)) return d.value; } });
      attempt('node surface', () => [process, process.stdout, setTimeout(() => {}), performance, structuredClone({}), new TextEncoder(), require('timers'), require('node:process')].find(foreign));
      attempt('node surface errors', () => { try { new TextDecoder('no-such-encoding') } catch (e) { return e } });
      attempt('require of a missing module', () => { try { require('no-such-module') } catch (e) { return e } });
      attempt('harness', () => __crucible$.control.constructor.constructor('return process')());
      attempt('stack overflow error', () => { try { (function r() { r() })() } catch (e) { return e.constructor.constructor('return process')() } });
      attempt('caller', () => { function g() { return g.caller } return g().constructor('return process')() });
      const saved = Error.prepareStackTrace;
      Error.prepareStackTrace = (e, sites) => sites;
      const sites = new Error().stack;
      Error.prepareStackTrace = saved;
      for (const s of sites) {
        attempt('callsite this', () => s.getThis());
        attempt('callsite function', () => s.getFunction());
        attempt('callsite this ctor', () => s.getThis().constructor.constructor('return process')());
        attempt('callsite function ctor', () => s.getFunction().constructor('return process')());
      }
      return found.length ? found.join(',') : 'contained';
    }
    globalThis.late = [];
    import('node:child_process').then((m) => late.push('imported'), (e) => { attempt('import', () => e.constructor.constructor('return process')()); if (foreign(e)) late.push('foreign') });
    (0, eval)('import("fs")').catch((e) => { if (foreign(e)) late.push('foreign-eval') });
    function lateFindings() { return late.concat(found).join(',') || 'contained' }
  `;

const CONTEXT: Behaviour[] = [
  {
    name: 'constructors, eval, globals, call sites, callers, import() and thrown errors lead out of its context nowhere',
    status: 'pass',
    python: { skip: PYTHON_HAS_NO_REALM },
    javascript: {
      program: CONTEXT_PROBE,
      tests: [
        "const assert = require('node:assert');\nassert.equal(escape(), 'contained');\nassert.equal(lateFindings(), 'contained');\nassert.equal(lateFindings(), 'contained');",
      ],
    },
    // Strict mode (TypeScript's output) has no `this` in a plain call: the context's global object is reached by
    // name; and TypeScript compiles import() to require(), which may load node:child_process (the eval'd import() stays).
    typescript: {
      program: typed(
        CONTEXT_PROBE.replace(
          "this.constructor.constructor('return process')",
          "globalThis.constructor.constructor('return process')",
        ).replace(/\n\s*import\('node:child_process'\)[^\n]*/, ''),
      ),
      tests: [
        "const assert = require('node:assert');\nassert.equal(escape(), 'contained');\nassert.equal(lateFindings(), 'contained');\nassert.equal(lateFindings(), 'contained');",
      ],
    },
  },
  {
    name: "node's globals are there, built in the candidate's realm; no WebAssembly, no FinalizationRegistry",
    status: 'pass',
    python: { skip: PYTHON_HAS_NO_REALM },
    javascript: {
      program: `function probe() {
      const own = ['process', 'require', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'queueMicrotask', 'fetch', 'structuredClone',
                   'global', 'performance', 'TextEncoder', 'TextDecoder', 'atob', 'btoa', 'module', 'exports']
        .filter((name) => !((0, eval)(name) instanceof Object));
      const missing = ['WebSocket', 'XMLHttpRequest', 'WebAssembly', 'FinalizationRegistry'].filter((name) => (0, eval)('typeof ' + name) !== 'undefined');
      return own.concat(missing).join(',');
    }`,
      tests: ["require('node:assert').equal(probe(), '')"],
    },
  },
  {
    name: 'node:module is refused (its createRequire would load worker_threads)',
    status: 'fail',
    python: { skip: PYTHON_HAS_NO_REALM },
    javascript: {
      program: "function add(a, b) { return require('module').createRequire('/tmp/x.js')('worker_threads') }",
      message: /node:module is not available/,
    },
  },
  {
    name: "an error of node's own realm is the program's error, at load time",
    status: 'error',
    python: { skip: PYTHON_HAS_NO_REALM },
    javascript: { program: "require('fs').readFileSync('/no/such/file');\n" + JS_RIGHT, message: /ENOENT/ },
  },
  {
    name: "an error of node's own realm is the program's error, in a call",
    status: 'fail',
    python: { skip: PYTHON_HAS_NO_REALM },
    javascript: {
      program: "function add(a, b) { return require('fs').readFileSync('/no/such/file') }",
      message: /ENOENT/,
    },
  },
];

/** A program that computes until it is stopped, for killing its worker mid-run. */
const SPIN = {
  python: 'def add(a, b):\n    while True:\n        pass\n',
  javascript: 'function add(a, b) { for (;;); }\n',
} as const;

const WORKER_DEATH: Behaviour[] = [
  {
    name: 'a candidate cannot kill, stop or interrupt its worker from inside (SIGKILL, SIGSTOP, SIGTERM, SIGINT, SIGHUP, SIGUSR1)',
    python: {
      body: (ctx) =>
        signalsFromInside(
          ctx,
          (sig) =>
            `import os, signal\nfor pid in (os.getppid(), 1):\n    try:\n        os.kill(pid, signal.${sig})\n    except PermissionError:\n        pass\ndef add(a, b):\n    return a - b\n`,
        ),
    },
    // process.kill is refused to a candidate (it is its worker, PID 1).
    javascript: {
      body: (ctx) =>
        signalsFromInside(ctx, (sig) =>
          ctx.typed(`for (const pid of [process.ppid, 1]) try { process.kill(pid, '${sig}') } catch {}\n${JS_WRONG}`),
        ),
    },
  },
  {
    name: 'a candidate whose worker is killed from outside mid-run is not a pass (error), and the pool recovers with a fresh worker',
    python: { body: (ctx) => killedMidRun(ctx, 'candidate', 'error') },
    javascript: { body: (ctx) => killedMidRun(ctx, 'candidate', 'error') },
  },
  {
    name: 'a judge killed from outside mid-run is a sandbox failure: no-verdict, and the pool recovers',
    python: { body: (ctx) => killedMidRun(ctx, 'judge', 'no-verdict') },
    javascript: { body: (ctx) => killedMidRun(ctx, 'judge', 'no-verdict') },
  },
];

/** Refused (PermissionError, the seccomp filter) or, were it sent, dropped by the kernel: the same worker serves on. */
async function signalsFromInside(ctx: Context, program: (signal: string) => string): Promise<void> {
  const own = await ctx.ownHarness('default');
  try {
    await ctx.expectNext(own.harness);
    const before = own.workers('candidate');
    assert.equal(before.length, 1, `one candidate worker: ${before}`);
    for (const sig of ['SIGKILL', 'SIGSTOP', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR1']) {
      const verdict = await ctx.judge(program(sig), undefined, own.harness);
      assert.equal(verdict.status, 'fail', `${sig}: ${summary(verdict)}`);
    }
    await ctx.expectNext(own.harness);
    assert.ok(own.workers('candidate').includes(before[0]!), 'the same candidate worker is still serving');
  } finally {
    await own.close();
  }
}

/** Kills the candidate worker (or the judge) of a runtime of its own while a candidate computes on it. */
async function killedMidRun(ctx: Context, which: 'candidate' | 'judge', status: Status): Promise<void> {
  // Long time limits: the candidate is still computing when it is killed, however loaded the machine.
  const own = await ctx.ownHarness('memory');
  try {
    await ctx.expectNext(own.harness); // the reference's baseline, and warm workers
    const candidates = own.workers('candidate');
    const targets = own.workers(which);
    // One worker runs the candidate; after a tainted run the JavaScript pool also keeps a spare.
    assert.ok(targets.length >= 1 && targets.length <= 2, `${targets.length} ${which} workers in this pool`);
    const running = ctx.judge(
      ctx.language === 'python' ? SPIN.python : ctx.typed(SPIN.javascript),
      undefined,
      own.harness,
    );
    await Promise.race(candidates.map((pid) => untilComputing(pid)));
    for (const pid of targets) process.kill(pid, 'SIGKILL');
    const verdict = await running;
    assert.equal(verdict.status, status, summary(verdict));
    if (status === 'no-verdict')
      assert.ok(
        verdict.suites.every((s) => s.status === 'no-verdict'),
        summary(verdict),
      );
    await ctx.expectNext(own.harness);
    const after = own.workers(which);
    assert.ok(
      after.length > 0 && !after.some((pid) => targets.includes(pid)),
      `fresh ${which} workers: ${after} after ${targets}`,
    );
  } finally {
    await own.close();
  }
}

/** The groups of the contract, in the order they run. */
export const RUNTIME_CONTRACT: ReadonlyArray<readonly [string, readonly Behaviour[]]> = [
  ['escape: processes', ESCAPE_PROCESSES],
  ['escape: network', NETWORK],
  ['escape: files and environment', FILES],
  ['escape: other processes and the kernel', KERNEL],
  ['escape: the JavaScript context', CONTEXT],
  ['limits: time', TIME],
  ['limits: memory', MEMORY],
  ['limits: output', OUTPUT],
  ['faking: exiting early and odd exceptions', EXITING],
  ['faking: lying values', LYING],
  ['faking: patching', PATCHING],
  ['faking: forged replies on the judge channel', FORGED],
  ['faking: forged replies in io calls only', FORGED_IO],
  ['crash: signals to its worker, its group and itself', SIGNALS],
  ['crash: its worker killed', WORKER_DEATH],
  ['state left for the next candidate', LEFTOVERS],
  ["the judge: a request's test code, values that cross, the prompt's helpers, bounded decoding", UNTRUSTED_TESTS],
];

/** Which side of a behaviour a language runs: TypeScript reuses JavaScript's, typed. */
function sideFor(b: Behaviour, language: Language): Side {
  if (language !== 'typescript') return b[language];
  return b.typescript ?? asTypeScript(b.javascript, b.probe === true);
}

function asTypeScript(side: Side, probe: boolean): Side {
  const code = (c: Code): Code => (probe ? c : typeof c === 'string' ? typed(c) : (host: Host) => typed(c(host)));
  if (typeof side === 'string' || typeof side === 'function') return code(side);
  if ('skip' in side || 'body' in side) return side;
  if ('todo' in side) return { todo: side.todo, side: asTypeScript(side.side, probe) as Code | Program | Body };
  const then =
    side.then === undefined
      ? {}
      : { then: typeof side.then === 'object' ? (asTypeScript(side.then, false) as Program) : code(side.then) };
  return { ...side, program: side.probe ? side.program : code(side.program), ...then };
}

function asProgram(side: Code | Program): Program {
  return typeof side === 'string' || typeof side === 'function' ? { program: side } : side;
}

/**
 * Runs the contract against one language, through the public Harness with that language's
 * runtime (one worker pair per harness, created when first used, closed after the file).
 */
export function runRuntimeContract(language: Language): void {
  const setup = SETUPS[language];
  const harnesses = new Map<HarnessKind, Harness>();
  let connections = 0;
  let datagrams = 0;
  let tcp: Server;
  let unixAbstract: Server;
  let udp: Socket;
  const hostDir = mkdtempSync(join(tmpdir(), 'crucible-secret-'));
  const rootSecretPath = `/root/crucible-secret-${process.pid}.txt`;
  let host: Host;

  before(async () => {
    const hostSecret = join(hostDir, 'secret.txt');
    writeFileSync(hostSecret, SECRET);
    let rootSecret: string | undefined;
    try {
      writeFileSync(rootSecretPath, SECRET);
      rootSecret = rootSecretPath;
    } catch {
      // not root: /root is not ours to write; the host temp dir still covers reading
    }
    tcp = createServer((socket) => {
      connections++;
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const abstractName = `crucible-test-${process.pid}`;
    unixAbstract = createServer((socket) => {
      connections++;
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => unixAbstract.listen(`\0${abstractName}`, resolve));
    udp = createSocket('udp4', (message, remote) => {
      datagrams++;
      udp.send(message, remote.port, remote.address);
    });
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const addresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4')
      .map((a) => a!.address);
    host = {
      secret: SECRET,
      hostSecret,
      rootSecret,
      tcpPort: (tcp.address() as { port: number }).port,
      udpPort: udp.address().port,
      abstractName,
      addresses,
      connections: () => connections,
      datagrams: () => datagrams,
    };
  });

  after(async () => {
    await Promise.all([...harnesses.values()].map((h) => h.close()));
    tcp?.close();
    unixAbstract?.close();
    udp?.close();
    rmSync(hostDir, { recursive: true, force: true });
    rmSync(rootSecretPath, { force: true });
  });

  const newHarness = (kind: HarnessKind = 'default'): Harness => {
    const options: HarnessOptions = HARNESSES[kind];
    return new Harness({
      workers: 1,
      // Type checking is the compiler's (isolation-typescript-compiler.test.ts); the contract is the runtime's.
      typeCheck: false,
      ...options,
      time: {
        scriptFloorSeconds: 1,
        callFloorSeconds: 0.5,
        untimedScriptSeconds: 5,
        untimedCallSeconds: 2,
        ...options.time,
      },
      limits: {
        memoryBytes: setup.memoryBytes,
        replyBytes: 16 << 20,
        outputBytes: 1 << 20,
        loadSeconds: 2,
        ...options.limits,
      },
    });
  };
  const harness = (kind: HarnessKind | Harness = 'default'): Harness => {
    if (kind instanceof Harness) return kind;
    let h = harnesses.get(kind);
    if (!h) {
      h = newHarness(kind);
      harnesses.set(kind, h);
    }
    return h;
  };

  const scriptTask = (tests: readonly TestCode[], extra: Partial<Task> = {}): Task => ({
    id: `contract/${language}/own`,
    language,
    prompt: '',
    entryPoint: 'add',
    completionPrefix: '',
    knownWrong: [],
    source: 'test',
    suites: tests.map((t, i): Suite => ({
      kind: 'script',
      name: i === 0 ? 'base' : `t${i}`,
      ...(typeof t === 'string' ? { code: t } : t),
    })),
    ...extra,
  });

  const judge = (program: string, task: Task = setup.task, kind?: HarnessKind | Harness) =>
    harness(kind).judge(task, program);

  const expectNext = async (kind?: HarnessKind | Harness): Promise<void> => {
    const right = await judge(setup.right, setup.task, kind);
    assert.equal(right.status, 'pass', `a right candidate after the attack: ${summary(right)}`);
    const wrong = await judge(setup.wrong, setup.task, kind);
    assert.equal(wrong.status, 'fail', `a wrong candidate after the attack: ${summary(wrong)}`);
  };

  const ctx: Context = {
    language,
    get host() {
      return host;
    },
    setup,
    harness,
    newHarness,
    judge,
    expectNext,
    scriptTask,
    typed: (program) => (language === 'typescript' ? typed(program) : program),
    async expect(program, status, options = {}) {
      const verdict = await judge(program, options.task, options.kind);
      assert.equal(verdict.status, status, summary(verdict));
      if (options.suites)
        assert.deepEqual(
          verdict.suites.map((s) => s.status),
          options.suites,
          summary(verdict),
        );
      if (options.actual !== undefined) assert.equal(verdict.firstFailure?.actual, options.actual, summary(verdict));
      if (options.message) assert.match(verdict.firstFailure?.message ?? '', options.message, summary(verdict));
      await expectNext(options.kind);
      return verdict;
    },
    async ownHarness(kind) {
      // Alone, so that the workers that appear are its own.
      await Promise.all([...harnesses.values()].map((h) => h.close()));
      harnesses.clear();
      const marks = [setup.workers.candidate, setup.workers.judge];
      const earlier = new Set(marks.flatMap((mark) => workerPids(mark)));
      const own = newHarness(kind);
      return {
        harness: own,
        workers: (which) => workerPids(setup.workers[which]).filter((pid) => !earlier.has(pid)),
        close: () => own.close(),
      };
    },
  };

  /** Judges one program and checks what it must get; `then` right after it, on the same runtime. */
  const judged = async (
    b: Behaviour,
    p: Program,
    defaultStatus: Status | readonly Status[] | undefined,
    kind: HarnessKind,
    probe: boolean,
  ): Promise<void> => {
    const text = typeof p.program === 'function' ? p.program(host) : p.program;
    const program = probe || p.probe ? setup.probe(text) : text;
    const task = p.tests
      ? scriptTask(p.tests, {
          ...(p.io ? { suites: [...scriptTask(p.tests).suites, { kind: 'io', name: 'plus', ...p.io }] } : {}),
          ...(p.reference !== undefined ? { reference: p.reference } : {}),
          ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
        })
      : setup.task;
    const status = p.status ?? defaultStatus ?? (probe ? 'fail' : undefined);
    assert.ok(status, `${b.name}: no status to expect`);
    for (let i = 0; i < (p.repeat ?? 1); i++) {
      const verdict = await judge(program, task, kind);
      if (typeof status === 'string') assert.equal(verdict.status, status, summary(verdict));
      else
        assert.ok(
          status.includes(verdict.status),
          `${verdict.status} is none of ${status.join(', ')}: ${summary(verdict)}`,
        );
      if (p.suites)
        assert.deepEqual(
          verdict.suites.map((s) => s.status),
          p.suites,
          summary(verdict),
        );
      const actual = p.actual ?? (probe || p.probe ? setup.control : undefined);
      if (actual !== undefined) assert.equal(verdict.firstFailure?.actual, actual, summary(verdict));
      if (p.message) assert.match(verdict.firstFailure?.message ?? '', p.message, summary(verdict));
      p.check?.(verdict, host);
      if (p.then !== undefined) await judged(b, asProgram(p.then), 'pass', kind, false);
      if (p.pauseMs) await new Promise((resolve) => setTimeout(resolve, p.pauseMs));
      if (i + 1 < (p.repeat ?? 1)) await expectNext(kind);
    }
  };

  const run = async (b: Behaviour, side: Code | Program | Body, t: TestContext): Promise<void> => {
    if (typeof side === 'object' && 'body' in side) {
      await side.body(ctx);
    } else {
      const kind = b.harness ?? 'default';
      const p = asProgram(side);
      await judged(b, p, b.status, kind, b.probe === true && (typeof side === 'string' || typeof side === 'function'));
      if (p.nextGap) await t.test('the next candidates are judged right', { todo: p.nextGap }, () => expectNext(kind));
      else await expectNext(kind);
    }
    b.after?.(host);
  };

  describe(`runtime contract: ${language}`, () => {
    for (const [group, behaviours] of RUNTIME_CONTRACT) {
      describe(group, () => {
        for (const b of behaviours) {
          const side = sideFor(b, language);
          if (typeof side === 'object' && 'skip' in side) it(b.name, { skip: side.skip }, () => {});
          else if (typeof side === 'object' && 'todo' in side)
            it(b.name, { todo: side.todo }, (t) => run(b, side.side, t));
          else it(b.name, b.timeoutMs ? { timeout: b.timeoutMs } : {}, (t) => run(b, side, t));
        }
      });
    }
  });
}
