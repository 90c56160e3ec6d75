/**
 * `GET /api/compare?agents=`: 2–10 agents ranked by score (SKILL.md names its parameters, not its fields: the
 * shape is the kit's; the SDK does not type it).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { agentIdSchema } from "./common.js";

/** One agent of `/api/compare`. */
export const comparedAgentSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  score: z.number(),
  tier: z.string().nullish(),
  pass: z.boolean().nullish(),
  reviewerQuality: z.unknown().optional(),
});

/** `GET /api/compare` body (agents ranked by score, highest first; not typed by the SDK). */
export const compareSchema = z.looseObject({
  agents: z.array(comparedAgentSchema),
  threshold: z.number().nullish(),
});

/** One agent of a comparison. */
export type ComparedAgent = z.infer<typeof comparedAgentSchema>;
/** A validated `/api/compare` body. */
export type CompareResult = z.infer<typeof compareSchema>;
