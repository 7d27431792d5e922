/**
 * The one place that names packs. A front door (solve, eval, eval --model) finds the pack of a
 * task file here and reaches everything else through its module (pack-module.ts); a new pack
 * is its folder and one line in PACKS. Functions (`code`) are the default: a file no pack
 * claims is read as a function dataset. A pack of the user's own, in their own package, is
 * installed by naming its module in CRUCIBLE_PACKS.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { docsModule } from './docs/module.js';
import { gamesModule } from './games/module.js';
import type { AnyPackModule } from './pack-module.js';
import { sqlModule } from './sql/module.js';

export const PACKS: readonly AnyPackModule[] = [sqlModule, gamesModule, docsModule];

/** The pack whose task file this is, or undefined (a function dataset, or no such file). */
export function packOfTaskFile(file: string, packs: readonly AnyPackModule[] = PACKS): AnyPackModule | undefined {
  return packs.find((pack) => pack.isTaskFile(file));
}

const installed = new Map<string, Promise<readonly AnyPackModule[]>>();

/**
 * The built-in packs, then those CRUCIBLE_PACKS names: module files (absolute, or relative to
 * the working directory) or packages, separated by commas, each exporting its PackModule as
 * `default`. A user's pack is trusted code, like a configuration file: it runs in this process
 * and judges in the sandbox it opens.
 */
export function installedPacks(list = process.env.CRUCIBLE_PACKS ?? ''): Promise<readonly AnyPackModule[]> {
  let packs = installed.get(list);
  if (!packs) installed.set(list, (packs = loadPacks(list)));
  return packs;
}

async function loadPacks(list: string): Promise<readonly AnyPackModule[]> {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const loaded: AnyPackModule[] = [];
  for (const name of names) {
    const path = name.startsWith('.') || isAbsolute(name) ? pathToFileURL(resolve(name)).href : name;
    let module: { default?: unknown };
    try {
      module = await import(path);
    } catch (error) {
      throw new Error(`CRUCIBLE_PACKS: ${name} does not load (${(error as Error).message})`);
    }
    const pack = module.default as Partial<AnyPackModule> | undefined;
    const missing = (['name', 'isTaskFile', 'readTasks', 'open'] as const).filter((key) => pack?.[key] === undefined);
    if (missing.length)
      throw new Error(
        `CRUCIBLE_PACKS: ${name} exports no pack module as default (missing ${missing.join(', ')}; see src/domains/pack-module.ts)`,
      );
    const taken = [...PACKS, ...loaded].find((p) => p.name === pack!.name);
    if (taken) throw new Error(`CRUCIBLE_PACKS: ${name} names its pack ${pack!.name}, which is taken`);
    loaded.push(pack as AnyPackModule);
  }
  return [...PACKS, ...loaded];
}

export type { AnyPackModule, OpenPack, PackModule, RuntimeOptions, ScoredSuite, Writes } from './pack-module.js';
