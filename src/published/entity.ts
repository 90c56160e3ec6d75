/**
 * `GET /api/entity?wallet=`: an operator's footprint (rnwy-sdk `getEntity`, typed `any` there; its README names
 * `agents`, `wallet_score` and `mcp_servers`).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { jsonObjectSchema } from "./common.js";

/** `GET /api/entity` body (SDK `getEntity`, untyped there: `agents`, `wallet_score`, `mcp_servers`). */
export const entitySchema = z.looseObject({
  wallet: z.string().nullish(),
  agents: z.array(jsonObjectSchema),
  wallet_score: jsonObjectSchema.nullish(),
  mcp_servers: z.array(z.union([jsonObjectSchema, z.string()])).nullish(),
});

/** A validated `/api/entity` body. */
export type EntityProfile = z.infer<typeof entitySchema>;
