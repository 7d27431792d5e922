/** Deterministic choice of a few mutants spread over operators and places. */
import { seededRandom, shuffle } from '../../../core/random.js';
import { MUTATION_OPERATORS, type MutationOperator } from './types.js';

/** FNV-1a of a string, so each task gets its own seed from its id. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Up to `max` items: operators take turns (in a seeded order), and within an operator the
 * lines it has not yet touched come first, so a cap of 30 does not spend itself on one
 * long expression. Returned in their original order.
 */
export function spreadPick<T extends { readonly operator: MutationOperator; readonly line: number }>(
  items: readonly T[],
  max: number,
  seed: number,
): T[] {
  if (items.length <= max) return [...items];
  const random = seededRandom(seed);
  const queues = MUTATION_OPERATORS.map((operator) => {
    const own = shuffle(
      items.filter((item) => item.operator === operator),
      random,
    );
    const seenOnLine = new Map<number, number>();
    const rank = new Map(
      own.map((item) => {
        const seen = seenOnLine.get(item.line) ?? 0;
        seenOnLine.set(item.line, seen + 1);
        return [item, seen] as const;
      }),
    );
    return own.sort((a, b) => rank.get(a)! - rank.get(b)!); // stable: shuffled order within a rank
  }).filter((queue) => queue.length > 0);
  shuffle(queues, random);
  const picked = new Set<T>();
  for (let round = 0; picked.size < max; round++) {
    for (const queue of queues) if (queue[round] !== undefined && picked.size < max) picked.add(queue[round]!);
  }
  return items.filter((item) => picked.has(item));
}
