/**
 * Fixtures for attestation tests and benchmarks: realistic `/api/trust-check` responses (v1, v2, unknown
 * wallet) and `/api/mcp-attestation` responses, signed with real ES256 keys exactly as the service signs
 * them, tampering helpers, hand-made hostile JWS (alg none, HS256 with the public key as secret), and a
 * loopback HTTP server that serves a JWKS and counts its hits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CompactSign, exportSPKI, importJWK, type CryptoKey, type JSONWebKeySet, type JWK } from "jose";
import { createAttestation, generateSigningKey, signPayload, type AttestationSigningKey } from "../../src/attestation/sign.js";
import type {
  SignedAttestation,
  TrustAttestationSignedV1,
  TrustAttestationSignedV2,
  TrustCheckResponse,
  WalletNotFoundResponse,
  WalletNotFoundSigned,
} from "../../src/attestation/types.js";

/** The issuer used by the fixtures unless told otherwise. */
export const TEST_ISSUER = "https://rnwy.com";
/** A fixed "now" for deterministic time checks: 2025-06-01T12:00:00Z. */
export const TEST_NOW = new Date("2025-06-01T12:00:00.000Z");
const HOUR_MS = 3_600_000;

/** Keys of the service as the fixtures use them. */
export interface TestKeys {
  v1: AttestationSigningKey;
  v2: AttestationSigningKey;
  mcp: AttestationSigningKey;
}

/**
 * Generates the service's three keys (`rnwy-trust-v1`, `rnwy-trust-v2`, `rnwy-mcp-v1`).
 *
 * @returns The keys.
 */
export async function generateTestKeys(): Promise<TestKeys> {
  const [v1, v2, mcp] = await Promise.all([
    generateSigningKey("rnwy-trust-v1"),
    generateSigningKey("rnwy-trust-v2"),
    generateSigningKey("rnwy-mcp-v1"),
  ]);
  return { v1, v2, mcp };
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
  sybilSeverity: string;
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
  /** Issue time (default {@link TEST_NOW} minus 2 h). */
  issuedAt?: Date;
  /** How times are written in the signed block (default ISO-8601). */
  timeFormat?: "iso" | "unix";
  /** Lifetime until `expiry`, in ms (v2; default 24 h). */
  lifetimeMs?: number;
  /** Extra fields appended to the signed block. */
  extraSigned?: Record<string, unknown>;
}

function writeTime(date: Date, format: "iso" | "unix" = "iso"): string | number {
  return format === "unix" ? Math.floor(date.getTime() / 1000) : date.toISOString();
}

/**
 * Builds a v2 `/api/trust-check` response (kid `rnwy-trust-v2`), signed with `key`.
 *
 * @param key - Signing key (normally `keys.v2`).
 * @param options - Agent fields, issuer, times.
 * @returns The response body, as the service returns it.
 */
export async function buildTrustCheckResponse(
  key: AttestationSigningKey,
  options: TrustCheckFixtureOptions = {},
): Promise<TrustCheckResponse> {
  const agent = { ...DEFAULT_AGENT, ...options.agent };
  const issuedAt = options.issuedAt ?? new Date(TEST_NOW.getTime() - 2 * HOUR_MS);
  const verifiedAt = new Date(issuedAt.getTime() - 15 * 60_000);
  const expiry = new Date(issuedAt.getTime() + (options.lifetimeMs ?? 24 * HOUR_MS));
  const badges = { earned: ["verified-owner", "established-history", "reviewed"], warnings: [] as string[] };
  const sybilSignals = agent.sybilSeverity === "none" ? [] : ["funder-cluster:3-wallets", "review-burst:2025-05"];
  const signed: TrustAttestationSignedV2 = {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    owner: agent.owner,
    score: agent.score,
    tier: agent.tier,
    badges,
    sybilSeverity: agent.sybilSeverity,
    sybilSignals,
    issuedAt: writeTime(issuedAt, options.timeFormat),
    verifiedAt: writeTime(verifiedAt, options.timeFormat),
    expiry: writeTime(expiry, options.timeFormat),
    ...options.extraSigned,
  };
  const attestation = await createAttestation(signed, key, {
    issuer: options.issuer ?? TEST_ISSUER,
    type: "trust-check",
    expiry: signed.expiry,
  });
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    name: agent.name,
    score: agent.score,
    threshold: 50,
    pass: agent.score >= 50,
    tier: agent.tier,
    badges,
    reason: agent.score >= 50 ? "Score meets threshold" : "Score below threshold",
    owner: agent.owner,
    isOriginalOwner: true,
    feedbackCount: 37,
    ageDays: 211,
    checkedAt: issuedAt.toISOString(),
    sybilSeverity: agent.sybilSeverity,
    sybilSignals,
    attestation,
  };
}

/**
 * Builds a v1 `/api/trust-check` response (kid `rnwy-trust-v1`, `attestedAt`, no signed expiry).
 *
 * @param key - Signing key (normally `keys.v1`).
 * @param options - Agent fields, issuer, attestation time.
 * @returns The response body.
 */
export async function buildV1TrustCheckResponse(
  key: AttestationSigningKey,
  options: TrustCheckFixtureOptions = {},
): Promise<TrustCheckResponse> {
  const agent = { ...DEFAULT_AGENT, ...options.agent };
  const attestedAt = options.issuedAt ?? new Date(TEST_NOW.getTime() - 2 * HOUR_MS);
  const badges = { earned: ["reviewed"], warnings: ["new-owner"] };
  const signed: TrustAttestationSignedV1 = {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    score: agent.score,
    tier: agent.tier,
    badges,
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: [],
    attestedAt: writeTime(attestedAt, options.timeFormat),
    ...options.extraSigned,
  };
  const attestation = await createAttestation(signed, key, { issuer: options.issuer ?? TEST_ISSUER, type: "trust-check" });
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    name: agent.name,
    score: agent.score,
    tier: agent.tier,
    badges,
    owner: agent.owner,
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: [],
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
): Promise<WalletNotFoundResponse> {
  const signed: WalletNotFoundSigned = {
    found: false,
    wallet,
    issuedAt: (options.issuedAt ?? new Date(TEST_NOW.getTime() - HOUR_MS)).toISOString(),
  };
  const attestation = await createAttestation(signed, key, { issuer: options.issuer ?? TEST_ISSUER, type: "wallet-not-found" });
  return { found: false, wallet, attestation };
}

/**
 * Builds a `/api/mcp-attestation` response in the kit's documented shape (docs/service-api.md):
 * `{canonicalId, riskScore, findings, attestation}` with signed `{canonicalId, riskScore, findings, issuedAt,
 * expiry?}`. Without `expiresAt` the signed block has no expiry (to test that none is implied).
 *
 * @param key - Signing key (normally `keys.mcp`).
 * @param options - Issuer, issue time, canonical id, expiry.
 * @returns The response body.
 */
export async function buildMcpAttestationResponse(
  key: AttestationSigningKey,
  options: { issuer?: string; issuedAt?: Date; canonicalId?: string; expiresAt?: Date } = {},
): Promise<{ canonicalId: string; riskScore: number; findings: unknown[]; attestation: SignedAttestation }> {
  const canonicalId = options.canonicalId ?? "acme/weather-mcp";
  const issuedAt = options.issuedAt ?? new Date(TEST_NOW.getTime() - HOUR_MS);
  const findings = [{ id: "T-017", severity: "info", title: "tool descriptions mention network access" }];
  const signed: Record<string, unknown> = { canonicalId, riskScore: 12, findings, issuedAt: issuedAt.toISOString() };
  if (options.expiresAt) signed.expiry = options.expiresAt.toISOString();
  const attestation = await createAttestation(signed, key, { issuer: options.issuer ?? TEST_ISSUER, type: "mcp-attestation" });
  return { canonicalId, riskScore: 12, findings, attestation };
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
export async function resign(attestation: SignedAttestation<unknown>, key: AttestationSigningKey): Promise<void> {
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
