/**
 * A check of GBNF grammars before they reach node-llama-cpp, which accepts some invalid
 * grammars without an error and then generates an empty string (e.g. `root ::= "yes" |`).
 * It finds: a missing root rule, references to undefined rules, empty alternatives, and
 * unterminated strings, character classes or groups. It does not prove a grammar valid.
 */
export interface GrammarProblem {
  readonly rule: string;
  readonly message: string;
}

const RULE_START = /^\s*([a-zA-Z0-9_-]+)\s*::=/;

function stripComment(line: string): string {
  let inString = false;
  let inClass = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') i++;
    else if (inString) inString = c !== '"';
    else if (inClass) inClass = c !== ']';
    else if (c === '"') inString = true;
    else if (c === '[') inClass = true;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

/** Rule name → body text, joining continuation lines. */
function splitRules(grammar: string): Map<string, string> {
  const rules = new Map<string, string>();
  let current: string | undefined;
  for (const raw of grammar.split('\n')) {
    const line = stripComment(raw);
    const start = RULE_START.exec(line);
    if (start) {
      current = start[1]!;
      rules.set(current, line.slice(start[0].length));
    } else if (current && line.trim()) {
      rules.set(current, `${rules.get(current)} ${line}`);
    }
  }
  return rules;
}

export function lintGbnf(grammar: string): GrammarProblem[] {
  const rules = splitRules(grammar);
  const problems: GrammarProblem[] = [];
  if (!rules.has('root')) problems.push({ rule: 'root', message: 'there is no `root ::= …` rule' });
  for (const [rule, body] of rules) {
    let stopped = false; // after an unreadable spot the rest of the rule is not checked
    const say = (message: string) => problems.push({ rule, message });
    const fail = (message: string) => {
      say(message);
      stopped = true;
    };
    const groups: number[] = [0]; // items in the current alternative, one counter per open group
    let i = 0;
    while (i < body.length) {
      const c = body[i]!;
      if (/\s/.test(c)) {
        i++;
      } else if (c === '"' || c === '[') {
        const close = c === '"' ? '"' : ']';
        let j = i + 1;
        while (j < body.length && body[j] !== close) j += body[j] === '\\' ? 2 : 1;
        if (j >= body.length) {
          fail(c === '"' ? 'a string is not closed with "' : 'a character class is not closed with ]');
          break;
        }
        groups[groups.length - 1]!++;
        i = j + 1;
      } else if (c === '(') {
        groups.push(0);
        i++;
      } else if (c === ')') {
        if (groups.length === 1) {
          fail('a ")" has no matching "("');
          break;
        }
        if (groups.pop() === 0) say('a group or one of its alternatives is empty');
        groups[groups.length - 1]!++;
        i++;
      } else if (c === '|') {
        if (groups.at(-1) === 0) say('an alternative is empty (nothing before this "|")');
        groups[groups.length - 1] = 0;
        i++;
      } else if (c === '*' || c === '+' || c === '?') {
        i++;
      } else if (c === '{') {
        const j = body.indexOf('}', i);
        if (j < 0) {
          fail('a repetition {m,n} is not closed with }');
          break;
        }
        i = j + 1;
      } else {
        const name = /^[a-zA-Z0-9_-]+/.exec(body.slice(i))?.[0];
        if (!name) {
          fail(`unexpected character ${JSON.stringify(c)}`);
          break;
        }
        if (!rules.has(name)) say(`refers to rule "${name}", which is not defined`);
        groups[groups.length - 1]!++;
        i += name.length;
      }
    }
    if (stopped) continue;
    if (groups.length > 1) say('a "(" is not closed');
    else if (groups[0] === 0) say('the rule is empty, or its last alternative is (nothing after the last "|")');
  }
  return problems;
}
