/**
 * `--task` for solve: a task file (Crucible's small JSON format, or one line of any dataset
 * format the harness reads), `DATASET_FILE:TASK_ID`, or a built-in task (`builtin:ID`, or
 * its bare id such as builtin/py/merge-intervals).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { builtinDataset } from '../bench/builtin/index.js';
import { loadDataset, type Dataset } from '../datasets/index.js';
import { LANGUAGES, type ScriptSuite, type Task } from '../core/task.js';
import type { PromptExample } from '../domains/code/generate/examples.js';
import { packOfTaskFile, type AnyPackModule } from '../domains/registry.js';
import type { Identified } from '../domains/subject.js';

export interface TaskSource {
  readonly task: Task;
  /** How the run list names it: the file, or DATASET:ID. */
  readonly label: string;
  /** Public tests of a task file (argument text and expected output). */
  readonly examples: readonly PromptExample[];
  /** Tests the dataset marks as visible to a model (HumanEvalPack's docstring examples). */
  readonly publicTests: readonly ScriptSuite[];
}

/** Crucible's task file: what a user writes by hand for `crucible solve --task FILE`. */
export const TaskFileSchema = z
  .object({
    id: z.string().min(1).optional(),
    language: z.enum(LANGUAGES),
    prompt: z.string().min(1),
    entry_point: z.string().min(1).optional(),
    entryPoint: z.string().min(1).optional(),
    /** Text a body-only answer is appended to (default: the prompt). */
    completion_prefix: z.string().optional(),
    tests: z.array(z.object({ input: z.string(), output: z.string() })).optional(),
    reference: z.string().optional(),
  })
  .refine((t) => t.entry_point ?? t.entryPoint, {
    message: 'entry_point is required: the name of the function to write',
  });

/** A task of a pack with task files of its own (domains/registry.ts), and the pack. */
export interface PackTaskSource {
  readonly module: AnyPackModule;
  readonly task: Identified;
  readonly label: string;
}

/** The task `--task` names in a pack's task file (the file's one task, or `FILE:TASK_ID`), or undefined when it names none. */
export function readPackTaskSource(spec: string, packs: readonly AnyPackModule[]): PackTaskSource | undefined {
  const whole = packOfTaskFile(spec, packs);
  if (whole) {
    const tasks: Identified[] = whole.readTasks(spec);
    if (tasks.length !== 1)
      throw new Error(`${spec} holds ${tasks.length} ${whole.name} tasks: name one with ${spec}:TASK_ID`);
    return { module: whole, task: tasks[0]!, label: spec };
  }
  for (let i = spec.indexOf(':'); i > 0; i = spec.indexOf(':', i + 1)) {
    const file = spec.slice(0, i);
    const module = packOfTaskFile(file, packs);
    if (!module) continue;
    const id = spec.slice(i + 1);
    const tasks: Identified[] = module.readTasks(file);
    const task = tasks.find((t) => t.id === id);
    if (!task)
      throw new Error(
        `${file} has no ${module.name} task ${JSON.stringify(id)} (its ${tasks.length} tasks start with ${tasks
          .slice(0, 5)
          .map((t) => t.id)
          .join(', ')})`,
      );
    return { module, task, label: spec };
  }
  return undefined;
}

export async function readTaskSource(spec: string): Promise<TaskSource> {
  const builtin = builtinTask(spec);
  if (builtin) return builtin;
  if (existsSync(spec)) return readTaskFile(spec);
  for (let i = spec.indexOf(':'); i > 0; i = spec.indexOf(':', i + 1)) {
    const file = spec.slice(0, i);
    if (existsSync(file)) return fromDataset(await loadDataset(file), spec.slice(i + 1), spec);
  }
  throw new Error(
    `--task ${spec}: no such file. Give a task file (JSON), DATASET_FILE:TASK_ID (e.g. HumanEval.jsonl.gz:HumanEval/12), or a built-in task (e.g. builtin/py/merge-intervals)`,
  );
}

function builtinTask(spec: string): TaskSource | undefined {
  const id = spec.startsWith('builtin:') ? spec.slice('builtin:'.length) : spec;
  const task = builtinDataset().tasks.find((t) => t.id === id || t.id === `builtin/${id}`);
  if (!task) {
    if (spec.startsWith('builtin:'))
      throw new Error(
        `no built-in task ${id}; they are: ${builtinDataset()
          .tasks.map((t) => t.id)
          .join(', ')}`,
      );
    return undefined;
  }
  return { task, label: task.id, examples: [], publicTests: [] };
}

function fromDataset(dataset: Dataset, id: string, label: string): TaskSource {
  const realId = dataset.tasks.some((t) => t.id === id) ? id : (dataset.aliases?.get(id) ?? id);
  const task = dataset.tasks.find((t) => t.id === realId);
  if (!task) {
    const some = dataset.tasks
      .slice(0, 5)
      .map((t) => t.id)
      .join(', ');
    throw new Error(
      `${dataset.name} has no task ${JSON.stringify(id)} (its ${dataset.tasks.length} tasks start with ${some})`,
    );
  }
  const publicTest = dataset.publicTests?.get(task.id);
  return { task, label, examples: [], publicTests: publicTest ? [publicTest] : [] };
}

async function readTaskFile(path: string): Promise<TaskSource> {
  if (/\.jsonl(\.gz)?$/.test(path)) return onlyTask(await loadDataset(path), path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `${path}: not JSON (${(error as Error).message}); a task file is one JSON object, see crucible solve --help`,
    );
  }
  if (parsed && typeof parsed === 'object' && 'task_id' in parsed) {
    // One line of a dataset format: read it through the dataset loaders.
    const dir = mkdtempSync(join(tmpdir(), 'crucible-task-'));
    try {
      const file = join(dir, 'task.jsonl');
      writeFileSync(file, JSON.stringify(parsed) + '\n');
      return onlyTask(await loadDataset(file), path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const result = TaskFileSchema.safeParse(parsed);
  if (!result.success) {
    throw new Error(
      `${path}: not a task file: ${result.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`,
    );
  }
  const file = result.data;
  const task: Task = {
    id: file.id ?? basename(path).replace(/\.json$/, ''),
    language: file.language,
    prompt: file.prompt.endsWith('\n') ? file.prompt : `${file.prompt}\n`,
    entryPoint: (file.entry_point ?? file.entryPoint)!,
    completionPrefix: file.completion_prefix ?? (file.prompt.endsWith('\n') ? file.prompt : `${file.prompt}\n`),
    ...(file.reference !== undefined ? { reference: file.reference } : {}),
    knownWrong: [],
    suites: [],
    source: 'task-file',
  };
  return {
    task,
    label: path,
    examples: (file.tests ?? []).map((t) => ({ argsText: t.input, outputText: t.output })),
    publicTests: [],
  };
}

function onlyTask(dataset: Dataset, path: string): TaskSource {
  if (dataset.tasks.length !== 1)
    throw new Error(`${path} holds ${dataset.tasks.length} tasks: name one with ${path}:TASK_ID`);
  return fromDataset(dataset, dataset.tasks[0]!.id, path);
}
