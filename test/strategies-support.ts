/** Shared set-up for strategy tests: built-in tasks, their known programs, a fake model server and a harness. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTasks } from '../src/bench/builtin/index.js';
import type { Task } from '../src/core/task.js';
import { EMPTY_CONFIG } from '../src/models/config.js';
import { createModel, type Model, type ModelOptions } from '../src/models/index.js';
import { startFakeOpenAIServer, type FakeChatRequest, type FakeOpenAIServer, type FakeReply } from '../src/models/testing/index.js';

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

export const fenced = (program: string, lang = 'python') => `Here you go:\n\n\`\`\`${lang}\n${program.trimEnd()}\n\`\`\`\n`;

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
      if (replies.length < request.n) return { status: 500, message: `fake server: no scripted reply left for request #${request.seq}` };
      return replies.length === 1 ? replies[0]! : replies;
    },
  });
  const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-strategies-'));
  return {
    server,
    cacheDir,
    model: (options = {}) => createModel(`${server.url}#fake-model`, { config: EMPTY_CONFIG, env: {}, cacheDir, retry: { retries: 0, baseDelayMs: 1 }, ...options }),
    lastUserMessages: () => server.requests.map((r) => String([...r.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '')),
    close: async () => {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
