/**
 * The wallet-score kind: `/api/wallet-score` attestations (kid `rnwy-wallet-v1`; type
 * `wallet_intelligence`). The signed block is a JWT-style claim set carried by a compact JWS (in `sig` or
 * `jws`): `iss`, `sub`, `wallet`, `signalDepth`, `riskIntensity`, `quadrant`, …, or the signed
 * `{found: false, wallet, issuedAt}` of a wallet the service has not scored.
 *
 * @packageDocumentation
 */
import { ATTESTATION_TYPES } from "../../config/service.js";
import { sameValue } from "../body-fields.js";
import type { AttestationKind, Classification } from "../pipeline.js";
import type { FieldMismatch, WalletScoreVersion } from "../result.js";

/** Score fields of a scored wallet: a body carrying them next to a signed `found: false` is refused. */
export const WALLET_SCORE_FIELDS = ["signalDepth", "riskIntensity", "quadrant", "activityZone", "riskZone"] as const;

/** The wallet-score kind. */
export const WALLET_SCORE_KIND: AttestationKind<WalletScoreVersion> = {
  name: "wallet-score",
  type: ATTESTATION_TYPES.wallet,
  requireTime: true,
  classify(signed): Classification<WalletScoreVersion> {
    if (signed.agentId !== undefined) {
      return {
        ok: false,
        reason: "type-mismatch",
        field: "agentId",
        message: "the signed block names an agent: it is a trust-check attestation, not a wallet-score one",
      };
    }
    const wallet = signed.wallet ?? signed.sub;
    if (typeof wallet !== "string" || wallet.trim() === "") {
      const foreign = ["canonical_id", "canonicalId", "server"].find((f) => signed[f] !== undefined);
      return foreign
        ? {
            ok: false,
            reason: "type-mismatch",
            field: foreign,
            message: `the signed block carries ${foreign}: it is not a wallet-score attestation`,
          }
        : { ok: false, reason: "malformed", field: "wallet", message: "the signed claims name no wallet (wallet or sub)" };
    }
    if (signed.wallet !== undefined && signed.sub !== undefined && !sameValue("wallet", signed.wallet, signed.sub)) {
      return {
        ok: false,
        reason: "malformed",
        field: "sub",
        message: `the signed sub ${JSON.stringify(signed.sub)} and wallet ${JSON.stringify(signed.wallet)} differ`,
      };
    }
    if (signed.found === false) return { ok: true, version: "wallet-not-found" };
    for (const field of ["signalDepth", "riskIntensity"] as const) {
      if (typeof signed[field] !== "number" || !Number.isFinite(signed[field])) {
        return { ok: false, reason: "malformed", field, message: `the signed claims have no numeric ${field}` };
      }
    }
    return { ok: true, version: "scored" };
  },
  checkBody(signed, body, version): FieldMismatch | undefined {
    const wallet = signed.wallet ?? signed.sub;
    if (body.address !== undefined && !sameValue("wallet", wallet, body.address)) {
      return { field: "address", signed: wallet, response: body.address };
    }
    if (version !== "wallet-not-found") return undefined;
    const claimed = WALLET_SCORE_FIELDS.find((field) => body[field] !== undefined && body[field] !== null);
    return claimed ? { field: claimed, signed: undefined, response: body[claimed] } : undefined;
  },
  checkSubject(signed, expected): FieldMismatch | undefined {
    const wallet = signed.wallet ?? signed.sub;
    if (expected.wallet !== undefined && !sameValue("wallet", wallet, expected.wallet)) {
      return { field: "wallet", signed: wallet, response: expected.wallet };
    }
    return undefined;
  },
  describe(signed, version) {
    const wallet = String(signed.wallet ?? signed.sub);
    return version === "wallet-not-found"
      ? `wallet ${wallet} not scored`
      : `wallet ${wallet}, signal depth ${String(signed.signalDepth)}, risk intensity ${String(signed.riskIntensity)}`;
  },
};
