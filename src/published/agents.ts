/**
 * `GET /api/agents?chain=&limit=`: documented only as a "paginated agent listing with scores" (SKILL.md). Its
 * page shape is not published: this one is the kit's, read tolerantly and never relied on alone.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { agentIdSchema, serviceTimeSchema, sybilSeveritySchema } from "./common.js";

/** One agent of `/api/agents` and of the `/api/explorer` listing. */
export const agentListItemSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  name: z.string().nullish(),
  score: z.number(),
  tier: z.string().nullish(),
  sybilSeverity: sybilSeveritySchema.optional(),
  updatedAt: serviceTimeSchema.nullish(),
});

/** `GET /api/agents` body (one page): the kit's own shape, the service does not publish one. */
export const agentsPageSchema = z.looseObject({
  agents: z.array(agentListItemSchema),
  nextCursor: z.string().nullish(),
  total: z.number().nullish(),
});

/** One agent of a listing. */
export type AgentListItem = z.infer<typeof agentListItemSchema>;
/** One page of `/api/agents`. */
export type AgentsPage = z.infer<typeof agentsPageSchema>;
