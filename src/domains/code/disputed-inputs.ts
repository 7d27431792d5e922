/**
 * Disputed inputs: a generated input at a degenerate corner (an empty or one-element
 * argument, or zero) on which most of a task's samples that pass its given tests answer
 * with one same value that the reference does not give. They are reported, with both
 * answers, and set aside where the corner is open.
 *
 * A dispute says that the samples and the reference read the task differently there, not
 * which one is right. With real model solutions it is either. On MBPP+ the reference is
 * mostly the odd one out (MBPP/70's "all tuples have equal length" says False for [],
 * MBPP/591's swap of first and last turns [56] into [56, 56], MBPP/58's `(x ^ y) < 0` calls
 * 0 and -2 opposite signs); on HumanEval the samples mostly share a bug that HumanEval+'s
 * own inputs catch (change_base(0, 3) gives "" where "0" is right, modp(0, 1) gives 1,
 * cycpattern_check(a, "") gives False). Setting every disputed input aside took 23 flags of
 * right MBPP+ solutions away and 34 flags of HumanEval bugs. What tells them apart is
 * whether the reference singles the corner out: HumanEval+'s references have
 * `if x == 0: return "0"` and `if b == "": return True`, and 2^n mod p stays below p; the
 * MBPP+ ones answer the corner as their code happens to fall. So an input is set aside only
 * when the reference takes no path there that ordinary inputs do not, and its answers keep
 * no relation to the arguments (answer-relations.ts) that the samples' answer breaks. A
 * held input stays held against the samples.
 * Only degenerate inputs are looked at, and only a majority of at least three samples
 * answering with a value (a crash is never a reading of the prompt) disputes one.
 */
import type { IoSuite, Task } from '../../core/task.js';
import type { Status } from '../../core/verdict.js';
import { decodedObservation, keptRelations } from './answer-relations.js';
import { referenceArcs, type Arc } from './coverage.js';
import { contractedReference, GENERATED_SUITE, type Augmentation } from './differential.js';
import { encodeArgs } from './generate/encode.js';
import type { Harness } from './harness.js';
import { ioTemplate, observe } from './probe.js';
import { callLimit } from './time-limits.js';

/** Samples that must agree, at least, for an input to be disputed. */
export const MIN_DISPUTING_SAMPLES = 3;

export interface DisputedInput {
  /** The generated input (JSON text of the argument list). */
  readonly input: string;
  /** The reference's answer and the samples' (JSON text). */
  readonly reference: string;
  readonly samples: string;
  /** How many samples gave the samples' answer, of how many that pass the task's given tests. */
  readonly agreeing: number;
  readonly of: number;
  /** The corner is open (nothing in the reference treats it apart): the input is set aside, not held against any sample. */
  readonly setAside: boolean;
  /** Why the input is set aside, or why the reference's answer stands. */
  readonly why: string;
}

/** A disputed input before it is known whether the reference singles its corner out. */
type Dispute = Omit<DisputedInput, 'setAside' | 'why'>;

/** A sample of the task, with its verdict on the generated suite (undefined: it failed an earlier suite). */
export interface PoolSample {
  readonly program: string;
  readonly generated: { readonly status: Status } | undefined;
}

/**
 * A top-level argument that is empty (a string, a container), a container of one element,
 * or zero: the corners a prompt most often leaves open. Arguments are wire values: tagged
 * tuples, sets, dicts and big ints, plain arrays, objects and scalars.
 */
export function isDegenerate(args: readonly unknown[]): boolean {
  return args.some((arg) => {
    if (typeof arg === 'number') return arg === 0;
    // A one-character string is mostly an ordinary value (a separator, a letter to find), not a corner.
    if (typeof arg === 'string') return arg.length === 0;
    if (Array.isArray(arg)) return arg.length <= 1;
    if (arg && typeof arg === 'object') {
      const tagged = arg as { $t?: unknown; v?: unknown };
      if (tagged.$t === 'int' || tagged.$t === 'float') return Number(tagged.v) === 0;
      if (tagged.$t !== undefined) return Array.isArray(tagged.v) && tagged.v.length <= 1;
      return Object.keys(arg).length <= 1;
    }
    return false;
  });
}

/**
 * The generated inputs the task's samples dispute. `pool`: every sample of the task; only
 * those that passed the suites before the generated one (they have a generated verdict)
 * count. Nothing is run unless a majority of them failed the generated suite.
 */
export async function findDisputedInputs(
  harness: Harness,
  augmentation: Augmentation,
  pool: readonly PoolSample[],
): Promise<DisputedInput[]> {
  const { task, inputs } = augmentation;
  const reference = contractedReference(task);
  const counted = pool.filter((s) => s.generated !== undefined);
  const failed = counted.filter((s) => s.generated!.status !== 'pass' && s.generated!.status !== 'no-verdict');
  const majority = (k: number) => k >= MIN_DISPUTING_SAMPLES && 2 * k > counted.length;
  if (!inputs || reference === undefined || !majority(failed.length)) return [];
  const at = inputs.args.flatMap((args, i) => (isDegenerate(args) ? [i] : []));
  if (at.length === 0) return [];
  const texts = at.map((i) => inputs.texts[i]!);
  const expected = await observe(harness, task, reference, texts, { limit: 2, maxTimeouts: 1 });
  const limits = expected.map((o) => callLimit(harness.time, o.kind === 'value' ? o.seconds : undefined));
  const answers = await Promise.all(
    counted.map((s) => observe(harness, task, s.program, texts, { limit: limits, maxTimeouts: 1 })),
  );
  const disputed: Dispute[] = [];
  for (const [j, text] of texts.entries()) {
    const want = expected[j]!;
    if (want.kind !== 'value') continue;
    const groups = new Map<string, number[]>();
    answers.forEach((a, s) => {
      const answer = a[j]!;
      if (answer.kind === 'value' && answer.json !== want.json)
        groups.set(answer.json, [...(groups.get(answer.json) ?? []), s]);
    });
    const [json, who] = [...groups.entries()].reduce<[string, number[]] | [undefined, []]>(
      (best, entry) => (entry[1].length > best[1].length ? entry : best),
      [undefined, []],
    );
    if (json === undefined || !majority(who.length)) continue;
    // Judged as the generated suite is (the reference's recorded answer, the task's comparison and oracle):
    // different text can still be the same answer (1 and 1.0, a float within atol, any value where only None fails).
    const alone: Task = {
      ...augmentation.augmented,
      suites: [{ ...ioTemplate(task), name: 'dispute', inputsJson: `[${text}]` }],
    };
    const judged = await harness.judge(alone, counted[who[0]!]!.program);
    if (judged.status !== 'fail') continue;
    disputed.push({ input: text, reference: want.json, samples: json, agreeing: who.length, of: counted.length });
  }
  if (disputed.length === 0) return [];
  const ordinary = inputs.texts.filter((_, i) => !isDegenerate(inputs.args[i]!));
  const reasons = await deliberateCorners(harness, task, reference, ordinary, disputed);
  return disputed.map((d, k) => ({ ...d, setAside: reasons[k] === undefined, why: reasons[k] ?? OPEN_CORNER }));
}

const OPEN_CORNER =
  "the reference takes no path of its own there, and the samples' answer keeps every relation the reference's answers keep";

/**
 * Why the reference's answer at each disputed corner is its own deliberate choice, or
 * undefined where nothing says so. Deliberate: the reference runs there an arc of its code
 * that no ordinary (non-degenerate) generated input runs (HumanEval+'s change_base has
 * `if x == 0: return "0"`); or its answers keep a relation to the arguments on every
 * ordinary input and there too, and the samples' answer breaks it (modp(0, 1) = 1 is not
 * below p). Where nothing can be compared (no ordinary input, a reference that cannot be
 * traced), the reference's verdict stands.
 */
async function deliberateCorners(
  harness: Harness,
  task: Task,
  reference: string,
  ordinary: readonly string[],
  disputed: readonly Dispute[],
): Promise<(string | undefined)[]> {
  if (ordinary.length === 0) return disputed.map(() => 'no ordinary generated input to compare the corner with');
  const corners = disputed.map((d) => d.input);
  const [answers, arcs] = await Promise.all([
    observe(harness, task, reference, ordinary, { limit: 2, maxTimeouts: 1 }),
    referenceArcs(harness, task, reference, [...ordinary, ...corners], 2),
  ]);
  const ordinaryArcs = arcs.slice(0, ordinary.length);
  const traced = ordinaryArcs.some((a) => a !== undefined);
  const seen = new Set(ordinaryArcs.flatMap((a) => (a ?? []).map(arcKey)));
  const relations = keptRelations(
    answers.flatMap((o, i) => (o.kind === 'value' ? [decodedObservation(o.json, ordinary[i]!)] : [])),
  );
  return disputed.map((d, k) => {
    const own = arcs[ordinary.length + k];
    if (!traced || own === undefined) return 'the reference could not be traced there';
    if (own.some((arc) => !seen.has(arcKey(arc))))
      return 'the reference takes a path there that no ordinary generated input takes';
    const ours = decodedObservation(d.reference, d.input);
    const theirs = decodedObservation(d.samples, d.input);
    const broken = relations.find(
      (r) => r.holds(ours.answer, ours.args) === true && r.holds(theirs.answer, theirs.args) !== true,
    );
    return broken
      ? `the reference's answers keep "${broken.name}" on every ordinary generated input and there; the samples' answer does not`
      : undefined;
  });
}

const arcKey = ([a, b]: Arc) => `${a}>${b}`;

/**
 * The augmentation without the given generated inputs: its task's generated suite, its
 * inputs, and what shrinking may reach (a counterexample is never an input set aside).
 */
export function withoutInputs(augmentation: Augmentation, drop: ReadonlySet<string>): Augmentation {
  const { inputs } = augmentation;
  if (!inputs || drop.size === 0) return augmentation;
  const keep = inputs.texts.flatMap((text, i) => (drop.has(text) ? [] : [i]));
  const texts = keep.map((i) => inputs.texts[i]!);
  const suites = augmentation.augmented.suites.flatMap((s) => {
    if (s.name !== GENERATED_SUITE || s.kind !== 'io') return [s];
    return texts.length ? [{ ...s, inputsJson: `[${texts.join(',')}]` } satisfies IoSuite] : [];
  });
  const { accepts, space } = augmentation;
  return {
    ...augmentation,
    augmented: { ...augmentation.augmented, suites },
    kept: texts.length,
    inputs: { args: keep.map((i) => inputs.args[i]!), texts },
    accepts: (args) => accepts(args) && !drop.has(encodeArgs(args, space.types)),
  };
}
