/**
 * A prompt (and a model's reply) arrives over HTTP: the patterns Crucible runs over them on its
 * event loop must be linear. Each of these backtracked quadratically (seconds per 40 KB; hours
 * per megabyte) before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Task } from '../../src/core/task.js';
import { findPromptExamples } from '../../src/domains/code/generate/examples.js';
import { parsePythonSignature, parseTypeScriptSignature } from '../../src/domains/code/generate/types.js';
import { promptHelpers } from '../../src/core/prompt-helpers.js';
import { definesEntry } from '../../src/domains/code/extract.js';

const task = (language: Task['language'], prompt: string): Task => ({
  id: 'h',
  language,
  prompt,
  entryPoint: 'f',
  completionPrefix: '',
  knownWrong: [],
  source: 'test',
  suites: [],
});
const MB = 1 << 20;

test('patterns over a prompt stay linear on a megabyte of blank lines, spaces and arrows', { timeout: 30_000 }, () => {
  const blank = '\n'.repeat(MB);
  const spaces = `function${' '.repeat(MB)}`;
  assert.equal(promptHelpers(task('python', blank)), undefined);
  assert.equal(promptHelpers(task('javascript', spaces)), undefined);
  assert.equal(parsePythonSignature(blank, 'f'), undefined);
  assert.equal(parseTypeScriptSignature(spaces, 'f'), undefined);
  assert.equal(definesEntry({ language: 'python', entryPoint: 'f' }, blank), false);
  assert.equal(definesEntry({ language: 'javascript', entryPoint: 'f' }, spaces), false);
  // Not a value it can read: the point is that reading it ends.
  assert.ok(Array.isArray(findPromptExamples(`f(1) => x${' '.repeat(MB)}y\n`, 'f', 'python')));
});

test('the same patterns still find what they look for', () => {
  assert.equal(promptHelpers(task('javascript', 'const g = 1;\nfunction * f() {\n'))?.code, 'const g = 1;\n');
  assert.ok(parsePythonSignature('import x\n\ndef f(a: int) -> int:\n', 'f'));
  assert.equal(definesEntry({ language: 'javascript', entryPoint: 'f' }, 'function* f(x) {}'), true);
  assert.equal(definesEntry({ language: 'python', entryPoint: 'f' }, '    async def f(x):'), true);
  assert.deepEqual(
    findPromptExamples('>>> f(2)  ➞  4  \n', 'f', 'python').map((e) => e.outputText),
    ['4'],
  );
});
