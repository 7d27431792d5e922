/** The code pack passes the domain-pack contract in each of its languages. */
import { after } from 'node:test';
import { codePack } from '../src/domains/code/index.js';
import { Harness } from '../src/domains/code/harness.js';
import { runPackContract } from './contracts/pack-contract.js';
import { builtin, fenced } from './strategies-support.js';

const harness = new Harness({ workers: 1 });
after(() => harness.close());

const LANGUAGES = [
  {
    id: 'builtin/py/balanced-brackets',
    right: 'pair-removal',
    wrong: 'ignores-unclosed',
    broken: 'def is_balanced(s:\n',
    loop: 'while True:\n    pass\n',
    fence: 'python',
  },
  {
    id: 'builtin/js/chunk-array',
    right: 'reduce',
    wrong: 'drops-partial-chunk',
    broken: 'function chunk(xs, n {\n',
    loop: 'while (true) {}\n',
    fence: 'javascript',
  },
  {
    id: 'builtin/ts/twelve-hour-clock',
    right: 'split-and-modulo',
    wrong: 'midnight-noon',
    broken: 'function to12(: string {\n',
    loop: 'while (true) {}\n',
    fence: 'typescript',
  },
] as const;

for (const language of LANGUAGES) {
  const { task, program } = builtin(language.id);
  runPackContract(() => codePack(harness), {
    name: `code (${task.language}, ${task.id})`,
    task,
    right: program(language.right),
    wrong: program(language.wrong),
    broken: language.broken,
    hostile: language.loop + program(language.right),
    reply: fenced(program(language.right), language.fence),
    prepare: { probes: 40 },
  });
}
