/**
 * `GET /api/trust-check` (`?id=&chain=` and `?wallet=`): the body (SKILL.md, rnwy-sdk `TrustCheckResponse`) and
 * its signed blocks: v2 (`rnwy-trust-v2`, crosswalk `rnwy.yaml` 2026-04-14, insumer spec §3.3.0), legacy v1
 * (`rnwy-trust-v1`, insumer spec §3.3) and the signed proof of absence of a wallet that owns no agent.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { attestationSchema } from "./attestation.js";
import { agentIdSchema, serviceTimeSchema, sybilSeveritySchema } from "./common.js";

/** The v2 signed block of a trust-check (`rnwy-trust-v2`, vocabulary `rnwy.yaml` 2026-04-14); other fields kept. */
export const trustSignedV2Schema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string(),
  owner: z.string().nullable(),
  score: z.number(),
  tier: z.string(),
  badges: z.array(z.string()),
  sybilSeverity: z.string().nullable(),
  sybilSignals: z.array(z.string()),
  issuedAt: serviceTimeSchema,
  verifiedAt: serviceTimeSchema,
  expiry: serviceTimeSchema,
});

/** The legacy v1 signed block of a trust-check (`rnwy-trust-v1`, insumer spec §3.3); other fields kept. */
export const trustSignedV1Schema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string(),
  score: z.number(),
  tier: z.string(),
  badges: z.array(z.string()),
  sybilSeverity: z.string().nullable(),
  sybilSignals: z.array(z.string()),
  attestedAt: serviceTimeSchema,
});

/** The signed proof of absence for an unknown wallet: `{found: false, wallet, issuedAt}`. */
export const walletNotFoundSignedSchema = z.looseObject({
  found: z.literal(false),
  wallet: z.string(),
  issuedAt: serviceTimeSchema,
});

/** Badges of a trust-check response: `{earned, warnings}` (SKILL.md, SDK) or one flat array (as signed). */
export const badgesSchema = z.union([
  z.looseObject({
    earned: z.array(z.string()).optional(),
    warnings: z.array(z.string()).optional(),
  }),
  z.array(z.string()),
]);

/**
 * `GET /api/trust-check?id=&chain=` body. `attestation` (v2) is there in every published answer; during the kid
 * migration a `?wallet=` answer also carries `attestationV1`, and one without `attestation` but with `attestationV1`
 * is read too (`wallet-resolve.js` falls back to it when v2 is absent), so at least one of the two is required.
 */
export const trustCheckSchema = z
  .looseObject({
    agentId: agentIdSchema,
    chain: z.string(),
    registry: z.string().nullish(),
    name: z.string().nullish(),
    score: z.number(),
    threshold: z.number().nullish(),
    pass: z.boolean().nullish(),
    tier: z.string(),
    badges: badgesSchema.nullish(),
    reason: z.string().nullish(),
    owner: z.string().nullish(),
    isOriginalOwner: z.boolean().nullish(),
    feedbackCount: z.number().nullish(),
    ageDays: z.number().nullish(),
    checkedAt: serviceTimeSchema.nullish(),
    sybilSeverity: sybilSeveritySchema.optional(),
    sybilSignals: z.array(z.unknown()).nullish(),
    attestation: attestationSchema.optional(),
    /** During the kid migration, wallet look-ups also carry the legacy v1 attestation. */
    attestationV1: attestationSchema.nullish(),
  })
  .refine((body) => body.attestation !== undefined || (body.attestationV1 !== undefined && body.attestationV1 !== null), {
    message: "neither attestation nor attestationV1: nothing signed to verify",
    path: ["attestation"],
  });

/** `GET /api/trust-check?wallet=` body for a wallet that owns no known agent. */
export const walletNotFoundSchema = z.looseObject({
  found: z.literal(false),
  wallet: z.string(),
  attestation: attestationSchema,
});

/** Badges of a trust-check response: `{earned, warnings}` in the body, a flat array of ids in a signed block. */
export type TrustBadges = z.infer<typeof badgesSchema>;
/**
 * The v2 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v2`), in signing order. `issuedAt`
 * is when the score was computed, `verifiedAt` when the attestation was signed, `expiry` = `verifiedAt` + 24 h;
 * `badges` is one flat array (earned and warnings merged).
 */
export type TrustSignedV2 = z.infer<typeof trustSignedV2Schema>;
/** The legacy v1 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v1`; one time, `attestedAt`). */
export type TrustSignedV1 = z.infer<typeof trustSignedV1Schema>;
/** The signed `{found: false, wallet, issuedAt}` for a wallet that owns no known agent (trust-check `?wallet=`, wallet-score). */
export type WalletNotFoundSigned = z.infer<typeof walletNotFoundSignedSchema>;
/**
 * A validated `/api/trust-check` body: the agent's data, its signed `attestation` (a v2 or v1 block) and,
 * during a kid migration on `?wallet=` look-ups, the same data signed under the legacy kid in `attestationV1`.
 */
export type TrustCheck = z.infer<typeof trustCheckSchema>;
/** A validated wallet-not-found envelope of `/api/trust-check?wallet=`. */
export type WalletNotFound = z.infer<typeof walletNotFoundSchema>;
