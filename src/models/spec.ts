/** Model specs: the strings a user writes after `--model`. */
import { ModelConfigError } from './errors.js';
import type { EndpointKind } from './types.js';

export interface ParsedSpec {
  readonly kind: EndpointKind;
  /** Model name at the endpoint, or the file path for gguf. */
  readonly modelId: string;
  /** OpenAI-compatible only: the base URL, ending before `/chat/completions`. */
  readonly baseURL?: string;
  /** The canonical text of this spec (part of every cache key). */
  readonly spec: string;
}

export const SPEC_FORMS = [
  'http://host:port/v1#model-name   (OpenAI-compatible: vLLM, llama.cpp server, LM Studio, Ollama /v1)',
  'openai:<model>',
  'anthropic:<model>',
  'ollama:<model>',
  'gguf:/path/to/file.gguf',
  'replay:SAMPLES.jsonl?dataset=DATASET.jsonl   (recorded solutions, served by task)',
  '<name>                           (an entry of "models" in crucible.config.json)',
];

/** Parses a literal spec; returns undefined when the text is not one (it may be a config name). */
export function parseSpec(text: string): ParsedSpec | undefined {
  const trimmed = text.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    const hash = trimmed.indexOf('#');
    const modelId = hash < 0 ? '' : trimmed.slice(hash + 1);
    if (!modelId) {
      throw new ModelConfigError(
        `model spec ${trimmed} names no model: write it as ${trimmed.replace(/#.*$/, '')}#model-name`,
      );
    }
    const baseURL = trimmed
      .slice(0, hash)
      .replace(/\/+$/, '')
      .replace(/\/chat\/completions$/, '');
    return { kind: 'openai-compatible', modelId, baseURL, spec: `${baseURL}#${modelId}` };
  }
  const match = /^(openai|anthropic|ollama|gguf|replay):(.+)$/.exec(trimmed);
  if (!match) return undefined;
  const kind = match[1] as EndpointKind;
  const modelId = match[2]!.trim();
  return { kind, modelId, spec: `${kind}:${modelId}` };
}

export function unknownSpecError(text: string, configNames: readonly string[]): ModelConfigError {
  const names = configNames.length ? `\nconfigured names: ${configNames.join(', ')}` : '';
  return new ModelConfigError(`unknown model "${text}"; a model is one of:\n  ${SPEC_FORMS.join('\n  ')}${names}`);
}
