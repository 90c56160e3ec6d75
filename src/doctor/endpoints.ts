/**
 * The endpoints whose answers the doctor checks field by field, each with the kit's published shape (the schema the
 * API client validates it with) and the nested objects whose member names are compared too. The check of an
 * endpoint is `fields:<id>`; the id is the endpoint's path without `/api/` (`explorer-profile` for
 * `/api/explorer?id=`).
 *
 * @packageDocumentation
 */
import type { z } from "zod";
import {
  addressAgeSchema,
  agentsPageSchema,
  attestationSchema,
  compareSchema,
  entitySchema,
  explorerProfileSchema,
  explorerSchema,
  mcpAttestationSchema,
  reviewerAnalysisSchema,
  reviewerSchema,
  riskTermsSchema,
  statsSchema,
  trustCheckSchema,
  trustSignedV2Schema,
  walletScoreSchema,
} from "../published/index.js";

/** Ids of the endpoints the doctor reads, in the order it reads them. */
export const DOCTOR_ENDPOINT_IDS = [
  "agents",
  "trust-check",
  "explorer",
  "explorer-profile",
  "stats",
  "compare",
  "reviewer-analysis",
  "reviewer",
  "entity",
  "mcp-attestation",
  "risk-terms",
  "address-ages",
  "wallet-score",
] as const;

/** An endpoint the doctor reads. */
export type DoctorEndpointId = (typeof DOCTOR_ENDPOINT_IDS)[number];

/** A nested object of an answer whose member names are compared with a schema of its own. */
export interface NestedShape {
  /** Path of the object in the answer (`["attestation", "signed"]`). */
  readonly path: readonly string[];
  /** Its schema (a loose object schema). */
  readonly schema: z.ZodType;
  /**
   * Compare it only when this holds of the answer (the v2 signed block only under kid `rnwy-trust-v2`); default
   * always.
   */
  readonly when?: (answer: Record<string, unknown>) => boolean;
}

/** The published shape of one endpoint's answer. */
export interface EndpointShape {
  /** The answer's schema, as the API client validates it. */
  readonly schema: z.ZodType;
  /** Nested objects compared too (the attestation, the signed block). */
  readonly nested: readonly NestedShape[];
  /**
   * Top-level members `docs/service-api.md` documents that the schema does not declare, because the kit does not
   * read them: known, so never reported as unknown.
   */
  readonly alsoDocumented?: readonly string[];
}

const ATTESTATION: NestedShape = { path: ["attestation"], schema: attestationSchema };

/** Whether a trust-check answer's attestation is signed under the v2 kid (its `signed` is then a v2 block). */
function signedUnderV2(answer: Record<string, unknown>): boolean {
  const attestation = answer.attestation as { kid?: unknown } | null | undefined;
  return attestation?.kid === "rnwy-trust-v2";
}

/** The shape of each endpoint's answer. */
export const ENDPOINT_SHAPES: Readonly<Record<DoctorEndpointId, EndpointShape>> = {
  agents: { schema: agentsPageSchema, nested: [] },
  "trust-check": {
    schema: trustCheckSchema,
    nested: [ATTESTATION, { path: ["attestation", "signed"], schema: trustSignedV2Schema, when: signedUnderV2 }],
  },
  explorer: { schema: explorerSchema, nested: [] },
  "explorer-profile": { schema: explorerProfileSchema, nested: [{ path: ["agent"], schema: explorerProfileSchema.shape.agent }] },
  stats: { schema: statsSchema, nested: [], alsoDocumented: ["originalOwnerPct"] },
  compare: { schema: compareSchema, nested: [] },
  "reviewer-analysis": { schema: reviewerAnalysisSchema, nested: [], alsoDocumented: ["registry", "uncachedWallets", "metric"] },
  reviewer: { schema: reviewerSchema, nested: [] },
  entity: { schema: entitySchema, nested: [] },
  "mcp-attestation": { schema: mcpAttestationSchema, nested: [ATTESTATION] },
  "risk-terms": { schema: riskTermsSchema, nested: [], alsoDocumented: ["auth"] },
  "address-ages": { schema: addressAgeSchema, nested: [] },
  "wallet-score": { schema: walletScoreSchema, nested: [ATTESTATION] },
};
