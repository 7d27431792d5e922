/**
 * `crucible.config.json`: named models and prices. Kept to plain JSON so that a run's
 * configuration can be read, diffed and stored beside its trace.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ModelConfigError } from './errors.js';

export const CONFIG_FILE = 'crucible.config.json';

/** US dollars per million tokens. */
export const priceSchema = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() });
export type Price = z.infer<typeof priceSchema>;

const capabilityOverrides = z
  .object({
    nativeN: z.boolean(),
    structuredOutput: z.enum(['json-schema', 'json-mode', 'grammar', 'prompt']),
    grammar: z.union([z.enum(['native', 'llama.cpp', 'vllm']), z.literal(false)]),
    seed: z.boolean(),
    logprobs: z.boolean(),
    tools: z.boolean(),
    streaming: z.boolean(),
  })
  .partial()
  .strict();

export const modelEntrySchema = z
  .object({
    /** Any literal spec: `http://…/v1#name`, `openai:…`, `anthropic:…`, `ollama:…`, `gguf:…`. */
    spec: z.string().min(1),
    /** Environment variable holding the key (OpenAI-compatible servers; overrides the default variable). */
    apiKeyEnv: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** Fields added verbatim to every request body (OpenAI-compatible), e.g. {"top_k": 20}. */
    extraBody: z.record(z.string(), z.unknown()).optional(),
    capabilities: capabilityOverrides.optional(),
    /** Request defaults, overridden by the request itself. */
    defaults: z
      .object({
        temperature: z.number(),
        topP: z.number(),
        maxTokens: z.number().int().positive(),
        seed: z.number().int(),
      })
      .partial()
      .strict()
      .optional(),
    concurrency: z.number().int().positive().optional(),
    timeoutMs: z.number().int().positive().optional(),
    /** gguf only: context length in tokens (default: the model's, at most 4096). */
    contextSize: z.number().int().positive().optional(),
    /** gguf only: CPU threads (on a busy machine, few threads decode much faster than many). */
    threads: z.number().int().positive().optional(),
    /** gguf only: false keeps the model on the CPU (default: use a GPU when there is one). */
    gpu: z.boolean().optional(),
    /**
     * gguf only: false evaluates every prompt whole (default: the KV cache of the prefix a prompt
     * shares with the call before is kept, so candidates of one task pay their prompt once).
     */
    prefixCache: z.boolean().optional(),
    price: priceSchema.optional(),
  })
  .strict();
export type ModelEntry = z.infer<typeof modelEntrySchema>;
export type CapabilityOverrides = z.infer<typeof capabilityOverrides>;

export const crucibleConfigSchema = z
  .object({
    models: z.record(z.string(), modelEntrySchema).default({}),
    /** Keyed by spec (`openai:gpt-4o`), `kind:model`, or bare model name; added to the built-in table. */
    prices: z.record(z.string(), priceSchema).default({}),
  })
  .loose();
export type CrucibleConfig = z.infer<typeof crucibleConfigSchema>;

export const EMPTY_CONFIG: CrucibleConfig = { models: {}, prices: {} };

/** Reads the config file; a missing file is an empty config, a malformed one an error that names the field. */
export function loadConfig(path: string = CONFIG_FILE): CrucibleConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_CONFIG;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = crucibleConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `  ${issue.path.join('.') || '(top)'}: ${issue.message}`)
      .join('\n');
    throw new ModelConfigError(`${path} does not match the config schema:\n${issues}`);
  }
  return parsed.data;
}
