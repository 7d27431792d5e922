/** OpenAI HumanEval: `prompt + completion`, then `test` and `check(entry_point)`. */
import { z } from 'zod';
import type { FormatSpec } from './types.js';
import { IDENTIFIER, validate } from './validate.js';

const Schema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  canonical_solution: z.string(),
  test: z.string(),
  entry_point: z.string().regex(IDENTIFIER, 'must be a function name'),
});

export const humaneval: FormatSpec = {
  format: 'humaneval',
  signature: ['task_id', 'prompt', 'canonical_solution', 'test', 'entry_point'],
  load(record, where) {
    const r = validate(Schema, record.values, where, 'HumanEval');
    return {
      task: {
        id: r.task_id,
        language: 'python',
        prompt: r.prompt,
        entryPoint: r.entry_point,
        completionPrefix: r.prompt,
        reference: r.prompt + r.canonical_solution,
        knownWrong: [],
        suites: [{ kind: 'script', name: 'base', code: r.test, invoke: `check(${r.entry_point})` }],
        source: 'humaneval',
      },
    };
  },
  datasetName: () => 'humaneval',
};
