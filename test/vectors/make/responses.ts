/**
 * `/api/trust-check` responses in the service's published shapes for the vector set, at fixed times: the
 * body and signed block of an agent (v2), of a v1 block and of a wallet that owns no agent (the builders of
 * `test/support/attestations.ts`), the attestation object around a signed block (signed by
 * `src/harness/signing.ts`), and what the oracle stores or is given for it.
 */
import type { Attestation, JsonObject } from "../../../src/published/index";
import { sybilSeverityCode, tierCode } from "../../../src/config/encodings";
import { type AttestationSigningKey, createAttestation, type SigningParameters } from "../../../src/harness/signing";
import {
  type AgentFixture,
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  TEST_ISSUER,
} from "../../support/attestations";
import type { OnchainRecord, VectorCall } from "../format";

/** The verification time of most vectors. */
export const VECTOR_NOW = "2026-10-01T12:00:00.000Z";
const NOW_MS = Date.parse(VECTOR_NOW);
/** A minute, in milliseconds. */
export const MINUTE_MS = 60_000;
/** An hour, in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;

/** The agent of the vectors (a score with a sybil signal, so that every read field carries a value). */
export const VECTOR_AGENT: AgentFixture = {
  agentId: 16907,
  chain: "base",
  registry: "erc8004",
  owner: "0x7a16ff8270133f063aab6c9977183d9e72835428",
  score: 82,
  tier: "established",
  sybilSeverity: "low",
  name: "Ledgerly Research Agent",
};

/** A response body without its attestation, and the signed block that goes with it. */
export interface ServiceAnswer {
  /** The body fields (everything but `attestation`), in the service's order. */
  readonly body: Record<string, unknown>;
  /** The signed block, in the service's insertion order. */
  readonly signed: Record<string, unknown>;
}

/** When a block was computed and signed, relative to {@link VECTOR_NOW}. */
export interface AnswerTimes {
  /** Score computed this long before now (default 2 h). */
  readonly issuedBeforeMs?: number;
  /** Signed this long before now (default 10 min, minus 456 ms so that the times carry milliseconds). */
  readonly verifiedBeforeMs?: number;
}

/**
 * A v2 answer about {@link VECTOR_AGENT} (fields overridden as given): `issuedAt` 2 h before now, `verifiedAt`
 * 10 min before now, `expiry` 24 h after `verifiedAt`.
 *
 * @param key - Any signing key (the builder's own signature is dropped).
 * @param agent - Agent fields to override.
 * @param times - Other times.
 * @returns Body and signed block.
 */
export async function agentAnswer(
  key: AttestationSigningKey,
  agent: Partial<AgentFixture> = {},
  times: AnswerTimes = {},
): Promise<ServiceAnswer> {
  const { attestation, ...body } = await buildTrustCheckResponse(key, {
    agent: { ...VECTOR_AGENT, ...agent },
    issuedAt: new Date(NOW_MS - (times.issuedBeforeMs ?? 2 * HOUR_MS)),
    verifiedAt: new Date(NOW_MS - (times.verifiedBeforeMs ?? 10 * MINUTE_MS - 456)),
  });
  return { body, signed: attestation.signed };
}

/**
 * A v1 answer (`attestedAt` 2 h before now, numeric `agentId`, no `owner`, no signed expiry).
 *
 * @param key - Any signing key.
 * @returns Body and signed block.
 */
export async function v1Answer(key: AttestationSigningKey): Promise<ServiceAnswer> {
  const { attestation, ...body } = await buildV1TrustCheckResponse(key, {
    agent: { ...VECTOR_AGENT, sybilSeverity: "none" },
    issuedAt: new Date(NOW_MS - 2 * HOUR_MS),
  });
  return { body, signed: attestation.signed };
}

/**
 * The answer for a wallet that owns no agent: signed `{found: false, wallet, issuedAt}` (1 h before now).
 *
 * @param key - Any signing key.
 * @returns Body and signed block.
 */
export async function walletNotFoundAnswer(key: AttestationSigningKey): Promise<ServiceAnswer> {
  const { attestation, ...body } = await buildWalletNotFoundResponse(key, "0x00000000000000000000000000000000deadbeef", {
    issuedAt: new Date(NOW_MS - HOUR_MS),
  });
  return { body, signed: attestation.signed };
}

/** How an attestation object is written. */
export interface AttestOptions {
  /** Which signatures it carries (default both). */
  readonly form?: "both" | "sig" | "jws";
  /** Which bytes each signature covers, the JWS header, exact JWS payload bytes. */
  readonly signing?: SigningParameters;
  /** Write `signed: null` (the JWS payload is then the signed data). */
  readonly signedNull?: boolean;
  /** `attestation.issuer` (default the service's). */
  readonly issuer?: string;
  /** `attestation.jwks` (default the issuer's). */
  readonly jwks?: string;
}

/**
 * The attestation object of a signed block, as the service embeds it: issuer, type `behavioral_trust`, kid,
 * alg, jwks, signed, `sig` and/or `jws`, and the announced `expiry` when the block signs one.
 *
 * @param signed - The signed block.
 * @param key - The signing key (its kid is the attestation's).
 * @param options - Form, signing options, `signed: null`, issuer, jwks.
 * @returns The attestation.
 */
export async function attest(
  signed: Record<string, unknown>,
  key: AttestationSigningKey,
  options: AttestOptions = {},
): Promise<Attestation> {
  const expiry = signed.expiry;
  const attestation: Attestation = await createAttestation(signed as JsonObject, key, {
    issuer: options.issuer ?? TEST_ISSUER,
    type: "behavioral_trust",
    form: options.form ?? "both",
    ...(options.jwks === undefined ? {} : { jwks: options.jwks }),
    ...(typeof expiry === "string" ? { expiry } : {}),
    ...(options.signing === undefined ? {} : { signing: options.signing }),
  });
  if (options.signedNull) attestation.signed = null;
  return attestation;
}

/**
 * A response body with its attestation.
 *
 * @param body - Body fields.
 * @param attestation - The attestation.
 * @returns The response, `attestation` last as the service writes it.
 */
export function respond(body: Record<string, unknown>, attestation: Record<string, unknown>): Record<string, unknown> {
  return { ...body, attestation };
}

/**
 * The record the oracle stores for a v2 signed block.
 *
 * @param signed - The signed block (as `JSON.parse` reads the signed bytes).
 * @returns Score, tier and sybil codes, and `issuedAt` in seconds.
 */
export function recordOf(signed: Record<string, unknown>): OnchainRecord {
  return {
    score: signed.score as number,
    tier: tierCode(signed.tier as string),
    sybilSeverity: sybilSeverityCode(signed.sybilSeverity as string | null),
    updatedAt: Math.floor(Date.parse(signed.issuedAt as string) / 1000),
  };
}

/**
 * The JWS submission of an attestation.
 *
 * @param kid - The kid submitted under (the attestation's).
 * @param jws - The compact JWS as issued.
 * @returns The call.
 */
export function jwsCall(kid: string, jws: string): VectorCall {
  return { function: "submitJwsAttestation", kid, jws };
}

/**
 * The `sig` submission of an attestation.
 *
 * @param kid - The kid submitted under.
 * @param signedBytes - The exact bytes the `sig` covers.
 * @param sig - The base64 `sig`.
 * @returns The call, bytes in hex.
 */
export function sigCall(kid: string, signedBytes: Uint8Array, sig: string): VectorCall {
  return {
    function: "submitAttestation",
    kid,
    signedJson: `0x${Buffer.from(signedBytes).toString("hex")}`,
    signature: `0x${Buffer.from(sig, "base64").toString("hex")}`,
  };
}

/**
 * Replaces the one occurrence of `from` in `text` (a generator error when there is not exactly one).
 *
 * @param text - Text.
 * @param from - The part to replace.
 * @param to - Its replacement.
 * @returns The new text.
 */
export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`"${from}" does not occur exactly once in ${text}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/**
 * Milliseconds of an ISO time shifted from {@link VECTOR_NOW}.
 *
 * @param offsetMs - Offset from now.
 * @returns The ISO time.
 */
export function nowPlus(offsetMs: number): string {
  return new Date(NOW_MS + offsetMs).toISOString();
}
