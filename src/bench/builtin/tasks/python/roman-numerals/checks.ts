import { isInt, isStr, p, type TaskChecks } from '../../../check-helpers.js';

const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
/** The value of a numeral, read the usual way: a digit before a larger one subtracts (IV is 4). */
const fromRoman = (s: string) =>
  [...s].reduce((sum, c, i) => sum + (ROMAN[c]! < (ROMAN[s[i + 1] ?? ''] ?? 0) ? -ROMAN[c]! : ROMAN[c]!), 0);

export default {
  precondition: ([n]) => isInt(n) && n >= 1 && n <= 3999,
  properties: [
    p('uses only roman digits', (_, out) => isStr(out) && /^[MDCLXVI]+$/.test(out)),
    p('reads back as the number', ([n], out) => isStr(out) && fromRoman(out) === n),
  ],
} satisfies TaskChecks;
