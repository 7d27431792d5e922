/** Reading the threshold file `crucible calibrate` writes, for select, solve and eval --model. */
import { readFile } from 'node:fs/promises';
import { ThresholdSchema, type Threshold } from '../select/abstain.js';

/** Reads and checks a threshold file; the error says how to write one. */
export async function readThreshold(path: string): Promise<Threshold> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `cannot read the threshold file ${path}: ${(error as Error).message}. Write one with crucible calibrate.`,
    );
  }
  const result = ThresholdSchema.safeParse(parsed);
  if (!result.success)
    throw new Error(
      `${path} is not a threshold file written by crucible calibrate (${result.error.issues[0]?.message ?? 'invalid'})`,
    );
  return result.data;
}
