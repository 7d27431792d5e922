/**
 * Model samples from JSONL (.jsonl or .jsonl.gz) files.
 * - EvalPlus convention: `task_id` plus `solution` (a whole program) or `completion`
 *   (appended to the task's completionPrefix); `solution` wins when both are present.
 * - llm-samples normalized records: `task_id`, `code`, `code_form` ("body" is appended to
 *   the prefix, "full" is a whole program) and the authors' label `passed`.
 * Several lines for a task are several samples; `index` is the position among that task's
 * lines (after filtering), from 0.
 */
import { z } from 'zod';
import type { Candidate, Task } from '../core/task.js';
import type { Dataset } from './types.js';
import { parseJsonlLine, readJsonlLines } from './jsonl.js';

/** What the authors of recorded samples said about one of them. */
export interface SampleLabel {
  readonly passed: boolean;
  readonly source?: string;
  readonly model?: string;
  readonly method?: string;
  /** What the label refers to, e.g. "original hidden tests (field test)". */
  readonly testSuite?: string;
  readonly run?: string;
}

/** Keep only labels whose fields start with these values (case-insensitive), or a predicate. */
export type LabelFilter =
  | {
      readonly source?: string;
      readonly model?: string;
      readonly method?: string;
      readonly testSuite?: string;
      readonly run?: string;
    }
  | ((label: SampleLabel, taskId: string) => boolean);

export interface LoadedSamples {
  readonly candidates: Candidate[];
  readonly warnings: string[];
  /** Task ids of kept lines that are not in the dataset (those lines are skipped). */
  readonly unknownTaskIds: string[];
}

export interface LabelledSamples extends LoadedSamples {
  /** labels[i] belongs to candidates[i]. */
  readonly labels: SampleLabel[];
}

const pythonBool = z.union([
  z.boolean(),
  z.enum(['True', 'False', 'true', 'false']).transform((s) => s.toLowerCase() === 'true'),
]);

const SampleLine = z.object({
  task_id: z.string().min(1),
  solution: z.string().optional(),
  completion: z.string().optional(),
  code: z.string().optional(),
  code_form: z.enum(['body', 'full']).optional(),
});

const LabelFields = z.object({
  passed: pythonBool.optional(),
  is_solved: pythonBool.optional(),
  source: z.string().optional(),
  model: z.string().optional(),
  method: z.string().optional(),
  test_suite: z.string().optional(),
  run: z.string().optional(),
});

interface Line {
  readonly where: string;
  readonly taskId: string;
  readonly body: (task: Task) => string;
  readonly fields: Record<string, unknown>;
}

function problems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ');
}

async function readSampleLines(path: string): Promise<Line[]> {
  const out: Line[] = [];
  for (const line of await readJsonlLines(path)) {
    const where = `${path}:${line.lineNo}`;
    const { values, keys } = parseJsonlLine(path, line);
    const parsed = SampleLine.safeParse(values);
    if (!parsed.success) throw new Error(`${where}: invalid sample: ${problems(parsed.error)}`);
    const s = parsed.data;
    let body: (task: Task) => string;
    if (s.solution !== undefined) body = (task) => withPromptImports(task, s.solution!);
    else if (s.completion !== undefined) body = (task) => task.completionPrefix + s.completion!;
    else if (s.code !== undefined)
      body =
        s.code_form === 'body' ? (task) => task.completionPrefix + s.code! : (task) => withPromptImports(task, s.code!);
    else {
      throw new Error(
        `${where}: sample for ${JSON.stringify(s.task_id)} has no program: expected "solution" (a whole program) or "completion" (appended to the prompt); fields: ${keys.join(', ')}`,
      );
    }
    out.push({ where, taskId: s.task_id, body, fields: values });
  }
  return out;
}

function resolver(dataset: Dataset): (id: string) => Task | undefined {
  const byId = new Map(dataset.tasks.map((t) => [t.id, t]));
  return (id) => byId.get(id) ?? byId.get(dataset.aliases?.get(id) ?? '');
}

/** Samples whose task ids are another spelling of the dataset's (MultiPL-E's names): said, so results join back. */
function renameNotice(renamed: Map<string, string>, dataset: Dataset): string[] {
  if (renamed.size === 0) return [];
  const shown = [...renamed]
    .slice(0, 3)
    .map(([from, to]) => `${from} → ${to}`)
    .join(', ');
  return [
    `read ${renamed.size} task id${renamed.size === 1 ? '' : 's'} of the samples as ${dataset.name}'s (${shown}${renamed.size > 3 ? ', …' : ''}); results use the dataset's ids`,
  ];
}

function unknownWarning(unknown: Map<string, number>, dataset: Dataset): string[] {
  if (unknown.size === 0) return [];
  const lines = [...unknown.values()].reduce((a, b) => a + b, 0);
  const ids = [...unknown.keys()];
  const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, … (${ids.length - 5} more)` : '');
  return [
    `skipped ${lines} sample${lines === 1 ? '' : 's'} for ${ids.length} task id${ids.length === 1 ? '' : 's'} not in ${dataset.name}: ${shown}`,
  ];
}

/**
 * Turns lines into candidates numbered per task by their position among that task's lines
 * in the file, so results join back to it; `keep` then selects lines (a label filter) without
 * renumbering. Lines for unknown tasks are counted, not kept.
 */
function numberSamples<T extends Line>(
  lines: readonly T[],
  dataset: Dataset,
  keep: (line: T) => boolean = () => true,
): { kept: { line: T; candidate: Candidate }[]; warnings: string[]; unknownTaskIds: string[] } {
  const find = resolver(dataset);
  const next = new Map<string, number>();
  const unknown = new Map<string, number>();
  const renamed = new Map<string, string>();
  const kept: { line: T; candidate: Candidate }[] = [];
  for (const line of lines) {
    const task = find(line.taskId);
    if (!task) {
      if (keep(line)) unknown.set(line.taskId, (unknown.get(line.taskId) ?? 0) + 1);
      continue;
    }
    if (task.id !== line.taskId) renamed.set(line.taskId, task.id);
    const index = next.get(task.id) ?? 0;
    next.set(task.id, index + 1);
    if (keep(line)) kept.push({ line, candidate: { taskId: task.id, index, program: line.body(task) } });
  }
  return {
    kept,
    warnings: [...unknownWarning(unknown, dataset), ...renameNotice(renamed, dataset)],
    unknownTaskIds: [...unknown.keys()],
  };
}

export async function loadSamples(path: string, dataset: Dataset): Promise<LoadedSamples> {
  const { kept, warnings, unknownTaskIds } = numberSamples(await readSampleLines(path), dataset);
  return { candidates: kept.map((k) => k.candidate), warnings, unknownTaskIds };
}

function toLabel(line: Line): SampleLabel {
  const parsed = LabelFields.safeParse(line.fields);
  if (!parsed.success) throw new Error(`${line.where}: invalid label fields: ${problems(parsed.error)}`);
  const f = parsed.data;
  const passed = f.passed ?? f.is_solved;
  if (passed === undefined) throw new Error(`${line.where}: sample has no label: expected "passed" (true/false)`);
  return {
    passed,
    ...(f.source !== undefined ? { source: f.source } : {}),
    ...(f.model !== undefined ? { model: f.model } : {}),
    ...(f.method !== undefined ? { method: f.method } : {}),
    ...(f.test_suite !== undefined ? { testSuite: f.test_suite } : {}),
    ...(f.run !== undefined ? { run: f.run } : {}),
  };
}

function matcher(filter: LabelFilter | undefined): (label: SampleLabel, taskId: string) => boolean {
  if (filter === undefined) return () => true;
  if (typeof filter === 'function') return filter;
  const wanted = Object.entries(filter).filter((e): e is [keyof SampleLabel, string] => typeof e[1] === 'string');
  return (label) =>
    wanted.every(([key, value]) => {
      const actual = label[key];
      return typeof actual === 'string' && actual.toLowerCase().startsWith(value.toLowerCase());
    });
}

/**
 * Samples with the labels their authors gave them, for checking our verdicts against
 * theirs. Every line must carry `passed` (or `is_solved`). `filter` selects lines; `index`
 * stays each line's position among its task's lines in the file.
 */
export async function loadLabelledSamples(
  path: string,
  dataset: Dataset,
  filter?: LabelFilter,
): Promise<LabelledSamples> {
  const keep = matcher(filter);
  const lines: (Line & { label: SampleLabel; matches: boolean })[] = [];
  const seen = new Map<string, Set<string>>();
  let total = 0;
  for (const line of await readSampleLines(path)) {
    const label = toLabel(line);
    total++;
    for (const key of ['source', 'model', 'method', 'testSuite'] as const) {
      const value = label[key];
      if (value !== undefined) seen.set(key, (seen.get(key) ?? new Set()).add(value));
    }
    lines.push({ ...line, label, matches: keep(label, line.taskId) });
  }
  const { kept, warnings, unknownTaskIds } = numberSamples(lines, dataset, (line) => line.matches);
  if (total > 0 && !lines.some((line) => line.matches) && filter !== undefined && typeof filter !== 'function') {
    const values = [...seen].map(
      ([key, set]) =>
        `${key}: ${[...set]
          .slice(0, 10)
          .map((v) => JSON.stringify(v))
          .join(', ')}`,
    );
    warnings.push(
      `no sample of ${total} matches the filter ${JSON.stringify(filter)}; values seen: ${values.join('; ') || 'none'}`,
    );
  }
  return { candidates: kept.map((k) => k.candidate), labels: kept.map((k) => k.line.label), warnings, unknownTaskIds };
}

/**
 * A whole-program Python solution runs after the import lines of the task's prompt:
 * harnesses that append a completion to the prompt give the program those imports
 * (`from typing import List`), and models that rewrite the whole function often drop
 * them. Repeating an import is harmless.
 */
export function withPromptImports(task: Task, program: string): string {
  if (task.language !== 'python') return program;
  const imports = task.prompt.split('\n').filter((line) => /^(import \S|from \S+ import \S)/.test(line));
  const missing = imports.filter((line) => !program.includes(line));
  return missing.length === 0 ? program : `${missing.join('\n')}\n${program}`;
}
