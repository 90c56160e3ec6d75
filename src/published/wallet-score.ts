/**
 * `GET /api/wallet-score?address=` (kid `rnwy-wallet-v1`, type `wallet_intelligence`): the body and the claims
 * of its JWT (a2a crosswalk, insumer spec §3.10).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { attestationSchema } from "./attestation.js";
import { serviceTimeSchema } from "./common.js";

/**
 * `GET /api/wallet-score?address=` body: the attestation (kid `rnwy-wallet-v1`, usually `signed: null` with the
 * JWT in `sig`) and, for people, the same values at the top level; `found: false` for an unscored wallet.
 */
export const walletScoreSchema = z.looseObject({
  found: z.boolean().nullish(),
  wallet: z.string().nullish(),
  signalDepth: z.number().nullish(),
  riskIntensity: z.number().nullish(),
  quadrant: z.string().nullish(),
  activityZone: z.string().nullish(),
  riskZone: z.string().nullish(),
  issuedAt: serviceTimeSchema.nullish(),
  verifiedAt: serviceTimeSchema.nullish(),
  expiry: serviceTimeSchema.nullish(),
  attestation: attestationSchema,
});

/** The claims of a wallet-score JWT (a2a crosswalk, insumer spec §3.10); other claims kept. */
export const walletScoreClaimsSchema = z.looseObject({
  iss: z.string(),
  sub: z.string(),
  wallet: z.string(),
  signalDepth: z.number(),
  riskIntensity: z.number(),
  quadrant: z.string(),
  activityZone: z.string(),
  riskZone: z.string(),
  issuedAt: serviceTimeSchema,
  verifiedAt: serviceTimeSchema,
  expiry: serviceTimeSchema,
});

/** The claims of a wallet-score JWT. */
export type WalletScoreClaims = z.infer<typeof walletScoreClaimsSchema>;
/** A validated `/api/wallet-score` body. */
export type WalletScore = z.infer<typeof walletScoreSchema>;
