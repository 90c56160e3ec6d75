/**
 * The service's health, as the watch sees it between checks: its JWKS answers and holds a key the watch accepts
 * (`--accept-kid`, default the kit's trust kids), usable as an ES256 key, and its API answers one cheap request (one
 * listing entry) through the watch's one client, so that the health check spends its share of the rate limit like
 * everything else. A service that fails any of these is a `service-unhealthy` condition, with each problem named.
 *
 * @packageDocumentation
 */
import type { TrustApiClient } from "../api/client.js";
import type { JwksResolver } from "../attestation/jwks.js";
import { messageOf } from "../errors.js";
import { redactUrl } from "../security/redact-url.js";
import { systemCondition } from "./system-condition.js";
import type { Condition } from "./types.js";

/** What the health check found. */
export interface ServiceHealth {
  /** True when nothing is wrong (`problems` is empty). */
  readonly healthy: boolean;
  /** One line per problem: the JWKS, its kids, the API. */
  readonly problems: readonly string[];
  /** The kids the JWKS holds now (empty when it could not be read). */
  readonly kids: readonly string[];
}

/**
 * Checks the service: fetches its JWKS again (through the watch's resolver, so its cache holds what was read), looks
 * for an accepted kid with a usable key, and asks the API for one listing entry.
 *
 * @param input - The watch's client and resolver, the accepted kids, and a signal that abandons the API request.
 * @returns The health; never throws (an abort is a problem too).
 */
export async function checkServiceHealth(input: {
  readonly api: TrustApiClient;
  readonly jwks: JwksResolver;
  readonly acceptedKids: readonly string[];
  readonly signal?: AbortSignal;
}): Promise<ServiceHealth> {
  const [keys, api] = await Promise.all([checkKeys(input.jwks, input.acceptedKids), checkApi(input.api, input.signal)]);
  const problems = [...keys.problems, ...(api === null ? [] : [api])];
  return { healthy: problems.length === 0, problems, kids: keys.kids };
}

/** The JWKS answers, and at least one accepted kid names a usable key in it. */
async function checkKeys(jwks: JwksResolver, acceptedKids: readonly string[]): Promise<{ problems: string[]; kids: string[] }> {
  try {
    await jwks.reload();
  } catch (error) {
    return { problems: [`the JWKS does not answer: ${messageOf(error)}`], kids: [] };
  }
  const kids = (jwks.jwks()?.keys ?? []).map((key) => (typeof key.kid === "string" ? key.kid : "(no kid)"));
  const held = acceptedKids.filter((kid) => kids.includes(kid));
  if (held.length === 0) {
    return {
      problems: [
        `the JWKS ${jwks.source} holds none of the accepted kids (${acceptedKids.join(", ") || "none given"}); it holds ${kids.join(", ") || "no key"}`,
      ],
      kids,
    };
  }
  const lookups = await Promise.all(held.map((kid) => jwks.getKey(kid)));
  if (lookups.some((lookup) => lookup.ok)) return { problems: [], kids };
  const reasons = lookups.map((lookup) => (lookup.ok ? "" : lookup.message));
  return { problems: [`no accepted kid of the JWKS holds a usable key: ${reasons.join("; ")}`], kids };
}

/** The API answers one listing entry; the problem, or `null`. */
async function checkApi(api: TrustApiClient, signal: AbortSignal | undefined): Promise<string | null> {
  try {
    signal?.throwIfAborted();
    await untilAborted(api.agents({ limit: 1 }), signal);
    return null;
  } catch (error) {
    return `the API does not answer (GET /api/agents?limit=1 at ${redactUrl(api.transport.baseUrl)}): ${messageOf(error)}`;
  }
}

/** The promise, or the signal's reason when it aborts first; the listener is removed either way (a signal may live long). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The service's condition while it is unhealthy (id `service-unhealthy:<origin>`).
 *
 * @param health - The health check's result.
 * @param apiUrl - The API's URL (its origin names the condition; credentials and path are left out).
 * @returns The condition, or `null` when the service is healthy.
 */
export function serviceCondition(health: ServiceHealth, apiUrl: string): Condition | null {
  if (health.healthy) return null;
  const origin = originOf(apiUrl);
  return systemCondition({
    kind: "service-unhealthy",
    id: `service-unhealthy:${origin}`,
    summary: `the service at ${origin} is unhealthy: ${health.problems.join("; ")}`,
    details: [...health.problems, `kids in the JWKS: ${health.kids.join(", ") || "none read"}`],
  });
}

/** The URL's origin (`http://127.0.0.1:8787`), or the redacted URL when it does not parse. */
function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : redactUrl(url);
}
