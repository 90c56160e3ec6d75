/**
 * The error body of a non-2xx response. The real service publishes none: this is the local service's
 * (`{ error: { code, message } }`), and the client keeps whatever body comes when it is not this one.
 *
 * @packageDocumentation
 */
import { z } from "zod";

/** The error body of a non-2xx response: `{ error: { code, message } }`. */
export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
  }),
});

/** The error body of a non-2xx response. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
