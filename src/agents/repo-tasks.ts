/**
 * Repository tasks for the agent, built from bug-fixing datasets: each task is a small
 * repository — the buggy module and its tests — as a person would have it on disk.
 * - HumanEvalFix (HumanEvalPack's buggy solutions), Python: `<entry>.py` and a unittest file;
 *   JavaScript: `<entry>.js` (CommonJS) and a node:test file whose console.assert fails the test.
 * - QuixBugs (Python): `<name>.py` and a unittest file, one test per assert line.
 * Each carries the dataset's fix (the module as it should be), for replaying it as the model's
 * edits (replayed-fix.ts) and for checking that the tests tell the fix from the bug.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { definitions } from './syntax.js';

export interface RepoTask {
  readonly id: string;
  readonly language: 'python' | 'javascript';
  /** What the agent is asked. */
  readonly instruction: string;
  /** Path → content: the repository as the agent gets it. */
  readonly files: Readonly<Record<string, string>>;
  /** The module to fix, and its content fixed (the dataset's solution). */
  readonly module: string;
  readonly fixed: string;
  readonly testCommand: string;
}

const PYTHON_TESTS = 'python3 -m unittest discover -t . -p "test_*.py"';
const JS_TESTS = 'node --test';

const humanEvalPackRow = z.object({
  task_id: z.string(),
  prompt: z.string(),
  canonical_solution: z.string(),
  buggy_solution: z.string(),
  test: z.string(),
  entry_point: z.string(),
});
const quixBugsRow = z.object({
  name: z.string(),
  buggy_program: z.string(),
  solution: z.string(),
  tests: z.string(),
  docstring: z.string().optional(),
});

/** Reads HumanEvalPack (Python or JavaScript; .jsonl or .jsonl.gz) or QuixBugs JSONL as repository tasks. */
export async function readRepoTasks(path: string): Promise<RepoTask[]> {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const lines = bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim());
  const tasks: RepoTask[] = [];
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${path}:${i + 1}: not JSON`);
    }
    const pack = humanEvalPackRow.safeParse(value);
    if (pack.success) {
      tasks.push(
        pack.data.task_id.startsWith('JavaScript/') ? await humanEvalFixJs(pack.data) : humanEvalFixPython(pack.data),
      );
      continue;
    }
    const quix = quixBugsRow.safeParse(value);
    if (quix.success) {
      tasks.push(quixBugs(quix.data));
      continue;
    }
    throw new Error(
      `${path}:${i + 1}: not a repository task (HumanEvalPack rows with buggy_solution, or QuixBugs rows with buggy_program)`,
    );
  }
  return tasks;
}

function humanEvalFixPython(row: z.infer<typeof humanEvalPackRow>): RepoTask {
  const entry = row.entry_point;
  const module = `${entry}.py`;
  // The dataset's tests end by calling check(entry) at the top level: the test method does instead.
  const check = row.test.replace(/\n\s*check\(\s*\w+\s*\)\s*$/, '\n');
  const tests = `import unittest\n\nfrom ${entry} import *  # noqa: F403 (the task's helpers too)\n\n${check.trim()}\n\n\nclass Test${pascal(entry)}(unittest.TestCase):\n    def test_${entry}(self):\n        check(${entry})\n\n\nif __name__ == "__main__":\n    unittest.main()\n`;
  return {
    id: row.task_id,
    language: 'python',
    instruction: `Fix the bugs in \`${entry}\` in ${module}: the tests in test_${entry}.py must pass.`,
    files: { [module]: row.prompt + row.buggy_solution, [`test_${entry}.py`]: tests },
    module,
    fixed: row.prompt + row.canonical_solution,
    testCommand: PYTHON_TESTS,
  };
}

async function humanEvalFixJs(row: z.infer<typeof humanEvalPackRow>): Promise<RepoTask> {
  const entry = row.entry_point;
  const module = `${entry}.js`;
  const exported = async (code: string) => {
    // Every top-level definition (the tests may call the prompt's helpers, e.g. encodeCyclic).
    const names = (await definitions(module, code)).map((d) => d.name).filter((name) => !name.includes('.'));
    return `${code.trimEnd()}\n\nmodule.exports = { ${[...new Set(names)].join(', ')} };\n`;
  };
  const names = (await definitions(module, row.prompt + row.canonical_solution))
    .map((d) => d.name)
    .filter((name) => !name.includes('.'));
  const tests = `const test = require('node:test');\nconst assert = require('node:assert');\nconst { ${[...new Set(names)].join(', ')} } = require('./${module}');\n\ntest('${entry}', () => {\n  // The dataset's checks use console.assert, which only logs: here a failed one fails the test.\n  const console = { ...globalThis.console, assert: (ok, ...message) => assert.ok(ok, message.join(' ') || 'console.assert failed') };\n${indent(row.test.trim())}\n});\n`;
  return {
    id: row.task_id,
    language: 'javascript',
    instruction: `Fix the bugs in \`${entry}\` in ${module}: the tests in ${entry}.test.js must pass.`,
    files: { [module]: await exported(row.prompt + row.buggy_solution), [`${entry}.test.js`]: tests },
    module,
    fixed: await exported(row.prompt + row.canonical_solution),
    testCommand: JS_TESTS,
  };
}

function quixBugs(row: z.infer<typeof quixBugsRow>): RepoTask {
  const module = `${row.name}.py`;
  const lines = row.tests.split('\n').filter((line) => line.trim());
  // One test per assert when the tests are a list of asserts; else the whole script is one test.
  const methods = lines.every((line) => line.startsWith('assert '))
    ? lines.map((line, i) => `    def test_${i + 1}(self):\n        ${line}\n`).join('\n')
    : `    def test_${row.name}(self):\n        exec(compile(TESTS, "tests", "exec"), dict(globals()))\n`;
  const script = lines.every((line) => line.startsWith('assert ')) ? '' : `TESTS = ${JSON.stringify(row.tests)}\n\n\n`;
  const tests = `import unittest\n\nfrom ${row.name} import *  # noqa: F403\n\n${script}class Test${pascal(row.name)}(unittest.TestCase):\n${methods}\n\nif __name__ == "__main__":\n    unittest.main()\n`;
  const docstring = row.docstring ? `${row.docstring}\n` : '';
  return {
    id: `QuixBugs/${row.name}`,
    language: 'python',
    instruction:
      `Fix the bug in \`${row.name}\` in ${module} (a one-line bug): the tests in test_${row.name}.py must pass.\n\n${docstring}`.trim(),
    files: { [module]: `${row.buggy_program.trimEnd()}\n`, [`test_${row.name}.py`]: tests },
    module,
    fixed: `${row.solution.trimEnd()}\n`,
    testCommand: PYTHON_TESTS,
  };
}

/** Writes the task's repository into `dir` (created). */
export async function writeRepo(task: RepoTask, dir: string): Promise<void> {
  for (const [path, content] of Object.entries(task.files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

const pascal = (name: string) => name.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
const indent = (code: string) =>
  code
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
