/**
 * The trust-check kind: `/api/trust-check` attestations (kids `rnwy-trust-v2`, `rnwy-trust-v1`; type
 * `behavioral_trust`). Its signed block is a v2 block (`issuedAt`, `verifiedAt`, `expiry`), a v1 block
 * (`attestedAt`), or the signed `{found: false, wallet, issuedAt}` of a wallet that owns no agent. A block that
 * names an agent (any of {@link AGENT_FIELDS}) is an agent's block whatever its `found` says, and an agent's block
 * carries `found` only as `true`: one saying anything else is refused (`malformed`, field `found`), never read
 * as a wallet's proof of absence nor as an agent's record.
 *
 * @packageDocumentation
 */
import { formatAgentRef } from "../../agent/agent-ref.js";
import { ATTESTATION_TYPES, DEFAULT_REGISTRY } from "../../config/service.js";
import { sameValue } from "../body-fields.js";
import type { ExpectedSubject } from "../expected-subject.js";
import type { AttestationKind, Classification } from "../pipeline.js";
import type { FieldMismatch, TrustAttestationVersion } from "../result.js";
import { readTrustSignedBlockV2 } from "../trust-signed-block.js";

/** Fields a v1 or v2 signed block must carry (non-null). */
export const REQUIRED_TRUST_FIELDS = ["agentId", "chain", "score", "tier"] as const;

/**
 * Body fields that speak of an agent. A signed `found: false` vouches that the wallet owns no agent, so a
 * body carrying any of these next to it is refused: the signature cannot cover them.
 */
export const AGENT_FIELDS = [
  "agentId",
  "chain",
  "registry",
  "owner",
  "name",
  "score",
  "tier",
  "badges",
  "sybilSeverity",
  "sybilSignals",
  "pass",
  "isOriginalOwner",
] as const;

/** Signed fields of other kinds that a trust-check block never has. */
const FOREIGN_FIELDS = ["signalDepth", "riskIntensity", "canonical_id", "canonicalId", "server"] as const;

/** The trust-check kind. */
export const TRUST_CHECK_KIND: AttestationKind<TrustAttestationVersion> = {
  name: "trust-check",
  type: ATTESTATION_TYPES.trust,
  requireTime: true,
  classify(signed, kid): Classification<TrustAttestationVersion> {
    const namesAgent = AGENT_FIELDS.some((field) => signed[field] !== undefined);
    if (signed.found === false && !namesAgent) {
      if (typeof signed.wallet !== "string")
        return { ok: false, reason: "malformed", field: "wallet", message: "the signed found:false block names no wallet" };
      return { ok: true, version: "wallet-not-found" };
    }
    if (signed.found !== undefined && signed.found !== true) {
      const version = versionOf(signed, kid);
      // A v2 block is refused by its reader (checkSignedBytes), which names the same field at the same byte as the
      // oracle, in the oracle's order of refusals; no on-chain reader reads the other versions.
      if (version === "v2") return { ok: true, version };
      return {
        ok: false,
        reason: "malformed",
        field: "found",
        message: `the signed block names an agent but says found is ${JSON.stringify(signed.found)}`,
      };
    }
    if (signed.agentId === undefined || signed.agentId === null) {
      const foreign = FOREIGN_FIELDS.find((f) => signed[f] !== undefined);
      if (foreign) {
        return {
          ok: false,
          reason: "type-mismatch",
          field: foreign,
          message: `the signed block carries ${foreign} and no agentId: it is not a trust-check attestation`,
        };
      }
    }
    for (const field of REQUIRED_TRUST_FIELDS) {
      if (signed[field] === undefined || signed[field] === null) {
        return { ok: false, reason: "malformed", field, message: `the signed block has no ${field}` };
      }
    }
    return { ok: true, version: versionOf(signed, kid) };
  },
  checkSignedBytes(bytes, version) {
    if (version !== "v2") return undefined;
    const read = readTrustSignedBlockV2(bytes);
    if (read.ok) return undefined;
    return {
      field: read.field,
      offset: read.offset,
      message: `the signed v2 block is refused as the on-chain oracle refuses it, at byte ${read.offset}: ${read.problem}`,
    };
  },
  checkBody(_signed, body, version): FieldMismatch | undefined {
    if (version !== "wallet-not-found") return undefined;
    const claimed = AGENT_FIELDS.find((field) => body[field] !== undefined && body[field] !== null);
    return claimed ? { field: claimed, signed: undefined, response: body[claimed] } : undefined;
  },
  checkSubject(signed, expected, version): FieldMismatch | undefined {
    return version === "wallet-not-found" ? walletNotFoundSubject(signed, expected) : agentSubject(signed, expected);
  },
  describe(signed, version) {
    return version === "wallet-not-found"
      ? `wallet ${String(signed.wallet)} owns no agent`
      : `${formatAgentRef({ chain: String(signed.chain), agentId: String(signed.agentId), registry: typeof signed.registry === "string" ? signed.registry : DEFAULT_REGISTRY })}, score ${String(signed.score)}`;
  },
};

function versionOf(signed: Record<string, unknown>, kid: string): TrustAttestationVersion {
  if (signed.issuedAt !== undefined || signed.expiry !== undefined || signed.verifiedAt !== undefined) return "v2";
  if (signed.attestedAt !== undefined) return "v1";
  return kid.endsWith("-v1") ? "v1" : "v2";
}

function agentSubject(signed: Record<string, unknown>, expected: ExpectedSubject): FieldMismatch | undefined {
  if (expected.agentId !== undefined && !sameValue("agentId", signed.agentId, expected.agentId)) {
    return { field: "agentId", signed: signed.agentId, response: expected.agentId };
  }
  if (expected.chain !== undefined && !sameValue("chain", signed.chain, expected.chain)) {
    return { field: "chain", signed: signed.chain, response: expected.chain };
  }
  if (expected.registry !== undefined && !sameValue("registry", signed.registry ?? DEFAULT_REGISTRY, expected.registry)) {
    return { field: "registry", signed: signed.registry, response: expected.registry };
  }
  if (expected.wallet !== undefined && !sameValue("owner", signed.owner, expected.wallet)) {
    return { field: "owner", signed: signed.owner, response: expected.wallet };
  }
  return undefined;
}

function walletNotFoundSubject(signed: Record<string, unknown>, expected: ExpectedSubject): FieldMismatch | undefined {
  if (expected.wallet !== undefined && !sameValue("wallet", signed.wallet, expected.wallet)) {
    return { field: "wallet", signed: signed.wallet, response: expected.wallet };
  }
  if (expected.agentId !== undefined) return { field: "agentId", signed: undefined, response: expected.agentId };
  return undefined;
}
