/** The program pack (whole programs on stdin tests) passes the domain-pack contract in each language. */
import { after } from 'node:test';
import { programPack, type StdinTask } from '../src/domains/program/index.js';
import { LocalExecutor } from '../src/server/executor.js';
import { runPackContract } from './contracts/pack-contract.js';

const executor = new LocalExecutor({ workers: 1 });
after(() => executor.close());

const TESTS = [
  { stdin: '1 2\n', expectedStdout: '3\n', public: true },
  { stdin: '10 20 30\n', expectedStdout: '60\n', public: false },
  { stdin: '-4 1\n', expectedStdout: '-3\n', public: false },
];

const LANGUAGES = [
  {
    language: 'python',
    right: 'print(sum(int(x) for x in input().split()))\n',
    wrong: 'print(sum(abs(int(x)) for x in input().split()))\n',
    broken: 'print(sum(\n',
    hostile: 'while True:\n    pass\n',
  },
  {
    language: 'javascript',
    right:
      "const xs = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(xs.reduce((a, b) => a + b, 0));\n",
    wrong:
      "const xs = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(xs.reduce((a, b) => a + Math.abs(b), 0));\n",
    broken: 'console.log((1 + ;\n',
    hostile: 'while (true) {}\n',
  },
  {
    language: 'typescript',
    right:
      "const xs: number[] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(xs.reduce((a: number, b: number) => a + b, 0));\n",
    wrong:
      "const xs: number[] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(xs.reduce((a: number, b: number) => a + Math.abs(b), 0));\n",
    broken: 'const x: number = (1 + ;\n',
    hostile: 'while (true) {}\n',
  },
] as const;

for (const entry of LANGUAGES) {
  const task: StdinTask = {
    id: `sum/${entry.language}`,
    language: entry.language,
    tests: TESTS,
    compare: 'trailing-newlines',
    limits: { wallSeconds: 2 },
  };
  runPackContract(() => programPack(executor), {
    name: `program (${entry.language})`,
    task,
    right: entry.right,
    wrong: entry.wrong,
    broken: entry.broken,
    hostile: entry.hostile + entry.right,
    reply: `Read the numbers and print their sum:\n\n\`\`\`${entry.language}\n${entry.right}\`\`\`\n`,
    prepare: {},
    skip: {
      'a wrong artifact fails with a fact to feed back, the smallest probe shrunk, and a lower reward':
        'stdin tests are free text with no structure to shrink; /v1/verify reports the failing test with the shortest input instead',
      'neighbours: new probes near the given ones, the same for the same seed':
        'free text has no structure to mutate within the task: the disagreement hunt adds no probes',
    },
  });
}
