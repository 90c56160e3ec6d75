/**
 * Typed errors of the kit. Every error carries a stable `code` for programs, a one-line `shortMessage` for
 * people, optional `details` and the underlying `cause`, in the manner of viem's errors.
 *
 * @packageDocumentation
 */

/** Stable error codes. New codes may be added; existing ones never change meaning. */
export type TrustgateErrorCode =
  | "INVALID_ARGUMENT"
  | "UNKNOWN_CHAIN"
  | "HTTP_ERROR"
  | "RATE_LIMITED"
  | "TIMEOUT"
  | "NETWORK_ERROR"
  | "INVALID_RESPONSE"
  | "MCP_ERROR"
  | "JWKS_UNAVAILABLE"
  | "ORACLE_READ_FAILED";

/** Options shared by every {@link TrustgateError}. */
export interface TrustgateErrorOptions {
  /** Longer explanation, appended to `message`. */
  details?: string;
  /** The error this one wraps. */
  cause?: unknown;
  /** Extra lines (`key: value`) shown between the short message and the details. */
  metaMessages?: readonly string[];
}

/** Base class of every error thrown by the kit. */
export class TrustgateError extends Error {
  /** Stable, machine-readable code. */
  readonly code: TrustgateErrorCode;
  /** One-line message without the details. */
  readonly shortMessage: string;
  /** Longer explanation, if any. */
  readonly details: string | undefined;
  /** Extra context lines. */
  readonly metaMessages: readonly string[];

  /**
   * @param code - Stable error code.
   * @param shortMessage - One-line message.
   * @param options - Details, cause and context lines.
   */
  constructor(code: TrustgateErrorCode, shortMessage: string, options: TrustgateErrorOptions = {}) {
    const lines = [shortMessage];
    if (options.metaMessages?.length) lines.push("", ...options.metaMessages);
    if (options.details) lines.push("", `Details: ${options.details}`);
    super(lines.join("\n"), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = options.details;
    this.metaMessages = options.metaMessages ?? [];
  }
}

/** A value given to the kit is not acceptable (bad agent id, address, duration, option…). */
export class InvalidArgumentError extends TrustgateError {
  /**
   * @param shortMessage - What is wrong, naming the argument.
   * @param options - Details and cause.
   */
  constructor(shortMessage: string, options: TrustgateErrorOptions = {}) {
    super("INVALID_ARGUMENT", shortMessage, options);
  }
}

/** A chain slug or id the kit does not know; `suggestion` names the closest known slug, if any. */
export class UnknownChainError extends TrustgateError {
  /** The value that was given. */
  readonly chain: string;
  /** The known slug it most likely meant. */
  readonly suggestion: string | undefined;

  /**
   * @param chain - The unknown slug or id.
   * @param suggestion - The closest known slug.
   * @param known - All known slugs, listed in the message.
   */
  constructor(chain: string, suggestion: string | undefined, known: readonly string[]) {
    super(
      "UNKNOWN_CHAIN",
      `Unknown chain "${chain}".${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
      { metaMessages: [`Known chains: ${known.join(", ")}`] },
    );
    this.chain = chain;
    this.suggestion = suggestion;
  }
}
