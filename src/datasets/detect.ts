/** Which dataset format a file holds, from the fields of its first record. */
import { humanevalPlus, mbppPlus } from './evalplus.js';
import { humaneval } from './humaneval.js';
import { humanevalpack } from './humanevalpack.js';
import { multiple } from './multipl-e.js';
import { quixbugs } from './quixbugs.js';
import type { FormatSpec } from './types.js';

/** Most specific first: MBPP+ records also look like HumanEval+, HumanEvalPack like HumanEval. */
export const FORMAT_SPECS: readonly FormatSpec[] = [
  mbppPlus,
  humanevalPlus,
  humanevalpack,
  quixbugs,
  multiple,
  humaneval,
];

export function detectFormat(fields: readonly string[], where: string): FormatSpec {
  const present = new Set(fields);
  const spec = FORMAT_SPECS.find((s) => s.signature.every((f) => present.has(f)));
  if (spec) return spec;
  const known = FORMAT_SPECS.map((s) => `${s.format} (${s.signature.join(', ')})`).join('; ');
  throw new Error(
    `${where}: unknown dataset format: the first record has fields [${fields.join(', ')}]; known formats, by the fields that identify them: ${known}`,
  );
}
