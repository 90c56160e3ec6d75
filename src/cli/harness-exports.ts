/**
 * What the command line knows of the harness's exports it loads at run time (`harness-loader.ts`), each under the
 * type the kit describes it by: the kit never imports the harness, not even a type, so these types are the kit's
 * own, and `test/cli/harness-loader.test.ts` checks at compile time that the harness's functions fit them.
 *
 * @packageDocumentation
 */
import type { StartSubmissionSimulator } from "../doctor/submission-simulator.js";
import type { EmbeddedEndpoints } from "./drift-config.js";

/**
 * What the command line needs of a started embedded environment (the harness's `EmbeddedDriftEnvironment`,
 * from `startDemoDriftEnvironment` in `src/harness/demo.ts`, is one).
 */
export interface EmbeddedEnvironment extends EmbeddedEndpoints {
  readonly chainId: number;
  /** Stops the local chain and service. */
  close(): Promise<void> | void;
}

/** Starts the embedded environment; `now` is the scenario's clock (default the system clock). */
export type StartEmbeddedEnvironment = (options?: { readonly now?: Date }) => Promise<EmbeddedEnvironment>;

/** The harness's exports the command line loads, by name, each with its type. */
export interface HarnessExports {
  /** The embedded environment of `drift --demo`. */
  readonly startDemoDriftEnvironment: StartEmbeddedEnvironment;
  /** The local chain of `doctor`'s `onchain-submit` check. */
  readonly startSubmissionSimulator: StartSubmissionSimulator;
}
