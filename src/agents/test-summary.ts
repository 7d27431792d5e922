/**
 * What a test run says, read from its output: passed and failed counts from the summaries of
 * unittest, pytest and node:test, and the failures themselves cut to what matters (each failing
 * test's block, not the whole log), for the agent and for `crucible agent`'s before/after.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface TestSummary {
  /** Which runner's summary was read; `unknown` when none was found (then only the exit code counts). */
  readonly runner: 'unittest' | 'pytest' | 'node:test' | 'unknown';
  readonly passed: number;
  readonly failed: number;
  /** The failing tests' output, cut to at most MAX_FAILURE_TEXT. */
  readonly failures: string;
}

export const MAX_FAILURE_TEXT = 6000;

export function summarizeTests(output: string, exitCode: number | null): TestSummary {
  return unittest(output) ?? pytest(output) ?? nodeTest(output) ?? unknown(output, exitCode);
}

function unittest(output: string): TestSummary | undefined {
  const ran = /^Ran (\d+) tests? in [\d.]+s$/m.exec(output);
  if (!ran) return undefined;
  const total = Number(ran[1]);
  const verdict = /^(OK|FAILED)(?: \(([^)]*)\))?$/m.exec(output.slice(ran.index));
  const counts = Object.fromEntries(
    [...(verdict?.[2] ?? '').matchAll(/(\w+)=(\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const),
  );
  const failed = (counts.failures ?? 0) + (counts.errors ?? 0);
  const skipped = (counts.skipped ?? 0) + (counts['expected failures'] ?? 0);
  // The blocks between the ===== lines, up to the ---- line before "Ran".
  const blocks = output.split(/^={50,}$/m).slice(1);
  const failures = blocks.map((b) => b.split(/^-{50,}\nRan /m)[0]!.trim()).join('\n\n');
  return { runner: 'unittest', passed: Math.max(0, total - failed - skipped), failed, failures: cut(failures) };
}

function pytest(output: string): TestSummary | undefined {
  const line = [...output.matchAll(/^=+ (.*\b(?:passed|failed|error|errors)\b.*) in [\d.]+s.* =+$/gm)].pop();
  if (!line) return undefined;
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line[1]!)?.[1] ?? 0);
  const failures = /^=+ FAILURES =+$([\s\S]*?)^=+ short test summary/m.exec(output)?.[1] ?? '';
  return {
    runner: 'pytest',
    passed: count('passed'),
    failed: count('failed') + count('errors?'),
    failures: cut(failures.trim()),
  };
}

function nodeTest(output: string): TestSummary | undefined {
  const pass = [...output.matchAll(/^# pass (\d+)$/gm)].pop();
  const fail = [...output.matchAll(/^# fail (\d+)$/gm)].pop();
  if (!pass || !fail) return undefined;
  // Each `not ok` block (TAP) up to the next test line: its YAML has expected, actual and the stack.
  const blocks = [...output.matchAll(/^( *)not ok \d+ - .*$[\s\S]*?^\1 {2}\.\.\.$/gm)].map((m) => m[0]);
  return { runner: 'node:test', passed: Number(pass[1]), failed: Number(fail[1]), failures: cut(blocks.join('\n')) };
}

function unknown(output: string, exitCode: number | null): TestSummary {
  // No summary: the command passed or failed as a whole.
  return {
    runner: 'unknown',
    passed: exitCode === 0 ? 1 : 0,
    failed: exitCode === 0 ? 0 : 1,
    failures: exitCode === 0 ? '' : cut(output.slice(-MAX_FAILURE_TEXT)),
  };
}

const cut = (text: string) =>
  text.length <= MAX_FAILURE_TEXT
    ? text
    : `${text.slice(0, MAX_FAILURE_TEXT)}\n[… ${text.length - MAX_FAILURE_TEXT} more characters]`;

/**
 * The test command a repository shows: `npm test` with a test script, unittest with Python
 * test files, node's runner with JavaScript ones; undefined when there is nothing to run.
 */
export async function defaultTestCommand(root: string): Promise<string | undefined> {
  const files = await walk(root, 3);
  if (files.includes('package.json')) {
    const { readFile } = await import('node:fs/promises');
    try {
      const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts?: { test?: string } };
      if (pkg.scripts?.test && !/no test specified/.test(pkg.scripts.test)) return 'npm test';
    } catch {
      // Not JSON: not a package to ask.
    }
  }
  if (files.some((f) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(f)))
    return 'python3 -m unittest discover -t . -p "*test*.py"';
  if (files.some((f) => /\.test\.(c|m)?js$|(^|\/)test\/[^/]*\.(c|m)?js$/.test(f))) return 'node --test';
  return undefined;
}

async function walk(root: string, depth: number, prefix = ''): Promise<string[]> {
  if (depth < 0) return [];
  const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await walk(root, depth - 1, path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}
