/**
 * The gated reward's levels (parses → loads → runs → public tests → hidden tests), computed
 * from what judging found, in one place for every front door: `/v1/verify` with stdin tests
 * (each test its own run of the program) and with a task (suites of tests in one load).
 *
 * - parses: the program's text compiles.
 * - loads: of the program's loads, the share that succeeded (one per test for a stdin
 *   program; one for a function).
 * - runs: of the tests, those during which the program ran normally: every test of a unit
 *   that ended pass or fail, and the passed tests of one that ended otherwise (timeout,
 *   memory, output limit, a crash: the tests before it ran).
 * - public tests / hidden: tests passed of the public and of the hidden units.
 * A level without tests is `vacuous`; once the program does not load, the later levels are 0;
 * a sandbox failure anywhere makes every level `no-verdict`.
 */
import type { Status } from '../core/verdict.js';
import type { GatedLevels, LevelScore } from '../rl/schemas.js';

/** A judged unit: one stdin test, or one suite of a function task. */
export interface JudgedUnit {
  readonly status: Status;
  readonly passed: number;
  readonly total: number;
  readonly public: boolean;
}

export interface LevelEvidence {
  readonly parses: boolean;
  /** How many of the program's loads succeeded. */
  readonly loads: { readonly loaded: number; readonly of: number };
  readonly units: readonly JudgedUnit[];
  /** The sandbox failed: nothing is known. */
  readonly noVerdict?: string;
}

/** Statuses after which the program was still running normally. */
const RAN: ReadonlySet<Status> = new Set(['pass', 'fail']);

export function gatedLevels(evidence: LevelEvidence): GatedLevels {
  if (evidence.noVerdict !== undefined) {
    const nv = { noVerdict: evidence.noVerdict };
    return { parses: nv, loads: nv, runs: nv, publicTests: nv, hidden: nv };
  }
  const { loaded, of } = evidence.loads;
  const counts = (units: readonly JudgedUnit[], passed: (u: JudgedUnit) => number): LevelScore => {
    const total = units.reduce((n, u) => n + u.total, 0);
    return total === 0
      ? 'vacuous'
      : {
          passed: Math.min(
            total,
            units.reduce((n, u) => n + passed(u), 0),
          ),
          total,
        };
  };
  if (!evidence.parses || loaded === 0)
    return { parses: evidence.parses ? 1 : 0, loads: 0, runs: 0, publicTests: 0, hidden: 0 };
  const { units } = evidence;
  return {
    parses: 1,
    loads: of === 1 ? 1 : { passed: loaded, total: of },
    runs: counts(units, (u) => (RAN.has(u.status) ? u.total : u.passed)),
    publicTests: counts(
      units.filter((u) => u.public),
      (u) => u.passed,
    ),
    hidden: counts(
      units.filter((u) => !u.public),
      (u) => u.passed,
    ),
  };
}
