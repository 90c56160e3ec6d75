/**
 * `GET /api/explorer`: with `id`, one agent's profile (rnwy-sdk 0.3.0 `ExplorerResponse`, its `Agent`); without,
 * a listing whose shape is not published (the kit's).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { agentListItemSchema } from "./agents.js";
import { agentIdSchema, jsonObjectSchema, serviceTimeSchema } from "./common.js";

/** `GET /api/explorer` body without `id`: a listing (its shape is not published; the kit's). */
export const explorerSchema = z.looseObject({
  agents: z.array(agentListItemSchema),
  total: z.number().nullish(),
});

/**
 * The `ownership` of an explorer profile: the four fields rnwy-sdk 0.3.0 `Ownership` declares. Typed when present,
 * none required (the kit reads none of them; `trustgate doctor`'s `fields:explorer` check reports which the live
 * service serves). The items of `transfers` are not published (`unknown[]` in the SDK).
 */
export const ownershipSchema = z.looseObject({
  isOriginalOwner: z.boolean().nullish(),
  transferCount: z.number().int().nonnegative().nullish(),
  originalOwner: z.string().nullish(),
  transfers: z.array(z.unknown()).nullish(),
});

/** The `agent` of an explorer profile (SDK `Agent`): `id` and `owner` required, the rest kept as served. */
const explorerAgentSchema = z.looseObject({
  id: agentIdSchema,
  name: z.string().nullish(),
  owner: z.string(),
  agentURI: z.string().nullish(),
  registeredAt: serviceTimeSchema.nullish(),
  ageInDays: z.number().nullish(),
  metadata: jsonObjectSchema.nullish(),
  reputation: jsonObjectSchema.nullish(),
  feedback: z.array(jsonObjectSchema).nullish(),
  ownership: ownershipSchema.nullish(),
  addressAgeDetails: jsonObjectSchema.nullish(),
  addressAgeScore: z.number().nullish(),
  scores: z.looseObject({ overall: z.number().nullish() }).nullish(),
  scoreBreakdown: jsonObjectSchema.nullish(),
  badges: z.array(z.union([z.looseObject({ id: z.string() }), z.string()])).nullish(),
  reviewerSybil: jsonObjectSchema.nullish(),
  chain: z.string().nullish(),
  registry: z.string().nullish(),
  commerceStats: z.array(jsonObjectSchema).nullish(),
});

/** `GET /api/explorer?id=&chain=` body: one agent's profile (SDK `ExplorerResponse`). */
export const explorerProfileSchema = z.looseObject({
  agent: explorerAgentSchema,
  blockExplorer: z.string().nullish(),
  similarAgents: z.array(jsonObjectSchema).nullish(),
  qualityTrajectory: jsonObjectSchema.nullish(),
});

/** The `ownership` of an explorer profile (SDK `Ownership`). */
export type Ownership = z.infer<typeof ownershipSchema>;
/** A validated `/api/explorer?id=` body. */
export type ExplorerProfile = z.infer<typeof explorerProfileSchema>;
/** A validated `/api/explorer` body. */
export type ExplorerResult = z.infer<typeof explorerSchema>;
