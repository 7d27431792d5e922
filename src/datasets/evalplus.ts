/**
 * EvalPlus HumanEval+ and MBPP+: io suites "base" and "plus" whose expected outputs come
 * from the reference. Inputs stay raw JSON text (Python floats such as 1.0 and NaN).
 */
import { z } from 'zod';
import type { IoSuite } from '../core/task.js';
import type { JsonlRecord } from './jsonl.js';
import type { DatasetFormat, FormatSpec, LoadedTask } from './types.js';
import { IDENTIFIER, validate } from './validate.js';

const Schema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  entry_point: z.string().regex(IDENTIFIER, 'must be a function name'),
  canonical_solution: z.string(),
  atol: z.number().nonnegative().nullable().optional(),
  contract: z.string().optional(),
});

/** A JSON array of argument lists. MBPP+ v0.2.0 writes Mbpp/793's empty plus_input as `{}`: read as `[]`. */
const inputs = z
  .string()
  .transform((text) => (/^\{\s*\}$/.test(text) ? '[]' : text))
  .refine((text) => text.startsWith('['), { message: 'must be a JSON array of argument lists' });

const RawInputs = z.object({ base_input: inputs, plus_input: inputs });

const HUMANEVAL_ORACLES: Readonly<Record<string, string>> = { find_zero: 'find_zero' };

/** EvalPlus's special comparisons for MBPP+, by entry point (implemented in runtimes/python/oracles.py). */
const MBPP_ORACLES: Readonly<Record<string, string>> = {
  similar_elements: 'set_eq',
  find_char_long: 'set_eq',
  common_in_nested_lists: 'set_eq',
  extract_singly: 'set_eq',
  larg_nnum: 'set_eq',
  intersection_array: 'set_eq',
  find_dissimilar: 'set_eq',
  Diff: 'set_eq',
  check_str: 'output_not_none',
  text_match_three: 'output_not_none',
  text_starta_endb: 'output_not_none',
  are_equivalent: 'always',
  sum_div: 'or_zero',
  surface_Area: 'surface_area',
  digit_distance_nums: 'digit_distance',
};

function loadEvalPlus(format: DatasetFormat, record: JsonlRecord, where: string): LoadedTask {
  const what = format === 'mbpp+' ? 'MBPP+' : 'HumanEval+';
  const r = validate(Schema, record.values, where, what);
  const raw = validate(RawInputs, record.raw, where, what, r.task_id);
  let inputAdapter: string | undefined;
  const aliases: string[] = [];
  if (format === 'mbpp+') {
    const number = /^Mbpp\/(\d+)$/.exec(r.task_id)?.[1];
    if (number === undefined)
      throw new Error(`${where}: MBPP+ task_id ${JSON.stringify(r.task_id)} is not of the form "Mbpp/<number>"`);
    inputAdapter = `mbpp:${number}`;
    aliases.push(`MBPP/${number}`);
  }
  const oracles = format === 'mbpp+' ? MBPP_ORACLES : HUMANEVAL_ORACLES;
  const oracle = Object.hasOwn(oracles, r.entry_point) ? oracles[r.entry_point] : undefined;
  const suite = (name: string, inputsJson: string): IoSuite => ({
    kind: 'io',
    name,
    entry: r.entry_point,
    inputsJson,
    atol: r.atol ?? 0,
    ...(oracle ? { oracle } : {}),
    ...(inputAdapter ? { inputAdapter } : {}),
  });
  return {
    task: {
      id: r.task_id,
      language: 'python',
      prompt: r.prompt,
      entryPoint: r.entry_point,
      completionPrefix: r.prompt,
      reference: r.prompt + r.canonical_solution,
      ...(r.contract?.trim() ? { contract: r.contract } : {}),
      knownWrong: [],
      suites: [suite('base', raw.base_input), suite('plus', raw.plus_input)],
      source: format,
    },
    aliases,
  };
}

const RAW = ['base_input', 'plus_input'];

export const mbppPlus: FormatSpec = {
  format: 'mbpp+',
  signature: ['base_input', 'plus_input', 'assertion'],
  rawFields: RAW,
  load: (record, where) => loadEvalPlus('mbpp+', record, where),
  datasetName: () => 'mbpp+',
};

export const humanevalPlus: FormatSpec = {
  format: 'humaneval+',
  signature: ['base_input', 'plus_input'],
  rawFields: RAW,
  load: (record, where) => loadEvalPlus('humaneval+', record, where),
  datasetName: () => 'humaneval+',
};
