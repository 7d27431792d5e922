/**
 * What each kind of endpoint can do, so that a request is routed to the strongest mechanism
 * available (server-side schema → grammar → JSON mode → prompt) instead of silently degrading.
 * A config entry may override a row (e.g. a llama.cpp server: `"grammar": "llama.cpp"`).
 */
import type { CapabilityOverrides } from './config.js';
import type { Capabilities, EndpointKind } from './types.js';

export const CAPABILITY_TABLE: Readonly<Record<EndpointKind, Capabilities>> = {
  // vLLM, llama.cpp server, LM Studio and Ollama's /v1 all take `n`, `seed` and a json_schema response_format.
  'openai-compatible': {
    nativeN: true,
    structuredOutput: 'json-schema',
    grammar: false,
    seed: true,
    logprobs: true,
    tools: true,
    streaming: true,
  },
  openai: {
    nativeN: false,
    structuredOutput: 'json-schema',
    grammar: false,
    seed: true,
    logprobs: false,
    tools: true,
    streaming: true,
  },
  anthropic: {
    nativeN: false,
    structuredOutput: 'json-schema',
    grammar: false,
    seed: false,
    logprobs: false,
    tools: true,
    streaming: true,
  },
  ollama: {
    nativeN: false,
    structuredOutput: 'json-schema',
    grammar: false,
    seed: true,
    logprobs: false,
    tools: true,
    streaming: true,
  },
  gguf: {
    nativeN: false,
    structuredOutput: 'grammar',
    grammar: 'native',
    seed: true,
    logprobs: true,
    tools: false,
    streaming: true,
  },
  // Recorded solutions (replay.ts): n per call; a schema with a `code` field is answered as {"code": …}.
  replay: {
    nativeN: true,
    structuredOutput: 'json-schema',
    grammar: false,
    seed: false,
    logprobs: false,
    tools: false,
    streaming: true,
  },
};

export function capabilitiesFor(kind: EndpointKind, overrides: CapabilityOverrides = {}): Capabilities {
  const merged = { ...CAPABILITY_TABLE[kind] };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** The table as lines for `--help`-style output. */
export function formatCapabilityTable(): string {
  const columns = ['nativeN', 'structuredOutput', 'grammar', 'seed', 'logprobs', 'tools', 'streaming'] as const;
  const rows = Object.entries(CAPABILITY_TABLE).map(([kind, caps]) => [kind, ...columns.map((c) => String(caps[c]))]);
  const header = ['kind', ...columns];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
