/**
 * The code pack's evidence for selection: what each program returns (or raises) on each
 * generated argument list, as comparable behaviour keys, and whether it broke one of the
 * task's properties there; and new argument lists near those that split programs (the
 * disagreement hunt). No reference is consulted: these serve a solver choosing among its
 * own samples.
 */
import { createHash } from 'node:crypto';
import { encodeArgs } from './generate/encode.js';
import { mutateArgs } from './generate/mutate.js';
import { seededRandom } from '../../core/random.js';
import type { Harness } from './harness.js';
import { observe, type Observation } from './probe.js';
import { judgeProperties } from './properties.js';
import type { Behaviour, Probe } from '../types.js';
import type { CodeChecks } from './checks.js';

/** A generated argument list: wire values, and the JSON text programs are called with. */
export interface CodeProbe extends Probe {
  readonly args: readonly unknown[];
}

/** Mutated inputs longer than this are not kept: they cost more to run than they tell. */
const LONGEST_PROBE = 2000;
/** Keys longer than this keep their start and a digest of the rest: outputs can be megabytes. */
const LONGEST_KEY = 200;

export function codeProbes(checks: CodeChecks): CodeProbe[] {
  return checks.inputs.texts.map((text, i) => ({ text, args: checks.inputs.args[i]! }));
}

export async function observePrograms(
  harness: Harness,
  checks: CodeChecks,
  programs: readonly string[],
  probes: readonly CodeProbe[],
): Promise<Behaviour> {
  const texts = probes.map((p) => p.text);
  const limit = harness.time.callFloorSeconds;
  const observed = await Promise.all(
    programs.map((program) => observe(harness, checks.task, program, texts, { limit })),
  );
  const args = probes.map((p) => [...p.args]);
  return {
    keys: observed.map((row) => row.map(behaviourKey)),
    breaksProperty: observed.map(
      (row) =>
        checks.properties.length > 0 &&
        probes.length > 0 &&
        judgeProperties(checks.properties, args, row).status === 'fail',
    ),
    properties: checks.properties.length,
  };
}

/** Mutations of `near` (taken in turn), inside the task's domain and not yet seen. */
export function neighbourProbes(
  checks: CodeChecks,
  near: readonly CodeProbe[],
  count: number,
  seed: number,
  seen: ReadonlySet<string>,
): CodeProbe[] {
  if (near.length === 0) return [];
  const { space } = checks;
  // A stream apart from the generator's, so the hunt does not retrace the generated inputs.
  const random = seededRandom(seed ^ 0x5eed);
  const taken = new Set(seen);
  const found: CodeProbe[] = [];
  for (let attempt = 0; found.length < count && attempt < count * 10; attempt++) {
    const next = mutateArgs(near[attempt % near.length]!.args, space.types, {
      random,
      alphabet: space.arbitrary.alphabet,
      fragments: space.fragments,
    });
    const text = encodeArgs(next, space.types);
    if (taken.has(text) || text.length > LONGEST_PROBE || !checks.accepts(next)) continue;
    taken.add(text);
    found.push({ text, args: next });
  }
  return found;
}

/** A comparable key for one observation. Floats are compared to 10 significant digits. */
export function behaviourKey(observation: Observation): string | null {
  switch (observation.kind) {
    case 'value': {
      const key = `=${canonicalJson(observation.json)}`;
      return key.length <= LONGEST_KEY
        ? key
        : `${key.slice(0, LONGEST_KEY - 50)}… #${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
    }
    case 'raised':
      return `!${observation.error}`;
    case 'timeout':
      return '!timeout';
    case 'unknown':
      return null;
  }
}

function canonicalJson(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), (_, v: unknown) =>
      typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(10)) : v,
    );
  } catch {
    return json;
  }
}
