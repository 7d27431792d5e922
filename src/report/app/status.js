/**
 * The statuses a sample can have (README, "Statuses"), in the order the report lists them.
 * Each has a glyph as well as a colour, so a cell never says its status by colour alone.
 */

/** @type {readonly { id: string, label: string, glyph: string, description: string }[]} */
export const STATUSES = [
  { id: 'pass', label: 'pass', glyph: '✓', description: 'every test of every suite passed' },
  { id: 'fail', label: 'fail', glyph: '✗', description: 'a test failed: wrong output, or an exception' },
  { id: 'error', label: 'error', glyph: '!', description: 'the program does not load, or its process died' },
  { id: 'timeout', label: 'timeout', glyph: '◷', description: 'a test ran past its time limit' },
  { id: 'memory', label: 'memory', glyph: 'M', description: 'the memory limit was reached' },
  {
    id: 'output-limit',
    label: 'output limit',
    glyph: '≡',
    description: 'the program printed more than the output cap',
  },
  {
    id: 'no-verdict',
    label: 'no verdict',
    glyph: '?',
    description: 'the sandbox itself failed: says nothing about the program',
  },
];

const BY_ID = new Map(STATUSES.map((s) => [s.id, s]));

/**
 * A status the report does not know (a newer Crucible's) still shows, as itself.
 * @param {string} id
 */
export function statusInfo(id) {
  return BY_ID.get(id) ?? { id, label: id, glyph: '•', description: id };
}

/**
 * The CSS class of a status: known ones have colours, others a neutral one.
 * @param {string | null | undefined} id
 */
export const statusClass = (id) => `s-${id && BY_ID.has(id) ? id : 'other'}`;
