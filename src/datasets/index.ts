/** Benchmark datasets from JSONL (.jsonl or .jsonl.gz) files, in any format of FORMAT_SPECS. */
import type { ScriptSuite, Task } from '../core/task.js';
import { detectFormat } from './detect.js';
import { messageOf, parseJsonlLine, readJsonlLines } from './jsonl.js';
import { topLevelKeys } from '../core/raw-json.js';
import type { Dataset } from './types.js';

export { DATASET_FORMATS, type Dataset, type DatasetFormat, type FormatSpec, type LoadedTask } from './types.js';
export { detectFormat, FORMAT_SPECS } from './detect.js';
export { EXAMPLE_SUITE } from './humanevalpack.js';
export { readJsonlLines, parseJsonlLine, type JsonlLine, type JsonlRecord } from './jsonl.js';
export { parseJsonLoose, splitJsonLine, scanTopLevel, topLevelKeys, JsonSyntaxError } from '../core/raw-json.js';

export async function loadDataset(path: string): Promise<Dataset> {
  const lines = await readJsonlLines(path);
  const first = lines[0];
  if (!first) throw new Error(`${path}: no records (empty file)`);
  let fields: string[];
  try {
    fields = topLevelKeys(first.text);
  } catch (error) {
    throw new Error(`${path}:${first.lineNo}: malformed JSON line: ${messageOf(error)}`);
  }
  const spec = detectFormat(fields, path);
  const tasks: Task[] = [];
  const lineOf = new Map<string, number>();
  const aliases = new Map<string, string>();
  const publicTests = new Map<string, ScriptSuite>();
  for (const line of lines) {
    const where = `${path}:${line.lineNo}`;
    const loaded = spec.load(parseJsonlLine(path, line, spec.rawFields), where);
    const id = loaded.task.id;
    const previous = lineOf.get(id);
    if (previous !== undefined)
      throw new Error(`${where}: task ${JSON.stringify(id)} already defined on line ${previous}`);
    lineOf.set(id, line.lineNo);
    tasks.push(loaded.task);
    for (const alias of loaded.aliases ?? []) if (!aliases.has(alias)) aliases.set(alias, id);
    if (loaded.publicTest) publicTests.set(id, loaded.publicTest);
  }
  for (const id of lineOf.keys()) aliases.delete(id); // a real id always wins over an alias
  return {
    name: spec.datasetName(tasks[0]!),
    format: spec.format,
    tasks,
    ...(aliases.size ? { aliases } : {}),
    ...(publicTests.size ? { publicTests } : {}),
  };
}
