/**
 * `GET /api/stats`: network statistics (SKILL.md names what it covers, not its fields: the shape is the kit's).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { serviceTimeSchema } from "./common.js";

/** `GET /api/stats` body. */
export const statsSchema = z.looseObject({
  totalAgents: z.number(),
  chains: z.number().nullish(),
  registrations: z.number().nullish(),
  byChain: z.record(z.string(), z.number()).nullish(),
  byRegistry: z.record(z.string(), z.number()).nullish(),
  byTier: z.record(z.string(), z.number()).nullish(),
  updatedAt: serviceTimeSchema.nullish(),
});

/** A validated `/api/stats` body. */
export type NetworkStats = z.infer<typeof statsSchema>;
