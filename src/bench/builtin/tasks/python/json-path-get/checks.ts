import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([data, path]) =>
    data !== undefined && isStr(path) && /^(?:(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*)?$/.test(path),
  properties: [
    p(
      'the empty path returns the data',
      ([data, path], out) => path !== '' || JSON.stringify(out) === JSON.stringify(data),
    ),
  ],
} satisfies TaskChecks;
