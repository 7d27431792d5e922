/**
 * MultiPL-E translations (JavaScript, TypeScript): `prompt + completion + "\n" + tests`,
 * passing when the program exits normally. There is no reference solution.
 */
import { z } from 'zod';
import type { Language } from '../core/task.js';
import type { FormatSpec } from './types.js';
import { validate } from './validate.js';

const LANGUAGES: Readonly<Record<string, Language>> = {
  js: 'javascript',
  ts: 'typescript',
  javascript: 'javascript',
  typescript: 'typescript',
};

const Schema = z.object({
  name: z.string().min(1),
  language: z
    .string()
    .refine((l) => Object.hasOwn(LANGUAGES, l), { message: 'unsupported language (supported: js, ts)' }),
  prompt: z.string(),
  tests: z.string(),
  task_id: z.string().optional(),
});

/** "HumanEval_23_strlen" → "HumanEval/23"; "mbpp_3_is_not_prime" → "Mbpp/3"; anything else unchanged. */
export function multipleTaskId(name: string): string {
  const humaneval = /^HumanEval_(\d+)_/.exec(name);
  if (humaneval) return `HumanEval/${humaneval[1]}`;
  const mbpp = /^mbpp_(\d+)_/.exec(name);
  if (mbpp) return `Mbpp/${mbpp[1]}`;
  return name;
}

/** The name in the prompt's last `function NAME(`. */
export function lastFunctionName(prompt: string): string | undefined {
  let name: string | undefined;
  for (const m of prompt.matchAll(/\bfunction\s+([A-Za-z_$][\w$]*)\s*[(<]/g)) name = m[1];
  return name;
}

export const multiple: FormatSpec = {
  format: 'multipl-e',
  signature: ['name', 'language', 'prompt', 'tests'],
  load(record, where) {
    const r = validate(Schema, record.values, where, 'MultiPL-E');
    const entryPoint = lastFunctionName(r.prompt);
    if (!entryPoint)
      throw new Error(`${where}: MultiPL-E record ${JSON.stringify(r.name)}: no "function NAME(" in its prompt`);
    const id = multipleTaskId(r.name);
    const aliases = new Set([r.name, r.task_id ?? r.name]);
    aliases.delete(id);
    if (id.startsWith('Mbpp/')) aliases.add(id.replace('Mbpp/', 'MBPP/'));
    return {
      task: {
        id,
        language: LANGUAGES[r.language]!,
        prompt: r.prompt,
        entryPoint,
        completionPrefix: r.prompt,
        knownWrong: [],
        suites: [{ kind: 'script', name: 'base', code: r.tests }],
        source: 'multipl-e',
      },
      aliases: [...aliases],
    };
  },
  datasetName(first) {
    const benchmark = first.id.startsWith('HumanEval/')
      ? 'humaneval'
      : first.id.startsWith('Mbpp/')
        ? 'mbpp'
        : 'multipl-e';
    return `${benchmark}-${first.language === 'typescript' ? 'ts' : 'js'}`;
  },
};
