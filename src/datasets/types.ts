import type { ScriptSuite, Task } from '../core/task.js';
import type { JsonlRecord } from './jsonl.js';

export const DATASET_FORMATS = ['humaneval', 'humaneval+', 'mbpp+', 'multipl-e', 'humanevalpack', 'quixbugs'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

export interface Dataset {
  readonly name: string;
  readonly format: DatasetFormat;
  readonly tasks: Task[];
  /** Other ids samples may use for a task (e.g. MultiPL-E's "HumanEval_23_strlen" → "HumanEval/23"). */
  readonly aliases?: ReadonlyMap<string, string>;
  /**
   * Tests a model may see (HumanEvalPack's docstring examples), by task id. Kept out of
   * `task.suites` so that they do not take part in verdicts.
   */
  readonly publicTests?: ReadonlyMap<string, ScriptSuite>;
}

export interface LoadedTask {
  readonly task: Task;
  readonly aliases?: readonly string[];
  readonly publicTest?: ScriptSuite;
}

/** How to recognise and read one dataset format. */
export interface FormatSpec {
  readonly format: DatasetFormat;
  /** Fields whose presence in the first record identifies the format. */
  readonly signature: readonly string[];
  /** Fields to keep as raw JSON text (not parsed). */
  readonly rawFields?: readonly string[];
  /** `where` is "file:line", for error messages. */
  load(record: JsonlRecord, where: string): LoadedTask;
  /** The dataset's name, from its first task. */
  datasetName(first: Task): string;
}
