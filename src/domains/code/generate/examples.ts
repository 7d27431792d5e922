/**
 * The examples a prompt shows (`>>> f(1, 2)` / `3`, `f(1, 2) == 3`, `f(1, 2) ➞ 3`): their
 * inputs seed generation and, with their outputs, they are the public tests that
 * selection may use (never the dataset's hidden tests).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { escapeRegExp } from '../../../core/regexp.js';
import type { Language, ScriptSuite } from '../../../core/task.js';
import { isMessage, LineProcess } from '../../../runtimes/line-process.js';
import { PYTHON_FLAGS, resolvePythonInstall } from '../../../runtimes/recipes.js';

export interface PromptExample {
  /** Source text of the arguments and of the expected output, as the prompt writes them. */
  readonly argsText: string;
  readonly outputText: string;
}

// `(.+)` then a trim, not `(.+?)\s*$`: that backtracked quadratically on trailing spaces (a prompt arrives over HTTP).
const OUTPUT_ARROW = /^\s*(?:==>|=>|==|->|➞|➞|→|=|should\s+return|returns?)\s*(.+)$/;

/**
 * The examples of calls to `entry` in a prompt, in order, without duplicates, keeping only
 * those whose arguments and output read as literals of the language: prose, recurrences
 * (`fib(n-1) + fib(n-2)`) and cut-off outputs are not examples.
 */
export function findPromptExamples(prompt: string, entry: string, language: Language): PromptExample[] {
  const found = findExampleText(prompt, entry);
  const read = readLiterals(
    language,
    found.flatMap((e) => [`[${e.argsText}]`, e.outputText]),
  );
  return found.filter((_, i) => read[2 * i] !== undefined && read[2 * i + 1] !== undefined);
}

function findExampleText(prompt: string, entry: string): PromptExample[] {
  const lines = prompt.split('\n');
  const found: PromptExample[] = [];
  const seen = new Set<string>();
  const add = (argsText: string, outputText: string) => {
    const output = outputText
      .replace(/^\s*(?:#|\/\/|\*)\s?/, '')
      .replace(/[.,;]$/, '')
      .trim();
    const key = `${argsText}\u0000${output}`;
    if (output.length === 0 || seen.has(key)) return;
    seen.add(key);
    found.push({ argsText, outputText: output });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const call = callAt(line, entry);
    if (!call || /\b(def|function)\s*$/.test(line.slice(0, call.start))) continue;
    const rest = line.slice(call.end);
    const arrow = OUTPUT_ARROW.exec(rest)?.[1]!.trim();
    if (arrow) add(call.args, arrow);
    else if (/>>>/.test(line.slice(0, call.start)) && i + 1 < lines.length && !/>>>/.test(lines[i + 1]!))
      add(call.args, lines[i + 1]!);
  }
  return found;
}

/**
 * The arguments of every call of `entry` the prompt shows, with or without a stated
 * output (MBPP's `assert set(f(a, b)) == ...`): they seed generation even when the
 * expected output cannot be read.
 */
export function findPromptCallArguments(prompt: string, entry: string): string[] {
  const found = new Set<string>();
  for (const line of prompt.split('\n')) {
    const call = callAt(line, entry);
    if (call && !/\b(def|function)\s*$/.test(line.slice(0, call.start)) && call.args.trim()) found.add(call.args);
  }
  return [...found];
}

/** The first call `entry(...)` on a line: where it starts, its argument text and where it ends. */
function callAt(line: string, entry: string): { start: number; args: string; end: number } | undefined {
  const match = new RegExp(`(?<![\\w.])${escapeRegExp(entry)}\\s*\\(`).exec(line);
  if (!match) return undefined;
  const open = match.index + match[0].length - 1;
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && --depth === 0)
      return { start: match.index, args: line.slice(open + 1, i), end: i + 1 };
  }
  return undefined;
}

const LITERALS_SCRIPT = fileURLToPath(new URL('./py_literals.py', import.meta.url));

/**
 * Reads literals to the JSON text of their wire encoding: Python's through
 * `ast.literal_eval` in a separate python3 (which evaluates no code, only literals),
 * JavaScript's as JSON. `undefined` where the text is not a literal.
 */
export function readLiterals(language: Language, texts: readonly string[]): (string | undefined)[] {
  const missing = unread(language, texts);
  return remembered(language, texts, missing, readFreshLiterals(language, missing));
}

/**
 * `readLiterals` for texts met while solving (model-written tests, attack inputs): one
 * long-lived python3 reads them, so a call costs a pipe round trip instead of starting
 * an interpreter (20+ ms, most of a strategy's own time per task).
 */
export async function readLiteralsAsync(language: Language, texts: readonly string[]): Promise<(string | undefined)[]> {
  const missing = unread(language, texts);
  const read =
    missing.length > 0 && language === 'python' ? await readWithServer(missing) : readFreshLiterals(language, missing);
  return remembered(language, texts, missing, read);
}

let server: LineProcess | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** One request at a time; a reader that dies or hangs is replaced and the texts read the slow way. */
function readWithServer(texts: readonly string[]): Promise<(string | undefined)[]> {
  const turn = queue.then(async () => {
    if (!server || server.isClosed) {
      server = new LineProcess({
        file: resolvePythonInstall().executable,
        args: [...PYTHON_FLAGS, LITERALS_SCRIPT, '--serve'],
        env: {},
      });
      server.unref();
    }
    const reader = server;
    const reply = reader.send({ texts }) ? await reader.next(10_000) : undefined;
    if (reply && isMessage(reply) && Array.isArray(reply.read) && reply.read.length === texts.length) {
      return (reply.read as (string | null)[]).map((v) => v ?? undefined);
    }
    reader.kill();
    server = undefined;
    return readFreshLiterals('python', texts);
  });
  queue = turn.catch(() => undefined);
  return turn;
}

/** Literals already read (prompt texts repeat across candidates and strategies): no second Python process. */
const LITERALS = new Map<string, string | null>();
const literalKey = (language: Language, text: string) => `${language}\u0000${text}`;

/** The distinct texts not read yet. */
function unread(language: Language, texts: readonly string[]): string[] {
  return [...new Set(texts.filter((t) => !LITERALS.has(literalKey(language, t))))];
}

/** Keeps what was just read of `missing`, and answers `texts` from what is kept. */
function remembered(
  language: Language,
  texts: readonly string[],
  missing: readonly string[],
  read: readonly (string | undefined)[],
): (string | undefined)[] {
  missing.forEach((t, i) => {
    if (LITERALS.size >= 50_000) LITERALS.delete(LITERALS.keys().next().value!);
    LITERALS.set(literalKey(language, t), read[i] ?? null);
  });
  return texts.map((t) => LITERALS.get(literalKey(language, t)) ?? undefined);
}

function readFreshLiterals(language: Language, texts: readonly string[]): (string | undefined)[] {
  if (texts.length === 0) return [];
  if (language !== 'python') {
    return texts.map((t) => {
      try {
        return JSON.stringify(
          JSON.parse(t.replace(/'((?:[^'\\]|\\.)*)'/g, (_, s: string) => JSON.stringify(s.replace(/\\'/g, "'")))),
        );
      } catch {
        return undefined;
      }
    });
  }
  const { executable } = resolvePythonInstall();
  const out = execFileSync(executable, [...PYTHON_FLAGS, LITERALS_SCRIPT], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return (JSON.parse(out) as (string | null)[]).map((v) => v ?? undefined);
}

/** The examples' argument lists as JSON text (only those that are plain literals). */
export function exampleArgumentTexts(language: Language, examples: readonly PromptExample[]): string[] {
  // Read as a list literal: Python encodes it as a list, a 1-tuple would need a trailing comma.
  return readLiterals(
    language,
    examples.map((e) => `[${e.argsText}]`),
  ).filter((t): t is string => t !== undefined && t.startsWith('['));
}

/**
 * One script suite per example ("public/1", "public/2", ...), so a candidate's public pass
 * rate counts examples, not suites. Python compares with `==` (floats to 1e-6); JavaScript
 * with node:assert's deep equality.
 */
export function publicSuites(language: Language, entry: string, examples: readonly PromptExample[]): ScriptSuite[] {
  return examples.map((example, i) => {
    const name = `public/${i + 1}`;
    if (language === 'python') {
      const code =
        `def check(candidate):\n    got = candidate(${example.argsText})\n    want = ${example.outputText}\n` +
        `    assert got == want or (isinstance(want, float) and isinstance(got, (int, float)) and abs(got - want) <= 1e-6 * max(1.0, abs(want))), ` +
        `"expected %r, got %r" % (want, got)\n`;
      return { kind: 'script', name, code, invoke: `check(${entry})` };
    }
    const code = `const assert = require('node:assert');\nassert.deepStrictEqual(${entry}(${example.argsText}), ${example.outputText});\n`;
    return { kind: 'script', name, code };
  });
}
