/** From what the user wrote (`--model X`) to a fully described endpoint. */
import { capabilitiesFor } from './capabilities.js';
import type { CrucibleConfig, ModelEntry } from './config.js';
import { EMPTY_CONFIG } from './config.js';
import { ModelConfigError } from './errors.js';
import { parseSpec, unknownSpecError, type ParsedSpec } from './spec.js';
import type { Capabilities } from './types.js';

export interface ResolvedModel extends ParsedSpec {
  /** The config entry the spec came from, if any. */
  readonly entry?: ModelEntry;
  readonly configName?: string;
  readonly capabilities: Capabilities;
}

export function resolveModel(text: string, config: CrucibleConfig = EMPTY_CONFIG): ResolvedModel {
  const entry = config.models[text];
  if (entry) {
    const parsed = parseSpec(entry.spec);
    if (!parsed)
      throw new ModelConfigError(`crucible.config.json: models.${text}.spec "${entry.spec}" is not a model spec`);
    return { ...parsed, entry, configName: text, capabilities: capabilitiesFor(parsed.kind, entry.capabilities) };
  }
  const parsed = parseSpec(text);
  if (!parsed) throw unknownSpecError(text, Object.keys(config.models));
  return { ...parsed, capabilities: capabilitiesFor(parsed.kind) };
}
