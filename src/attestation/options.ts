/**
 * Options of attestation verification and their checking. Bad options are programmer errors and throw
 * {@link InvalidArgumentError}; bad attestations never throw.
 *
 * @packageDocumentation
 */
import { DEFAULT_ISSUER, jwksUrlOf } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";
import { type JwksResolver, type JwksSource, resolveJwksSource } from "./jwks.js";
import { resolveNow } from "./time.js";

/** Default tolerance between the verifier's clock and the service's, in seconds. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/**
 * How many signatures of an attestation that carries two (a `jws` and a raw `sig`, or two compact JWSs) are
 * checked with the key. The JWS is always checked first, over its own bytes, and a `signed` block beside it must
 * equal its payload by value.
 *
 * - `"one"` (the default): the JWS when there is one; a raw `sig` beside it covers a block equal by value to the
 *   verified payload, and is reported `"not-checked"`, never `true` (it must still be 64 bytes of base64, else
 *   the attestation is malformed). Without a JWS, the raw `sig` is the one checked. Two different compact JWSs
 *   (in `jws` and in `sig`) are both checked.
 * - `"both"`: every signature present is checked and must verify (twice the work). Use it when you pass the raw
 *   `sig` on to someone who will verify it, or need `sigBytes` (which bytes it covers) for every response.
 *
 * The signed block is vouched for either way: the only thing `"one"` does not establish is that the raw `sig`
 * itself is valid.
 */
export type SignaturePolicy = "one" | "both";

/** Options shared by every verification function. */
export interface VerifyAttestationParameters {
  /**
   * Keys to verify with: a {@link JwksResolver} from `createJwksResolver` (best for many verifications), a
   * JWKS URL, or a JWKS object. Default: the JWKS of `issuer` (`<issuer>/.well-known/jwks.json`). The JWKS URL
   * carried inside a response is never fetched.
   */
  jwks?: JwksSource;
  /**
   * The issuer attestations must name (default `DEFAULT_ISSUER`, `https://rnwy.com`). `did:web:rnwy.com` names
   * the same issuer; an issuer that is not a URL (such as a `did:web`) needs `jwks` given explicitly.
   */
  issuer?: string;
  /** Key ids accepted (the default depends on the function). */
  acceptedKids?: readonly string[];
  /** Time of the verification: a `Date` or ms since the epoch (default: now). */
  now?: Date | number;
  /** Tolerance for expiry and issue times, in seconds (default 60). */
  clockSkewSeconds?: number;
  /** Refuse attestations without a legacy raw `sig` (default `false`); which signatures are checked is `verify`'s. */
  requireLegacySig?: boolean;
  /** Refuse attestations without a compact JWS, in `jws` or in `sig` (default `false`). */
  requireJws?: boolean;
  /**
   * `"one"` (default): the JWS is checked and a raw `sig` beside it reported `"not-checked"`; `"both"`: every
   * signature present is checked. See {@link SignaturePolicy}.
   */
  verify?: SignaturePolicy;
  /**
   * Lifetime implied when the signed block has an issue time but no expiry, in seconds. Default: 24 h for
   * trust-check, wallet-score and MCP attestations; none (no implied expiry) for `verifySignedAttestation`.
   */
  lifetimeSeconds?: number;
}

/** Options after checking, with defaults applied. */
export interface ResolvedVerifyOptions {
  readonly resolver: JwksResolver;
  readonly issuer: string;
  readonly acceptedKids: ReadonlySet<string>;
  readonly nowMs: number;
  readonly skewMs: number;
  readonly requireLegacySig: boolean;
  readonly requireJws: boolean;
  readonly verify: SignaturePolicy;
  readonly lifetimeMs: number | undefined;
}

/**
 * Checks options and applies defaults.
 *
 * @param options - Options given by the caller.
 * @param defaults - The calling function's default key ids and implied lifetime.
 * @returns The resolved options.
 * @throws {@link InvalidArgumentError} for an option of the wrong type or range.
 */
export function resolveVerifyOptions(
  options: VerifyAttestationParameters | undefined,
  defaults: { acceptedKids: readonly string[]; lifetimeSeconds: number | undefined },
): ResolvedVerifyOptions {
  const given = options ?? {};
  if (typeof given !== "object") throw new InvalidArgumentError("Verification options must be an object");
  const issuer = given.issuer ?? DEFAULT_ISSUER;
  if (typeof issuer !== "string" || issuer.trim() === "") {
    throw new InvalidArgumentError("Option `issuer` must be a non-empty string (the issuer's origin, e.g. https://rnwy.com)");
  }
  const acceptedKids = given.acceptedKids ?? defaults.acceptedKids;
  if (!Array.isArray(acceptedKids) || acceptedKids.length === 0 || !acceptedKids.every((k) => typeof k === "string" && k)) {
    throw new InvalidArgumentError("Option `acceptedKids` must be a non-empty array of key ids");
  }
  const skew = given.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  if (typeof skew !== "number" || !Number.isFinite(skew) || skew < 0) {
    throw new InvalidArgumentError("Option `clockSkewSeconds` must be a non-negative number", { details: `Got: ${String(skew)}` });
  }
  const lifetime = given.lifetimeSeconds ?? defaults.lifetimeSeconds;
  if (lifetime !== undefined && (typeof lifetime !== "number" || !(lifetime > 0))) {
    throw new InvalidArgumentError("Option `lifetimeSeconds` must be a positive number", { details: `Got: ${String(lifetime)}` });
  }
  const verify = given.verify ?? "one";
  if (verify !== "one" && verify !== "both") {
    throw new InvalidArgumentError('Option `verify` must be "one" or "both"', { details: `Got: ${String(verify)}` });
  }
  return {
    resolver: resolveJwksSource(given.jwks ?? defaultJwksUrl(issuer)),
    issuer,
    acceptedKids: new Set(acceptedKids),
    nowMs: resolveNow(given.now),
    skewMs: skew * 1000,
    requireLegacySig: given.requireLegacySig === true,
    requireJws: given.requireJws === true,
    verify,
    lifetimeMs: lifetime === undefined ? undefined : lifetime * 1000,
  };
}

/**
 * Whether two issuer strings name the same issuer: equal up to a trailing slash and the case of the scheme
 * and host, where `did:web:<host>` names the same issuer as `https://<host>` (the DID Web method binds a
 * `did:web` identifier to that origin; the service's documents write its issuer both ways).
 *
 * @param named - Issuer named by an attestation.
 * @param configured - Configured issuer.
 * @returns `true` when they match.
 */
export function sameIssuer(named: string, configured: string): boolean {
  return canonicalIssuer(named) === canonicalIssuer(configured);
}

/** Canonical forms of the few issuer strings a process sees, kept: parsing a URL each time costs. */
const canonicalIssuers = new Map<string, string>();
const CANONICAL_ISSUER_CACHE_SIZE = 256;

function canonicalIssuer(issuer: string): string {
  let canonical = canonicalIssuers.get(issuer);
  if (canonical === undefined) {
    canonical = computeCanonicalIssuer(issuer);
    if (canonicalIssuers.size >= CANONICAL_ISSUER_CACHE_SIZE) canonicalIssuers.clear();
    canonicalIssuers.set(issuer, canonical);
  }
  return canonical;
}

function computeCanonicalIssuer(issuer: string): string {
  const text = issuer.trim().replace(/\/+$/, "");
  const didWeb = /^did:web:([A-Za-z0-9.-]+(?:%3[Aa]\d+)?)$/.exec(text);
  if (didWeb) return `https://${didWeb[1]!.replace(/%3a/i, ":").toLowerCase()}`;
  try {
    const url = new URL(text);
    if (url.pathname === "/" && url.search === "" && url.hash === "") return url.origin;
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}${url.search}${url.hash}`;
  } catch {
    return text;
  }
}

/**
 * Whether a URL belongs to an issuer (same scheme, host and port).
 *
 * @param url - Any string.
 * @param issuer - Issuer origin.
 * @returns `true` when both parse and share their origin.
 */
export function belongsToIssuer(url: string, issuer: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && origin === originOf(canonicalIssuer(issuer));
}

const origins = new Map<string, string | undefined>();

/** The origin of a URL, or `undefined` when it does not parse; kept for the few URLs a process sees. */
function originOf(url: string): string | undefined {
  if (origins.has(url)) return origins.get(url);
  let origin: string | undefined;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = undefined;
  }
  if (origins.size >= CANONICAL_ISSUER_CACHE_SIZE) origins.clear();
  origins.set(url, origin);
  return origin;
}

function defaultJwksUrl(issuer: string): string {
  try {
    return jwksUrlOf(issuer);
  } catch {
    throw new InvalidArgumentError(`Option \`issuer\` "${issuer}" is not a URL, so its JWKS URL cannot be derived; give \`jwks\``);
  }
}
