/**
 * Fixtures for attestation tests and benchmarks: realistic `/api/trust-check` responses (v1, v2, unknown
 * wallet), `/api/wallet-score` and `/api/mcp-attestation` responses in the shapes the service publishes,
 * signed with real ES256 keys exactly as the service signs them, tampering helpers (including high-S twins of
 * signatures), hand-made hostile JWS (alg none, HS256 with the public key as secret), and a loopback HTTP
 * server that serves a JWKS and counts its hits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CompactSign, type CryptoKey, exportSPKI, importJWK, type JSONWebKeySet, type JWK } from "jose";
import { ATTESTATION_TYPES } from "../../src/config/service.js";
import { scoringTimeText } from "../../src/harness/service/endpoints/trust-check.js";
import {
  type AttestationSigningKey,
  createAttestation,
  generateSigningKey,
  type SigningParameters,
  signPayload,
} from "../../src/harness/signing.js";
import type {
  Attestation,
  TrustCheck,
  TrustSignedV1,
  TrustSignedV2,
  WalletNotFound,
  WalletNotFoundSigned,
} from "../../src/published/index.js";

/** The issuer used by the fixtures unless told otherwise. */
export const TEST_ISSUER = "https://rnwy.com";
/** A fixed "now" for deterministic time checks: 2025-06-01T12:00:00Z. */
export const TEST_NOW = new Date("2025-06-01T12:00:00.000Z");
const HOUR_MS = 3_600_000;

/** Keys of the service as the fixtures use them: the four kids of the service's JWKS. */
export interface TestKeys {
  v1: AttestationSigningKey;
  v2: AttestationSigningKey;
  wallet: AttestationSigningKey;
  mcp: AttestationSigningKey;
}

/**
 * Generates the service's four keys (`rnwy-trust-v1`, `rnwy-trust-v2`, `rnwy-wallet-v1`, `rnwy-mcp-v1`).
 *
 * @returns The keys.
 */
export async function generateTestKeys(): Promise<TestKeys> {
  const [v1, v2, wallet, mcp] = await Promise.all([
    generateSigningKey("rnwy-trust-v1"),
    generateSigningKey("rnwy-trust-v2"),
    generateSigningKey("rnwy-wallet-v1"),
    generateSigningKey("rnwy-mcp-v1"),
  ]);
  return { v1, v2, wallet, mcp };
}

/**
 * A JWKS publishing the public keys of the given signing keys.
 *
 * @param keys - Signing keys.
 * @returns The JWKS.
 */
export function jwksOf(...keys: AttestationSigningKey[]): JSONWebKeySet {
  return { keys: keys.map((k) => ({ ...k.publicJwk })) };
}

/** Fields of an agent as a fixture response shows them. */
export interface AgentFixture {
  agentId: number | string;
  chain: string;
  registry: string;
  owner: string;
  score: number;
  tier: string;
  /** `null` when there is no sybil signal (the service's v2 form). */
  sybilSeverity: string | null;
  name: string;
}

/** A realistic agent, used unless fields are overridden. */
export const DEFAULT_AGENT: AgentFixture = {
  agentId: 1487,
  chain: "base",
  registry: "erc8004",
  owner: "0x7a16ff8270133f063aab6c9977183d9e72835428",
  score: 82,
  tier: "established",
  sybilSeverity: "low",
  name: "Ledgerly Research Agent",
};

/** Options of the trust-check builders. */
export interface TrustCheckFixtureOptions {
  agent?: Partial<AgentFixture>;
  issuer?: string;
  /** When the score was computed: signed `issuedAt` (v2) or `attestedAt` (v1). Default {@link TEST_NOW} minus 2 h. */
  issuedAt?: Date;
  /** When the attestation was signed: signed `verifiedAt` (v2). Default: `issuedAt`. */
  verifiedAt?: Date;
  /**
   * How times are written in the signed block: `iso` (default, `toISOString`), `unix` (seconds), or `service` (v2: the
   * service's sample, `issuedAt` with milliseconds and `+00:00` beside `verifiedAt` and `expiry` in the `Z` form).
   */
  timeFormat?: "iso" | "unix" | "service";
  /** Lifetime from `verifiedAt` to `expiry`, in ms (v2; default 24 h). */
  lifetimeMs?: number;
  /** Extra fields appended to the signed block. */
  extraSigned?: Record<string, unknown>;
  /** Badges of the body (default one earned, one warning); the signed block carries them merged. */
  badges?: { earned: string[]; warnings: string[] };
  /** How the signatures are made (serialisations, JWS header, exact JWS payload); default as the service signs. */
  signing?: SigningParameters;
}

function writeTime(date: Date, format: "iso" | "unix" | "service" = "iso"): string | number {
  return format === "unix" ? Math.floor(date.getTime() / 1000) : date.toISOString();
}

function signalsFor(sybilSeverity: string | null): string[] {
  return sybilSeverity === null || sybilSeverity === "none" ? [] : ["common_funder", "score_clustering"];
}

/**
 * Builds a v2 `/api/trust-check` response (kid `rnwy-trust-v2`, type `behavioral_trust`) in the published
 * shape: the signed `agentId` a string, flat snake_case badges, `sybilSeverity` null or a name, `issuedAt`
 * when the score was computed, `verifiedAt` when signed, `expiry` = `verifiedAt` + 24 h; the body with
 * `{earned, warnings}` badges, a numeric `agentId`, `threshold` 50 and a boolean `pass`.
 *
 * @param key - Signing key (normally `keys.v2`).
 * @param options - Agent fields, issuer, times.
 * @returns The response body, as the service returns it.
 */
export async function buildTrustCheckResponse(
  key: AttestationSigningKey,
  options: TrustCheckFixtureOptions = {},
): Promise<TrustCheck & { attestation: Attestation<TrustSignedV2> }> {
  const agent = { ...DEFAULT_AGENT, ...options.agent };
  const issuedAt = options.issuedAt ?? new Date(TEST_NOW.getTime() - 2 * HOUR_MS);
  const verifiedAt = options.verifiedAt ?? issuedAt;
  const expiry = new Date(verifiedAt.getTime() + (options.lifetimeMs ?? 24 * HOUR_MS));
  const badges = options.badges ?? { earned: ["original_owner", "established_wallet"], warnings: ["low_history_reviewers"] };
  const sybilSignals = signalsFor(agent.sybilSeverity);
  const signed: TrustSignedV2 = {
    agentId: String(agent.agentId),
    chain: agent.chain,
    registry: agent.registry,
    owner: agent.owner,
    score: agent.score,
    tier: agent.tier,
    badges: [...badges.earned, ...badges.warnings],
    sybilSeverity: agent.sybilSeverity,
    sybilSignals,
    issuedAt: options.timeFormat === "service" ? scoringTimeText(issuedAt) : writeTime(issuedAt, options.timeFormat),
    verifiedAt: writeTime(verifiedAt, options.timeFormat),
    expiry: writeTime(expiry, options.timeFormat),
    ...options.extraSigned,
  };
  const attestation = await createAttestation(signed, key, {
    issuer: options.issuer ?? TEST_ISSUER,
    type: "behavioral_trust",
    expiry: signed.expiry,
    ...(options.signing ? { signing: options.signing } : {}),
  });
  return {
    agentId: typeof agent.agentId === "string" && /^\d+$/.test(agent.agentId) ? Number(agent.agentId) : agent.agentId,
    chain: agent.chain,
    name: agent.name,
    score: agent.score,
    threshold: 50,
    pass: agent.score >= 50,
    tier: agent.tier,
    badges,
    reason: agent.score >= 50 ? `Score ${agent.score} meets threshold 50.` : `Score ${agent.score} is below threshold 50.`,
    owner: agent.owner,
    isOriginalOwner: true,
    feedbackCount: 37,
    ageDays: 211,
    checkedAt: verifiedAt.toISOString(),
    sybilSeverity: agent.sybilSeverity,
    sybilSignals,
    attestation,
  };
}

/**
 * Builds a v1 `/api/trust-check` response (kid `rnwy-trust-v1`, `attestedAt`, no signed expiry, numeric
 * `agentId`, legacy sybil name `none`).
 *
 * @param key - Signing key (normally `keys.v1`).
 * @param options - Agent fields, issuer, attestation time.
 * @returns The response body.
 */
export async function buildV1TrustCheckResponse(
  key: AttestationSigningKey,
  options: TrustCheckFixtureOptions = {},
): Promise<TrustCheck & { attestation: Attestation<TrustSignedV1> }> {
  const agent = { ...DEFAULT_AGENT, sybilSeverity: "none", ...options.agent };
  const attestedAt = options.issuedAt ?? new Date(TEST_NOW.getTime() - 2 * HOUR_MS);
  const badges = options.badges ?? { earned: ["verified_reviews"], warnings: ["transferred"] };
  const signed: TrustSignedV1 = {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    score: agent.score,
    tier: agent.tier,
    badges: [...badges.earned, ...badges.warnings],
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: signalsFor(agent.sybilSeverity),
    attestedAt: writeTime(attestedAt, options.timeFormat),
    ...options.extraSigned,
  };
  const attestation = await createAttestation(signed, key, { issuer: options.issuer ?? TEST_ISSUER, type: "behavioral_trust" });
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    name: agent.name,
    score: agent.score,
    tier: agent.tier,
    badges,
    owner: agent.owner,
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: signalsFor(agent.sybilSeverity),
    checkedAt: attestedAt.toISOString(),
    attestation,
  };
}

/**
 * Builds the signed answer for a wallet that owns no known agent.
 *
 * @param key - Signing key.
 * @param wallet - The wallet asked about.
 * @param options - Issuer and issue time.
 * @returns The response body `{found: false, wallet, attestation}`.
 */
export async function buildWalletNotFoundResponse(
  key: AttestationSigningKey,
  wallet = "0x00000000000000000000000000000000deadbeef",
  options: { issuer?: string; issuedAt?: Date } = {},
): Promise<WalletNotFound & { attestation: Attestation<WalletNotFoundSigned> }> {
  const signed: WalletNotFoundSigned = {
    found: false,
    wallet,
    issuedAt: (options.issuedAt ?? new Date(TEST_NOW.getTime() - HOUR_MS)).toISOString(),
  };
  const attestation = await createAttestation(signed, key, { issuer: options.issuer ?? TEST_ISSUER, type: "behavioral_trust" });
  return { found: false, wallet, attestation };
}

/** Options of {@link buildWalletScoreResponse}. */
export interface WalletScoreFixtureOptions {
  wallet?: string;
  issuer?: string;
  /** When the score was computed (default {@link TEST_NOW} minus 3 h). */
  issuedAt?: Date;
  /** When signed (default {@link TEST_NOW} minus 10 min); `expiry` is 24 h later. */
  verifiedAt?: Date;
  /** A wallet the service has not scored: the signed `{found: false, wallet, issuedAt}`. */
  notFound?: boolean;
  /** Where the compact JWS travels (default `sig`, as the multi-attestation spec shows it). */
  carrier?: "sig" | "jws";
}

/**
 * Builds a `/api/wallet-score` response: kid `rnwy-wallet-v1`, type `wallet_intelligence`, the claims in a
 * compact JWS (header `typ: "JWT"`) carried in `sig` (or `jws`), `signed: null`.
 *
 * @param key - Signing key (normally `keys.wallet`).
 * @param options - Wallet, times, carrier.
 * @returns The response body.
 */
export async function buildWalletScoreResponse(
  key: AttestationSigningKey,
  options: WalletScoreFixtureOptions = {},
): Promise<Record<string, unknown> & { attestation: Attestation }> {
  const wallet = options.wallet ?? "0x6887dce558f76f36c281200fbc8e5d3da1241aea";
  const issuedAt = options.issuedAt ?? new Date(TEST_NOW.getTime() - 3 * HOUR_MS);
  const verifiedAt = options.verifiedAt ?? new Date(TEST_NOW.getTime() - 10 * 60_000);
  const expiry = new Date(verifiedAt.getTime() + 24 * HOUR_MS).toISOString();
  const issuer = options.issuer ?? TEST_ISSUER;
  const claims: Record<string, unknown> = options.notFound
    ? { found: false, wallet, issuedAt: issuedAt.toISOString() }
    : {
        iss: issuer,
        sub: wallet,
        wallet,
        signalDepth: 71,
        riskIntensity: 4,
        quadrant: "high_depth_low_risk",
        activityZone: "Established",
        riskZone: "Clean",
        issuedAt: issuedAt.toISOString(),
        verifiedAt: verifiedAt.toISOString(),
        expiry,
      };
  const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .sign(key.privateKey);
  const attestation: Attestation = {
    issuer,
    type: "wallet_intelligence",
    kid: key.kid,
    alg: "ES256",
    jwks: `${issuer}/.well-known/jwks.json`,
    signed: null,
    [options.carrier ?? "sig"]: token,
    expiry,
  };
  const { iss: _iss, sub: _sub, issuedAt: _i, verifiedAt: _v, expiry: _e, ...visible } = claims;
  return { ...visible, attestation };
}

/**
 * Builds a `/api/mcp-attestation` response: the SDK's `canonical_id` form `{canonical_id, mcp_risk_score, findings,
 * attestation}` with signed `{canonical_id, mcp_risk_score, findings, issuedAt}` (no expiry unless `expiresAt`), or
 * the `server` form of insumer spec v1.2 §3.12 with signed `{server, qualityScore, riskScore, quadrant, breakdown,
 * issuedAt, verifiedAt, expiry}` (`verifiedAt` = `issuedAt`, `expiry` = `expiresAt` or `verifiedAt` + 24 h).
 *
 * @param key - Signing key (normally `keys.mcp`).
 * @param options - Issuer, issue time, form, server name, the signed expiry, fields to set or (`undefined`) leave out
 *   of the server form's signed block.
 * @returns The response body.
 */
export async function buildMcpAttestationResponse(
  key: AttestationSigningKey,
  options: {
    issuer?: string;
    issuedAt?: Date;
    form?: "canonical-id" | "server";
    canonicalId?: string;
    expiresAt?: Date;
    serverFields?: Record<string, unknown>;
  } = {},
): Promise<Record<string, unknown> & { attestation: Attestation }> {
  const name = options.canonicalId ?? "acme/weather-mcp";
  const issued = options.issuedAt ?? new Date(TEST_NOW.getTime() - HOUR_MS);
  const issuedAt = issued.toISOString();
  const findings = [{ rule: "T-017", severity: "info", title: "tool descriptions mention network access" }];
  let signed: Record<string, unknown>;
  if (options.form === "server") {
    signed = {
      server: name,
      qualityScore: 77,
      riskScore: 12,
      quadrant: "high_quality_low_risk",
      breakdown: {
        quality: { tenure: 20, adoption: 19, capability: 21, reliability: 17 },
        risk: { findings: 1 },
        version: "1",
        quadrant: {},
      },
      issuedAt,
      verifiedAt: issuedAt,
      expiry: (options.expiresAt ?? new Date(issued.getTime() + 24 * HOUR_MS)).toISOString(),
    };
    for (const [field, value] of Object.entries(options.serverFields ?? {})) {
      if (value === undefined) delete signed[field];
      else signed[field] = value;
    }
  } else {
    signed = { canonical_id: name, mcp_risk_score: 12, findings, issuedAt };
    if (options.expiresAt) signed.expiry = options.expiresAt.toISOString();
  }
  const attestation = await createAttestation(signed, key, { issuer: options.issuer ?? TEST_ISSUER, type: ATTESTATION_TYPES.mcp });
  const { issuedAt: _i, verifiedAt: _v, expiry: _e, ...visible } = signed;
  return { ...visible, attestation };
}

/** The order n of the P-256 group. */
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * The high-S twin of a raw 64-byte P-256 signature `r‖s`: `r‖(n − s)`, which verifies for the same message and
 * key. The service does not normalise S, so verifiers must accept both.
 *
 * @param raw - The signature bytes.
 * @returns The other signature.
 */
export function flipS(raw: Uint8Array): Buffer {
  const s = BigInt(`0x${Buffer.from(raw.subarray(32, 64)).toString("hex")}`);
  const twin = (P256_ORDER - s).toString(16).padStart(64, "0");
  return Buffer.concat([Buffer.from(raw.subarray(0, 32)), Buffer.from(twin, "hex")]);
}

/**
 * Makes an attestation's signatures high-S (both the `sig` and the `jws`, whichever are present), so that
 * each has `s > n/2`.
 *
 * @param attestation - The attestation to change in place.
 */
export function makeHighS(attestation: Attestation): void {
  const high = (raw: Buffer) => (BigInt(`0x${raw.subarray(32).toString("hex")}`) > P256_ORDER / 2n ? raw : flipS(raw));
  if (typeof attestation.sig === "string" && !attestation.sig.includes(".")) {
    attestation.sig = high(Buffer.from(attestation.sig, "base64")).toString("base64");
  }
  for (const field of ["jws", "sig"] as const) {
    const value = attestation[field];
    if (typeof value !== "string" || !value.includes(".")) continue;
    const [header, payload, signature] = value.split(".");
    attestation[field] = `${header}.${payload}.${high(Buffer.from(signature!, "base64url")).toString("base64url")}`;
  }
}

/**
 * A deep copy of a response, to tamper with it without touching the original.
 *
 * @param value - Response.
 * @returns The copy.
 */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * Replaces one character of a base64/base64url string with another valid one (same length), at a position
 * chosen from the end so that padding stays intact.
 *
 * @param text - The string.
 * @param fromEnd - Position counted from the end (default 5).
 * @returns The altered string.
 */
export function flipChar(text: string, fromEnd = 5): string {
  const i = text.replace(/=+$/, "").length - fromEnd;
  const c = text[i]!;
  return text.slice(0, i) + (c === "A" ? "B" : "A") + text.slice(i + 1);
}

/**
 * Re-signs an attestation's current `signed` block (after a test changed it) with `key`.
 *
 * @param attestation - The attestation to update in place.
 * @param key - Signing key.
 */
export async function resign(attestation: Attestation, key: AttestationSigningKey): Promise<void> {
  const { sig, jws } = await signPayload(attestation.signed, key);
  attestation.sig = sig;
  attestation.jws = jws;
  attestation.kid = key.kid;
}

function b64url(text: string | Uint8Array): string {
  return Buffer.from(text).toString("base64url");
}

/**
 * An unsigned JWS (`alg: none`) over `JSON.stringify(payload)`.
 *
 * @param payload - The payload.
 * @param kid - The kid to put in the header.
 * @returns The compact JWS, with an empty signature.
 */
export function algNoneJws(payload: unknown, kid: string): string {
  return `${b64url(JSON.stringify({ alg: "none", kid }))}.${b64url(JSON.stringify(payload))}.`;
}

/**
 * HS256 JWSs "signed" with the public key as the HMAC secret (the classic key-confusion attack), one per
 * common serialization of the public key: SPKI PEM, JWK JSON, and the raw JWK `x` coordinate.
 *
 * @param payload - The payload.
 * @param publicJwk - The service's public JWK.
 * @returns The compact JWSs.
 */
export async function hs256WithPublicKeyJws(payload: unknown, publicJwk: JWK): Promise<string[]> {
  const publicKey = await importJWK({ ...publicJwk, alg: "ES256" }, "ES256", { extractable: true });
  const pem = await exportSPKI(publicKey as CryptoKey);
  const secrets = [pem, JSON.stringify(publicJwk), String(publicJwk.x)];
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  return Promise.all(
    secrets.map((secret) =>
      new CompactSign(bytes).setProtectedHeader({ alg: "HS256", kid: publicJwk.kid }).sign(new TextEncoder().encode(secret)),
    ),
  );
}

/** A loopback HTTP server that serves a JWKS and counts requests. */
export interface JwksTestServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** URL of the JWKS (`<origin>/.well-known/jwks.json`). */
  readonly jwksUrl: string;
  /** Requests received so far (any path). */
  readonly hits: number;
  /** Replaces the served key set. */
  setKeys(jwks: JSONWebKeySet): void;
  /**
   * Changes how the server answers: `ok` serves the JWKS; `error` answers 500; `garbage` answers 200 with a
   * non-JSON body; `redirect` answers 302 to `location`; `hang` never answers.
   */
  setMode(mode: "ok" | "error" | "garbage" | "redirect" | "hang", location?: string): void;
  /** Stops the server, dropping open connections. */
  close(): Promise<void>;
}

/**
 * Starts a JWKS server on 127.0.0.1 on a free port.
 *
 * @param jwks - Key set to serve.
 * @returns The server handle.
 */
export async function startJwksServer(jwks: JSONWebKeySet): Promise<JwksTestServer> {
  let current = jwks;
  let hits = 0;
  let mode: "ok" | "error" | "garbage" | "redirect" | "hang" = "ok";
  let location = "";
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits++;
    if (mode === "hang") {
      hanging.push(res);
      return;
    }
    if (mode === "error") {
      res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
      return;
    }
    if (mode === "redirect") {
      res.writeHead(302, { location }).end();
      return;
    }
    if (mode === "garbage") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>not a jwks</html>");
      return;
    }
    if (req.url !== "/.well-known/jwks.json") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(current));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    jwksUrl: `${origin}/.well-known/jwks.json`,
    get hits() {
      return hits;
    },
    setKeys(next) {
      current = next;
    },
    setMode(next, to) {
      mode = next;
      location = to ?? "";
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback port with nothing listening on it (bound, then released).
 *
 * @returns The URL of a JWKS there.
 */
export async function unreachableJwksUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/.well-known/jwks.json`;
}
