/** QuixBugs (OctoPack's Python packaging): a correct and a buggy program per task, with asserts. */
import { escapeRegExp } from '../core/regexp.js';
import { z } from 'zod';
import type { FormatSpec } from './types.js';
import { IDENTIFIER, validate } from './validate.js';

const Schema = z.object({
  name: z.string().regex(IDENTIFIER, 'must be a function name'),
  buggy_program: z.string(),
  solution: z.string(),
  tests: z.string(),
  docstring: z.string(),
});

export const quixbugs: FormatSpec = {
  format: 'quixbugs',
  signature: ['name', 'buggy_program', 'solution', 'tests'],
  load(record, where) {
    const r = validate(Schema, record.values, where, 'QuixBugs');
    const signature = new RegExp(`^def\\s+${escapeRegExp(r.name)}\\s*\\(.*$`, 'm').exec(r.solution)?.[0];
    if (!signature)
      throw new Error(`${where}: QuixBugs record ${JSON.stringify(r.name)}: its solution has no "def ${r.name}(" line`);
    return {
      task: {
        id: `QuixBugs/${r.name}`,
        language: 'python',
        prompt: `${r.docstring}\n${signature}\n`,
        entryPoint: r.name,
        completionPrefix: '',
        reference: r.solution,
        knownWrong: [{ label: 'buggy', program: r.buggy_program }],
        suites: [{ kind: 'script', name: 'base', code: r.tests }],
        source: 'quixbugs',
      },
      aliases: [r.name],
    };
  },
  datasetName: () => 'quixbugs-python',
};
