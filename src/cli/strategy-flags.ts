/** What solve and eval --model make of the strategy flags they share: the model, and the strategy's options. */
import { TemplateLibrary } from '../domains/docs/templates.js';
import { createModel } from '../models/index.js';
import type { StrategyOptions } from '../strategies/index.js';
import type { StrategyFlags } from './flags.js';
import { readThreshold } from './threshold-file.js';

export async function strategyOptions(flags: StrategyFlags): Promise<StrategyOptions> {
  return {
    ...(flags.candidates ? { samples: flags.candidates } : {}),
    ...(flags.attempts ? { attempts: flags.attempts } : {}),
    ...(flags.rollouts ? { rollouts: flags.rollouts } : {}),
    ...(flags.modelTests === false ? { modelTests: false } : {}),
    ...(flags.threshold ? { threshold: await readThreshold(flags.threshold) } : {}),
    ...(flags.library ? { library: flags.library } : {}),
    ...(flags.severity ? { severity: flags.severity } : {}),
    ...(flags.templates ? { templates: await templatesFrom(flags.templates) } : {}),
  };
}

async function templatesFrom(dir: string): Promise<TemplateLibrary> {
  const library = await TemplateLibrary.fromFolder(dir).catch((error: Error) => {
    throw new Error(`--templates ${dir}: not a folder Crucible can read (${error.message})`);
  });
  if (library.templates.length === 0) throw new Error(`--templates ${dir}: no .html file in it`);
  return library;
}

export function openModel(flags: StrategyFlags) {
  return createModel(flags.model, {
    cache: flags.offline ? 'offline' : 'read-write',
    cacheDir: flags.cacheDir,
    ...(flags.config ? { configPath: flags.config } : {}),
  });
}
