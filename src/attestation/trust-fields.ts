/**
 * The meaning of a `/api/trust-check` signed block: which kind it is (v1, v2, unknown wallet) and whether the
 * response's own fields say the same as the signed ones. A valid signature over other numbers than the
 * response shows is worth nothing, so these checks follow every signature check.
 *
 * Comparison is by value, not by spelling: `agentId` 42 equals "42"; `chain` "base" equals 8453 (both
 * resolve to the same slug); `registry`, `tier` and `sybilSeverity` ignore case; a `registry` absent at either
 * level is `erc8004`; wallets compare case-insensitively.
 *
 * @packageDocumentation
 */
import { resolveChain } from "../config/chains.js";
import { DEFAULT_REGISTRY } from "../config/service.js";
import type { FieldMismatch, TrustAttestationVersion } from "./result.js";

/** Fields of a trust-check signed block compared with the response's top-level fields. */
export const COMPARED_TRUST_FIELDS = ["agentId", "chain", "registry", "score", "tier", "sybilSeverity"] as const;

/** A field of {@link COMPARED_TRUST_FIELDS}. */
export type ComparedTrustField = (typeof COMPARED_TRUST_FIELDS)[number];

/** The agent or wallet a caller asked about, to check the attestation is about it. */
export interface ExpectedSubject {
  /** Agent id asked for. */
  agentId?: number | string | bigint;
  /** Chain asked for (slug, alias or chain id). */
  chain?: string | number;
  /** Registry asked for (default `erc8004` on the attestation's side when it names none). */
  registry?: string;
  /** Wallet asked for (`/api/trust-check?wallet=`); checked against an unknown-wallet envelope. */
  wallet?: string;
}

/** Outcome of a field comparison: nothing wrong, a field the signed block lacks, or a differing field. */
export type FieldComparison =
  | { ok: true }
  | { ok: false; kind: "missing"; field: string }
  | { ok: false; kind: "mismatch"; mismatch: FieldMismatch };

/**
 * Tells the kind of a verified trust-check signed block.
 *
 * @param payload - The signed block.
 * @param kid - Its key id, consulted when the block has no time field telling v1 from v2.
 * @returns `wallet-not-found` for `{found: false, …}`, `v1` for a block with `attestedAt` (and no
 * `issuedAt`), `v2` otherwise.
 */
export function trustAttestationVersion(payload: Record<string, unknown>, kid: string | undefined): TrustAttestationVersion {
  if (payload.found === false) return "wallet-not-found";
  if (payload.issuedAt !== undefined || payload.expiry !== undefined || payload.verifiedAt !== undefined) return "v2";
  if (payload.attestedAt !== undefined) return "v1";
  return kid?.endsWith("-v1") ? "v1" : "v2";
}

/**
 * Compares a signed agent block with the response's top-level fields.
 *
 * @param signed - The verified signed block.
 * @param response - The response body.
 * @returns The first field the signed block lacks or that differs, if any.
 */
export function compareTrustFields(signed: Record<string, unknown>, response: Record<string, unknown>): FieldComparison {
  for (const field of COMPARED_TRUST_FIELDS) {
    const signedValue = signed[field];
    const responseValue = response[field];
    if (field !== "registry" && (signedValue === undefined || signedValue === null)) return { ok: false, kind: "missing", field };
    if (!sameFieldValue(field, signedValue, responseValue)) {
      return { ok: false, kind: "mismatch", mismatch: { field, signed: signedValue, response: responseValue } };
    }
  }
  return { ok: true };
}

/**
 * Compares an unknown-wallet envelope with its response: the response must say `found: false` and name the
 * same wallet.
 *
 * @param signed - The verified `{found: false, wallet, issuedAt}` block.
 * @param response - The response body.
 * @returns The first problem, if any.
 */
export function compareWalletNotFound(signed: Record<string, unknown>, response: Record<string, unknown>): FieldComparison {
  if (typeof signed.wallet !== "string") return { ok: false, kind: "missing", field: "wallet" };
  if (response.found !== false) {
    return { ok: false, kind: "mismatch", mismatch: { field: "found", signed: signed.found, response: response.found } };
  }
  if (typeof response.wallet !== "string" || !sameWallet(signed.wallet, response.wallet)) {
    return { ok: false, kind: "mismatch", mismatch: { field: "wallet", signed: signed.wallet, response: response.wallet } };
  }
  return { ok: true };
}

/**
 * Checks that a verified signed block is about the subject the caller asked for.
 *
 * @param signed - The verified signed block.
 * @param expected - What the caller asked for.
 * @returns The first differing field (`response` holds the expected value), if any.
 */
export function compareExpectedSubject(signed: Record<string, unknown>, expected: ExpectedSubject): FieldMismatch | undefined {
  if (signed.found === false) {
    if (expected.wallet !== undefined && !(typeof signed.wallet === "string" && sameWallet(signed.wallet, expected.wallet))) {
      return { field: "wallet", signed: signed.wallet, response: expected.wallet };
    }
    if (expected.agentId !== undefined) return { field: "agentId", signed: undefined, response: expected.agentId };
    return undefined;
  }
  for (const field of ["agentId", "chain", "registry"] as const) {
    const want = expected[field];
    if (want !== undefined && !sameFieldValue(field, signed[field], want)) return { field, signed: signed[field], response: want };
  }
  if (expected.wallet !== undefined) {
    const owner = signed.owner;
    if (!(typeof owner === "string" && sameWallet(owner, expected.wallet))) return { field: "owner", signed: owner, response: expected.wallet };
  }
  return undefined;
}

function sameFieldValue(field: ComparedTrustField, a: unknown, b: unknown): boolean {
  const normalize = NORMALIZERS[field];
  const left = normalize(a);
  return left !== undefined && left === normalize(b);
}

const NORMALIZERS: Record<ComparedTrustField, (value: unknown) => string | number | undefined> = {
  agentId: normalizeId,
  chain: normalizeChain,
  registry: (value) => normalizeName(value ?? DEFAULT_REGISTRY),
  score: normalizeNumber,
  tier: normalizeName,
  sybilSeverity: normalizeName,
};

function normalizeId(value: unknown): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return BigInt(value.trim()).toString();
  return undefined;
}

function normalizeChain(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  try {
    return resolveChain(value).slug;
  } catch {
    return typeof value === "string" ? value.trim().toLowerCase() : String(value);
  }
}

function normalizeNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function normalizeName(value: unknown): string | undefined {
  return typeof value === "string" ? value.trim().toLowerCase() : undefined;
}

function sameWallet(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
