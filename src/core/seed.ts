/** A seed when none is given: printed by every command that uses one, so the run can be replayed with --seed. */
export function chooseSeed(seed: number | undefined): number {
  return seed ?? Math.floor(Math.random() * 2 ** 31);
}
