/**
 * HumanEvalPack (OctoPack) Python and JavaScript, with one human-written buggy solution per
 * task. Program = `prompt + solution`, then `"\n" + test` (the tests call themselves), as in
 * the bigcode-evaluation-harness humanevalpack task.
 */
import { z } from 'zod';
import type { Language, ScriptSuite } from '../core/task.js';
import type { FormatSpec } from './types.js';
import { IDENTIFIER, validate } from './validate.js';

const LANGUAGES: Readonly<Record<string, Language>> = { Python: 'python', JavaScript: 'javascript' };

/** Name of the suite built from `example_test` (the docstring examples): the tests a model may see. */
export const EXAMPLE_SUITE = 'example';

const Schema = z.object({
  task_id: z
    .string()
    .regex(/^[^/]+\/\d+$/, 'must look like "Python/0"')
    .refine((id) => Object.hasOwn(LANGUAGES, id.split('/')[0]!), {
      message: 'unsupported language (supported: Python, JavaScript)',
    }),
  prompt: z.string(),
  declaration: z.string(),
  canonical_solution: z.string(),
  buggy_solution: z.string(),
  test: z.string(),
  example_test: z.string().optional(),
  entry_point: z.string().regex(IDENTIFIER, 'must be a function name'),
});

export const humanevalpack: FormatSpec = {
  format: 'humanevalpack',
  signature: ['task_id', 'declaration', 'buggy_solution'],
  load(record, where) {
    const r = validate(Schema, record.values, where, 'HumanEvalPack');
    const [lang, number] = r.task_id.split('/') as [string, string];
    const publicTest: ScriptSuite | undefined = r.example_test?.trim()
      ? { kind: 'script', name: EXAMPLE_SUITE, code: r.example_test }
      : undefined;
    return {
      task: {
        id: r.task_id,
        language: LANGUAGES[lang]!,
        prompt: r.prompt,
        entryPoint: r.entry_point,
        completionPrefix: r.prompt,
        reference: r.prompt + r.canonical_solution,
        knownWrong: [{ label: 'buggy', program: r.prompt + r.buggy_solution }],
        suites: [{ kind: 'script', name: 'base', code: r.test }],
        source: 'humanevalpack',
      },
      aliases: [`HumanEval/${number}`],
      ...(publicTest ? { publicTest } : {}),
    };
  },
  datasetName: (first) => `humanevalpack-${first.language === 'python' ? 'python' : 'js'}`,
};
