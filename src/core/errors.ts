/**
 * Errors a user or a request can cause carry a stable `code`, so a front door maps them in
 * one place (the server's onError: code → HTTP status) and never mistakes an internal fault
 * for the client's: a V8 RangeError ("Maximum call stack size exceeded") inside the server is
 * a 500, not a 400. Outcomes of judging are data (a verdict), not errors.
 */
export type ErrorCode = 'BAD_REQUEST';

export class CrucibleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The input is wrong, and the message says how to fix it. */
export class BadRequestError extends CrucibleError {
  override readonly name = 'BadRequestError';
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

/** The HTTP status for an error's code. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, 400>> = { BAD_REQUEST: 400 };
