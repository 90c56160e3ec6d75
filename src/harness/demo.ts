/**
 * The environment of `trustgate drift --demo`: the drift job's embedded environment (a local Base chain whose
 * oracle holds last night's snapshot, and the local signing service whose data has moved on), on a standalone
 * Hardhat network, so that it runs in any folder: no `hardhat.config.ts` is read.
 *
 * Needs the optional peer dependency `hardhat`; without it, starting fails with a `ConfigurationError` that
 * names the command installing it.
 *
 * @packageDocumentation
 */
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "./devnet/embedded-drift.js";

/** Options of {@link startDemoDriftEnvironment}. */
export interface DemoDriftParameters {
  /** The scenario's clock; default the system clock. */
  readonly now?: Date | undefined;
}

/**
 * Starts the demo environment: {@link startEmbeddedDriftEnvironment} with its defaults, on a standalone
 * Hardhat network.
 *
 * @param options - The clock.
 * @returns The running environment; close it when done.
 * @throws `ConfigurationError` when Hardhat is not installed.
 */
export function startDemoDriftEnvironment(options: DemoDriftParameters = {}): Promise<EmbeddedDriftEnvironment> {
  return startEmbeddedDriftEnvironment({ ...(options.now ? { now: options.now } : {}), hardhatConfig: "standalone" });
}
