/**
 * `GET /api/address-ages?address=&chain=`: a wallet's age in days (SKILL.md names the endpoint and its
 * parameters, not its fields: the shape is the kit's).
 *
 * @packageDocumentation
 */
import { z } from "zod";

/** `GET /api/address-ages` body. */
export const addressAgeSchema = z.looseObject({
  address: z.string(),
  chain: z.string().nullish(),
  ageDays: z.number().nullable(),
});

/** A validated `/api/address-ages` body. */
export type AddressAge = z.infer<typeof addressAgeSchema>;
