/**
 * An in-memory `Runtime` (src/runtimes/runtime.ts): no sandbox, no interpreter for the
 * candidates. What a program does is given by the test, in one of two ways:
 *
 * - **scripted**: an outcome per suite (`suites`), or one status for every suite (`status`;
 *   default `pass`), or a whole `RunResult` (`result`), or a load failure (`loadError`);
 * - **modelled**: JavaScript stand-ins for the program's functions (`functions`). io suites
 *   call them on each decoded input, comparing with the expected outputs or, in record mode,
 *   recording what they return (so a Harness can take a reference's outputs as the expected
 *   ones, and generated inputs, shrinking and `observe` work); the script suites Crucible
 *   writes for examples and model tests (`publicSuites`: one call and its expected value)
 *   are read and run too (Python literals are read by python3's `ast.literal_eval`, as
 *   Crucible reads prompt examples — no candidate code runs).
 *
 * Limits, said where they bite (each is an `InMemoryRuntimeError`, never a silent pass):
 * a record run of an io suite needs `functions` or scripted `outputs`; a modelled program
 * meets a script suite Crucible did not write (a dataset's `check` code) only through
 * `suites` or `status`; EvalPlus oracles (`oracle`) and input adapters are not modelled.
 * Outputs are encoded as JSON: a JavaScript number is an int when it is whole, an array a
 * list (return `{ $t: 'tuple', v: [...] }` for a tuple); `throw new ProgramError('KeyError')`
 * is a raised exception, `throw new ProgramTimeout()` a time limit reached on that input.
 * The empty program with no suites (the Harness's probe of its limits) always loads.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Language } from '../core/task.js';
import { parseJsonLoose } from '../core/raw-json.js';
import { decodeWire } from '../core/wire-values.js';
import type { Failure } from '../core/verdict.js';
import type { RawSuiteStatus, RunRequest, RunResult, Runtime, SuiteOutcome, TimedSuite } from '../runtimes/runtime.js';
import { readLiteralsAsync } from '../domains/code/generate/examples.js';

/** A suite's outcome as a test scripts it: a status, or the fields of the outcome (name and totals filled in). */
export type SuiteScript = RawSuiteStatus | (Partial<Omit<SuiteOutcome, 'name'>> & { readonly status: RawSuiteStatus });

/** What one program does, as far as the runtime is concerned. */
export interface InMemoryProgram {
  /** JavaScript stand-ins for the program's functions, by name (the entry point at least). */
  readonly functions?: Readonly<Record<string, (...args: any[]) => unknown>>;
  /** Outcomes by suite name, or a function of the suite (undefined: not scripted); consulted before `functions`. */
  readonly suites?:
    Readonly<Record<string, SuiteScript>> | ((suite: TimedSuite, request: RunRequest) => SuiteScript | undefined);
  /** Every suite neither scripted nor modelled gets this status (default `pass` for a program without `functions`). */
  readonly status?: RawSuiteStatus;
  /** The program does not load (e.g. `SyntaxError: invalid syntax`): every run says so. */
  readonly loadError?: string;
  /** The whole result of every run (a `no-verdict`, a `hung` run), or a function of the request. */
  readonly result?: RunResult | ((request: RunRequest) => RunResult);
}

/** A program the runtime knows: its text (compared without trailing whitespace), a pattern, or a predicate. */
export interface ProgramEntry extends InMemoryProgram {
  readonly match: string | RegExp | ((program: string) => boolean);
}

export interface InMemoryRuntimeOptions {
  /** Default `python`: how literals are read and failures shown (Python's repr, or JSON). */
  readonly language?: Language;
  /** The first entry that matches a program decides what it does. */
  readonly programs?: readonly ProgramEntry[];
  /** A program no entry matches (default: `{ status: 'pass' }`, every suite passes). */
  readonly otherwise?: InMemoryProgram;
}

export interface InMemoryRuntime extends Runtime {
  /** Every run request, in order. */
  readonly runs: readonly RunRequest[];
  /** Adds a program (it matches before the ones given at creation). */
  add(entry: ProgramEntry): void;
}

/** What the in-memory runtime cannot answer: raised from `run`, so the test fails naming the gap. */
export class InMemoryRuntimeError extends Error {
  override readonly name = 'InMemoryRuntimeError';
}

/** Thrown by a stand-in function: the program raised `name` (Python's exception class, or JavaScript's error name). */
export class ProgramError extends Error {
  constructor(name: string, message = '') {
    super(message);
    this.name = name;
  }
}

/** Thrown by a stand-in function: the call ran past its time limit (the suite stops there, as the judge stops a candidate). */
export class ProgramTimeout extends Error {
  override readonly name = 'ProgramTimeout';
}

/** Seconds each modelled call and script "takes" (recorded times feed the Harness's time limits). */
const SECONDS = 0.001;

export function createInMemoryRuntime(options: InMemoryRuntimeOptions = {}): InMemoryRuntime {
  const language = options.language ?? 'python';
  const entries: ProgramEntry[] = [...(options.programs ?? [])];
  const otherwise: InMemoryProgram = options.otherwise ?? { status: 'pass' };
  const runs: RunRequest[] = [];
  let closed = false;

  const find = (program: string): InMemoryProgram =>
    entries.find((entry) => matches(entry.match, program)) ?? otherwise;

  async function run(request: RunRequest): Promise<RunResult> {
    runs.push(request);
    if (closed) return { kind: 'no-verdict', why: 'the in-memory runtime is closed' };
    if (request.signal?.aborted) return { kind: 'no-verdict', why: 'the run was abandoned' };
    if (request.program.trim() === '' && request.suites.length === 0) return ran([]);
    const program = find(request.program);
    if (program.result) return typeof program.result === 'function' ? program.result(request) : program.result;
    if (program.loadError !== undefined)
      return { kind: 'ran', load: { ok: false, status: 'error', message: program.loadError }, suites: [] };
    const suites: SuiteOutcome[] = [];
    let stopped = false;
    for (const suite of request.suites) {
      if (stopped) {
        suites.push({ name: suite.name, status: 'skipped', passed: 0, total: suiteTotal(suite), firstFailure: null });
        continue;
      }
      const outcome = await runSuite(program, suite, request);
      suites.push(outcome);
      // The judge stops a candidate that timed out, ran out of memory or died: later suites are not run.
      stopped = outcome.status === 'timeout' || outcome.status === 'memory' || outcome.status === 'crashed';
    }
    return ran(suites);
  }

  async function runSuite(program: InMemoryProgram, suite: TimedSuite, request: RunRequest): Promise<SuiteOutcome> {
    const record = request.record === true;
    const scripted =
      typeof program.suites === 'function' ? program.suites(suite, request) : program.suites?.[suite.name];
    if (scripted !== undefined) return scriptedOutcome(scripted, suite, record, request.program);
    if (program.functions) {
      if (suite.kind === 'io') return runIo(program.functions, suite, record, language);
      const call = await crucibleScriptCall(suite, language);
      if (call) return runCall(program.functions, suite, call, record, language);
      if (program.status === undefined) {
        throw new InMemoryRuntimeError(
          `in-memory runtime: script suite "${suite.name}" is not one Crucible wrote (one call and its expected value), so the stand-in functions cannot run it; ` +
            `script its outcome in the program's \`suites\` (or give the program a \`status\`). Program: ${excerpt(request.program)}`,
        );
      }
    }
    return scriptedOutcome(program.status ?? 'pass', suite, record, request.program);
  }

  return {
    language,
    runs,
    add: (entry) => void entries.unshift(entry),
    run,
    close: async () => {
      closed = true;
    },
  };
}

function ran(suites: SuiteOutcome[]): RunResult {
  return { kind: 'ran', load: { ok: true }, suites, exit: { code: 0, signal: null, outputBytes: 0 } };
}

function matches(match: ProgramEntry['match'], program: string): boolean {
  if (typeof match === 'string') return match.trimEnd() === program.trimEnd();
  if (match instanceof RegExp) return match.test(program);
  return match(program);
}

function excerpt(program: string): string {
  const text = program.trim().split('\n').slice(0, 2).join(' / ');
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 97)}...` : text);
}

function suiteTotal(suite: TimedSuite): number {
  if (suite.kind === 'script') return 1;
  const inputs = parseJsonLoose(suite.inputsJson);
  return Array.isArray(inputs) ? inputs.length : 0;
}

function scriptedOutcome(script: SuiteScript, suite: TimedSuite, record: boolean, program: string): SuiteOutcome {
  const fields = typeof script === 'string' ? { status: script } : script;
  const total = fields.total ?? suiteTotal(suite);
  const pass = fields.status === 'pass';
  if (record && suite.kind === 'io' && pass && fields.outputs === undefined) {
    throw new InMemoryRuntimeError(
      `in-memory runtime: io suite "${suite.name}" is run in record mode (a reference's outputs become the expected ones, or inputs are observed), ` +
        `but the program has only a scripted status: give it \`functions\` (stand-ins the runtime can call) or script the suite's \`outputs\`. Program: ${excerpt(program)}`,
    );
  }
  const failure: Failure | null = pass
    ? null
    : { input: null, expected: null, actual: null, message: `in-memory runtime: scripted ${fields.status}` };
  return {
    passed: pass ? total : 0,
    firstFailure: failure,
    ...(record && suite.kind === 'script' ? { elapsed: SECONDS } : {}),
    ...fields,
    name: suite.name,
    total,
  };
}

type Functions = NonNullable<InMemoryProgram['functions']>;

/** Runs an io suite on the stand-ins: compare with `expectedJson`, or record. */
function runIo(
  functions: Functions,
  suite: Extract<TimedSuite, { kind: 'io' }>,
  record: boolean,
  language: Language,
): SuiteOutcome {
  if (suite.inputAdapter)
    throw new InMemoryRuntimeError(
      `in-memory runtime: io suite "${suite.name}" has the input adapter ${suite.inputAdapter}, which is not modelled`,
    );
  if (suite.oracle && !record)
    throw new InMemoryRuntimeError(
      `in-memory runtime: io suite "${suite.name}" compares with the oracle ${suite.oracle}, which is not modelled`,
    );
  const inputs = decodeWire(parseJsonLoose(suite.inputsJson)) as unknown[][];
  const total = inputs.length;
  const expected = record ? [] : expectedValues(suite, language);
  const fn = functions[suite.entry];
  if (!fn)
    return {
      name: suite.name,
      status: 'error',
      passed: 0,
      total,
      firstFailure: missingFunction(suite.entry, language),
    };
  const show = shower(language);
  const outputs: unknown[] = [];
  const times: number[] = [];
  let passed = 0;
  let status: RawSuiteStatus = 'pass';
  let first: Failure | undefined;
  let failedAt: number | undefined;
  const fail = (i: number, next: RawSuiteStatus, failure: Failure) => {
    if (first) return;
    first = failure;
    failedAt = i;
    status = next;
  };
  for (let i = 0; i < inputs.length; i++) {
    const args = inputs[i]!;
    const want = () => (record ? null : show(expected[i]));
    let out: unknown;
    try {
      out = fn(...structuredClone(args));
    } catch (error) {
      if (error instanceof ProgramTimeout) {
        const limit = suite.limits?.[i] ?? suite.limit ?? 10;
        fail(i, 'timeout', {
          input: show(args),
          expected: want(),
          actual: null,
          message: `time limit of ${limit.toFixed(2)}s exceeded`,
        });
        break;
      }
      const name = errorName(error);
      fail(i, name === 'MemoryError' ? 'memory' : 'fail', {
        input: show(args),
        expected: want(),
        actual: null,
        message: `${name}: ${(error as Error)?.message ?? ''}`,
      });
      if (record) {
        outputs.push({ $raised: name });
        times.push(SECONDS);
      }
      continue;
    }
    const encoded = JSON.stringify(toWire(out, language));
    if (record) {
      // Python's judge records each output as its encoded text; JavaScript's as the wire value.
      outputs.push(language === 'python' ? encoded : JSON.parse(encoded));
      times.push(SECONDS);
      passed++;
      continue;
    }
    const got = decodeWire(JSON.parse(encoded));
    if (sameValue(got, expected[i], suite.atol ?? 0)) passed++;
    else
      fail(i, 'fail', {
        input: show(args),
        expected: want(),
        actual: show(got),
        message: 'output differs from expected',
      });
  }
  return {
    name: suite.name,
    status,
    passed,
    total,
    firstFailure: first ?? null,
    ...(failedAt !== undefined ? { failedAt } : {}),
    ...(record ? { outputs: JSON.stringify(outputs), times } : {}),
  };
}

function expectedValues(suite: Extract<TimedSuite, { kind: 'io' }>, language: Language): unknown[] {
  if (suite.expectedJson === undefined)
    throw new InMemoryRuntimeError(
      `in-memory runtime: io suite "${suite.name}" has no expected outputs and is not a record run`,
    );
  const items = parseJsonLoose(suite.expectedJson) as unknown[];
  return items.map((item) => {
    if (item && typeof item === 'object' && 'sha256' in item)
      throw new InMemoryRuntimeError(
        `in-memory runtime: io suite "${suite.name}" expects an output kept as its SHA-256, which is not modelled`,
      );
    return decodeWire(language === 'python' && typeof item === 'string' ? parseJsonLoose(item) : item);
  });
}

/** One call and its expected value, read from a script suite `publicSuites` wrote. */
interface ScriptCall {
  readonly entry: string;
  readonly args: unknown[];
  readonly want: unknown;
}

const PYTHON_CALL = /^def check\(candidate\):\n {4}got = candidate\((.*)\)\n {4}want = (.*)\n {4}assert got == want/;
const JAVASCRIPT_CALL = /^const assert = require\('node:assert'\);\nassert\.deepStrictEqual\(([A-Za-z_$][\w$]*)\(/;

async function crucibleScriptCall(
  suite: Extract<TimedSuite, { kind: 'script' }>,
  language: Language,
): Promise<ScriptCall | undefined> {
  let entry: string | undefined;
  let argsText: string | undefined;
  let wantText: string | undefined;
  if (language === 'python') {
    const m = PYTHON_CALL.exec(suite.code);
    entry = /^check\(([A-Za-z_]\w*)\)$/.exec(suite.invoke?.trim() ?? '')?.[1];
    [argsText, wantText] = m ? [m[1], m[2]] : [];
  } else {
    const m = JAVASCRIPT_CALL.exec(suite.code);
    if (m) {
      entry = m[1];
      const open = m[0].length - 1;
      const close = matchingParen(suite.code, open);
      const rest = close === undefined ? undefined : /^, ([\s\S]*)\);\n?$/.exec(suite.code.slice(close + 1));
      if (close !== undefined && rest) [argsText, wantText] = [suite.code.slice(open + 1, close), rest[1]];
    }
  }
  if (entry === undefined || argsText === undefined || wantText === undefined) return undefined;
  const [args, want] = await readLiteralsAsync(language, [`[${argsText}]`, wantText]);
  if (args === undefined || want === undefined) return undefined;
  return { entry, args: decodeWire(parseJsonLoose(args)) as unknown[], want: decodeWire(parseJsonLoose(want)) };
}

function matchingParen(text: string, open: number): number | undefined {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && --depth === 0) return i;
  }
  return undefined;
}

/** Runs one example call as the judge runs the script: an exception or a wrong value fails it. */
function runCall(
  functions: Functions,
  suite: TimedSuite,
  call: ScriptCall,
  record: boolean,
  language: Language,
): SuiteOutcome {
  const show = shower(language);
  const elapsed = record ? { elapsed: SECONDS } : {};
  const fn = functions[call.entry];
  if (!fn)
    return {
      name: suite.name,
      status: 'fail',
      passed: 0,
      total: 1,
      firstFailure: missingFunction(call.entry, language),
      ...elapsed,
    };
  const input = language === 'python' ? pythonTuple(call.args) : show(call.args);
  let got: unknown;
  try {
    got = decodeWire(JSON.parse(JSON.stringify(toWire(fn(...structuredClone(call.args)), language))));
  } catch (error) {
    if (error instanceof ProgramTimeout) {
      const limit = suite.limit ?? 10;
      return {
        name: suite.name,
        status: 'timeout',
        passed: 0,
        total: 1,
        firstFailure: { input, expected: null, actual: null, message: `time limit of ${limit.toFixed(2)}s exceeded` },
        ...elapsed,
      };
    }
    const name = errorName(error);
    const status = name === 'MemoryError' ? 'memory' : 'fail';
    return {
      name: suite.name,
      status,
      passed: 0,
      total: 1,
      firstFailure: { input, expected: null, actual: null, message: `${name}: ${(error as Error)?.message ?? ''}` },
      ...elapsed,
    };
  }
  // Python compares with ==, floats to 1e-6 of the expected value; JavaScript with deepStrictEqual.
  const ok = language === 'python' ? sameValue(got, call.want, 1e-6, true) : sameValue(got, call.want, 0);
  if (ok) return { name: suite.name, status: 'pass', passed: 1, total: 1, firstFailure: null, ...elapsed };
  const message =
    language === 'python'
      ? `AssertionError: expected ${pythonRepr(call.want)}, got ${pythonRepr(got)}`
      : `AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal: ${show(got)} !== ${show(call.want)}`;
  return {
    name: suite.name,
    status: 'fail',
    passed: 0,
    total: 1,
    firstFailure: { input, expected: null, actual: show(got), message },
    ...elapsed,
  };
}

function missingFunction(name: string, language: Language): Failure {
  const message =
    language === 'python' ? `NameError: name '${name}' is not defined` : `TypeError: ${name} is not a function`;
  return { input: null, expected: null, actual: null, message };
}

function errorName(error: unknown): string {
  if (error instanceof Error) return error.name === 'Error' ? 'Exception' : error.name;
  return 'Exception';
}

/** A JavaScript value in the wire encoding (runtimes/PROTOCOL.md). */
function toWire(value: unknown, language: Language): unknown {
  if (value === undefined) return language === 'python' ? null : { $t: 'undefined' };
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { $t: 'float', v: 'nan' };
    if (!Number.isFinite(value)) return { $t: 'float', v: value > 0 ? 'inf' : '-inf' };
    return value;
  }
  if (typeof value === 'bigint') return { $t: language === 'python' ? 'int' : 'bigint', v: String(value) };
  if (Array.isArray(value)) return value.map((v) => toWire(v, language));
  if (value instanceof Set) return { $t: 'set', v: [...value].map((v) => toWire(v, language)) };
  if (value instanceof Map)
    return {
      $t: language === 'python' ? 'dict' : 'map',
      v: [...value].map(([k, v]) => [toWire(k, language), toWire(v, language)]),
    };
  if (value && typeof value === 'object') {
    if ('$t' in value) return value; // already tagged (a tuple, say)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v, language)]));
  }
  return value;
}

/** Equality of decoded values; numbers within `atol` (relative to the expected value's size when `relative`). */
function sameValue(got: unknown, want: unknown, atol: number, relative = false): boolean {
  if (typeof got === 'number' && typeof want === 'number') {
    if (Number.isNaN(got) && Number.isNaN(want)) return true;
    if (got === want) return true;
    return (
      atol > 0 &&
      Math.abs(got - want) <=
        atol * (relative ? Math.max(1, Math.abs(want)) : 1) + (relative ? 0 : 1e-7 * Math.abs(want))
    );
  }
  if (Array.isArray(got) && Array.isArray(want))
    return got.length === want.length && got.every((g, i) => sameValue(g, want[i], atol, relative));
  if (got instanceof Map && want instanceof Map)
    return (
      got.size === want.size && [...got].every(([k, v]) => want.has(k) && sameValue(v, want.get(k), atol, relative))
    );
  if (
    got &&
    want &&
    typeof got === 'object' &&
    typeof want === 'object' &&
    !Array.isArray(got) &&
    !Array.isArray(want)
  ) {
    const keys = Object.keys(got);
    return (
      keys.length === Object.keys(want).length &&
      keys.every(
        (k) =>
          k in want &&
          sameValue((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], atol, relative),
      )
    );
  }
  return isDeepStrictEqual(got, want);
}

function shower(language: Language): (value: unknown) => string {
  return (value) =>
    clip(language === 'python' ? pythonRepr(value) : (JSON.stringify(toWire(value, language)) ?? 'undefined'));
}

function clip(text: string, n = 500): string {
  return text.length <= n ? text : `${text.slice(0, n - 3)}...`;
}

function pythonTuple(args: readonly unknown[]): string {
  return clip(args.length === 1 ? `(${pythonRepr(args[0])},)` : `(${args.map(pythonRepr).join(', ')})`);
}

/** Python's repr of a decoded wire value (lists, dicts, str, int/float, bool, None). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
  }
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonString(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  return String(value);
}

function pythonString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}
