import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

/** The lines the prompt allows: fields are bare (no comma or quote) or quoted with "" for a quote. */
const CSV_LINE = /^(?:[^",]*|"(?:[^"]|"")*")(?:,(?:[^",]*|"(?:[^"]|"")*"))*$/;

export default {
  precondition: ([line]) => isStr(line) && CSV_LINE.test(line),
  properties: [
    p(
      'a line without quotes splits on commas',
      ([line], out) => line.includes('"') || JSON.stringify(out) === JSON.stringify(line.split(',')),
    ),
  ],
} satisfies TaskChecks;
