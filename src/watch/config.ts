/**
 * What `trustgate watch` connects to and decides with. The watch checks agents with the drift job's own pipeline, so
 * its chain, service and decision-rule settings are the drift job's (`DriftConfig`), under the same names and with
 * the same checks; only what a drift run alone has (its scope, state file, limits of one run) is left out.
 *
 * @packageDocumentation
 */
import type { DriftConfig } from "../drift/config.js";

/** The drift settings the watch takes, by name: the chain, the service and the rule (the one list of them). */
export const WATCH_SERVICE_SETTINGS = [
  "rpcUrl",
  "oracle",
  "attestedOracle",
  "apiUrl",
  "apiKey",
  "issuer",
  "jwks",
  "acceptedKids",
  "threshold",
  "gate",
  "maxAgeSeconds",
  "encoding",
  "ratePerMinute",
  "timeoutMs",
  "readChunkSize",
] as const satisfies readonly (keyof DriftConfig)[];

/** What the watch connects to and decides with: the drift job's settings for the chain, the service and the rule. */
export type WatchServiceConfig = Pick<DriftConfig, (typeof WATCH_SERVICE_SETTINGS)[number]>;

/**
 * The watch's service settings out of a richer configuration (the watch's own, whose other fields the drift job would
 * read otherwise: `state` names the drift job's state file there).
 *
 * @param config - A configuration holding at least the service settings.
 * @returns Only those settings, each one given.
 */
export function watchServiceSettings(config: WatchServiceConfig): WatchServiceConfig {
  const picked: Record<string, unknown> = {};
  for (const name of WATCH_SERVICE_SETTINGS) if (config[name] !== undefined) picked[name] = config[name];
  return picked as unknown as WatchServiceConfig;
}
