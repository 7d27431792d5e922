/** Shared set-up for strategy tests: built-in tasks, their known programs, a scripted model (in memory, or behind a fake server) and stand-ins for the programs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTasks } from '../src/bench/builtin/index.js';
import type { Task } from '../src/core/task.js';
import { EMPTY_CONFIG } from '../src/models/config.js';
import { createModel, type Model, type ModelOptions } from '../src/models/index.js';
import {
  startFakeOpenAIServer,
  type FakeChatRequest,
  type FakeOpenAIServer,
  type FakeReply,
} from '../src/models/testing/index.js';
import {
  createInMemoryRuntime,
  inMemoryModel,
  ProgramError,
  type InMemoryModel,
  type InMemoryRuntime,
  type ProgramEntry,
  type ScriptedReply,
} from '../src/testing/index.js';
import { depthStrict, depthTask } from './plain-task-support.js';

export function builtin(id: string): { task: Task; program: (label: string) => string; reference: string } {
  const entry = builtinTasks.find((t) => t.task.id === id);
  if (!entry) throw new Error(`no built-in task ${id}`);
  return {
    task: entry.task,
    reference: entry.task.reference!,
    program: (label) => {
      const candidate = entry.candidates.find((c) => c.label === label);
      if (!candidate) throw new Error(`${id} has no candidate ${label}`);
      return candidate.program;
    },
  };
}

export const fenced = (program: string, lang = 'python') =>
  `Here you go:\n\n\`\`\`${lang}\n${program.trimEnd()}\n\`\`\`\n`;

/** A task file's content as `crucible solve --task` reads it: second_largest, its docstring's example, one test ([5, 5] → None) and a reference. */
export const SECOND_LARGEST_TASK = {
  language: 'python',
  prompt:
    'def second_largest(xs: list[int]):\n    """The second largest distinct value of xs, or None when there is none.\n    >>> second_largest([3, 1, 3, 2])\n    2\n    """\n',
  entry_point: 'second_largest',
  tests: [{ input: '[5, 5]', output: 'None' }],
  reference:
    'def second_largest(xs):\n    d = sorted(set(xs), reverse=True)\n    return d[1] if len(d) > 1 else None\n',
};

/** What a scripted model answers: structured requests (response_format) and program requests, each in order. */
export interface Script {
  structured?: FakeReply[];
  programs?: FakeReply[];
}

export interface ModelFixture {
  readonly server: FakeOpenAIServer;
  readonly cacheDir: string;
  model(options?: ModelOptions): Promise<Model>;
  /** The text of the last user message of each request, in order. */
  lastUserMessages(): string[];
  close(): Promise<void>;
}

/**
 * A fake server whose replies come from a script: a request with `response_format` takes
 * the next structured reply, any other the next program reply; a request for n completions
 * takes n replies. Running out is a 500 that names the request.
 */
export async function scriptedModel(script: Script): Promise<ModelFixture> {
  const structured = [...(script.structured ?? [])];
  const programs = [...(script.programs ?? [])];
  const server = await startFakeOpenAIServer({
    script: (request: FakeChatRequest) => {
      const queue = request.body.response_format ? structured : programs;
      const replies = queue.splice(0, request.n);
      if (replies.length < request.n)
        return { status: 500, message: `fake server: no scripted reply left for request #${request.seq}` };
      return replies.length === 1 ? replies[0]! : replies;
    },
  });
  const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-strategies-'));
  return {
    server,
    cacheDir,
    model: (options = {}) =>
      createModel(`${server.url}#fake-model`, {
        config: EMPTY_CONFIG,
        env: {},
        cacheDir,
        retry: { retries: 0, baseDelayMs: 1 },
        ...options,
      }),
    lastUserMessages: () =>
      server.requests.map((r) =>
        String([...r.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? ''),
      ),
    close: async () => {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// In memory: the strategy tests whose subject is the strategy's logic run on crucible/testing's
// in-memory model and runtime — no loopback server, no sandbox. The programs the scripted model
// writes are modelled by JavaScript stand-ins for their functions, so examples, generated inputs
// against the reference, shrinking and `observe` all run through the real verification code.
// ---------------------------------------------------------------------------------------------

/** A Python raise, as the stand-ins throw it. */
const raise = (name: string, message = ''): never => {
  throw new ProgramError(name, message);
};

/** LRU cache misses, as the built-in lru-misses task's programs count them (`refresh`: a hit moves the key to the back; `guardZero`: capacity 0 caches nothing). */
export function lruMisses(capacity: number, requests: number[], refresh = true, guardZero = true): number {
  const cache: number[] = [];
  let misses = 0;
  for (const key of requests) {
    const at = cache.indexOf(key);
    if (at >= 0) {
      if (refresh) cache.push(...cache.splice(at, 1));
      continue;
    }
    misses++;
    if (capacity === 0 && guardZero) continue;
    if (cache.length >= capacity) {
      if (cache.length === 0) raise('KeyError', "'dictionary is empty'");
      cache.shift();
    }
    cache.push(key);
  }
  return misses;
}

function balanced(text: string, requireEmpty = true): boolean {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const stack: string[] = [];
  for (const ch of text) {
    if ('([{'.includes(ch)) stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return !requireEmpty || stack.length === 0;
}

function depth(s: string, strict = false, counting = false): number {
  if (counting) return [...s].filter((c) => c === '(').length;
  let d = 0;
  let m = 0;
  for (const c of s) {
    if (c === '(') m = Math.max(m, ++d);
    else if (c === ')') d--;
    else if (strict && c !== ' ') raise('ValueError', `not a parenthesis: '${c}'`);
  }
  return m;
}

/** The counting program strategies-repair's no-contract test scripts first. */
export const depthCounting = `${depthTask.prompt}    return s.count('(')\n`;

/** Stand-ins for the built-in programs (reference and candidates) and the plain depth task's. */
export function standIns(): ProgramEntry[] {
  const lruTask = builtin('builtin/py/lru-misses');
  const brackets = builtin('builtin/py/balanced-brackets');
  const entries: Array<[string, Record<string, (...args: any[]) => unknown>]> = [
    [lruTask.reference, { count_misses: (c: number, r: number[]) => lruMisses(c, r) }],
    [lruTask.program('recency-list'), { count_misses: (c: number, r: number[]) => lruMisses(c, r) }],
    [lruTask.program('fifo-not-lru'), { count_misses: (c: number, r: number[]) => lruMisses(c, r, false) }],
    [
      lruTask.program('capacity-zero-crash'),
      { count_misses: (c: number, r: number[]) => lruMisses(c, r, true, false) },
    ],
    [brackets.reference, { is_balanced: (s: string) => balanced(s) }],
    [brackets.program('pair-removal'), { is_balanced: (s: string) => balanced(s) }],
    [brackets.program('ignores-unclosed'), { is_balanced: (s: string) => balanced(s, false) }],
    [depthTask.reference!, { depth: (s: string) => depth(s) }],
    [depthStrict, { depth: (s: string) => depth(s, true) }],
    [depthCounting, { depth: (s: string) => depth(s, false, true) }],
    [`${depthTask.prompt}    return 0\n`, { depth: () => 0 }],
  ];
  return entries.map(([match, functions]) => ({ match, functions }));
}

/**
 * An in-memory runtime knowing the stand-ins; any other program does not load, so nothing
 * passes by accident (a test adds what else it needs with `runtime.add`).
 */
export function standInRuntime(): InMemoryRuntime {
  return createInMemoryRuntime({
    language: 'python',
    programs: standIns(),
    otherwise: { loadError: 'SyntaxError: not a program this test models' },
  });
}

/** What the scripted in-memory model answers: structured requests (a response format) and program requests, each in order. */
export interface MemoryScript {
  structured?: ScriptedReply[];
  programs?: ScriptedReply[];
}

/**
 * A Model over crucible/testing's in-memory backend, scripted as `scriptedModel` scripts the
 * fake server: a request with a response format takes the next structured reply, any other the
 * next program reply, n at a time. Running out is an error that names the request. No retries.
 */
export function scriptedInMemoryModel(script: MemoryScript, options: ModelOptions = {}): InMemoryModel {
  const structured = [...(script.structured ?? [])];
  const programs = [...(script.programs ?? [])];
  return inMemoryModel({
    script: (request) => {
      const queue = request.responseFormat ? structured : programs;
      const replies = queue.splice(0, request.n);
      if (replies.length < request.n)
        return { status: 400, message: `no scripted reply left for request #${request.seq}` };
      return replies.length === 1 ? replies[0]! : replies;
    },
    retry: { retries: 0 },
    ...options,
  });
}
