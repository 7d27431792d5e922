/**
 * How much of a task's reference a set of inputs reaches: the lines it runs and the
 * outcomes of its decisions, measured in the sandbox by running the reference, never a
 * candidate. Python's with a line tracer (coverage_probe.py): arcs from line to line, and
 * if/elif/while/for as decisions. JavaScript's and TypeScript's with counters written into the
 * source (runtimes/instrument.ts): a statement run is an arc [0, its line], an outcome taken
 * of branch j an arc [-1 - j, -1 - outcome]. Generation keeps the inputs that reach new arcs
 * (coverage-guided selection), and `audit --coverage` reports the figures per task.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Language, Task } from '../../core/task.js';
import { decodeWire } from '../../core/wire-values.js';
import { COVERAGE_PATH, COVERAGE_VARIABLE, type Instrumented } from '../../runtimes/instrument.js';
import { compilerStopped } from '../../runtimes/typescript-service.js';
import type { Harness } from './harness.js';
import { observe, type Observation } from './probe.js';

const PROBE = readFileSync(fileURLToPath(new URL('./coverage_probe.py', import.meta.url)), 'utf8');

/** An arc from one line to the next in one call (a function's entry and exit are its first line, negated). */
export type Arc = readonly [number, number];

export interface CoverageMap {
  /** The lines a call of the reference's functions can run. */
  readonly lines: readonly number[];
  /**
   * Decisions as [line of the decision, first line of its body]: taken when that arc is seen, not
   * taken on any other arc from it. (JavaScript: [-1 - branch, -1], its first outcome or any other.)
   */
  readonly branches: readonly Arc[];
}

export interface CoverageFigures {
  readonly lines: { readonly covered: number; readonly total: number };
  readonly branches: { readonly covered: number; readonly total: number };
}

const JS_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Appended to an instrumented JavaScript reference: zero the counters, call the entry, and
 * read back the statements and branch outcomes that ran, as arcs.
 */
function jsProbe(entry: string, statementLines: readonly number[]): string {
  const counters = `globalThis[${JSON.stringify(COVERAGE_VARIABLE)}][${JSON.stringify(COVERAGE_PATH)}]`;
  return `
function __crucible_arcs__(...args) {
  const lines = ${JSON.stringify(statementLines)};
  const counts = ${counters};
  for (const k of Object.keys(counts.s)) counts.s[k] = 0;
  for (const k of Object.keys(counts.b)) counts.b[k].fill(0);
  ${entry}(...args);
  const arcs = new Map();
  for (const k of Object.keys(counts.s)) if (counts.s[k] > 0 && lines[k] > 0) arcs.set('s' + lines[k], [0, lines[k]]);
  for (const k of Object.keys(counts.b))
    counts.b[k].forEach((n, outcome) => { if (n > 0) arcs.set(k + '.' + outcome, [-1 - Number(k), -1 - outcome]); });
  return [...arcs.values()];
}
`;
}

/** The reference counting what it runs, or undefined when it cannot be instrumented (it does not parse, or the entry is no plain name). */
async function instrumented(harness: Harness, task: Task, reference: string): Promise<Instrumented | undefined> {
  if (task.language === 'python' || !JS_IDENTIFIER.test(task.entryPoint)) return undefined;
  const made = await harness.instrument(reference, task.language);
  return compilerStopped(made) || made.errors.length ? undefined : made;
}

/** The reference with the probe appended (its own lines keep their numbers). */
function probed(task: Task, reference: string): string {
  const lastLine = reference.split('\n').length;
  return `${reference}\n${PROBE.replaceAll('__LAST_LINE__', String(lastLine))
    .replaceAll('__ENTRY__', JSON.stringify(task.entryPoint))
    .replaceAll('__SOURCE__', JSON.stringify(reference))}`;
}

/** The task with one io suite calling `entry` (the first io suite's input shapes kept when asked), as observe reads it. */
function probeTask(task: Task, entry: string, keepAdapter: boolean): Task {
  const io = task.suites.find((s) => s.kind === 'io');
  const adapter = keepAdapter && io?.kind === 'io' ? io.inputAdapter : undefined;
  return {
    ...task,
    suites: [
      {
        kind: 'io',
        name: 'probe',
        entry,
        inputsJson: '[]',
        ...(adapter !== undefined ? { inputAdapter: adapter } : {}),
      },
    ],
  };
}

/**
 * The arcs the reference takes on each input (JSON argument lists); undefined where it
 * raised, timed out or could not be run. `limit`: seconds per input, traced.
 */
export async function referenceArcs(
  harness: Harness,
  task: Task,
  reference: string,
  texts: readonly string[],
  limit: number,
): Promise<(readonly Arc[] | undefined)[]> {
  if (texts.length === 0) return [];
  if (task.language !== 'python') {
    const counting = await instrumented(harness, task, reference);
    if (!counting) return texts.map(() => undefined);
    // The instrumented code is JavaScript already (a TypeScript reference was transpiled).
    const probeJs = { ...probeTask(task, '__crucible_arcs__', false), language: 'javascript' as Language };
    const program = counting.code + jsProbe(task.entryPoint, counting.statementLines);
    return (await observe(harness, probeJs, program, texts, { limit, maxTimeouts: 3 })).map(arcsOf);
  }
  const observed = await observe(harness, probeTask(task, '__crucible_arcs__', true), probed(task, reference), texts, {
    limit,
    maxTimeouts: 3,
  });
  return observed.map(arcsOf);
}

function arcsOf(o: Observation): readonly Arc[] | undefined {
  if (o.kind !== 'value') return undefined;
  try {
    const value = JSON.parse(o.json) as unknown;
    return Array.isArray(value) ? (value as Arc[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The reference's coverable lines and decisions, read in the sandbox; undefined when it cannot be read. */
export async function coverageMap(harness: Harness, task: Task, reference: string): Promise<CoverageMap | undefined> {
  if (task.language !== 'python') {
    const counting = await instrumented(harness, task, reference);
    if (!counting) return undefined;
    return {
      lines: [...new Set(counting.statementLines)].filter((line) => line > 0).sort((a, b) => a - b),
      branches: counting.branchOutcomes.map((_, j) => [-1 - j, -1] as const),
    };
  }
  const [o] = await observe(
    harness,
    probeTask(task, '__crucible_coverage_map__', false),
    probed(task, reference),
    ['[]'],
    {
      limit: 10,
    },
  );
  if (o?.kind !== 'value') return undefined;
  try {
    const decoded = decodeWire(JSON.parse(o.json) as unknown);
    const map = (decoded instanceof Map ? Object.fromEntries(decoded) : decoded) as {
      lines?: unknown;
      branches?: unknown;
    };
    return Array.isArray(map.lines) && Array.isArray(map.branches)
      ? { lines: map.lines as number[], branches: map.branches as Arc[] }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Line and decision-outcome coverage of a set of inputs' arcs. */
export function coverageFigures(
  map: CoverageMap,
  arcsPerInput: readonly (readonly Arc[] | undefined)[],
): CoverageFigures {
  const ran = new Set<number>();
  const from = new Map<number, Set<number>>();
  for (const arcs of arcsPerInput)
    for (const [a, b] of arcs ?? []) {
      ran.add(b);
      if (!from.has(a)) from.set(a, new Set());
      from.get(a)!.add(b);
    }
  let outcomes = 0;
  for (const [line, body] of map.branches) {
    const next = from.get(line);
    if (next?.has(body)) outcomes++;
    if (next && [...next].some((n) => n !== body)) outcomes++;
  }
  return {
    lines: { covered: map.lines.filter((l) => ran.has(l)).length, total: map.lines.length },
    branches: { covered: outcomes, total: map.branches.length * 2 },
  };
}

/**
 * Coverage-guided selection: in the given order, the inputs that reach an arc no earlier
 * kept input reached, at most `budget` of them (indices into `arcsPerInput`).
 */
export function newArcInputs(arcsPerInput: readonly (readonly Arc[] | undefined)[], budget: number): number[] {
  const seen = new Set<string>();
  const kept: number[] = [];
  arcsPerInput.forEach((arcs, i) => {
    if (kept.length >= budget || !arcs) return;
    const fresh = arcs.filter(([a, b]) => !seen.has(`${a}>${b}`));
    if (fresh.length === 0) return;
    for (const [a, b] of fresh) seen.add(`${a}>${b}`);
    kept.push(i);
  });
  return kept;
}

export function percent(part: { readonly covered: number; readonly total: number }): string {
  return part.total === 0 ? '-' : `${((100 * part.covered) / part.total).toFixed(0)}%`;
}
