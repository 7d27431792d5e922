/**
 * `createModel`: a Model around one backend, adding what every endpoint needs the same way —
 * the response cache, retries, a concurrency limit, a timeout per attempt, cancellation,
 * n-splitting where the endpoint has no native `n`, structured-output validation with one
 * repair, and a record of every call (tokens, latency, cost).
 */
import type { Backend, BackendRequest, BackendResponse } from './backend.js';
import { ResponseCache, canonicalJson, requestHash, type CacheMode, DEFAULT_CACHE_DIR } from './cache.js';
import { ConcurrencyLimit } from './concurrency.js';
import { loadConfig, type CrucibleConfig } from './config.js';
import {
  CacheMissError,
  isUnreadableReply,
  ModelCallError,
  ModelConfigError,
  ModelTimeoutError,
  UnreadableReplyError,
} from './errors.js';
import { PriceTable, addCosts } from './prices.js';
import type { Environment } from './providers.js';
import { resolveModel, type ResolvedModel } from './resolve.js';
import {
  AttemptsFailed,
  DEFAULT_RETRY_POLICY,
  serverErrorText,
  statusCodeOf,
  unwrapSdkError,
  withRetries,
  type RetryPolicy,
} from './retry.js';
import { createValidator, repairMessages, schemaInstruction, type OutputValidator } from './structured.js';
import type {
  CallRecord,
  Capabilities,
  Completion,
  EndpointKind,
  GenerateRequest,
  GenerateResult,
  Model,
  TokenUsage,
  UsageTotals,
} from './types.js';

export interface ModelOptions {
  /** Parsed config; default: read from `configPath`. */
  readonly config?: CrucibleConfig;
  /** Default `crucible.config.json` in the working directory (a missing file is fine). */
  readonly configPath?: string;
  /** Where API keys are read; default `process.env`. */
  readonly env?: Environment;
  /** Default `read-write`. `offline` fails on a miss, naming the request. */
  readonly cache?: CacheMode;
  /** Default `.crucible/cache`. */
  readonly cacheDir?: string;
  /** Requests in flight at once (default: the config entry's, else 4; 1 for gguf). */
  readonly concurrency?: number;
  /** Per attempt (default: the config entry's, else 300 000). */
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Default: the built-in table plus the config's `prices`. */
  readonly prices?: PriceTable;
  /** Called after every endpoint call or cache hit (for traces and budgets). */
  readonly onCall?: (record: CallRecord) => void;
}

const DEFAULT_TIMEOUT_MS = 300_000;

/** Resolves a spec or config name and opens its endpoint. */
export async function createModel(specOrName: string, options: ModelOptions = {}): Promise<Model> {
  const config = options.config ?? loadConfig(options.configPath);
  const resolved = resolveModel(specOrName, config);
  const env = options.env ?? process.env;
  const backend =
    resolved.kind === 'gguf'
      ? await (await import('./local/gguf-backend.js')).createGgufBackend(resolved)
      : resolved.kind === 'replay'
        ? await (await import('./replay.js')).createReplayBackend(resolved)
        : await (await import('./sdk-backend.js')).createSdkBackend(resolved, env);
  const prices =
    options.prices ??
    new PriceTable({ ...config.prices, ...(resolved.entry?.price ? { [resolved.spec]: resolved.entry.price } : {}) });
  // A replay is its own recording: no response cache (and `--offline` needs none).
  return modelFromBackend(resolved, backend, {
    ...options,
    prices,
    ...(resolved.kind === 'replay' ? { cache: 'off' as const } : {}),
  });
}

/** The Model layer over any backend (used by createModel, and by tests of a backend). */
export function modelFromBackend(resolved: ResolvedModel, backend: Backend, options: ModelOptions = {}): Model {
  return new CachedModel(resolved, backend, options);
}

interface CallOutcome {
  readonly response: BackendResponse;
  readonly record: CallRecord;
}

class CachedModel implements Model {
  readonly spec: string;
  readonly kind: EndpointKind;
  readonly modelId: string;
  readonly capabilities: Capabilities;
  private readonly cacheMode: CacheMode;
  private readonly cache: ResponseCache;
  private readonly limit: ConcurrencyLimit;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly prices: PriceTable;
  private readonly occurrences = new Map<string, number>();
  private readonly running: {
    calls: number;
    cachedCalls: number;
    inputTokens: number;
    cachedInputTokens: number;
    outputTokens: number;
    costUsd: number | null;
  } = {
    calls: 0,
    cachedCalls: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
  };

  constructor(
    private readonly resolved: ResolvedModel,
    private readonly backend: Backend,
    private readonly options: ModelOptions,
  ) {
    this.spec = resolved.spec;
    this.kind = resolved.kind;
    this.modelId = resolved.modelId;
    this.capabilities = backend.capabilities;
    this.cacheMode = options.cache ?? 'read-write';
    this.cache = new ResponseCache(options.cacheDir ?? DEFAULT_CACHE_DIR);
    this.limit = new ConcurrencyLimit(
      options.concurrency ?? resolved.entry?.concurrency ?? (resolved.kind === 'gguf' ? 1 : 4),
    );
    this.timeoutMs = options.timeoutMs ?? resolved.entry?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.prices = options.prices ?? new PriceTable();
  }

  totals(): UsageTotals {
    return { ...this.running };
  }

  async close(): Promise<void> {
    await this.backend.close();
  }

  async generate(input: GenerateRequest): Promise<GenerateResult> {
    const started = performance.now();
    const request = this.withDefaults(input);
    const n = request.n ?? 1;
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a whole number ≥ 1, got ${n}`);
    this.checkSupported(request);
    const validator = request.output ? createValidator(request.output) : undefined;
    const messages = validator ? [schemaInstruction(validator), ...request.messages] : [...request.messages];
    const base = this.backendRequest(request, messages, validator);

    // Native n where the endpoint has it, and unless streaming (streams carry one choice each).
    const oneCall = n === 1 || (this.capabilities.nativeN && !request.onText);
    const plans: Array<{ req: BackendRequest; firstIndex: number }> = oneCall
      ? [{ req: { ...base, n }, firstIndex: 0 }]
      : Array.from({ length: n }, (_, i) => ({
          req: { ...base, n: 1, ...(base.seed !== undefined ? { seed: base.seed + i } : {}) },
          firstIndex: i,
        }));
    const outcomes = await Promise.all(plans.map(({ req, firstIndex }) => this.call(req, request, firstIndex)));

    const calls: CallRecord[] = outcomes.map((o) => o.record);
    let completions: Completion[] = outcomes.flatMap((o) => o.response.completions.map((c) => ({ ...c })));
    if (validator) {
      completions = await Promise.all(completions.map((c) => this.validated(c, validator, base, request, calls)));
    }
    const usage = sumUsage(calls.map((c) => c.usage));
    const costUsd = calls.reduce<number | null>((sum, c) => addCosts(sum, c.costUsd), 0);
    return { completions, calls, usage, costUsd, latencyMs: performance.now() - started };
  }

  private withDefaults(request: GenerateRequest): GenerateRequest {
    const defaults = this.resolved.entry?.defaults;
    if (!defaults) return request;
    return {
      ...(defaults.temperature !== undefined ? { temperature: defaults.temperature } : {}),
      ...(defaults.topP !== undefined ? { topP: defaults.topP } : {}),
      ...(defaults.maxTokens !== undefined ? { maxTokens: defaults.maxTokens } : {}),
      ...(defaults.seed !== undefined ? { seed: defaults.seed } : {}),
      ...request,
    };
  }

  private checkSupported(request: GenerateRequest): void {
    const caps = this.capabilities;
    if (request.grammar && !caps.grammar) {
      throw new ModelConfigError(
        `${this.spec} cannot decode under a grammar: use a gguf: model, or for a llama.cpp or vLLM server set "capabilities": {"grammar": "llama.cpp" | "vllm"} in crucible.config.json`,
      );
    }
    if (request.tools && !caps.tools) throw new ModelConfigError(`${this.spec} does not take tool definitions`);
    if (request.logprobs && !caps.logprobs)
      throw new ModelConfigError(`${this.spec} does not report token log-probabilities`);
  }

  private backendRequest(
    request: GenerateRequest,
    messages: GenerateRequest['messages'],
    validator: OutputValidator | undefined,
  ): BackendRequest {
    const route = this.capabilities.structuredOutput;
    const responseFormat = !validator
      ? undefined
      : route === 'json-schema' || route === 'grammar'
        ? {
            type: 'json' as const,
            schema: validator.jsonSchema,
            ...(request.output?.name ? { name: request.output.name } : {}),
            ...(request.output?.description ? { description: request.output.description } : {}),
          }
        : route === 'json-mode'
          ? { type: 'json' as const }
          : undefined;
    return {
      messages,
      n: 1,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      // A seed the endpoint ignores would only split the cache.
      ...(request.seed !== undefined && this.capabilities.seed ? { seed: request.seed } : {}),
      ...(request.stop?.length ? { stop: request.stop } : {}),
      ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
      ...(responseFormat ? { responseFormat } : {}),
      ...(request.grammar ? { grammar: request.grammar } : {}),
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.toolChoice ? { toolChoice: request.toolChoice } : {}),
      ...(request.logprobs ? { logprobs: true } : {}),
      ...(request.onText ? { stream: true } : {}),
    };
  }

  /** Validates one completion; if it fails, asks once for a corrected reply. */
  private async validated(
    completion: Completion,
    validator: OutputValidator,
    base: BackendRequest,
    request: GenerateRequest,
    calls: CallRecord[],
  ): Promise<Completion> {
    if (completion.toolCalls.length > 0 && !completion.text) return completion;
    const first = validator.check(completion.text);
    if (first.ok) return { ...completion, value: first.value };
    const { stream: _streamed, ...nonStreaming } = base;
    const repairRequest: BackendRequest = {
      ...nonStreaming,
      n: 1,
      messages: repairMessages(base.messages, completion.text, first.message),
    };
    const repair = await this.call(
      repairRequest,
      { ...request, label: `${request.label ?? 'generate'}:repair` },
      undefined,
    );
    calls.push(repair.record);
    const fixed = repair.response.completions[0];
    const second = fixed
      ? validator.check(fixed.text)
      : { ok: false as const, message: 'the repair request returned no completion' };
    if (second.ok) return { ...fixed!, value: second.value, repaired: true };
    return { ...(fixed ?? completion), outputError: second.message, repaired: true };
  }

  /** One logical call: from the cache, or from the endpoint under the limit, with retries. */
  private async call(
    req: BackendRequest,
    request: GenerateRequest,
    streamIndex: number | undefined,
  ): Promise<CallOutcome> {
    // Claim the occurrence synchronously, so the order of calls (not their timing) decides it.
    // One Model has one spec: the request alone tells identical requests apart.
    const canonical = canonicalJson(req);
    const occurrence = this.occurrences.get(canonical) ?? 0;
    this.occurrences.set(canonical, occurrence + 1);
    const hash = requestHash(this.spec, canonical, occurrence);
    const onText =
      request.onText && streamIndex !== undefined ? (delta: string) => request.onText!(streamIndex, delta) : undefined;
    request.signal?.throwIfAborted();

    if (this.cacheMode === 'read-write' || this.cacheMode === 'offline') {
      const started = performance.now();
      const hit = await this.cache.get(hash);
      if (hit) {
        if (onText) hit.completions.forEach((c) => onText(c.text));
        return this.account(hash, request, hit, performance.now() - started, true, 0);
      }
      if (this.cacheMode === 'offline') throw new CacheMissError(hash, this.describe(req, occurrence));
    }

    return this.limit.run(async () => {
      const started = performance.now();
      let result: { value: BackendResponse; attempts: number };
      try {
        result = await withRetries(this.retry, request.signal, () => this.attempt(req, request.signal, onText));
      } catch (error) {
        throw this.callError(error);
      }
      if (this.cacheMode !== 'off') await this.cache.put(hash, this.spec, occurrence, req, result.value);
      return this.account(hash, request, result.value, performance.now() - started, false, result.attempts);
    }, request.signal);
  }

  private async attempt(
    req: BackendRequest,
    signal: AbortSignal | undefined,
    onText: ((delta: string) => void) | undefined,
  ): Promise<BackendResponse> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await this.backend.generate(req, { signal: combined, ...(onText ? { onText } : {}) });
    } catch (error) {
      if (timeout.aborted && !signal?.aborted) throw new ModelTimeoutError(this.spec, this.timeoutMs, 1);
      throw error;
    }
  }

  private callError(error: unknown): unknown {
    const attempts = error instanceof AttemptsFailed ? error.attempts : 1;
    const last = unwrapSdkError(error instanceof AttemptsFailed ? error.lastError : error);
    if (last instanceof ModelTimeoutError) return new ModelTimeoutError(this.spec, this.timeoutMs, attempts);
    // Cancellation stays what it is, so callers can tell it from a failure.
    if ((last as { name?: string } | undefined)?.name === 'AbortError') return last;
    const status = statusCodeOf(last);
    const server = serverErrorText(last);
    const detail = (last instanceof Error ? last.message : String(last)) + (server ? ` (${server})` : '');
    const what = status ? `HTTP ${status}` : 'request failed';
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (!status && isUnreadableReply(last))
      return new UnreadableReplyError(
        `${this.spec}: its reply could not be read: ${detail}`,
        this.spec,
        undefined,
        attempts,
        {
          cause: last,
        },
      );
    return new ModelCallError(`${this.spec}: ${what}${tries}: ${detail}`, this.spec, status, attempts, { cause: last });
  }

  private account(
    hash: string,
    request: GenerateRequest,
    response: BackendResponse,
    latencyMs: number,
    cached: boolean,
    attempts: number,
  ): CallOutcome {
    const costUsd = this.prices.cost(this.spec, this.kind, this.modelId, response.usage);
    const record: CallRecord = {
      model: this.spec,
      requestHash: hash,
      ...(request.label !== undefined ? { label: request.label } : {}),
      usage: response.usage,
      costUsd,
      latencyMs,
      cached,
      attempts,
      completions: response.completions.length,
    };
    this.running.calls++;
    if (cached) this.running.cachedCalls++;
    this.running.inputTokens += response.usage.inputTokens;
    this.running.cachedInputTokens += response.usage.cachedInputTokens ?? 0;
    this.running.outputTokens += response.usage.outputTokens;
    this.running.costUsd = addCosts(this.running.costUsd, costUsd);
    this.options.onCall?.(record);
    return { response, record };
  }

  private describe(req: BackendRequest, occurrence: number): string {
    const lastUser = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const excerpt = lastUser.length > 80 ? `${lastUser.slice(0, 77)}...` : lastUser;
    return `${this.spec}, occurrence ${occurrence + 1} of this request, n=${req.n}, last user message: ${JSON.stringify(excerpt)}`;
  }
}

function sumUsage(usages: readonly TokenUsage[]): TokenUsage {
  const cached = usages.some((u) => u.cachedInputTokens !== undefined);
  return usages.reduce(
    (a, b) => ({
      inputTokens: a.inputTokens + b.inputTokens,
      outputTokens: a.outputTokens + b.outputTokens,
      ...(cached ? { cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0) } : {}),
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
}
