/**
 * Typed errors of the kit. Every error carries a stable `code` for programs, a one-line `shortMessage` for
 * people, optional `details` and the underlying `cause`, in the manner of viem's errors.
 *
 * @packageDocumentation
 */

/**
 * Stable error codes, one per error class (a subclass that adds only detail keeps its parent's: `CanonicalJsonError`
 * and `UnstorableAttestationError` are `INVALID_ARGUMENT`s, `RedirectRefusedError` an `HTTP_ERROR`). New codes may be
 * added; existing ones never change meaning.
 */
export type TrustgateErrorCode =
  | "INVALID_ARGUMENT"
  | "UNKNOWN_CHAIN"
  | "HTTP_ERROR"
  | "RATE_LIMITED"
  | "TIMEOUT"
  | "NETWORK_ERROR"
  | "INVALID_RESPONSE"
  | "RESPONSE_TOO_LARGE"
  | "MCP_ERROR"
  | "JWKS_UNAVAILABLE"
  | "ORACLE_READ_FAILED"
  | "GATE_READ_FAILED"
  | "ATTESTATION_INVALID"
  | "CONFIGURATION"
  | "DEVNET_SETUP_FAILED"
  | "DEPLOYMENT"
  | "ORACLE_WRITE_FAILED";

/** Options shared by every {@link TrustgateError}. */
export interface TrustgateErrorParameters {
  /** Longer explanation, appended to `message`. */
  details?: string;
  /** The error this one wraps. */
  cause?: unknown;
  /** Extra lines (`key: value`) shown between the short message and the details. */
  metaMessages?: readonly string[];
}

/**
 * Base class of every error thrown by the kit.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, TrustgateError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (!(error instanceof TrustgateError)) throw error; // a bug, not a refusal of the kit's
 *   console.log(error.code, error.shortMessage, error.details); // a stable code, one line, the explanation
 * }
 * ```
 */
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
  constructor(code: TrustgateErrorCode, shortMessage: string, options: TrustgateErrorParameters = {}) {
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

/**
 * A value given to the kit is not acceptable (bad agent id, address, duration, option…).
 *
 * @example
 * ```ts
 * import { InvalidArgumentError, parseAgentRef } from "trustgate";
 *
 * try {
 *   parseAgentRef("base:not-a-number");
 * } catch (error) {
 *   if (error instanceof InvalidArgumentError) console.log(error.shortMessage); // Invalid agent "base:not-a-number": …
 *   else throw error;
 * }
 * ```
 */
export class InvalidArgumentError extends TrustgateError {
  /** Always `INVALID_ARGUMENT`, the code of this class. */
  declare readonly code: "INVALID_ARGUMENT";
  /**
   * @param shortMessage - What is wrong, naming the argument.
   * @param options - Details and cause.
   */
  constructor(shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("INVALID_ARGUMENT", shortMessage, options);
  }
}

/**
 * A value has no RFC 8785 canonical JSON form (`canonicalJson`): a number that is not finite, a string with a
 * lone surrogate, a `bigint`, `undefined` where JSON has no place for it, an object that is not a plain object.
 */
export class CanonicalJsonError extends InvalidArgumentError {
  /** Where the value is, from the root `$` (`$.badges[2]`, `$.score`). */
  readonly path: string;

  /**
   * @param path - Where the value is.
   * @param what - What the value is, e.g. `the number NaN (not finite)`.
   */
  constructor(path: string, what: string) {
    super(`No canonical JSON form (RFC 8785) at ${path}: ${what}`);
    this.path = path;
  }
}

/**
 * An attestation an `AttestedTrustOracle` cannot store, refused before a call is built that could only revert: its
 * signed `chain` is not a slug of the oracle's table (the call would revert `UnknownChainSlug`). The attestation itself
 * may be valid; only its storability is refused.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, toAttestationCall, UnstorableAttestationError } from "trustgate";
 *
 * const check = await createTrustApiClient().trustCheck({ id: 7, chain: "solana", registry: "sati" });
 * try {
 *   toAttestationCall(check);
 * } catch (error) {
 *   if (error instanceof UnstorableAttestationError) console.log(`the oracle has no slug ${error.chain}`);
 *   else throw error;
 * }
 * ```
 */
export class UnstorableAttestationError extends InvalidArgumentError {
  /** Why: `unknown-chain-slug`. */
  readonly reason: "unknown-chain-slug";
  /** The signed `chain`. */
  readonly chain: string;

  /**
   * @param chain - The signed `chain`.
   * @param known - The slugs of the oracle's table, listed in the message.
   */
  constructor(chain: string, known: readonly string[]) {
    super(`The attested oracle cannot store this attestation: its signed chain ${JSON.stringify(chain)} is not a slug of its table`, {
      metaMessages: [`Slugs of the table: ${known.join(", ")}`],
      details: "the call would revert UnknownChainSlug; the oracle's admin adds a slug with setChainSlug",
    });
    this.reason = "unknown-chain-slug";
    this.chain = chain;
  }
}

/**
 * A chain slug or id the kit does not know; `suggestion` names the closest known slug, if any.
 *
 * @example
 * ```ts
 * import { parseAgentRef, UnknownChainError } from "trustgate";
 *
 * try {
 *   parseAgentRef("bsae:16907");
 * } catch (error) {
 *   const cause = error instanceof Error ? error.cause : undefined;
 *   if (cause instanceof UnknownChainError) console.log(`did you mean ${cause.suggestion}?`); // "base"
 * }
 * ```
 */
export class UnknownChainError extends TrustgateError {
  /** Always `UNKNOWN_CHAIN`, the code of this class. */
  declare readonly code: "UNKNOWN_CHAIN";
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
    super("UNKNOWN_CHAIN", `Unknown chain "${chain}".${suggestion ? ` Did you mean "${suggestion}"?` : ""}`, {
      metaMessages: [`Known chains: ${known.join(", ")}`],
    });
    this.chain = chain;
    this.suggestion = suggestion;
  }
}

/**
 * A JWKS could not be fetched or is not a usable key set (network error, timeout, non-200 status, bad JSON).
 *
 * @example
 * ```ts
 * import { createJwksResolver, JwksUnavailableError } from "trustgate";
 *
 * const jwks = createJwksResolver({ url: "https://rnwy.com/.well-known/jwks.json" });
 * try {
 *   await jwks.reload(); // fetch the key set now (verification itself answers "jwks-unavailable" instead of throwing)
 * } catch (error) {
 *   if (error instanceof JwksUnavailableError) console.log(`no keys from ${error.url}: try again later`);
 *   else throw error;
 * }
 * ```
 */
export class JwksUnavailableError extends TrustgateError {
  /** Always `JWKS_UNAVAILABLE`, the code of this class. */
  declare readonly code: "JWKS_UNAVAILABLE";
  /** The JWKS URL, or `"local"` for a key set given in memory. */
  readonly url: string;

  /**
   * @param url - The JWKS URL.
   * @param shortMessage - What went wrong.
   * @param options - Details and cause.
   */
  constructor(url: string, shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("JWKS_UNAVAILABLE", shortMessage, { ...options, metaMessages: [`JWKS: ${url}`, ...(options.metaMessages ?? [])] });
    this.url = url;
  }
}

/**
 * Every reason an attestation can be refused, in the order verification checks them:
 *
 * | reason | meaning |
 * |---|---|
 * | `malformed` | the response, attestation, signed block, `jws` or `sig` is not of the expected shape; for a trust-check v2 block, its signed bytes break a rule the on-chain reader enforces (`field` and `offset` say where) |
 * | `issuer-mismatch` | `attestation.issuer` is absent or is not the configured issuer |
 * | `jwks-mismatch` | `attestation.jwks` names a JWKS at another origin than the configured issuer's |
 * | `unsupported-alg` | `attestation.alg` or the JWS header `alg` is not ES256 (`none`, HS256, …) |
 * | `unsupported-header` | the JWS header carries `crit`, `jku`, `x5u`, `jwk`, `x5c` or `b64`, or a `typ` other than `JWT` or `JOSE` |
 * | `missing-kid` | neither the attestation nor the JWS header names a key id, or a JWS header names none |
 * | `kid-mismatch` | `attestation.kid` and the JWS header `kid` differ |
 * | `kid-not-accepted` | the key id is not in the accepted set (each kind of attestation has its own kids) |
 * | `type-mismatch` | the attestation is of another kind: its `type`, or its signed block, is not of the kind being verified |
 * | `missing-signature` | the attestation carries neither `jws` nor `sig` |
 * | `missing-jws` | `requireJws` is set and there is no `jws` |
 * | `missing-legacy-signature` | `requireLegacySig` is set and there is no `sig` |
 * | `key-not-found` | the JWKS has no usable ES256 key with that kid |
 * | `jwks-unavailable` | the JWKS could not be fetched (network, timeout, status, not a JWKS) |
 * | `bad-jws-signature` | the `jws` does not verify |
 * | `bad-legacy-signature` | the `sig` verifies over neither serialisation of the signed block (insertion order, sorted keys) |
 * | `payload-mismatch` | the `jws` payload differs by value from `attestation.signed` (or from another JWS of the same attestation); `field` names the first difference |
 * | `field-mismatch` | a field in both the signed block and the response body differs (`field` names it), or a signed `found: false` comes with agent fields |
 * | `subject-mismatch` | the attestation is about another agent or wallet than the one expected |
 * | `invalid-time` | a time field is neither ISO-8601 nor Unix seconds |
 * | `missing-time` | the signed block carries no issue or expiry time, so its freshness cannot be judged |
 * | `expired` | the attestation expired (beyond the clock skew) |
 * | `issued-in-future` | the attestation was issued (or verified) after now plus the clock skew |
 *
 * @example
 * ```ts
 * import { ATTESTATION_FAILURE_REASONS, createTrustApiClient, verifyTrustAttestation } from "trustgate";
 *
 * const counts = Object.fromEntries(ATTESTATION_FAILURE_REASONS.map((reason) => [reason, 0]));
 * const verdict = await verifyTrustAttestation(await createTrustApiClient().trustCheck({ id: 16907, chain: "base" }));
 * if (!verdict.valid) counts[verdict.reason] = (counts[verdict.reason] ?? 0) + 1;
 * ```
 */
export const ATTESTATION_FAILURE_REASONS = [
  "malformed",
  "issuer-mismatch",
  "jwks-mismatch",
  "unsupported-alg",
  "unsupported-header",
  "missing-kid",
  "kid-mismatch",
  "kid-not-accepted",
  "type-mismatch",
  "missing-signature",
  "missing-jws",
  "missing-legacy-signature",
  "key-not-found",
  "jwks-unavailable",
  "bad-jws-signature",
  "bad-legacy-signature",
  "payload-mismatch",
  "field-mismatch",
  "subject-mismatch",
  "invalid-time",
  "missing-time",
  "expired",
  "issued-in-future",
] as const;

/** A stable reason code of a refused attestation. */
export type AttestationFailureReason = (typeof ATTESTATION_FAILURE_REASONS)[number];

/**
 * A signed attestation did not verify. Verification functions return their verdict instead of throwing;
 * this error is for callers that prefer to throw it (see `assertAttestationValid`). `reason` is the stable
 * reason code of the verdict (for example `"expired"` or `"bad-jws-signature"`).
 *
 * @example
 * ```ts
 * import { assertAttestationValid, AttestationVerificationError, createTrustApiClient, verifyTrustAttestation } from "trustgate";
 *
 * try {
 *   assertAttestationValid(await verifyTrustAttestation(await createTrustApiClient().trustCheck({ id: 16907, chain: "base" })));
 * } catch (error) {
 *   if (error instanceof AttestationVerificationError) console.log(error.reason); // "expired", "bad-jws-signature", …
 *   else throw error;
 * }
 * ```
 */
export class AttestationVerificationError extends TrustgateError {
  /** Always `ATTESTATION_INVALID`, the code of this class. */
  declare readonly code: "ATTESTATION_INVALID";
  /** Stable reason code of the failed verification: one of `ATTESTATION_FAILURE_REASONS`. */
  readonly reason: AttestationFailureReason;

  /**
   * @param reason - Stable reason code.
   * @param shortMessage - Human explanation.
   * @param options - Details and cause.
   */
  constructor(reason: AttestationFailureReason, shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("ATTESTATION_INVALID", shortMessage, { ...options, metaMessages: [`reason: ${reason}`, ...(options.metaMessages ?? [])] });
    this.reason = reason;
  }
}

/** What {@link HttpRequestError} (and {@link RateLimitedError}) know about a failed HTTP exchange. */
export interface HttpRequestErrorParameters {
  /** HTTP status of the response. */
  status: number;
  /** Method of the request (`GET`, `POST`). */
  method: string;
  /** URL of the request, without credentials. */
  url: string;
  /** The service's error code (`error.code` of the body), when the body had one. */
  errorCode?: string | undefined;
  /** The service's error message (`error.message` of the body), when the body had one. */
  errorMessage?: string | undefined;
  /** The parsed JSON body of the response, when it was JSON. */
  body?: unknown;
  /** How many attempts were made before giving up. */
  attempts?: number | undefined;
  /** What happened, in place of `failed with HTTP <status>` in the message (a subclass's more precise account). */
  outcome?: string | undefined;
}

/**
 * The service answered with a non-2xx status that the kit does not retry (or no longer retries).
 *
 * @example
 * ```ts
 * import { createTrustApiClient, HttpRequestError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof HttpRequestError) console.log(error.status, error.errorCode, error.url); // e.g. 404 for an unknown agent
 *   else throw error;
 * }
 * ```
 */
export class HttpRequestError extends TrustgateError {
  /** `HTTP_ERROR`, or `RATE_LIMITED` for a {@link RateLimitedError}. */
  declare readonly code: "HTTP_ERROR" | "RATE_LIMITED";
  /** HTTP status of the response. */
  readonly status: number;
  /** Method of the request. */
  readonly method: string;
  /** URL of the request, without credentials. */
  readonly url: string;
  /** The service's error code (`error.code` of the body), if any. */
  readonly errorCode: string | undefined;
  /** The service's error message (`error.message` of the body), if any. */
  readonly errorMessage: string | undefined;
  /** The parsed JSON body, if the body was JSON. */
  readonly body: unknown;
  /** Attempts made, including the first. */
  readonly attempts: number;

  /**
   * @param params - Status, URL, error body and attempts.
   * @param options - Details and cause.
   * @param code - Error code; subclasses pass their own (default `HTTP_ERROR`).
   */
  constructor(
    params: HttpRequestErrorParameters,
    options: TrustgateErrorParameters = {},
    code: "HTTP_ERROR" | "RATE_LIMITED" = "HTTP_ERROR",
  ) {
    const service = params.errorCode ? ` (${params.errorCode}${params.errorMessage ? `: ${params.errorMessage}` : ""})` : "";
    super(code, `${params.method} ${params.url} ${params.outcome ?? `failed with HTTP ${params.status}`}${service}`, {
      ...options,
      metaMessages: [...(params.attempts && params.attempts > 1 ? [`Attempts: ${params.attempts}`] : []), ...(options.metaMessages ?? [])],
    });
    this.status = params.status;
    this.method = params.method;
    this.url = params.url;
    this.errorCode = params.errorCode;
    this.errorMessage = params.errorMessage;
    this.body = params.body;
    this.attempts = params.attempts ?? 1;
  }
}

/**
 * The service kept answering `429 Too Many Requests` after the allowed retries.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, RateLimitedError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof RateLimitedError) console.log(`rate limited: retry in ${error.retryAfterMs ?? 60_000} ms`);
 *   else throw error;
 * }
 * ```
 */
export class RateLimitedError extends HttpRequestError {
  /** Always `RATE_LIMITED`, the code of this class. */
  declare readonly code: "RATE_LIMITED";
  /** The last `Retry-After` the service asked for, in milliseconds, if it sent one. */
  readonly retryAfterMs: number | undefined;

  /**
   * @param params - Status, URL, error body and attempts.
   * @param retryAfterMs - The last `Retry-After`, in milliseconds.
   * @param options - Details and cause.
   */
  constructor(params: HttpRequestErrorParameters, retryAfterMs: number | undefined, options: TrustgateErrorParameters = {}) {
    super(
      params,
      {
        ...options,
        metaMessages: [
          ...(retryAfterMs !== undefined ? [`Retry-After: ${Math.ceil(retryAfterMs / 1000)} s`] : []),
          ...(options.metaMessages ?? []),
        ],
      },
      "RATE_LIMITED",
    );
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The service answered with a redirect the kit does not follow: to another origin (scheme, host and port) than the
 * request's, to something that is not an http(s) URL, or past the most redirects one request follows. Never retried.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, RedirectRefusedError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient({ baseUrl: "https://rnwy.com" }).trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof RedirectRefusedError) console.log(`not followed: ${error.location}`); // another origin
 *   else throw error;
 * }
 * ```
 */
export class RedirectRefusedError extends HttpRequestError {
  /** Always `HTTP_ERROR`: a refused redirect is an HTTP error that is never retried. */
  declare readonly code: "HTTP_ERROR";
  /** Where the redirect pointed, redacted (`<invalid URL>` when its `Location` did not parse). */
  readonly location: string;

  /**
   * @param params - Method, URL of the request, the redirect's status and its redacted target.
   * @param why - Why it was not followed.
   */
  constructor(params: { method: string; url: string; status: number; location: string }, why: string) {
    super({
      method: params.method,
      url: params.url,
      status: params.status,
      outcome: `was redirected (HTTP ${params.status}) to ${params.location}, not followed: ${why}`,
    });
    this.location = params.location;
  }
}

/**
 * A request got no complete response within its time limit.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, TimeoutError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient({ timeoutMs: 5_000 }).trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof TimeoutError) console.log(`${error.url}: no answer in ${error.timeoutMs} ms (${error.attempts} attempts)`);
 *   else throw error;
 * }
 * ```
 */
export class TimeoutError extends TrustgateError {
  /** Always `TIMEOUT`, the code of this class. */
  declare readonly code: "TIMEOUT";
  /** URL of the request, without credentials. */
  readonly url: string;
  /** The time limit, in milliseconds. */
  readonly timeoutMs: number;
  /** Attempts made, including the first. */
  readonly attempts: number;

  /**
   * @param params - Method, URL, time limit and attempts.
   * @param options - Details and cause.
   */
  constructor(params: { method: string; url: string; timeoutMs: number; attempts?: number }, options: TrustgateErrorParameters = {}) {
    super("TIMEOUT", `${params.method} ${params.url} timed out after ${params.timeoutMs} ms`, {
      ...options,
      metaMessages: [...(params.attempts && params.attempts > 1 ? [`Attempts: ${params.attempts}`] : []), ...(options.metaMessages ?? [])],
    });
    this.url = params.url;
    this.timeoutMs = params.timeoutMs;
    this.attempts = params.attempts ?? 1;
  }
}

/**
 * A request failed below HTTP: connection refused or reset, DNS failure, TLS error…
 *
 * @example
 * ```ts
 * import { createTrustApiClient, NetworkError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient({ baseUrl: "http://127.0.0.1:9" }).trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof NetworkError) console.log(`${error.url} unreachable after ${error.attempts} attempts`);
 *   else throw error;
 * }
 * ```
 */
export class NetworkError extends TrustgateError {
  /** Always `NETWORK_ERROR`, the code of this class. */
  declare readonly code: "NETWORK_ERROR";
  /** URL of the request, without credentials. */
  readonly url: string;
  /** Attempts made, including the first. */
  readonly attempts: number;

  /**
   * @param params - Method, URL, attempts, and the network cause in one line (`connect ECONNREFUSED 127.0.0.1:8787`),
   *   which the message names.
   * @param options - Details and the underlying error as `cause`.
   */
  constructor(
    params: { method: string; url: string; attempts?: number; reason?: string | undefined },
    options: TrustgateErrorParameters = {},
  ) {
    super("NETWORK_ERROR", `${params.method} ${params.url} failed: network error${params.reason ? ` (${params.reason})` : ""}`, {
      ...options,
      metaMessages: [...(params.attempts && params.attempts > 1 ? [`Attempts: ${params.attempts}`] : []), ...(options.metaMessages ?? [])],
    });
    this.url = params.url;
    this.attempts = params.attempts ?? 1;
  }
}

/**
 * A response is not what the service's contract says: not JSON, or not the documented shape.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, InvalidResponseError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof InvalidResponseError) console.log(error.url, error.issues.join("; ")); // which fields, and why
 *   else throw error;
 * }
 * ```
 */
export class InvalidResponseError extends TrustgateError {
  /** Always `INVALID_RESPONSE`, the code of this class. */
  declare readonly code: "INVALID_RESPONSE";
  /** URL of the request, without credentials, when the response came from one. */
  readonly url: string | undefined;
  /** The problems found, one short line each (`path: message`). */
  readonly issues: readonly string[];

  /**
   * @param shortMessage - What is wrong.
   * @param params - URL and the list of problems.
   * @param options - Details and cause.
   */
  constructor(
    shortMessage: string,
    params: { url?: string | undefined; issues?: readonly string[] } = {},
    options: TrustgateErrorParameters = {},
  ) {
    super("INVALID_RESPONSE", shortMessage, {
      ...options,
      metaMessages: [
        ...(params.url ? [`URL: ${params.url}`] : []),
        ...(params.issues ?? []).map((issue) => `- ${issue}`),
        ...(options.metaMessages ?? []),
      ],
    });
    this.url = params.url;
    this.issues = params.issues ?? [];
  }
}

/**
 * A response body is larger than the kit reads from that endpoint: announced so by its `Content-Length`, or found
 * so while streaming it (the read stops at the limit; a stream that never ends stops there too). Never retried: a
 * service that sends too much once would send it again.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, ResponseTooLargeError } from "trustgate";
 *
 * try {
 *   await createTrustApiClient().agents({ chain: "base", limit: 1000 });
 * } catch (error) {
 *   if (error instanceof ResponseTooLargeError) console.log(`${error.url}: more than ${error.limitBytes} bytes, not read`);
 *   else throw error;
 * }
 * ```
 */
export class ResponseTooLargeError extends TrustgateError {
  /** Always `RESPONSE_TOO_LARGE`, the code of this class. */
  declare readonly code: "RESPONSE_TOO_LARGE";
  /** URL of the request, redacted. */
  readonly url: string;
  /** The limit, in bytes. */
  readonly limitBytes: number;
  /** The size the `Content-Length` header announced, when it announced one over the limit. */
  readonly declaredBytes: number | undefined;

  /**
   * @param params - Method, redacted URL, the limit and the announced size (if that is how it was found).
   * @param options - Details and cause.
   */
  constructor(
    params: { method: string; url: string; limitBytes: number; declaredBytes?: number | undefined },
    options: TrustgateErrorParameters = {},
  ) {
    const found =
      params.declaredBytes === undefined ? `more than ${params.limitBytes} bytes` : `${params.declaredBytes} bytes (Content-Length)`;
    super(
      "RESPONSE_TOO_LARGE",
      `${params.method} ${params.url} answered with a body of ${found}; the limit is ${params.limitBytes} bytes, so it was not read (not retried)`,
      options,
    );
    this.url = params.url;
    this.limitBytes = params.limitBytes;
    this.declaredBytes = params.declaredBytes;
  }
}

/**
 * An MCP call failed: a JSON-RPC error (`rpcCode` such as `-32601` method not found, `-32602` invalid
 * params) or a tool result flagged `isError` (`rpcCode` undefined).
 *
 * @example
 * ```ts
 * import { createTrustMcpClient, McpError } from "trustgate";
 *
 * try {
 *   await createTrustMcpClient().trustCheck({ id: 16907, chain: "base" });
 * } catch (error) {
 *   if (error instanceof McpError) console.log(error.method, error.rpcCode, error.rpcMessage); // the JSON-RPC error
 *   else throw error;
 * }
 * ```
 */
export class McpError extends TrustgateError {
  /** Always `MCP_ERROR`, the code of this class. */
  declare readonly code: "MCP_ERROR";
  /** JSON-RPC error code, or `undefined` for a tool result flagged `isError`. */
  readonly rpcCode: number | undefined;
  /** JSON-RPC error message (or the tool's error text). */
  readonly rpcMessage: string;
  /** JSON-RPC error `data`, if any. */
  readonly data: unknown;
  /** The JSON-RPC method that failed (`tools/call`…). */
  readonly method: string;

  /**
   * @param params - Method, JSON-RPC code, message and data.
   * @param options - Details and cause.
   */
  constructor(
    params: { method: string; rpcCode: number | undefined; rpcMessage: string; data?: unknown },
    options: TrustgateErrorParameters = {},
  ) {
    const code = params.rpcCode === undefined ? "tool error" : `JSON-RPC error ${params.rpcCode}`;
    super("MCP_ERROR", `MCP ${params.method} failed: ${code}: ${params.rpcMessage}`, options);
    this.rpcCode = params.rpcCode;
    this.rpcMessage = params.rpcMessage;
    this.data = params.data;
    this.method = params.method;
  }
}

/** How reading one oracle record failed (see {@link OracleReadError}). */
export type OracleReadFailure =
  /** The oracle's `getScore` reverted; `revertData` and `reason` say with what. */
  | "reverted"
  /** The call succeeded but returned nothing: usually no contract at the oracle address. */
  | "no-data"
  /** The answer is shorter than four words, or a value does not fit its type. */
  | "malformed"
  /** The request itself failed (RPC error, timeout, no Multicall3 at its address…); `cause` has the error. */
  | "request-failed";

/**
 * Reading a record from the trust oracle failed. The reader returns this error inside the record's result
 * instead of throwing it, so that one bad record, or one failed batch, never loses the others.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { OracleReadError, readTrustRecord } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const result = await readTrustRecord(client, { agentId: 16907n, chain: "base" });
 * if (!result.ok) {
 *   const error: OracleReadError = result.error; // returned, not thrown: one record's failure
 *   console.log(error.failure, error.reason ?? error.shortMessage);
 * }
 * ```
 */
export class OracleReadError extends TrustgateError {
  /** Always `ORACLE_READ_FAILED`, the code of this class. */
  declare readonly code: "ORACLE_READ_FAILED";
  /** The oracle that was read. */
  readonly oracle: string;
  /** How the read failed. */
  readonly failure: OracleReadFailure;
  /** Raw revert data when `failure` is `"reverted"` (`"0x"` for a revert without data); otherwise the raw answer, if any. */
  readonly revertData: `0x${string}` | undefined;
  /** The decoded revert reason (`Error("…")`, `Panic(0x11)`, `SomeError(1, 2)` or `unknown error 0x…`), if any. */
  readonly reason: string | undefined;

  /**
   * @param params - Oracle, failure kind, raw data and decoded reason.
   * @param shortMessage - One-line description.
   * @param options - Details, context lines and cause.
   */
  constructor(
    params: { oracle: string; failure: OracleReadFailure; revertData?: `0x${string}` | undefined; reason?: string | undefined },
    shortMessage: string,
    options: TrustgateErrorParameters = {},
  ) {
    super("ORACLE_READ_FAILED", shortMessage, {
      ...options,
      metaMessages: [`oracle: ${params.oracle}`, ...(options.metaMessages ?? [])],
    });
    this.oracle = params.oracle;
    this.failure = params.failure;
    this.revertData = params.revertData;
    this.reason = params.reason;
  }
}

/**
 * Reading a deployed `TrustGated` gate's configuration failed (no contract there, not a gate, RPC error…).
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { GateReadError, readGatePolicy } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * try {
 *   await readGatePolicy(client, { gate: "0x4200000000000000000000000000000000000006" }); // not a gate
 * } catch (error) {
 *   if (error instanceof GateReadError) console.log(`${error.gate} is not a TrustGated gate: ${error.shortMessage}`);
 *   else throw error;
 * }
 * ```
 */
export class GateReadError extends TrustgateError {
  /** Always `GATE_READ_FAILED`, the code of this class. */
  declare readonly code: "GATE_READ_FAILED";
  /** The gate that was read. */
  readonly gate: string;

  /**
   * @param gate - The gate address.
   * @param shortMessage - One-line description.
   * @param options - Details and cause.
   */
  constructor(gate: string, shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("GATE_READ_FAILED", shortMessage, { ...options, metaMessages: [`gate: ${gate}`, ...(options.metaMessages ?? [])] });
    this.gate = gate;
  }
}

/**
 * A run cannot start: the chain or the service is unreachable, or an address given has no contract. Found
 * before any agent is scanned (the command line exits with code 2).
 *
 * @example
 * ```ts
 * import { runDrift } from "trustgate/drift";
 * import { ConfigurationError, parseAgentRefList } from "trustgate";
 *
 * try {
 *   await runDrift({
 *     rpcUrl: "http://127.0.0.1:8545",
 *     oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
 *     apiUrl: "http://127.0.0.1:8787",
 *     issuer: "http://127.0.0.1:8787",
 *     jwks: "http://127.0.0.1:8787/.well-known/jwks.json",
 *     scope: { kind: "list", agents: parseAgentRefList("base:1") },
 *     maxAgeSeconds: 36 * 3600,
 *     concurrency: 4,
 *     encoding: { tiers: ["flagged", "limited", "developing", "established"], sybilSeverities: ["none", "low", "moderate", "elevated", "heavy"] },
 *   });
 * } catch (error) {
 *   if (error instanceof ConfigurationError) console.log(error.shortMessage); // e.g. the chain id is not the expected one
 *   else throw error;
 * }
 * ```
 */
export class ConfigurationError extends TrustgateError {
  /** Always `CONFIGURATION`, the code of this class. */
  declare readonly code: "CONFIGURATION";
  /**
   * @param shortMessage - What is wrong, in one line.
   * @param options - Details and cause.
   */
  constructor(shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("CONFIGURATION", shortMessage, options);
  }
}

/**
 * A local development network (the kit's local Base simulation and its embedded drift environment) could not
 * be set up: a transaction that builds it failed, or an option is inconsistent with the node.
 */
export class DevnetError extends TrustgateError {
  /** Always `DEVNET_SETUP_FAILED`, the code of this class. */
  declare readonly code: "DEVNET_SETUP_FAILED";
  /**
   * @param shortMessage - What failed, in one line.
   * @param options - Details and cause.
   */
  constructor(shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("DEVNET_SETUP_FAILED", shortMessage, options);
  }
}

/**
 * The most useful one-line message of any error: `shortMessage` when it has one (the kit's and viem's
 * errors), else the first line of `message`, else its string form.
 *
 * @param error - Anything thrown.
 * @returns One line.
 */
export function messageOf(error: unknown): string {
  if (error && typeof error === "object") {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown };
    if (typeof shortMessage === "string" && shortMessage) return shortMessage;
    if (typeof message === "string" && message) return message.split("\n")[0]!;
  }
  return String(error);
}

/**
 * Why a deployment or a signing-key update cannot proceed or failed ({@link DeploymentError}'s `reason`), the
 * deployment's first, then the signing keys':
 *
 * | reason | meaning |
 * |---|---|
 * | `missing-key` | no deployer key is set, or the local node has no unlocked account |
 * | `bad-key` | the deployer key is not a 32-byte hex private key |
 * | `mainnet-not-confirmed` | a mainnet deployment without its explicit confirmation |
 * | `chain-mismatch` | the node serves another chain than the network's configuration names |
 * | `bad-config` | the deploy configuration, a command-line option or a deployments file is not acceptable |
 * | `no-code` | an address that must hold a contract holds none |
 * | `unreachable` | the node does not answer |
 * | `untrusted-record` | the deployments file records a contract that is not what the chain holds at its address |
 * | `failed` | a transaction (a deployment, a key set or revoked) failed or reverted |
 * | `jwks-unavailable` | the service's JWKS could not be fetched |
 * | `insecure-jwks` | a JWKS over plain http for a mainnet |
 * | `bad-jwks` | the JWKS or one of its keys is not usable |
 * | `refused-kid` | the key selection (kids, forced kids, thumbprint pins) names a key id the kit refuses to install |
 * | `thumbprint-mismatch` | a key's thumbprint is not the pinned one |
 * | `not-attested-oracle` | the address is not an `AttestedTrustOracle` |
 * | `not-admin` | the sender lacks the oracle's admin role |
 * | `revoked-key` | the key id is revoked on the oracle: revocation is final |
 * | `key-id-reused` | the oracle holds the key id with another key than the JWKS publishes |
 * | `unknown-key` | a key id the oracle does not hold |
 */
export const DEPLOYMENT_FAILURE_REASONS = [
  "missing-key",
  "bad-key",
  "mainnet-not-confirmed",
  "chain-mismatch",
  "bad-config",
  "no-code",
  "unreachable",
  "untrusted-record",
  "failed",
  "jwks-unavailable",
  "insecure-jwks",
  "bad-jwks",
  "refused-kid",
  "thumbprint-mismatch",
  "not-attested-oracle",
  "not-admin",
  "revoked-key",
  "key-id-reused",
  "unknown-key",
] as const;

/** One value of {@link DEPLOYMENT_FAILURE_REASONS}. */
export type DeploymentFailureReason = (typeof DEPLOYMENT_FAILURE_REASONS)[number];

/**
 * A deployment or a signing-key update (`scripts/deploy.ts`, `scripts/keys.ts`, `src/deploy/`) cannot proceed or
 * failed: a missing or malformed deployer key, an unconfirmed mainnet deployment, a chain that is not the
 * configured one, a JWKS that cannot be fetched or holds an unusable key, a sender without the admin role, a
 * transaction that reverted. Carries the error code `DEPLOYMENT`; nothing is sent after it is thrown.
 */
export class DeploymentError extends TrustgateError {
  /** Always `DEPLOYMENT`, the code of this class. */
  declare readonly code: "DEPLOYMENT";
  /** Stable reason: one of {@link DEPLOYMENT_FAILURE_REASONS}. */
  readonly reason: DeploymentFailureReason;

  /**
   * @param reason - Stable reason code.
   * @param shortMessage - What is wrong, in one line.
   * @param options - Details and cause.
   */
  constructor(reason: DeploymentFailureReason, shortMessage: string, options: TrustgateErrorParameters = {}) {
    super("DEPLOYMENT", shortMessage, options);
    this.reason = reason;
  }
}

/**
 * A write to an on-chain oracle (an attestation submitted, a signing key installed) was mined but reverted.
 * Refusals the simulation can see are thrown before sending, as viem's decoded contract errors.
 *
 * @example
 * ```ts
 * import { createPublicClient, createWalletClient, http } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { base } from "viem/chains";
 * import { createTrustApiClient, OracleWriteError, submitTrustAttestation } from "trustgate";
 *
 * const account = privateKeyToAccount(process.env.SUBMITTER_KEY as `0x${string}`);
 * const clients = {
 *   wallet: createWalletClient({ account, chain: base, transport: http(process.env.BASE_RPC_URL) }),
 *   public: createPublicClient({ transport: http(process.env.BASE_RPC_URL) }),
 * };
 * const check = await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * try {
 *   await submitTrustAttestation(clients, "0xYourAttestedOracle", check);
 * } catch (error) {
 *   if (error instanceof OracleWriteError) console.log(`transaction ${error.hash} reverted`);
 *   else throw error;
 * }
 * ```
 */
export class OracleWriteError extends TrustgateError {
  /** Always `ORACLE_WRITE_FAILED`, the code of this class. */
  declare readonly code: "ORACLE_WRITE_FAILED";
  /** The transaction's hash. */
  readonly hash: string;

  /**
   * @param hash - The reverted transaction.
   * @param shortMessage - What was being written.
   */
  constructor(hash: string, shortMessage: string) {
    super("ORACLE_WRITE_FAILED", shortMessage, { metaMessages: [`transaction: ${hash}`] });
    this.hash = hash;
  }
}

/**
 * Every error the kit throws, as one union: narrow it on `code` (one per class; a subclass that only adds detail
 * shares its parent's) or with `instanceof`, and the narrowed error's fields, `reason` among them, are typed
 * (`error.code === "DEPLOYMENT"` makes `error.reason` a {@link DeploymentFailureReason}).
 */
export type AnyTrustgateError =
  | TrustApiRequestErrorType
  | CanonicalJsonError
  | UnstorableAttestationError
  | UnknownChainError
  | JwksUnavailableError
  | AttestationVerificationError
  | McpError
  | OracleReadError
  | GateReadError
  | ConfigurationError
  | DevnetError
  | DeploymentError
  | OracleWriteError;

/** What a request of the service's HTTP API (any method of `createTrustApiClient`'s client) throws. */
export type TrustApiRequestErrorType =
  | HttpRequestError
  | RateLimitedError
  | RedirectRefusedError
  | TimeoutError
  | NetworkError
  | InvalidResponseError
  | ResponseTooLargeError
  | InvalidArgumentError;
