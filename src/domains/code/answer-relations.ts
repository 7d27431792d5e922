/**
 * Relations between a function's answer and its arguments that the reference keeps on
 * every input seen (its kind, its sign, its order against a numeric argument, its length
 * against a sized one): a few fixed shapes, as Daikon's invariants are, checked on
 * observed values. They tell whether an answer at a corner is of a piece with the
 * reference's answers elsewhere. modp(0, 1) = 1 breaks "the answer is below p", which
 * 2^n mod p keeps on every other input; that is a bug, not a reading of the prompt.
 * Written here because the invariant detectors that exist (Daikon, its ports) trace a
 * running program in their own process; these relations need only a list of answers.
 * Values are wire values decoded (core/wire-values.ts).
 */
import { decodeWire } from '../../core/wire-values.js';

export interface Relation {
  /** How it reads: "answer < argument 2". */
  readonly name: string;
  /** Whether it holds for this answer and these arguments; undefined where it does not apply. */
  readonly holds: (answer: unknown, args: readonly unknown[]) => boolean | undefined;
}

/** Observations a relation must hold on before it counts: fewer could be chance. */
export const MIN_SUPPORT = 8;

/** The relations that hold on every observation (and apply to all), when there are enough of them. */
export function keptRelations(
  observations: readonly { readonly answer: unknown; readonly args: readonly unknown[] }[],
): Relation[] {
  if (observations.length < MIN_SUPPORT) return [];
  const arity = Math.min(...observations.map((o) => o.args.length));
  return candidateRelations(arity, observations[0]!.answer).filter((r) =>
    observations.every((o) => r.holds(o.answer, o.args) === true),
  );
}

/** JSON texts of an answer and of an argument list, decoded for the relations. */
export function decodedObservation(answerJson: string, argsJson: string): { answer: unknown; args: unknown[] } {
  return { answer: decodeWire(JSON.parse(answerJson)), args: decodeWire(JSON.parse(argsJson)) as unknown[] };
}

function candidateRelations(arity: number, first: unknown): Relation[] {
  const kind = kindOf(first);
  const relations: Relation[] = [{ name: `answer is ${kind}`, holds: (answer) => kindOf(answer) === kind }];
  const orders: [string, (a: number, b: number) => boolean][] = [
    ['<', (a, b) => a < b],
    ['<=', (a, b) => a <= b],
    ['>', (a, b) => a > b],
    ['>=', (a, b) => a >= b],
    ['=', (a, b) => a === b],
  ];
  relations.push(
    { name: 'answer >= 0', holds: (answer) => (isNumber(answer) ? answer >= 0 : undefined) },
    {
      name: 'length of answer >= 1',
      holds: (answer) => {
        const size = sizeOf(answer);
        return size === undefined ? undefined : size >= 1;
      },
    },
  );
  for (const i of Array.from({ length: arity }, (_, k) => k))
    for (const [op, test] of orders) {
      relations.push({
        name: `answer ${op} argument ${i + 1}`,
        holds: (answer, args) => (isNumber(answer) && isNumber(args[i]) ? test(answer, args[i]) : undefined),
      });
      relations.push({
        name: `length of answer ${op} length of argument ${i + 1}`,
        holds: (answer, args) => {
          const [a, b] = [sizeOf(answer), sizeOf(args[i])];
          return a === undefined || b === undefined ? undefined : test(a, b);
        },
      });
    }
  return relations;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && !Number.isNaN(value);
}

function sizeOf(value: unknown): number | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  if (value && typeof value === 'object') return Object.keys(value).length;
  return undefined;
}

/** null, a boolean, a number, a string, a sequence, a mapping (decoded values do not tell a tuple from a list). */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'string') return 'a string';
  if (Array.isArray(value)) return 'a sequence';
  return 'a mapping';
}
