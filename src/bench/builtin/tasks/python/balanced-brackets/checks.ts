import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([s]) => isStr(s),
  properties: [p('text without brackets is balanced', ([s], out) => /[()[\]{}]/.test(s) || out === true)],
} satisfies TaskChecks;
