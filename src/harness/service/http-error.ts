/**
 * Errors the local service answers with: a status, a stable error code and the documented body
 * `{ "error": { "code", "message" } }`.
 *
 * @packageDocumentation
 */
import type { ErrorBody } from "../../published/index.js";

/** Error codes of the local service's error bodies, with the status each goes with. */
export const SERVICE_ERROR_STATUS = {
  "bad-request": 400,
  "not-found": 404,
  "method-not-allowed": 405,
  "rate-limited": 429,
  internal: 500,
} as const;

/** An error code of the local service. */
export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;

/** An error a handler throws to answer with an error status and body. */
export class ServiceHttpError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Error code of the body. */
  readonly code: ServiceErrorCode;
  /** Extra response headers (for example `Allow`, `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  /**
   * @param code - Error code; the status follows from it.
   * @param message - Message for people.
   * @param headers - Extra response headers.
   */
  constructor(code: ServiceErrorCode, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = "ServiceHttpError";
    this.status = SERVICE_ERROR_STATUS[code];
    this.code = code;
    this.headers = headers;
  }

  /** The error body. */
  get body(): ErrorBody {
    return errorBody(this.code, this.message);
  }
}

/**
 * Builds the documented error body.
 *
 * @param code - Error code.
 * @param message - Message.
 * @returns `{ error: { code, message } }`.
 */
export function errorBody(code: ServiceErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/**
 * A 400 error.
 *
 * @param message - What is wrong with the request.
 * @returns The error, to throw.
 */
export function badRequest(message: string): ServiceHttpError {
  return new ServiceHttpError("bad-request", message);
}

/**
 * A 404 error.
 *
 * @param message - What was not found.
 * @returns The error, to throw.
 */
export function notFound(message: string): ServiceHttpError {
  return new ServiceHttpError("not-found", message);
}
