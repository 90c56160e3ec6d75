/**
 * The seeded population of the local Base simulation: agents 1…n registered in the ERC-8004 identity registry
 * (owned by the node's accounts 1–4 in turn) and a record for each in the oracle, plus a few records on other
 * chains and registries. The Base test context's simulation mode serves it, and the forkable loopback Base
 * (`startForkableBase`) serves it for fork suites to read through a fork.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, createWalletClient, parseAbi } from "viem";
import { base } from "viem/chains";
import { type TrustEncoding, tierCode, tierForScore } from "../../config/encodings.js";
import { DevnetError } from "../../errors.js";
import { BASE_SIMULATION_CHAIN_ID, type BaseSimulation } from "./base-simulation.js";
import { latestNightlyRun } from "./nightly-snapshot.js";
import type { OracleRecordInput } from "./publish-records.js";
import { revertDecodingTransport } from "./revert-transport.js";

/** Agents the simulation registers and scores by default. */
export const DEFAULT_SIMULATED_AGENTS = 24;

const registerAbi = parseAbi(["function registerWithId(address owner, uint256 agentId)"]);

/** A seeded record: an {@link OracleRecordInput} with a bigint agent id, a number chain id and Unix seconds. */
export interface SeededRecord extends OracleRecordInput {
  /** Agent id in its registry. */
  readonly agentId: bigint;
  /** Chain the agent is registered on. */
  readonly chainId: number;
  /** Time of the scoring, Unix seconds. */
  readonly updatedAt: number;
}

/** Options of {@link seedBasePopulation}. */
export interface SeedBasePopulationOptions {
  /** How many agents (ids 1…n on Base, `erc8004`) to register and score; default {@link DEFAULT_SIMULATED_AGENTS}. */
  readonly agents?: number | undefined;
  /** Tier code table of the records; default the kit's assumed encoding. */
  readonly encoding?: TrustEncoding | undefined;
}

/** What {@link seedBasePopulation} put on the chain. */
export interface SeededBasePopulation {
  /** Every record published, the Base `erc8004` agents 1…n first (in id order), then the other keys. */
  readonly records: readonly SeededRecord[];
  /** Owner of each registered agent, by agent id (1…n). */
  readonly owners: ReadonlyMap<bigint, Address>;
}

/**
 * Registers agents 1…n in the simulation's identity registry (owners: accounts 1–4 in turn) and publishes the
 * seeded records, dated at the latest nightly run before the latest block.
 *
 * @param simulation - A started Base simulation (its publisher may register agents and publish).
 * @param options - Number of agents, encoding.
 * @returns The records published and the owners.
 * @throws {@link DevnetError} when the node has too few accounts or refuses a transaction.
 */
export async function seedBasePopulation(
  simulation: BaseSimulation,
  options: SeedBasePopulationOptions = {},
): Promise<SeededBasePopulation> {
  const agents = options.agents ?? DEFAULT_SIMULATED_AGENTS;
  const candidates = simulation.accounts.slice(1, 5);
  if (candidates.length === 0) throw new DevnetError("The local chain has too few accounts to own agents");
  const wallet = createWalletClient({ chain: base, transport: revertDecodingTransport(simulation.provider) });
  const publicClient = createPublicClient({ chain: base, transport: revertDecodingTransport(simulation.provider) });
  const owners = new Map<bigint, Address>();
  for (let id = 1; id <= agents; id++) {
    const owner = candidates[(id - 1) % candidates.length]!;
    const hash = await wallet.writeContract({
      account: simulation.publisher,
      address: simulation.identityRegistry,
      abi: registerAbi,
      functionName: "registerWithId",
      args: [owner, BigInt(id)],
    });
    await publicClient.waitForTransactionReceipt({ hash });
    owners.set(BigInt(id), owner);
  }
  const now = await simulation.latestTimestamp();
  const nightly = Math.floor(latestNightlyRun(new Date(now * 1000)).getTime() / 1000);
  const records = seededRecords(agents, nightly, options.encoding);
  await simulation.publish(records);
  return { records, owners };
}

/**
 * The seeded records: agents 1…n on Base (`erc8004`) dated at the latest nightly run (every sixth one three
 * days earlier, as if its refresh had stopped), scores (17 + 37 i) mod 96 with the tier of the score, sybil
 * codes i mod 5; plus records on another chain and on two other registries.
 */
function seededRecords(agents: number, nightly: number, encoding: TrustEncoding | undefined): SeededRecord[] {
  const records: SeededRecord[] = [];
  for (let i = 0; i < agents; i++) {
    const score = (17 + i * 37) % 96;
    records.push({
      agentId: BigInt(i + 1),
      chainId: BASE_SIMULATION_CHAIN_ID,
      registry: "erc8004",
      score,
      tier: tierCode(tierForScore(score), encoding),
      sybilSeverity: i % 5,
      updatedAt: i % 6 === 5 ? nightly - 3 * 86_400 : nightly - (i % 4) * 60,
    });
  }
  for (const [agentId, chainId, registry, score] of [
    [7n, 1, "erc8004", 66],
    [1001n, 8453, "olas", 81],
    [42n, 8453, "virtuals", 28],
  ] as const) {
    records.push({
      agentId,
      chainId,
      registry,
      score,
      tier: tierCode(tierForScore(score), encoding),
      sybilSeverity: 1,
      updatedAt: nightly,
    });
  }
  return records;
}
