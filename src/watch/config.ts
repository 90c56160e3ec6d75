/**
 * What `trustgate watch` connects to and decides with. The watch checks agents with the drift job's own pipeline, so
 * its chain, service and decision-rule settings are the drift job's (`DriftConfig`), under the same names and with
 * the same checks; only what a drift run alone has (its scope, state file, limits of one run) is left out.
 *
 * @packageDocumentation
 */
import type { DriftConfig } from "../drift/config.js";

/** What the watch connects to and decides with: the drift job's settings for the chain, the service and the rule. */
export type WatchServiceConfig = Pick<
  DriftConfig,
  | "rpcUrl"
  | "oracle"
  | "attestedOracle"
  | "apiUrl"
  | "apiKey"
  | "issuer"
  | "jwks"
  | "acceptedKids"
  | "threshold"
  | "gate"
  | "maxAgeSeconds"
  | "encoding"
  | "ratePerMinute"
  | "timeoutMs"
  | "readChunkSize"
>;
