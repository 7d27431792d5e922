/**
 * Cost per call from a price table (US dollars per million tokens). The built-in rows are
 * list prices at the time of writing; `prices` in crucible.config.json extends or overrides them.
 * Local endpoints (OpenAI-compatible servers, Ollama, GGUF files) and replays cost nothing unless priced.
 */
import type { Price } from './config.js';
import type { EndpointKind, TokenUsage } from './types.js';

export const BUILTIN_PRICES: Readonly<Record<string, Price>> = {
  'openai:gpt-4o': { input: 2.5, output: 10 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai:gpt-4.1': { input: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'anthropic:claude-3-5-haiku-latest': { input: 0.8, output: 4 },
  'anthropic:claude-3-7-sonnet-latest': { input: 3, output: 15 },
  'anthropic:claude-sonnet-4-0': { input: 3, output: 15 },
  'anthropic:claude-opus-4-0': { input: 15, output: 75 },
};

const FREE_KINDS: ReadonlySet<EndpointKind> = new Set(['openai-compatible', 'ollama', 'gguf', 'replay']);

export class PriceTable {
  private readonly prices: Map<string, Price>;

  constructor(extra: Readonly<Record<string, Price>> = {}) {
    this.prices = new Map(Object.entries({ ...BUILTIN_PRICES, ...extra }));
  }

  /** Exact spec first, then `kind:model`, then the bare model name. */
  lookup(spec: string, kind: EndpointKind, modelId: string): Price | undefined {
    return this.prices.get(spec) ?? this.prices.get(`${kind}:${modelId}`) ?? this.prices.get(modelId);
  }

  /** Dollars for this usage; null when a paid endpoint's model has no price. */
  cost(spec: string, kind: EndpointKind, modelId: string, usage: TokenUsage): number | null {
    const price = this.lookup(spec, kind, modelId);
    if (!price) return FREE_KINDS.has(kind) ? 0 : null;
    return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
  }
}

/** Sums costs; unknown (null) stays unknown once any part is unknown. */
export function addCosts(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}
