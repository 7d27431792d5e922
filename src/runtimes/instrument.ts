/**
 * A JavaScript or TypeScript reference rewritten to count what it runs, for coverage-guided
 * input selection and `audit --coverage` (verify/coverage.ts). istanbul's instrumenter (what
 * nyc and jest use) adds a counter per statement and per branch outcome. V8's own precise
 * coverage would need its inspector inside the sandboxed worker, whose module surface does not
 * open it; counters written into the source need nothing from the sandbox.
 *
 * Called only in the compiler's own processes (typescript-worker.ts): the reference may come
 * from a request, and parsing a hostile text is work that needs a deadline and a heap cap.
 */
import { createInstrumenter } from 'istanbul-lib-instrument';
import { transpile } from './typescript.js';

interface Position {
  readonly line: number;
  readonly column: number;
}
interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** Where the instrumented program keeps its counters: globalThis[COVERAGE_VARIABLE][COVERAGE_PATH]. */
export const COVERAGE_VARIABLE = '__crucible_coverage__';
export const COVERAGE_PATH = 'reference.js';

export interface Instrumented {
  /** JavaScript (TypeScript is transpiled first) that counts into COVERAGE_VARIABLE. */
  readonly code: string;
  /** The first line of each statement in a function, by the instrumenter's statement id (0: a top-level statement). */
  readonly statementLines: readonly number[];
  /** How many outcomes each branch has (an if's two, a switch's cases), by branch id. */
  readonly branchOutcomes: readonly number[];
  /** Why the source could not be instrumented (it does not parse). */
  readonly errors: readonly string[];
}

export function instrumentForCoverage(source: string, typescript: boolean): Instrumented {
  const none = (errors: readonly string[]): Instrumented => ({
    code: '',
    statementLines: [],
    branchOutcomes: [],
    errors,
  });
  const javascript = typescript ? transpile(source, 'reference.ts') : { code: source, errors: [] };
  if (javascript.errors.length) return none(javascript.errors);
  const instrumenter = createInstrumenter({
    coverageVariable: COVERAGE_VARIABLE,
    // The counters live on globalThis, reached by its name rather than istanbul's `new Function('return this')`.
    coverageGlobalScope: 'globalThis',
    coverageGlobalScopeFunc: false,
    esModules: false,
    compact: true,
    produceSourceMap: false,
  });
  let code: string;
  try {
    code = instrumenter.instrumentSync(javascript.code, COVERAGE_PATH);
  } catch (error) {
    return none([String(error instanceof Error ? error.message : error).slice(0, 500)]);
  }
  const map = instrumenter.lastFileCoverage();
  // Only what a call can run: the top-level statements ran when the program loaded.
  const functions = Object.values(map.fnMap).map((f) => f.loc);
  const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.column <= b.column);
  const inAFunction = (s: Range) => functions.some((f) => before(f.start, s.start) && before(s.end, f.end));
  return {
    code,
    statementLines: Object.values(map.statementMap).map((s) => (inAFunction(s) ? s.start.line : 0)),
    branchOutcomes: Object.values(map.branchMap).map((b) => b.locations.length),
    errors: [],
  };
}
