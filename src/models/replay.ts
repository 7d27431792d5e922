/**
 * The replay model: recorded real solutions served as if a model wrote them.
 *
 * Spec: `replay:SAMPLES?dataset=DATASET[&test_suite=…&model=…&source=…&method=…&run=…]`
 * - SAMPLES: a JSONL(.gz) file of samples in either form `eval --samples` reads: EvalPlus
 *   `{task_id, solution | completion}` lines, or llm-samples' labelled normalized records
 *   (`code`, `code_form`, `passed`, …). The filters (prefixes, case-insensitive, as
 *   `loadLabelledSamples` takes them) keep only some labelled records.
 * - DATASET: the dataset the samples belong to (any file `crucible eval --dataset` reads).
 *   A request is matched to its task by the prompt it quotes — a model sees prompts, not
 *   task ids — so the replay works under every strategy unchanged: the task whose prompt
 *   appears in a message (the longest such prompt), else the one whose entry point the
 *   request names ("function `f`") when exactly one task has it.
 *
 * Each call for a task returns that task's next recorded solutions in file order (n per
 * call, wrapping round when they run out), each as a reply a model would give: the whole
 * program in one fenced code block. A structured request whose schema has a `code` field
 * (DCCD's final answer) gets `{"code": …}`; any other structured request gets `{}` (nothing
 * was recorded for it) and takes no solution. Zero latency, zero cost; token counts are
 * estimated (4 characters a token). A prompt of no task of the dataset is an error; a task
 * without recorded solutions gets an empty reply.
 *
 * Nothing is cached on disk: the samples file is itself the recording.
 */
import { resolve } from 'node:path';
import type { Task } from '../core/task.js';
import { loadDataset } from '../datasets/index.js';
import { loadLabelledSamples, loadSamples, type LabelFilter } from '../datasets/samples.js';
import type { Backend, BackendCallOptions, BackendCompletion, BackendRequest, BackendResponse } from './backend.js';
import { capabilitiesFor } from './capabilities.js';
import { ModelCallError, ModelConfigError } from './errors.js';
import type { ResolvedModel } from './resolve.js';
import type { ChatMessage } from './types.js';

export const REPLAY_FILTER_KEYS = {
  source: 'source',
  model: 'model',
  method: 'method',
  test_suite: 'testSuite',
  testSuite: 'testSuite',
  run: 'run',
} as const;

export interface ReplaySource {
  readonly samples: string;
  readonly dataset: string;
  readonly filter?: { -readonly [K in keyof typeof REPLAY_FILTER_KEYS as (typeof REPLAY_FILTER_KEYS)[K]]?: string };
}

const FORM =
  'replay:SAMPLES.jsonl[.gz]?dataset=DATASET.jsonl[.gz][&test_suite=PREFIX&model=PREFIX&source=PREFIX&method=PREFIX&run=PREFIX]';

/** Reads the part after `replay:`. Paths are taken as given (relative to the working directory). */
export function parseReplaySource(modelId: string): ReplaySource {
  const at = modelId.indexOf('?');
  const samples = (at < 0 ? modelId : modelId.slice(0, at)).trim();
  const query = new URLSearchParams(at < 0 ? '' : modelId.slice(at + 1));
  if (!samples) throw new ModelConfigError(`replay model: no samples file; write ${FORM}`);
  const dataset = query.get('dataset');
  if (!dataset) {
    throw new ModelConfigError(
      `replay model ${modelId}: name the dataset the samples belong to (a request is matched to its task by the prompt it quotes): ${FORM}`,
    );
  }
  const filter: Record<string, string> = {};
  for (const [key, value] of query) {
    if (key === 'dataset') continue;
    const field = REPLAY_FILTER_KEYS[key as keyof typeof REPLAY_FILTER_KEYS];
    if (!field)
      throw new ModelConfigError(
        `replay model: unknown option "${key}"; options: dataset, ${Object.keys(REPLAY_FILTER_KEYS).join(', ')}`,
      );
    filter[field] = value;
  }
  return { samples, dataset, ...(Object.keys(filter).length ? { filter } : {}) };
}

/** Estimated tokens of a text: about 4 characters each. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const FENCE_TAGS = { python: 'python', javascript: 'javascript', typescript: 'typescript' } as const;

/** What a chat model replies with a program: one fenced block. */
export function fencedReply(task: Pick<Task, 'language'>, program: string): string {
  return `\`\`\`${FENCE_TAGS[task.language]}\n${program.trimEnd()}\n\`\`\`\n`;
}

/** Finds the task a conversation is about, by the prompt it quotes (see the file comment). */
export class PromptIndex {
  private readonly byPrompt = new Map<string, Task>();
  private readonly byEntry = new Map<string, Task[]>();
  /** Longest prompts first, for the containment search. */
  private readonly ordered: Task[];
  private readonly memo = new Map<string, Task | null>();

  constructor(tasks: readonly Task[]) {
    for (const task of tasks) {
      const key = task.prompt.trim();
      if (key && !this.byPrompt.has(key)) this.byPrompt.set(key, task);
      this.byEntry.set(task.entryPoint, [...(this.byEntry.get(task.entryPoint) ?? []), task]);
    }
    this.ordered = [...tasks]
      .filter((t) => t.prompt.trim())
      .sort((a, b) => b.prompt.trim().length - a.prompt.trim().length);
  }

  find(messages: readonly ChatMessage[]): Task | undefined {
    // The first user message states the task (later ones are feedback); look there first, then everywhere.
    const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
    for (const text of [...users, ...messages.filter((m) => m.role !== 'user').map((m) => m.content)]) {
      const found = this.findIn(text);
      if (found) return found;
    }
    return undefined;
  }

  private findIn(text: string): Task | undefined {
    const known = this.memo.get(text);
    if (known !== undefined) return known ?? undefined;
    const found = this.search(text);
    this.memo.set(text, found ?? null);
    return found;
  }

  private search(text: string): Task | undefined {
    for (const block of text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) {
      const exact = this.byPrompt.get(block[1]!.trim());
      if (exact) return exact;
    }
    const contained = this.ordered.find((t) => text.includes(t.prompt.trim()));
    if (contained) return contained;
    for (const named of text.matchAll(/function `([^`]+)`/g)) {
      const tasks = this.byEntry.get(named[1]!);
      if (tasks?.length === 1) return tasks[0];
    }
    return undefined;
  }
}

export interface ReplayRecording {
  readonly tasks: readonly Task[];
  /** Programs per task id, in file order (whole programs, as `eval --samples` judges them). */
  readonly programs: ReadonlyMap<string, readonly string[]>;
  readonly warnings: readonly string[];
}

export async function loadReplayRecording(source: ReplaySource): Promise<ReplayRecording> {
  const dataset = await loadDataset(resolve(source.dataset));
  const samplesPath = resolve(source.samples);
  const loaded = source.filter
    ? await loadLabelledSamples(samplesPath, dataset, source.filter as LabelFilter)
    : await loadSamples(samplesPath, dataset);
  const programs = new Map<string, string[]>();
  for (const c of loaded.candidates) {
    const list = programs.get(c.taskId) ?? [];
    list.push(c.program); // file order (a label filter leaves gaps in the indices)
    programs.set(c.taskId, list);
  }
  return { tasks: dataset.tasks, programs, warnings: loaded.warnings };
}

/** Does a JSON schema ask for an object with a string `code` property? */
function wantsCode(schema: Record<string, unknown> | undefined): boolean {
  const properties = schema?.['properties'] as Record<string, unknown> | undefined;
  return properties !== undefined && typeof properties === 'object' && 'code' in properties;
}

export class ReplayBackend implements Backend {
  readonly kind = 'replay' as const;
  readonly capabilities = capabilitiesFor('replay');
  private readonly index: PromptIndex;
  private readonly cursors = new Map<string, number>();

  constructor(
    readonly modelId: string,
    private readonly recording: ReplayRecording,
  ) {
    this.index = new PromptIndex(recording.tasks);
  }

  get warnings(): readonly string[] {
    return this.recording.warnings;
  }

  /** How many recorded solutions the task has (0 when none, or the id is unknown). */
  recorded(taskId: string): number {
    return this.recording.programs.get(taskId)?.length ?? 0;
  }

  async generate(request: BackendRequest, options: BackendCallOptions): Promise<BackendResponse> {
    options.signal.throwIfAborted();
    const task = this.index.find(request.messages);
    if (!task) {
      const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
      const excerpt = user.length > 120 ? `${user.slice(0, 117)}...` : user;
      throw new ModelCallError(
        `replay:${this.modelId}: the request quotes no prompt of the replay's dataset (is it the dataset being solved?): ${JSON.stringify(excerpt)}`,
        `replay:${this.modelId}`,
        undefined,
        1,
      );
    }
    const texts = this.replies(task, request);
    const completions: BackendCompletion[] = texts.map((text) => ({ text, toolCalls: [], finishReason: 'stop' }));
    if (request.stream) for (const text of texts) options.onText?.(text);
    const inputTokens = estimateTokens(request.messages.map((m) => m.content).join('\n'));
    const outputTokens = texts.reduce((sum, t) => sum + estimateTokens(t), 0);
    return { completions, usage: { inputTokens, outputTokens } };
  }

  private replies(task: Task, request: BackendRequest): string[] {
    const format = request.responseFormat;
    if (format && !wantsCode(format.schema)) return Array.from({ length: request.n }, () => '{}');
    const programs = this.recording.programs.get(task.id) ?? [];
    if (programs.length === 0) return Array.from({ length: request.n }, () => '');
    const start = this.cursors.get(task.id) ?? 0;
    this.cursors.set(task.id, start + request.n);
    return Array.from({ length: request.n }, (_, i) => {
      const program = programs[(start + i) % programs.length]!;
      return format ? JSON.stringify({ code: program }) : fencedReply(task, program);
    });
  }

  async close(): Promise<void> {}
}

export async function createReplayBackend(resolved: ResolvedModel): Promise<ReplayBackend> {
  const source = parseReplaySource(resolved.modelId);
  return new ReplayBackend(resolved.modelId, await loadReplayRecording(source));
}
