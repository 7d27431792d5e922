/** Errors a user can hit when talking to a model; each message says what to do. */

export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
}

export class MissingApiKeyError extends ModelConfigError {
  constructor(
    readonly variable: string,
    readonly spec: string,
  ) {
    super(`${spec} needs an API key: set the environment variable ${variable}`);
  }
}

/** `offline` mode and the request was never recorded. */
export class CacheMissError extends Error {
  override readonly name = 'CacheMissError';
  constructor(
    readonly requestHash: string,
    readonly description: string,
  ) {
    super(
      `offline: no cached response for request ${requestHash} (${description}); run once without --offline to record it`,
    );
  }
}

/** The endpoint answered with an error, or could not be reached, after all retries. */
export class ModelCallError extends Error {
  override readonly name: string = 'ModelCallError';
  constructor(
    message: string,
    readonly spec: string,
    readonly statusCode: number | undefined,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The endpoint answered, but its reply could not be read: malformed JSON, data outside the
 * protocol, or a structure deep enough to exhaust the parser's stack. What a model wrote, not a
 * fault of the connection: an agent tells the model and goes on (src/agents/agent.ts).
 */
export class UnreadableReplyError extends ModelCallError {
  override readonly name = 'UnreadableReplyError';
}

/** The AI SDK's errors for a reply that arrived but does not parse or fit the protocol. */
const UNREADABLE = new Set(['AI_JSONParseError', 'AI_TypeValidationError', 'AI_InvalidResponseDataError']);

export function isUnreadableReply(error: unknown): boolean {
  return error instanceof RangeError || UNREADABLE.has((error as { name?: string } | undefined)?.name ?? '');
}

export class ModelTimeoutError extends ModelCallError {
  constructor(spec: string, timeoutMs: number, attempts: number) {
    super(
      `${spec}: no answer within ${timeoutMs} ms (raise the request timeout, or check the server)`,
      spec,
      undefined,
      attempts,
    );
  }
}

/** `local` backends only: node-llama-cpp is an optional dependency. */
export class LocalRuntimeMissingError extends ModelConfigError {
  constructor(cause: unknown) {
    super('gguf models need node-llama-cpp, which is not installed: run `npm install node-llama-cpp@3.21.1`');
    this.cause = cause;
  }
}
