import { isInt, isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([text, width]) => isStr(text) && isInt(width) && width >= 1,
  properties: [
    p(
      'keeps every word in order',
      ([text], out) =>
        Array.isArray(out) &&
        out.join(' ').split(/\s+/).filter(Boolean).join(' ') === text.split(/\s+/).filter(Boolean).join(' '),
    ),
    p(
      'lines fit the width unless they hold one long word',
      ([, width], out) =>
        Array.isArray(out) && out.every((line: string) => line.length <= width || !line.includes(' ')),
    ),
  ],
} satisfies TaskChecks;
