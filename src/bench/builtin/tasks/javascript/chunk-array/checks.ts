import { isInt, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([arr, size]) => Array.isArray(arr) && isInt(size) && size >= 1,
  properties: [
    p(
      'the chunks joined are the input',
      ([arr], out) => Array.isArray(out) && JSON.stringify(out.flat()) === JSON.stringify(arr),
    ),
    p(
      'every chunk but the last is full',
      ([, size], out) =>
        Array.isArray(out) &&
        out.every(
          (c: unknown[], i: number) => c.length > 0 && (i === out.length - 1 ? c.length <= size : c.length === size),
        ),
    ),
  ],
} satisfies TaskChecks;
