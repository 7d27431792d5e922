/**
 * bench:eval's node-surface section: what giving JavaScript candidates node's surface
 * costs, and whether Crucible agrees with node on programs that use it.
 * 1. Setting up one candidate's context in the worker (same node flags): the bare context
 *    the worker made before, against the context with node's surface.
 * 2. Per candidate through the Harness, one worker, one at a time: a trivial program, a
 *    program that uses a lent node object (its worker is replaced after it), and a fresh
 *    `node` per sample.
 * 3. The large differential corpus (MultiPL-E JavaScript prompts whose functions delegate to
 *    HumanEvalPack's reference or buggy program through code that exercises node's APIs):
 *    agreement with a fresh `node`, and samples per second both ways.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDataset } from '../src/datasets/index.js';
import { type CorpusProgram, judgeBothWays, multiplECorpus } from '../src/bench/node-api-corpus.js';
import type { Task } from '../src/core/task.js';
import { spawnPerSample } from '../src/runtimes/testing/fresh-interpreter.js';
import { Harness } from '../src/domains/code/harness.js';

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
const WORKER = fileURLToPath(new URL('../src/runtimes/node/candidate-worker.cjs', import.meta.url));
const NODE_PATH = fileURLToPath(new URL('../node_modules', import.meta.url));

/**
 * Microseconds to make one candidate's context, median of rounds, in a process with the
 * worker's flags: bare (as before node's surface), with the surface for a program that
 * names none of node's globals (it stays unbuilt), and for one that reads `process` (built).
 */
function contextSetupMicros(): { bare: number; unbuilt: number; built: number } {
  const script = `
    const vm = require('vm');
    const { Execution } = require(${JSON.stringify(WORKER)});
    const plain = new Set(['function', 'f', 'x', 'return']);
    const usesProcess = new Set(['function', 'f', 'x', 'return', 'process']);
    const kinds = {
      bare: () => new Execution({}, false).installSurface(plain),
      unbuilt: () => new Execution({}).installSurface(plain),
      built: () => { const e = new Execution({}); e.installSurface(usesProcess); vm.runInContext('typeof process', e.context); },
    };
    const time = (fn) => { const t0 = process.hrtime.bigint(); for (let i = 0; i < 200; i++) fn(); return Number(process.hrtime.bigint() - t0) / 200 / 1e3; };
    for (let i = 0; i < 3; i++) for (const fn of Object.values(kinds)) time(fn);
    const out = {};
    for (const [k, fn] of Object.entries(kinds)) { const xs = []; for (let i = 0; i < 9; i++) xs.push(time(fn)); out[k] = xs.sort((a, b) => a - b)[4]; }
    console.log(JSON.stringify(out));`;
  const flags = [
    '--experimental-vm-modules',
    '--disallow-code-generation-from-strings',
    '--frozen-intrinsics',
    '--no-warnings',
  ];
  return JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' })) as {
    bare: number;
    unbuilt: number;
    built: number;
  };
}

const oneCall = (id: string, program: string): Task => ({
  id,
  language: 'javascript',
  prompt: '',
  entryPoint: 'f',
  completionPrefix: '',
  reference: program,
  knownWrong: [],
  source: 'bench',
  suites: [
    { kind: 'script', name: 'check', code: "const assert = require('node:assert');\nassert.equal(f('ab'), 'YWI=');\n" },
  ],
});

export async function nodeSurfaceSection(data: string, report: (line: string) => void): Promise<void> {
  const setup = contextSetupMicros();
  report(
    `javascript node surface: one candidate's context ${setup.bare.toFixed(0)} µs bare (before) | ${setup.unbuilt.toFixed(0)} µs with node's surface, unused (+${(setup.unbuilt - setup.bare).toFixed(0)} µs) | ${setup.built.toFixed(0)} µs when the program reads process (+${(setup.built - setup.bare).toFixed(0)} µs)`,
  );

  const programs = {
    'own realm only (btoa)': 'function f(s) { return btoa(s) }',
    'lent node object (Buffer: the worker is replaced)': "function f(s) { return Buffer.from(s).toString('base64') }",
    'require of a built-in (crypto: replaced)':
      "const crypto = require('crypto');\nfunction f(s) { crypto.createHash('md5'); return btoa(s) }",
  };
  const harness = new Harness({ workers: 1 });
  const rows: string[] = [];
  for (const [label, program] of Object.entries(programs)) {
    const task = oneCall(`surface/${label}`, program);
    const warm = await harness.judge(task, program);
    if (warm.status !== 'pass') throw new Error(`${label}: ${warm.status} ${warm.firstFailure?.message}`);
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await harness.judge(task, program);
      times.push(performance.now() - t0);
    }
    rows.push(`${label} ${median(times).toFixed(2)} ms`);
  }
  await harness.close();
  const source = `${programs['lent node object (Buffer: the worker is replaced)']}\nrequire('node:assert').equal(f('ab'), 'YWI=');\n`;
  const t0 = performance.now();
  await spawnPerSample(
    Array.from({ length: 30 }, () => ({ interpreter: process.execPath, source, suffix: '.js' })),
    1,
  );
  const fresh = (performance.now() - t0) / 30;
  report(
    `javascript node surface, per candidate (1 worker, median of 60) | ${rows.join(' | ')} | fresh node per sample ${fresh.toFixed(1)} ms`,
  );

  const multiplE = ['js', 'ts'].map((l) => join(data, `multipl-e-humaneval/humaneval-${l}.jsonl.gz`));
  const pack = join(data, 'humanevalpack/humanevalpack-js.jsonl.gz');
  if (!multiplE.every(existsSync) || !existsSync(pack))
    return report('javascript node surface corpus: skipped (data not found)');
  const packTasks = (await loadDataset(pack)).tasks;
  const corpus: CorpusProgram[] = [];
  for (const file of multiplE) corpus.push(...multiplECorpus((await loadDataset(file)).tasks, packTasks));
  // Type checking is not what this measures (its errors never fail a candidate anyway).
  const judge = new Harness({ nodePath: [NODE_PATH], typeCheck: false });
  const {
    rows: both,
    crucibleSeconds,
    freshSeconds,
  } = await judgeBothWays(corpus, judge, { nodePath: [NODE_PATH], timeoutMs: 3000 });
  await judge.close();
  const agreeing = both.filter((r) => r.agrees).length;
  const passing = both.filter((r) => r.crucible === 'pass').length;
  report(
    `javascript node surface corpus: ${corpus.length} MultiPL-E JavaScript and TypeScript programs exercising node's APIs (${passing} pass) | same verdict as a fresh node ${agreeing}/${corpus.length} | crucible ${(corpus.length / crucibleSeconds).toFixed(1)}/s | fresh node ${(corpus.length / freshSeconds).toFixed(1)}/s`,
  );
  for (const r of both.filter((x) => !x.agrees).slice(0, 10)) {
    report(
      `  disagrees: ${r.entry.name}: crucible ${r.crucible}, node ${r.fresh ? 'pass' : 'fail'} ${r.message?.split('\n')[0] ?? ''}`,
    );
  }
}
