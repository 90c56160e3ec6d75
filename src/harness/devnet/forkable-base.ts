/**
 * A Base to fork, on loopback: the local Base simulation (chain 8453, the reference oracle, the ERC-8004 identity
 * registry and Multicall3 at their Base addresses) with the seeded population, served on `127.0.0.1` and mined up
 * to the pinned fork block, so that a fork suite run with `BASE_RPC_URL` at it forks it exactly as it would fork
 * Base (same default block, same addresses) and reads records only this chain holds. Real Base is not involved.
 *
 * The blocks up to the fork block are mined empty and in one step (`hardhat_mine`), all at the time of the last
 * seeding block, so the seeded records are as fresh on the fork as on the simulation.
 *
 * @example
 * ```ts
 * import { startForkableBase } from "trustgate/testing";
 *
 * const target = await startForkableBase();
 * process.env.BASE_RPC_URL = target.rpcUrl;   // startBaseContext() now forks it at the pinned block
 * await target.close();
 * ```
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import type { TrustEncoding } from "../../config/encodings.js";
import { DevnetError, InvalidArgumentError } from "../../errors.js";
import { DEFAULT_BASE_FORK_BLOCK } from "../testing/fork-block.js";
import { type BaseSimulation, startBaseSimulation } from "./base-simulation.js";
import { DEFAULT_SIMULATED_AGENTS, type SeededRecord, seedBasePopulation } from "./seeded-population.js";

/** Options of {@link startForkableBase}. */
export interface ForkableBaseParameters {
  /** Block the chain is mined up to (its head when started); default `DEFAULT_BASE_FORK_BLOCK`, the pinned one. */
  readonly forkBlock?: number | undefined;
  /** Agents (ids 1…n on Base, `erc8004`) registered and scored; default `DEFAULT_SIMULATED_AGENTS`. */
  readonly agents?: number | undefined;
  /** Tier code table of the seeded records; default the kit's assumed encoding. */
  readonly encoding?: TrustEncoding | undefined;
}

/** A running loopback Base to fork. */
export interface ForkableBase {
  /** `http://127.0.0.1:<port>`: the URL to give as `BASE_RPC_URL`. */
  readonly rpcUrl: string;
  /** The block the chain was mined up to: the one to fork at (the pinned default unless asked otherwise). */
  readonly forkBlock: number;
  /** The simulation behind it, to read or change what the chain holds after the fork block. */
  readonly simulation: BaseSimulation;
  /** Every record the oracle holds at the fork block: Base `erc8004` agents 1…n first, then other keys. */
  readonly records: readonly SeededRecord[];
  /** Owner of each registered agent in the identity registry, by agent id. */
  readonly owners: ReadonlyMap<bigint, Address>;
  /** Stops the HTTP server. */
  close(): Promise<void>;
}

/**
 * Starts a Base to fork on loopback: the seeded simulation served over HTTP, mined up to `forkBlock`.
 *
 * @param options - Fork block, agents, encoding.
 * @returns The running chain.
 * @throws {@link InvalidArgumentError} for a fork block that is not a positive whole number, or not after the
 *   seeding blocks; {@link DevnetError} when the chain cannot be set up.
 */
export async function startForkableBase(options: ForkableBaseParameters = {}): Promise<ForkableBase> {
  const forkBlock = options.forkBlock ?? DEFAULT_BASE_FORK_BLOCK;
  if (!Number.isSafeInteger(forkBlock) || forkBlock <= 0) {
    throw new InvalidArgumentError(`forkBlock must be a positive whole block number, got ${forkBlock}`);
  }
  const agents = options.agents ?? DEFAULT_SIMULATED_AGENTS;
  if (!Number.isSafeInteger(agents) || agents <= 0) throw new InvalidArgumentError(`agents must be a positive whole number, got ${agents}`);
  const simulation = await startBaseSimulation({ http: true });
  try {
    const { records, owners } = await seedBasePopulation(simulation, { agents, encoding: options.encoding });
    const head = await blockNumber(simulation);
    if (head > forkBlock) {
      throw new InvalidArgumentError(`forkBlock ${forkBlock} is before the ${head} blocks that seed the chain; pick a later block`);
    }
    if (head < forkBlock) {
      // Interval 0: the empty blocks keep the last seeding block's time, so the records stay fresh at the fork block.
      await simulation.provider
        .request({ method: "hardhat_mine", params: [`0x${(forkBlock - head).toString(16)}`, "0x0"] })
        .catch((error: unknown) => {
          throw new DevnetError(`Mining up to block ${forkBlock} failed (hardhat_mine)`, {
            cause: error,
            details: (error as Error)?.message,
          });
        });
    }
    if (simulation.rpcUrl === undefined) throw new DevnetError("The local Base simulation was not served over HTTP");
    return { rpcUrl: simulation.rpcUrl, forkBlock, simulation, records, owners, close: () => simulation.close() };
  } catch (error) {
    await simulation.close();
    throw error;
  }
}

async function blockNumber(simulation: BaseSimulation): Promise<number> {
  return Number(BigInt((await simulation.provider.request({ method: "eth_blockNumber", params: [] })) as string));
}
