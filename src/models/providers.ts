/**
 * AI SDK language models for each endpoint kind. Provider packages load on first use so
 * that the CLI starts fast and a kind nobody uses costs nothing.
 */
import type { LanguageModel } from 'ai';
import { MissingApiKeyError } from './errors.js';
import type { ResolvedModel } from './resolve.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** Name under which per-call options reach an OpenAI-compatible request body. */
export const COMPATIBLE_PROVIDER_NAME = 'endpoint';
/** Default variable for an OpenAI-compatible server's key; the key is optional. */
export const COMPATIBLE_KEY_VARIABLE = 'OPENAI_COMPATIBLE_API_KEY';

function requireKey(env: Environment, variable: string, spec: string): string {
  const key = env[variable];
  if (!key) throw new MissingApiKeyError(variable, spec);
  return key;
}

export async function createLanguageModel(model: ResolvedModel, env: Environment): Promise<LanguageModel> {
  switch (model.kind) {
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      // A variable named in the config must be set; the default one is optional (local servers need no key).
      const apiKey = model.entry?.apiKeyEnv
        ? requireKey(env, model.entry.apiKeyEnv, model.spec)
        : env[COMPATIBLE_KEY_VARIABLE];
      return createOpenAICompatible({
        name: COMPATIBLE_PROVIDER_NAME,
        baseURL: model.baseURL!,
        ...(apiKey ? { apiKey } : {}),
        ...(model.entry?.headers ? { headers: model.entry.headers } : {}),
        includeUsage: true,
        supportsStructuredOutputs: model.capabilities.structuredOutput === 'json-schema',
      }).chatModel(model.modelId);
    }
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const apiKey = requireKey(env, 'OPENAI_API_KEY', model.spec);
      // Chat Completions rather than Responses: it takes seed and stop on every model.
      return createOpenAI({ apiKey, ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}) }).chat(
        model.modelId,
      );
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const apiKey = requireKey(env, 'ANTHROPIC_API_KEY', model.spec);
      return createAnthropic({ apiKey, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) })(
        model.modelId,
      );
    }
    case 'ollama': {
      const { createOllama } = await import('ollama-ai-provider-v2');
      const host = env.OLLAMA_HOST
        ? /^https?:\/\//.test(env.OLLAMA_HOST)
          ? env.OLLAMA_HOST
          : `http://${env.OLLAMA_HOST}`
        : undefined;
      return createOllama(host ? { baseURL: `${host.replace(/\/+$/, '')}/api` } : {})(model.modelId);
    }
    case 'gguf':
    case 'replay':
      throw new Error(`${model.kind} models do not go through the AI SDK`);
  }
}
