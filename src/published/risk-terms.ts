/**
 * `POST /api/risk-terms`: counterparty risk terms (rnwy-sdk `RiskTermsResponse`, snake_case; SKILL.md's example
 * and tiers).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { agentIdSchema, jsonObjectSchema, serviceTimeSchema } from "./common.js";

/** `POST /api/risk-terms` body (SDK `RiskTermsResponse`, snake_case). */
export const riskTermsSchema = z.looseObject({
  recommendation: z.string(),
  agent_id: agentIdSchema,
  agent_name: z.string().nullish(),
  chain: z.string(),
  chain_id: z.number().nullish(),
  registry: z.string().nullish(),
  explorer_url: z.string().nullish(),
  risk_tier: z.looseObject({
    level: z.number().int(),
    label: z.string(),
    description: z.string().nullish(),
    computed: z.boolean().nullish(),
  }),
  signals: jsonObjectSchema.nullish(),
  data_coverage: jsonObjectSchema.nullish(),
  decline_reasons: z.array(jsonObjectSchema).nullish(),
  methodology: z.union([jsonObjectSchema, z.string()]).nullish(),
  disclaimer: z.union([jsonObjectSchema, z.string()]).nullish(),
  warning: z.string().nullish(),
  timestamp: serviceTimeSchema.nullish(),
});

/** A validated `/api/risk-terms` body. */
export type RiskTerms = z.infer<typeof riskTermsSchema>;
