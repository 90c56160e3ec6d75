/**
 * The kit's local simulation of Base: an in-process Hardhat network with chain id 8453 and, at their Base
 * addresses, the reference oracle (`TrustScoreOracle`, at the Base oracle's address, with a publisher holding
 * its roles), Multicall3 and an ERC-8004-shaped identity registry. Optionally served on loopback HTTP, so that
 * code under test reaches it through a plain RPC URL, as it reaches Base.
 *
 * Needs the `hardhat` package (an optional peer dependency of the kit); the contracts' code is embedded, so no
 * compiler and no `artifacts/` are needed.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { readTrustRecord } from "trustgate";
 * import { startBaseSimulation } from "trustgate/harness";
 *
 * const base = await startBaseSimulation({ http: true });
 * await base.publish([{ agentId: 1n, chainId: 8453, registry: "erc8004", score: 80, tier: 3, sybilSeverity: 0, updatedAt: new Date() }]);
 * const record = await readTrustRecord(createPublicClient({ transport: http(base.rpcUrl) }), { agentId: 1n, chain: "base" });
 * await base.close();
 * ```
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { DevnetError, InvalidArgumentError } from "../../errors.js";
import { parseAddress } from "../../inputs/address.js";
import type { HardhatConfigSource } from "./hardhat-network.js";
import { placeIdentityRegistry } from "./identity-registry.js";
import { type LocalChain, startLocalChain } from "./local-chain.js";
import type { Eip1193Provider } from "./revert-transport.js";
import { installMulticall3 } from "./multicall3.js";
import { type OracleRecordInput, type PublishTrustRecordsResult, publishTrustRecords } from "./publish-records.js";
import { placeTrustScoreOracle } from "./trust-oracle.js";

/** Chain id of the simulation (Base mainnet's). */
export const BASE_SIMULATION_CHAIN_ID = 8453;

/** Balance given to a publisher the node does not hold a key for (impersonated): 1,000 ether. */
const IMPERSONATED_BALANCE = 10n ** 21n;

/** Options of {@link startBaseSimulation}. */
export interface BaseSimulationParameters {
  /** Also serve the chain as a JSON-RPC node on 127.0.0.1 (random port); default false. */
  readonly http?: boolean | undefined;
  /**
   * Account that holds the oracle's `DEFAULT_ADMIN_ROLE` and `PUBLISHER_ROLE` and sends `publish`. Default the
   * node's first account. An address the node has no key for is impersonated and funded.
   */
  readonly publisher?: string | undefined;
  /** Keep Solidity stack traces (slower; needs the kit's `artifacts/`); default false. */
  readonly stackTraces?: boolean | undefined;
  /** Where the Hardhat network configuration comes from (see `startLocalChain`); default `auto`. */
  readonly hardhatConfig?: HardhatConfigSource | undefined;
  /**
   * Build the simulation on this chain instead of starting one: the caller's own EIP-1193 provider (a Hardhat 3
   * `network.create()` connection's, Hardhat 2's `network.provider`), whose chain id must be 8453 and which must
   * answer Hardhat's methods (`hardhat_setCode`…). `http` and `hardhatConfig` do not apply; `close` leaves it running.
   */
  readonly provider?: Eip1193Provider | undefined;
}

/** A running local Base simulation. */
export interface BaseSimulation {
  /** 8453. */
  readonly chainId: number;
  /** EIP-1193 provider of the chain, in process (Hardhat's methods included: `hardhat_setCode`, `evm_mine`…). */
  readonly provider: LocalChain["provider"];
  /** `http://127.0.0.1:<port>` when started with `http: true`. */
  readonly rpcUrl: string | undefined;
  /** The node's unlocked accounts (funded), the default publisher first. */
  readonly accounts: readonly Address[];
  /** The account holding the oracle's admin and publisher roles. */
  readonly publisher: Address;
  /** The oracle: `TrustScoreOracle` at the Base oracle address. */
  readonly oracle: Address;
  /** The ERC-8004 identity registry (`MockIdentityRegistry`) at the ERC-8004 address. */
  readonly identityRegistry: Address;
  /** Multicall3 at its canonical address. */
  readonly multicall3: Address;
  /**
   * Publishes records into the oracle from the publisher, in batches (default 200, at most 500), each waited
   * for until mined. Records must not be dated after the latest block.
   *
   * @param records - The records.
   * @param options - `batchSize` (1–500, default `DEFAULT_PUBLISH_BATCH`, 200).
   * @returns The transactions sent.
   * @throws {@link DevnetError} when a batch is refused (the oracle's error in the message).
   */
  publish(records: readonly OracleRecordInput[], options?: { readonly batchSize?: number }): Promise<PublishTrustRecordsResult>;
  /** Timestamp of the latest block, Unix seconds. */
  latestTimestamp(): Promise<number>;
  /**
   * Mines a block at `time` (the clock keeps running from there).
   *
   * @param time - A Date or Unix seconds, later than the latest block.
   * @throws {@link DevnetError} when the node refuses (for example a time not after the latest block).
   */
  setTime(time: Date | number): Promise<void>;
  /**
   * Moves the clock forward by `seconds` and mines a block.
   *
   * @param seconds - Positive whole seconds.
   */
  increaseTime(seconds: number): Promise<void>;
  /**
   * Mines blocks.
   *
   * @param blocks - How many; default 1.
   */
  mine(blocks?: number): Promise<void>;
  /** Stops the HTTP server, if any. */
  close(): Promise<void>;
}

/**
 * Starts the local Base simulation: chain id 8453, the reference oracle at `BASE_TRUST_ORACLE_ADDRESS`
 * (empty, the publisher holding its roles), Multicall3 at its canonical address, and the identity registry
 * at `ERC8004_IDENTITY_REGISTRY_ADDRESS` (no agents registered).
 *
 * @param options - HTTP, publisher, stack traces.
 * @returns The running simulation.
 * @throws {@link InvalidArgumentError} for a bad publisher address; {@link DevnetError} or `TrustgateError`
 *   (`NETWORK_ERROR`) when the chain cannot be set up.
 */
export async function startBaseSimulation(options: BaseSimulationParameters = {}): Promise<BaseSimulation> {
  const requested = options.publisher === undefined ? undefined : parseAddress(options.publisher, "publisher");
  const chain = options.provider
    ? await callerChain(options.provider, options)
    : await startLocalChain({
        chainId: BASE_SIMULATION_CHAIN_ID,
        http: options.http ?? false,
        stackTraces: options.stackTraces ?? false,
        hardhatConfig: options.hardhatConfig ?? "auto",
      });
  try {
    const { provider } = chain;
    const request = (method: string, params: unknown[] = []): Promise<unknown> => provider.request({ method, params });
    const accounts = ((await request("eth_accounts")) as string[]).map((a) => parseAddress(a));
    const publisher = requested ?? accounts[0];
    if (!publisher) throw new DevnetError("The local chain has no unlocked account to publish from; pass `publisher`");
    if (!accounts.includes(publisher)) {
      await request("hardhat_impersonateAccount", [publisher]);
      await request("hardhat_setBalance", [publisher, `0x${IMPERSONATED_BALANCE.toString(16)}`]);
    }
    const oracle = await placeTrustScoreOracle(provider, { admin: publisher });
    const identityRegistry = await placeIdentityRegistry(provider);
    const { address: multicall3 } = await installMulticall3(provider);

    const nodeCall = async (what: string, method: string, params: unknown[]): Promise<void> => {
      try {
        await request(method, params);
      } catch (error) {
        throw new DevnetError(`${what} failed (${method})`, { cause: error, details: (error as Error)?.message });
      }
    };
    const simulation: BaseSimulation = {
      chainId: chain.chainId,
      provider,
      rpcUrl: chain.rpcUrl,
      accounts: Object.freeze([publisher, ...accounts.filter((a) => a !== publisher)]),
      publisher,
      oracle,
      identityRegistry,
      multicall3,
      publish: (records, publishOptions = {}) =>
        publishTrustRecords(provider, { oracle, publisher, records, batchSize: publishOptions.batchSize }),
      async latestTimestamp() {
        const block = (await request("eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
        return Number(block.timestamp);
      },
      async setTime(time) {
        const seconds = time instanceof Date ? Math.floor(time.getTime() / 1000) : time;
        if (!Number.isSafeInteger(seconds)) throw new DevnetError(`setTime needs whole seconds, got ${String(time)}`);
        await nodeCall(`Setting the time to ${seconds}`, "evm_setNextBlockTimestamp", [seconds]);
        await nodeCall("Mining a block", "evm_mine", []);
      },
      async increaseTime(seconds) {
        if (!Number.isSafeInteger(seconds) || seconds <= 0) {
          throw new DevnetError(`increaseTime needs a positive whole number of seconds, got ${seconds}`);
        }
        await nodeCall(`Moving the clock ${seconds} s forward`, "evm_increaseTime", [seconds]);
        await nodeCall("Mining a block", "evm_mine", []);
      },
      async mine(blocks = 1) {
        if (!Number.isSafeInteger(blocks) || blocks < 1) throw new DevnetError(`mine needs a positive block count, got ${blocks}`);
        await nodeCall(`Mining ${blocks} blocks`, "hardhat_mine", [`0x${blocks.toString(16)}`]);
      },
      close: () => chain.close(),
    };
    return simulation;
  } catch (error) {
    await chain.close();
    throw error;
  }
}

/**
 * The caller's chain as a {@link LocalChain} (closing it stops nothing: it is the caller's).
 *
 * @param provider - The caller's provider.
 * @param options - The other options, refused when they ask for a chain of the kit's own.
 * @returns The chain.
 * @throws {@link InvalidArgumentError} when `http` is asked too, or the chain id is not 8453 (naming the setting that
 *   fixes it under Hardhat 3 and under Hardhat 2).
 */
export async function callerChain(
  provider: Eip1193Provider,
  options: { readonly http?: boolean | undefined; readonly rpcUrl?: string | undefined },
): Promise<LocalChain> {
  if (options.http || options.rpcUrl !== undefined) {
    throw new InvalidArgumentError("A provider given is already a chain: http and rpcUrl apply only to a chain the kit starts");
  }
  const chainId = Number(await provider.request({ method: "eth_chainId" }));
  if (chainId !== BASE_SIMULATION_CHAIN_ID) {
    throw new InvalidArgumentError(
      `The provider's chain id is ${chainId}, not Base's ${BASE_SIMULATION_CHAIN_ID}: create the network with chain id ${BASE_SIMULATION_CHAIN_ID} (Hardhat 3: network.create({ override: { chainId: ${BASE_SIMULATION_CHAIN_ID} } }); Hardhat 2: networks: { hardhat: { chainId: ${BASE_SIMULATION_CHAIN_ID} } } in hardhat.config.ts)`,
    );
  }
  return { chainId, provider, rpcUrl: undefined, close: async () => {} };
}
