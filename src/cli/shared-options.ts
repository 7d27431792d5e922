/**
 * Options and their parsers shared by several commands. Only commander and types are imported
 * here: every command's options are defined at start-up, also for `--help`, which must not
 * load the harness (harness-from-flags.ts turns the flags into one).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { SandboxMode } from '../runtimes/sandbox.js';

export interface HarnessFlags {
  readonly workers?: number;
  readonly sandbox: SandboxMode;
  readonly timeFloor?: number;
  readonly timeFactor?: number;
  readonly memoryMb?: number;
  readonly typeCheck?: boolean;
  readonly strictTypes?: boolean;
  readonly nodePath?: string[];
}

export const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
};
export const positiveNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number > 0');
  return n;
};

export function withHarnessOptions(command: Command): Command {
  return command
    .option('--workers <n>', 'sandboxed worker pairs per language (default: one per core)', positiveInt)
    .addOption(
      new Option('--sandbox <mode>', 'isolation for untrusted code').choices(['bwrap', 'none']).default('bwrap'),
    )
    .option('--time-floor <seconds>', 'smallest time limit for one test call', positiveNumber)
    .option('--time-factor <x>', 'time limit = max(floor, x × the reference time)', positiveNumber)
    .option(
      '--memory-mb <mb>',
      'memory limit per candidate in MiB (default: 4096 Python, 512 JavaScript/TypeScript)',
      positiveInt,
    )
    .option('--no-type-check', 'do not type-check TypeScript candidates')
    .option('--strict-types', 'TypeScript type errors fail a candidate (default: reported only)')
    .option(
      '--node-path <dir>',
      'a node_modules folder whose packages JavaScript/TypeScript candidates may require, read-only (repeatable; npm install --prefix DIR js-md5 fills DIR/node_modules)',
      (dir: string, previous: string[] = []) => [...previous, dir],
    );
}

export const probability = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= 1)
    throw new InvalidArgumentError('expected a number between 0 and 1 (exclusive)');
  return n;
};

export const seedNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 32 - 1)
    throw new InvalidArgumentError('expected a whole number from 0 to 4294967295');
  return n;
};
