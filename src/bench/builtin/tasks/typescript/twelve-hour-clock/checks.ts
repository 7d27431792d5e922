import { isStr, p, type TaskChecks } from '../../../check-helpers.js';

export default {
  precondition: ([time]) => isStr(time) && /^([01]\d|2[0-3]):[0-5]\d$/.test(time),
  properties: [
    p(
      'keeps the minutes and says AM or PM',
      ([time], out) => isStr(out) && new RegExp(`^(1[0-2]|[1-9]):${time.slice(3)} (AM|PM)$`).test(out),
    ),
  ],
} satisfies TaskChecks;
