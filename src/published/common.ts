/**
 * Values every endpoint family of the service writes the same way: times, agent ids, free-form objects and
 * sybil severities.
 *
 * @packageDocumentation
 */
import { z } from "zod";

/** A time as the service writes it: an ISO-8601 string or Unix seconds. */
export const serviceTimeSchema = z.union([z.string(), z.number()]);

/** An agent id: a JSON number (non-negative integer) or a decimal string. */
export const agentIdSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, "expected a decimal agent id")]);

/** A JSON object with any fields. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/**
 * A sybil severity: `null` (no signal), a name, or the legacy `none`. Checked as a string, not an enum: the
 * published vocabularies differ (`config/encodings.ts`, `PUBLISHED_SYBIL_SEVERITIES`), and an unknown name is
 * something the drift job reports, not a reason to drop the response.
 */
export const sybilSeveritySchema = z.string().nullable();

/** A time as the service writes it: an ISO-8601 string, or Unix seconds. */
export type ServiceTime = z.infer<typeof serviceTimeSchema>;
/** A JSON object with any fields. */
export type JsonObject = z.infer<typeof jsonObjectSchema>;
/**
 * A sybil severity as the service writes it: `null` when there is no sybil signal, else a name (`low`,
 * `moderate`, `elevated`, `heavy`); older material also writes `none` for "no signal".
 */
export type ServiceSybilSeverity = z.infer<typeof sybilSeveritySchema>;
