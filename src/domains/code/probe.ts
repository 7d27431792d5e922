/**
 * Running one program on a list of inputs in the sandbox, either to see what it does
 * (record: one observation per input) or to compare it with expected outputs (the judge's
 * own comparison, so generated tests are judged exactly like a dataset's).
 */
import type { IoSuite, Task } from '../../core/task.js';
import type { SuiteVerdict } from '../../core/verdict.js';
import type { TimedSuite } from '../../runtimes/runtime.js';
import type { Harness } from './harness.js';
import { suiteVerdicts } from './outcome.js';

export type Observation =
  | { readonly kind: 'value'; readonly json: string; readonly seconds: number }
  | { readonly kind: 'raised'; readonly error: string }
  | { readonly kind: 'timeout' }
  /** The program did not load, crashed, or the sandbox failed: nothing is known. */
  | { readonly kind: 'unknown'; readonly why: string };

export interface ProbeOptions {
  /** Seconds per input (one number, or one per input). */
  readonly limit: number | readonly number[];
  /** Stop after this many timeouts: each costs a whole time limit. */
  readonly maxTimeouts?: number;
}

/** The io suite the task's inputs are read with (MBPP+ input shapes, EvalPlus oracles). */
export function ioTemplate(task: Task): Omit<IoSuite, 'name' | 'inputsJson'> {
  const io = task.suites.find((s): s is IoSuite => s.kind === 'io');
  return {
    kind: 'io',
    entry: io?.entry ?? task.entryPoint,
    ...(io?.atol !== undefined ? { atol: io.atol } : {}),
    ...(io?.oracle !== undefined ? { oracle: io.oracle } : {}),
    ...(io?.inputAdapter !== undefined ? { inputAdapter: io.inputAdapter } : {}),
  };
}

/** What `program` does on each input (texts: JSON argument lists). A timeout does not hide later inputs. */
export async function observe(
  harness: Harness,
  task: Task,
  program: string,
  texts: readonly string[],
  options: ProbeOptions,
): Promise<Observation[]> {
  const observations: Observation[] = [];
  const limitAt = (i: number) => (typeof options.limit === 'number' ? options.limit : (options.limit[i] ?? 1));
  let timeouts = 0;
  const { oracle: _oracle, ...template } = ioTemplate(task);
  while (observations.length < texts.length) {
    const from = observations.length;
    const rest = texts.slice(from);
    const suite: TimedSuite = {
      ...template,
      name: 'probe',
      inputsJson: `[${rest.join(',')}]`,
      limits: rest.map((_, i) => limitAt(from + i)),
    };
    const result = await harness
      .runtime(task.language)
      .run({ program, suites: [suite], record: true, limits: harness.limits });
    const outcome = result.kind === 'ran' ? result.suites[0] : undefined;
    const unknown =
      result.kind === 'no-verdict'
        ? result.why
        : result.kind === 'ran' && !result.load.ok
          ? `does not load: ${result.load.message ?? result.load.status}`
          : outcome
            ? undefined
            : 'no result';
    if (unknown !== undefined || !outcome?.outputs) {
      while (observations.length < texts.length)
        observations.push({ kind: 'unknown', why: unknown ?? outcome?.firstFailure?.message ?? 'no outputs' });
      break;
    }
    const outputs = JSON.parse(outcome.outputs) as unknown[];
    outputs.forEach((item, i) =>
      observations.push(observationOf(task.language === 'python', item, outcome.times?.[i] ?? 0)),
    );
    if (observations.length >= texts.length) break;
    // The run stopped at the next input: it timed out there (or the process died on it).
    const stopped: Observation =
      outcome.status === 'timeout'
        ? { kind: 'timeout' }
        : { kind: 'unknown', why: outcome.firstFailure?.message ?? outcome.status };
    observations.push(stopped);
    if (stopped.kind === 'timeout' && ++timeouts >= (options.maxTimeouts ?? 3)) {
      while (observations.length < texts.length)
        observations.push({ kind: 'unknown', why: 'not run: too many timeouts' });
    }
  }
  return observations;
}

/** Python's judge records each output as its encoded text; JavaScript's as the wire value itself. */
function observationOf(python: boolean, item: unknown, seconds: number): Observation {
  if (item && typeof item === 'object' && '$raised' in item)
    return { kind: 'raised', error: String((item as { $raised: unknown }).$raised) };
  if (python && typeof item === 'string') return { kind: 'value', json: item, seconds };
  return { kind: 'value', json: JSON.stringify(item), seconds }; // also Python's {sha256, bytes} for huge outputs
}

/**
 * Judges `program` on inputs whose expected outputs are known (JSON text of the outputs as
 * the reference's record run returned them), with the task's comparison.
 */
export async function judgeOn(
  harness: Harness,
  task: Task,
  program: string,
  suite: {
    readonly name: string;
    readonly texts: readonly string[];
    readonly expectedJson: string;
    readonly limits: readonly number[];
  },
): Promise<SuiteVerdict> {
  const timed: TimedSuite = {
    ...ioTemplate(task),
    name: suite.name,
    inputsJson: `[${suite.texts.join(',')}]`,
    expectedJson: suite.expectedJson,
    limits: suite.limits,
  };
  const result = await harness.runtime(task.language).run({ program, suites: [timed], limits: harness.limits });
  return suiteVerdicts(result, harness.limits, new Map([[suite.name, suite.texts.length]]), [suite.name])[0]!;
}

/** The expected-outputs JSON for judgeOn, from a record run's observations (all must be values). */
export function expectedJsonOf(task: Task, observations: readonly Observation[]): string {
  const items = observations.map((o) => {
    if (o.kind !== 'value') throw new Error('expected outputs need a value for every input');
    return o.json;
  });
  // Python's judge takes each output as its encoded text; JavaScript's as the value itself.
  return task.language === 'python' ? JSON.stringify(items) : `[${items.join(',')}]`;
}
