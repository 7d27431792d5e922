/**
 * `--help` and usage errors are answered without loading any command's code (which took most of
 * a second): checked by the modules a process loads, not by timing it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { BIN } from './cli-support.js';

const ROOT = join(import.meta.dirname, '..');
const HOOK = join(import.meta.dirname, 'loaded-modules-hook.mjs');
const dir = mkdtempSync(join(tmpdir(), 'crucible-startup-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The code behind the commands: the code pack's engine, sandboxes, store, strategies, models, datasets, server. */
const HEAVY =
  /\/src\/(domains\/code|datasets|runtimes|store|strategies|models|bench|select|server|feedback|rl)\/|\/node_modules\/(better-sqlite3|ai|@ai-sdk|zod|fast-check|hono|bullmq|ioredis|cli-progress)\//;

const COMMANDS = [
  [],
  ['eval'],
  ['select'],
  ['calibrate'],
  ['audit'],
  ['solve'],
  ['runs'],
  ['show'],
  ['serve'],
  ['worker'],
];

let logs = 0;
/** Runs node with `args` under the hook that logs every module it resolves: its output and those modules' URLs. */
async function loading(args: string[]): Promise<{ stdout: string; stderr: string; modules: string[] }> {
  const log = join(dir, `modules-${logs++}.txt`);
  const env = { ...process.env, CRUCIBLE_MODULE_LOG: log };
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', HOOK, ...args], {
    cwd: ROOT,
    env,
  }).catch((error) => error);
  return { stdout, stderr, modules: readFileSync(log, 'utf8').trim().split('\n') };
}

test(
  'the command line defines every option without loading the code behind the commands',
  { timeout: 120_000 },
  async () => {
    for (const command of COMMANDS) {
      const { stdout, modules } = await loading(['--import', 'tsx', 'src/cli/main.ts', ...command, '--help']);
      assert.match(stdout, /^Usage: crucible/, command.join(' '));
      assert.ok(
        modules.some((url) => url.endsWith('/src/cli/main.ts')),
        'the hook sees the command line load',
      );
      assert.deepEqual(
        modules.filter((url) => HEAVY.test(url)),
        [],
        `crucible ${command.join(' ')} --help`,
      );
    }
    // A usage error (an unknown flag, a bad value) is answered as early.
    const { stderr, modules } = await loading(['--import', 'tsx', 'src/cli/main.ts', 'eval', '--workers', 'zero']);
    assert.match(stderr, /whole number/);
    assert.deepEqual(
      modules.filter((url) => HEAVY.test(url)),
      [],
    );
  },
);

test('the hook does see the heavy modules once a command runs', { timeout: 120_000 }, async () => {
  const { stderr, modules } = await loading([
    '--import',
    'tsx',
    'src/cli/main.ts',
    'eval',
    '--dataset',
    join(dir, 'missing.jsonl'),
  ]);
  assert.match(stderr, /missing\.jsonl/);
  assert.ok(
    modules.some((url) => url.endsWith('/src/domains/code/harness.ts')),
    'eval loads the harness',
  );
});

test(
  'bin/crucible.js answers --help from its bundle, without tsx, with the text the sources give',
  { timeout: 120_000 },
  async () => {
    for (const command of [[], ['eval'], ['solve']]) {
      const fromSources = await loading(['--import', 'tsx', 'src/cli/main.ts', ...command, '--help']);
      const fromBin = await loading([BIN, ...command, '--help']);
      assert.equal(fromBin.stdout, fromSources.stdout, command.join(' '));
      assert.deepEqual(
        fromBin.modules.filter((url) => /\/src\/|\/node_modules\/tsx\//.test(url)),
        [],
        `crucible ${command.join(' ')} --help loaded the sources or tsx`,
      );
    }
    // A command that runs gets tsx (registered only then) and its code.
    const { stdout, modules } = await loading([BIN, 'runs', '--db', join(dir, 'none.db')]);
    assert.match(stdout, /no runs yet/);
    assert.ok(modules.some((url) => url.includes('/node_modules/tsx/')));
    assert.ok(modules.some((url) => url.endsWith('/src/store/index.ts')));
  },
);
