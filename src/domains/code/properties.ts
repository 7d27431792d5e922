/**
 * Properties (PGS): checks on each call's input and output that need no reference.
 * A property is first checked on the prompt's examples and dropped if a right example
 * breaks it; the rest are checked on the candidate's outputs for generated inputs, and a
 * violation is shrunk to the smallest input that still breaks the same property.
 */
import type { Property, Task } from '../../core/task.js';
import type { Failure } from '../../core/verdict.js';
import { decodeWire } from '../../core/wire-values.js';
import { encodeArgs } from './generate/encode.js';
import { findPromptExamples, readLiterals } from './generate/examples.js';
import type { ValueType } from './generate/types.js';
import type { Harness } from './harness.js';
import { observe, type Observation } from './probe.js';
import { shrinkFailingInput } from './shrink.js';

export const PROPERTIES_SUITE = 'properties';

/** A property's verdict on one call; a property that throws on an odd output counts as broken. */
export function propertyHolds(property: Property, args: readonly unknown[], output: unknown): boolean {
  try {
    return property.holds(args, output) === true;
  } catch {
    return false;
  }
}

/** The task says which inputs are valid: a precondition, or a contract its reference checks. */
export function statesDomain(task: Task): boolean {
  return task.precondition !== undefined || Boolean(task.contract?.trim());
}

/** Whether generated arguments (wire values) meet the task's precondition. */
export function meetsPrecondition(task: Task, args: readonly unknown[]): boolean {
  if (!task.precondition) return true;
  try {
    return task.precondition(decodeWire(args)) === true;
  } catch {
    return false;
  }
}

export interface SoundProperties {
  readonly kept: readonly Property[];
  /** Properties a prompt example contradicts, with that example. */
  readonly dropped: readonly { readonly property: string; readonly example: string }[];
}

const SOUND = new WeakMap<Task, SoundProperties>();

/** Drops every property that one of the prompt's own examples (input and output) breaks (once per task). */
export function soundProperties(task: Task): SoundProperties {
  let sound = SOUND.get(task);
  if (!sound) {
    sound = checkSoundness(task);
    SOUND.set(task, sound);
  }
  return sound;
}

function checkSoundness(task: Task): SoundProperties {
  const properties = task.properties ?? [];
  if (properties.length === 0) return { kept: [], dropped: [] };
  const examples = findPromptExamples(task.prompt, task.entryPoint, task.language);
  const read = readLiterals(
    task.language,
    examples.flatMap((e) => [`[${e.argsText}]`, e.outputText]),
  );
  const dropped: { property: string; example: string }[] = [];
  const kept = properties.filter((property) => {
    for (let i = 0; i < examples.length; i++) {
      const [args, output] = [read[2 * i], read[2 * i + 1]];
      if (args === undefined || output === undefined) continue;
      const decodedArgs = decodeWire(JSON.parse(args));
      if (!propertyHolds(property, decodedArgs, decodeWire(JSON.parse(output)))) {
        dropped.push({
          property: property.name,
          example: `${task.entryPoint}(${examples[i]!.argsText}) -> ${examples[i]!.outputText}`,
        });
        return false;
      }
    }
    return true;
  });
  return { kept, dropped };
}

export interface PropertyVerdict {
  readonly status: 'pass' | 'fail';
  readonly passed: number;
  readonly total: number;
  readonly failedAt?: number;
  readonly firstFailure: Failure | null;
  readonly property?: string;
}

/** The first broken property over observations of the given inputs (wire-value argument lists). */
export function judgeProperties(
  properties: readonly Property[],
  args: readonly unknown[][],
  observed: readonly Observation[],
): PropertyVerdict {
  let passed = 0;
  let total = 0;
  let first: Omit<PropertyVerdict, 'status' | 'passed' | 'total'> | undefined;
  observed.forEach((o, i) => {
    if (o.kind !== 'value') return; // exceptions and timeouts are for the tests to judge
    total++;
    const decodedArgs = decodeWire(args[i]);
    const output = decodeWire(JSON.parse(o.json));
    const broken = properties.find((p) => !propertyHolds(p, decodedArgs, output));
    if (!broken) {
      passed++;
      return;
    }
    first ??= {
      failedAt: i,
      property: broken.name,
      firstFailure: {
        input: JSON.stringify(args[i]),
        expected: null,
        actual: o.json,
        message: `property broken: ${broken.name}`,
      },
    };
  });
  return first ? { status: 'fail', passed, total, ...first } : { status: 'pass', passed, total, firstFailure: null };
}

/** Observes the program on the inputs and judges its outputs by the properties. */
export async function checkProperties(
  harness: Harness,
  task: Task,
  program: string,
  properties: readonly Property[],
  inputs: { readonly args: readonly unknown[][]; readonly texts: readonly string[] },
): Promise<PropertyVerdict> {
  const observed = await observe(harness, task, program, inputs.texts, { limit: harness.time.callFloorSeconds });
  return judgeProperties(properties, inputs.args, observed);
}

/**
 * Shrinks an input that breaks `property` to a smaller one that still breaks it, among the
 * inputs `accepts` takes (default: the task's precondition; see valid-inputs.ts).
 */
export async function shrinkPropertyViolation(
  harness: Harness,
  task: Task,
  program: string,
  property: Property,
  failing: readonly unknown[],
  types: readonly ValueType[],
  accepts: (args: readonly unknown[]) => boolean = (args) => meetsPrecondition(task, args),
): Promise<(Failure & { readonly original: string; readonly shrunk: string; readonly rounds: number }) | undefined> {
  const firstBroken = async (
    batch: readonly unknown[][],
    texts: readonly string[],
  ): Promise<{ at: number; failure: Failure } | undefined> => {
    const valid = batch.flatMap((args, i) => (accepts(args) ? [i] : []));
    if (valid.length === 0) return undefined;
    const observed = await observe(
      harness,
      task,
      program,
      valid.map((i) => texts[i]!),
      { limit: harness.time.callFloorSeconds, maxTimeouts: 1 },
    );
    const verdict = judgeProperties(
      [property],
      valid.map((i) => batch[i]!),
      observed,
    );
    if (verdict.failedAt === undefined || !verdict.firstFailure) return undefined;
    return { at: valid[verdict.failedAt]!, failure: verdict.firstFailure };
  };
  const shrunk = await shrinkFailingInput(
    failing,
    types,
    async (batch, texts) => (await firstBroken(batch, texts))?.at,
  );
  // Check the result once more: it must still break the property.
  const final = await firstBroken([[...shrunk.args]], [shrunk.text]);
  if (!final) return undefined;
  return { ...final.failure, original: encodeArgs(failing, types), shrunk: shrunk.text, rounds: shrunk.rounds };
}
