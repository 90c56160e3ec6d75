/**
 * Checks a response body against its schema and turns a mismatch into an {@link InvalidResponseError}
 * that lists the problems briefly (`path: message`, at most a few lines).
 *
 * @packageDocumentation
 */
import type { z } from "zod";
import { InvalidResponseError } from "../errors.js";

/** Most issues listed in an {@link InvalidResponseError}; the rest are counted. */
const MAX_LISTED_ISSUES = 6;

/**
 * Formats zod issues as short lines: `attestation.kid: Invalid input: expected string, received undefined`.
 *
 * @param issues - The issues of a failed parse.
 * @param max - Most lines to return; one more line counts the rest.
 * @returns The lines.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], max: number = MAX_LISTED_ISSUES): string[] {
  const lines = issues.slice(0, max).map((issue) => {
    const path = issue.path
      .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
      .join(".")
      .replace(/\.\[/g, "[");
    return `${path || "(body)"}: ${issue.message}`;
  });
  if (issues.length > max) lines.push(`… and ${issues.length - max} more`);
  return lines;
}

/**
 * Parses a response body with a schema.
 *
 * @param schema - The zod schema of the body.
 * @param body - The parsed JSON body.
 * @param context - What the body is (`"GET /api/stats"`) and the URL it came from.
 * @returns The validated body (unknown fields kept by loose schemas).
 * @throws {@link InvalidResponseError} listing the issues when the body does not match.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  context: { what: string; url?: string | undefined },
): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  return invalid(result.error.issues, context);
}

function invalid(issues: readonly z.core.$ZodIssue[], context: { what: string; url?: string | undefined }): never {
  throw new InvalidResponseError(`${context.what} returned a body that does not match the service contract`, {
    url: context.url,
    issues: formatIssues(issues),
  });
}
