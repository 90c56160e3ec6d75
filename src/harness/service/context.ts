/**
 * What the local service's endpoint handlers receive: the parsed request and the service's state.
 *
 * @packageDocumentation
 */
import type { IncomingHttpHeaders } from "node:http";
import type { TrustAttestationVersion } from "../../attestation/result.js";
import type { ServiceDeviations } from "./deviations.js";
import type { Population } from "./population.js";
import type { RateLimitDecision } from "./rate-limit.js";
import type { ServiceSigner } from "./signer.js";

/** Which signed block `/api/trust-check` puts in `attestation`: one of the kit's trust versions, `v2` or `v1`. */
export type SignedTrustVersion = Extract<TrustAttestationVersion, "v2" | "v1">;

/** The service state handlers read. */
export interface ServiceContext {
  /** The population currently served. */
  readonly population: Population;
  /** Signs attestations. */
  readonly signer: ServiceSigner;
  /** The issuer written into attestations. */
  readonly issuer: string;
  /** Origin for links the service writes (`explorer_url`, methodology): the issuer when it is an http(s) URL, else the service's own URL. */
  readonly publicBase: string;
  /** Which block and key sign `attestation` of a trust-check: v2 (`rnwy-trust-v2`, default) or legacy v1 (`rnwy-trust-v1`). */
  readonly trustAttestationVersion: SignedTrustVersion;
  /**
   * Whether the kid-migration window is open at a time: then wallet look-ups carry the v2 `attestation` and
   * the legacy `attestationV1`.
   *
   * @param at - The time.
   */
  kidMigrationOpen(at: Date): boolean;
  /** The service's clock. */
  now(): Date;
  /** How the service differs from the documented one (empty: it does not). */
  readonly deviations: ServiceDeviations;
}

/** A parsed request. */
export interface ServiceRequest {
  /** HTTP method, upper case (`HEAD` is served as `GET`). */
  readonly method: string;
  /** Path, without the query. */
  readonly path: string;
  /** Query parameters. */
  readonly query: URLSearchParams;
  /** Request headers. */
  readonly headers: IncomingHttpHeaders;
  /** The request body as text (empty for a request without one). */
  readonly body: string;
  /** The rate-limit decision of the request (its caller's limit on this path), when the service limits. */
  readonly rate?: RateLimitDecision;
}

/** A handler's answer: status, JSON body (none for `undefined`) and extra headers. */
export interface ServiceResponse {
  /** HTTP status. */
  readonly status: number;
  /** JSON body; `undefined` for an empty body. */
  readonly body?: unknown;
  /** Extra headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** An endpoint handler; it may throw a `ServiceHttpError`. */
export type ServiceHandler = (request: ServiceRequest, context: ServiceContext) => Promise<ServiceResponse>;

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

/**
 * An answer with status 200.
 *
 * @param body - JSON body.
 * @returns The response.
 */
export function ok(body: unknown): ServiceResponse {
  return { status: 200, body };
}
