/** Retries with exponential backoff for rate limits (429) and server errors (5xx). */
import { setTimeout as sleep } from 'node:timers/promises';
import { APICallError, RetryError } from 'ai';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

export function unwrapSdkError(error: unknown): unknown {
  return RetryError.isInstance(error) ? error.lastError : error;
}

export function statusCodeOf(error: unknown): number | undefined {
  const inner = unwrapSdkError(error);
  return APICallError.isInstance(inner) ? inner.statusCode : undefined;
}

/**
 * The server's own words when the SDK could not parse its error body: Ollama answers
 * `{"error": "model \"x\" not found, try pulling it first"}`, which its provider, expecting
 * `{"error": {"message"}}`, reduces to the HTTP status text.
 */
export function serverErrorText(error: unknown): string | undefined {
  const inner = unwrapSdkError(error);
  if (!APICallError.isInstance(inner) || !inner.responseBody) return undefined;
  try {
    const body = JSON.parse(inner.responseBody) as { error?: unknown };
    const text =
      typeof body.error === 'string' ? body.error : (body.error as { message?: unknown } | undefined)?.message;
    return typeof text === 'string' && !inner.message.includes(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** 429, 5xx, and connections that failed before an answer (refused, reset). */
export function isRetryable(error: unknown): boolean {
  const inner = unwrapSdkError(error);
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    return status === undefined ? inner.isRetryable : status === 429 || status === 408 || status >= 500;
  }
  const code = (inner as { cause?: { code?: string } } | undefined)?.cause?.code;
  return code === 'ECONNRESET' || code === 'ECONNREFUSED' || code === 'UND_ERR_SOCKET';
}

/** The server's Retry-After (seconds or an HTTP date, or retry-after-ms), when it sent one. */
export function retryAfterMs(error: unknown): number | undefined {
  const inner = unwrapSdkError(error);
  if (!APICallError.isInstance(inner) || !inner.responseHeaders) return undefined;
  const headers = inner.responseHeaders;
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function backoffDelayMs(policy: RetryPolicy, retry: number, error: unknown): number {
  const exponential = policy.baseDelayMs * 2 ** retry;
  return Math.min(policy.maxDelayMs, retryAfterMs(error) ?? exponential);
}

/** The last error of a call that failed, with how many attempts were made. */
export class AttemptsFailed extends Error {
  override readonly name = 'AttemptsFailed';
  constructor(
    readonly lastError: unknown,
    readonly attempts: number,
  ) {
    super(lastError instanceof Error ? lastError.message : String(lastError), { cause: lastError });
  }
}

/** Runs `attempt` until it succeeds, fails with a non-retryable error, or retries run out. */
export async function withRetries<T>(
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<{ value: T; attempts: number }> {
  for (let retry = 0; ; retry++) {
    try {
      return { value: await attempt(retry + 1), attempts: retry + 1 };
    } catch (error) {
      if (retry >= policy.retries || !isRetryable(error) || signal?.aborted) throw new AttemptsFailed(error, retry + 1);
      await sleep(backoffDelayMs(policy, retry, error), undefined, signal ? { signal } : {});
    }
  }
}
