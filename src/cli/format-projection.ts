/**
 * The cost of a scan's signed fetches, said before they start (on stderr, as `trustgate:` notices): how many, at
 * which rate, about how long — and, without an API key, what a key would make it. Without a key the client keeps to
 * 30 requests a minute (assumed, until the service announces its limit), so a keyless `--all` of 150,000 agents would otherwise run for about a day
 * without a word.
 *
 * @packageDocumentation
 */
import type { FetchProjection } from "../drift/types.js";
import { API_KEY_ENV } from "./drift-args.js";
import { formatDuration } from "./duration.js";

/**
 * The projection, in one or two lines.
 *
 * @param projection - The run's projection (`report.projection`).
 * @returns For example `["600 signed attestations to fetch at 30 requests/min (no API key): about 20m",
 *   "with an API key (300 requests/min) about 2m: --api-key or TRUSTGATE_API_KEY"]`.
 */
export function formatProjection(projection: FetchProjection): string[] {
  const what = `${projection.signedFetches} signed attestation${projection.signedFetches === 1 ? "" : "s"} to fetch`;
  if (projection.ratePerMinute === null || projection.projectedSeconds === null) return [`${what}, no client-side rate limit`];
  // "No API key" explains a low rate only where a key would raise it (not with --rate, nor against the embedded service).
  const key = projection.apiKey || projection.withApiKey === null ? "" : " (no API key)";
  const lines = [`${what} at ${formatRate(projection.ratePerMinute)}${key}: about ${formatDuration(projection.projectedSeconds)}`];
  const keyed = projection.withApiKey;
  if (keyed) {
    lines.push(
      `with an API key (${formatRate(keyed.ratePerMinute)}) about ${formatDuration(keyed.projectedSeconds)}: --api-key or ${API_KEY_ENV}`,
    );
  }
  return lines;
}

/** `30 requests/min`; a fractional rate with at most two decimals. */
function formatRate(perMinute: number): string {
  return `${Number(perMinute.toFixed(2))} requests/min`;
}
