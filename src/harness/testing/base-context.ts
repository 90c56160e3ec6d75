/**
 * A Base chain for test suites: a real fork of Base at a pinned block when an RPC URL is given
 * (`BASE_RPC_URL`), otherwise the kit's faithful local simulation (chain id 8453, the reference oracle at the
 * Base oracle's address with a seeded population of records, Multicall3, the ERC-8004 registry at its address
 * with agents owned by the node's test accounts). Both modes put `TrustOracleOverride` in front of the oracle,
 * so the helpers that change one record, clear it, backdate it or make the oracle revert behave the same in
 * both, and leave every other record readable exactly as it was.
 *
 * @example
 * ```ts
 * import { startBaseContext } from "trustgate/testing";
 *
 * const base = await startBaseContext();               // fork if BASE_RPC_URL is set, else simulation
 * const key = base.sampleKeys[0]!;
 * await base.setRecord(key, { score: 80 });             // fresh, established
 * await base.makeStale(key, 3 * 86_400);                // now three days old
 * await base.makeOracleRevert();                        // every oracle call reverts
 * await base.restoreOracle();                           // original answers again
 * const controller = await base.impersonate(await base.controllerOf(key.agentId));
 * await base.close();
 * ```
 *
 * @packageDocumentation
 */

import { type Address, type Chain, createPublicClient, createWalletClient, type PublicClient, parseAbi, type WalletClient } from "viem";
import { base } from "viem/chains";
import { BASE_TRUST_ORACLE_ADDRESS, ERC8004_IDENTITY_REGISTRY_ADDRESS, MULTICALL3_ADDRESS } from "../../config/addresses.js";
import { type TrustEncoding, tierCode, tierForScore } from "../../config/encodings.js";
import { DevnetError, InvalidArgumentError } from "../../errors.js";
import { parseAddress } from "../../inputs/address.js";
import { trustOracleAbi } from "../../oracle/abi.js";
import { BASE_SIMULATION_CHAIN_ID, callerChain, startBaseSimulation } from "../devnet/base-simulation.js";
import { type LocalChain, startLocalChain } from "../devnet/local-chain.js";
import { type Eip1193Provider, revertDecodingTransport } from "../devnet/revert-transport.js";
import { DEFAULT_SIMULATED_AGENTS, seedBasePopulation } from "../devnet/seeded-population.js";
import { baseForkBlockFromEnv } from "./fork-block.js";
import {
  type InstalledOracleOverride,
  installOracleOverride,
  type OracleRecordValue,
  overrideRecordKey,
  type ResolvedTestRecordKey,
  resolveRecordKey,
  setOracleReverting,
  type TestRecordKey,
  writeOverride,
} from "./oracle-override.js";

export { DEFAULT_SIMULATED_AGENTS };

/** Agent ids (1…n, Base, `erc8004`) probed on a fork for {@link BaseContext.sampleKeys}, by default. */
export const DEFAULT_FORK_PROBE = 64;

/** Balance {@link BaseContext.impersonate} tops an account up to by default: 100 ether. */
export const DEFAULT_IMPERSONATION_BALANCE = 10n ** 20n;

const identityRegistryAbi = parseAbi(["function ownerOf(uint256 agentId) view returns (address)"]);

/** Options of {@link startBaseContext}. */
export interface BaseContextParameters {
  /**
   * `fork` (needs an RPC URL), `simulation`, or `auto` (default): fork when an RPC URL is given or
   * `BASE_RPC_URL` is set, else simulation.
   */
  readonly mode?: "auto" | "fork" | "simulation" | undefined;
  /** Base JSON-RPC URL to fork; default `BASE_RPC_URL`. */
  readonly rpcUrl?: string | undefined;
  /** Block to fork at; default `BASE_FORK_BLOCK`, else `DEFAULT_BASE_FORK_BLOCK` (pinned). */
  readonly forkBlock?: number | bigint | undefined;
  /** Simulation: how many agents (ids 1…n on Base, `erc8004`) to register and score; default 24. */
  readonly agents?: number | undefined;
  /** Fork: how many agent ids (1…n on Base, `erc8004`) to probe for {@link BaseContext.sampleKeys}; default 64. */
  readonly probe?: number | undefined;
  /** Also serve the chain on loopback HTTP (`rpcUrl` of the context); default false. */
  readonly http?: boolean | undefined;
  /** Tier code table used when a record given to `setRecord` has no tier; default the kit's assumed encoding. */
  readonly encoding?: TrustEncoding | undefined;
  /**
   * Put the context on this chain instead of starting one: the caller's own EIP-1193 provider, so that a test's
   * contracts and the context share one chain (Hardhat 3: `(await network.create({ override: { chainId: 8453 } })).provider`;
   * Hardhat 2: `network.provider` with chain id 8453). Its chain id must be 8453. In simulation the simulation is
   * built on it; in fork mode it must already fork Base (Hardhat 3: `override: { chainId: 8453, forking: { url,
   * blockNumber } }`; the context mines one block on top), and `auto` means fork when the oracle has code there.
   * `rpcUrl`, `forkBlock` and `http` do not apply; `close` leaves the chain running.
   */
  readonly provider?: Eip1193Provider | undefined;
}

/** A record to write with {@link BaseContext.setRecord}; omitted fields get defaults. */
export interface TrustRecordPatch {
  /** Score, 0–255 (the live service stays within 0–95). */
  readonly score: number;
  /** Tier code; default the code of the tier the score falls in, under the context's encoding. */
  readonly tier?: number | undefined;
  /** Sybil severity code; default 0 (`none`). */
  readonly sybilSeverity?: number | undefined;
  /** Record date (Date or Unix seconds); default the latest block's timestamp (a fresh record). */
  readonly updatedAt?: Date | number | undefined;
}

/** A running Base context (fork or simulation). */
export interface BaseContext {
  /** `fork`: Base forked at {@link BaseContext.forkBlock}; `simulation`: the local simulation. */
  readonly mode: "fork" | "simulation";
  /** 8453. */
  readonly chainId: number;
  /** The fork block (fork mode), else undefined. */
  readonly forkBlock: number | undefined;
  /** EIP-1193 provider of the chain, in process (Hardhat's methods included). */
  readonly provider: LocalChain["provider"];
  /** `http://127.0.0.1:<port>` when started with `http: true`. */
  readonly rpcUrl: string | undefined;
  /** viem public client over {@link BaseContext.provider}. */
  readonly publicClient: PublicClient;
  /** The node's unlocked, funded accounts. In simulation, accounts 1–4 own the seeded agents in turn. */
  readonly accounts: readonly Address[];
  /** The oracle address (the Base oracle's), running the override in front of the original code. */
  readonly oracle: Address;
  /** Where the oracle's original code runs (the override DELEGATECALLs it). */
  readonly originalOracleCode: Address;
  /** The ERC-8004 identity registry. */
  readonly identityRegistry: Address;
  /** Multicall3. */
  readonly multicall3: Address;
  /**
   * Keys holding a record when the context started: in simulation the seeded Base `erc8004` agents; on a fork
   * the Base `erc8004` agents among ids 1…`probe` that have one. Read before the override was installed.
   */
  readonly sampleKeys: readonly ResolvedTestRecordKey[];
  /**
   * A viem wallet client sending from `account` (an unlocked or impersonated account) through the provider.
   *
   * @param account - The sender.
   * @returns The client.
   */
  walletClient(account: Address): WalletClient;
  /**
   * Reads a record through the oracle (`getScore`), as a gate would.
   *
   * @param key - The key (chain default 8453, registry default `erc8004`).
   * @returns The record; `updatedAt` 0 when there is none.
   * @throws viem's error when the oracle reverts (for example after {@link BaseContext.makeOracleRevert}).
   */
  readRecord(key: TestRecordKey): Promise<OracleRecordValue>;
  /**
   * Makes the oracle answer `record` for `key`; other keys are untouched. No transaction is sent.
   *
   * @param key - The key.
   * @param record - The record; tier, sybil severity and date have defaults.
   * @returns The record written.
   * @throws {@link InvalidArgumentError} for a field outside its type.
   */
  setRecord(key: TestRecordKey, record: TrustRecordPatch): Promise<OracleRecordValue>;
  /**
   * Makes the oracle answer "no record" for `key` (`hasScore` false, `getScore` all zeros).
   *
   * @param key - The key.
   */
  clearRecord(key: TestRecordKey): Promise<void>;
  /**
   * Backdates `key`'s current record (overridden or original) so that it is `ageSeconds` old at the latest
   * block, keeping its score and codes.
   *
   * @param key - The key.
   * @param ageSeconds - The age, whole seconds ≥ 0.
   * @returns The record written.
   * @throws {@link DevnetError} when the key has no record; {@link InvalidArgumentError} for a bad age.
   */
  makeStale(key: TestRecordKey, ageSeconds: number): Promise<OracleRecordValue>;
  /**
   * Drops `key`'s override: the oracle answers the original record again.
   *
   * @param key - The key.
   */
  restoreRecord(key: TestRecordKey): Promise<void>;
  /** Makes every call to the oracle revert with `TrustOracleOverrideUnavailable()`. */
  makeOracleRevert(): Promise<void>;
  /** Stops the revert and drops every record override: the oracle answers exactly as before the helpers ran. */
  restoreOracle(): Promise<void>;
  /**
   * Lets the node send transactions from `address` (`hardhat_impersonateAccount`) and tops its balance up to
   * `balance` when it holds less.
   *
   * @param address - The account.
   * @param balance - Minimum balance in wei; default 100 ether.
   * @returns The checksummed address.
   */
  impersonate(address: string, balance?: bigint): Promise<Address>;
  /**
   * The owner of an agent in the ERC-8004 identity registry.
   *
   * @param agentId - The agent id.
   * @returns The owner.
   * @throws {@link DevnetError} when the registry has no such agent.
   */
  controllerOf(agentId: bigint | number): Promise<Address>;
  /** Timestamp of the latest block, Unix seconds. */
  latestTimestamp(): Promise<number>;
  /**
   * Moves the clock forward and mines a block.
   *
   * @param seconds - Positive whole seconds.
   */
  increaseTime(seconds: number): Promise<void>;
  /** Stops the HTTP server, if any. */
  close(): Promise<void>;
}

/**
 * Starts a Base context: a fork of Base when an RPC URL is given or `BASE_RPC_URL` is set (at `forkBlock`,
 * `BASE_FORK_BLOCK` or the pinned default), otherwise the local simulation with a seeded population. In both
 * modes the oracle override is installed in front of the oracle.
 *
 * @param options - Mode, RPC URL, fork block, population, HTTP, encoding.
 * @returns The running context.
 * @throws {@link InvalidArgumentError} for inconsistent options (fork mode without a URL, bad numbers, a provider
 *   whose chain id is not 8453);
 *   {@link DevnetError} when the chain cannot be set up (no oracle code at the fork block, node refusal).
 */
export async function startBaseContext(options: BaseContextParameters = {}): Promise<BaseContext> {
  if (options.provider) return startOnCallerChain(options.provider, options);
  const rpcUrl = options.rpcUrl ?? (process.env.BASE_RPC_URL?.trim() || undefined);
  const requested = options.mode ?? "auto";
  if (!["auto", "fork", "simulation"].includes(requested)) throw new InvalidArgumentError(`Unknown mode "${String(requested)}"`);
  const mode = requested === "auto" ? (rpcUrl ? "fork" : "simulation") : requested;
  if (mode === "fork" && !rpcUrl) throw new InvalidArgumentError("Fork mode needs an RPC URL (rpcUrl or BASE_RPC_URL)");
  return mode === "fork" ? startFork(rpcUrl!, options) : startSimulation(options);
}

/** Everything a context needs from its mode. */
interface ContextSetup {
  readonly mode: "fork" | "simulation";
  readonly forkBlock: number | undefined;
  readonly chain: LocalChain;
  readonly accounts: readonly Address[];
  readonly identityRegistry: Address;
  readonly multicall3: Address;
  readonly sampleKeys: readonly ResolvedTestRecordKey[];
}

async function startSimulation(options: BaseContextParameters): Promise<BaseContext> {
  const agents = positiveInteger(options.agents ?? DEFAULT_SIMULATED_AGENTS, "agents");
  const sim = await startBaseSimulation({ http: options.http ?? false, provider: options.provider });
  try {
    const { records } = await seedBasePopulation(sim, { agents, encoding: options.encoding });
    const sampleKeys = records
      .filter((r) => r.chainId === BASE_SIMULATION_CHAIN_ID && r.registry === "erc8004")
      .map((r) => resolveRecordKey(r));
    const chain: LocalChain = { chainId: sim.chainId, provider: sim.provider, rpcUrl: sim.rpcUrl, close: () => sim.close() };
    return await finishContext(
      {
        mode: "simulation",
        forkBlock: undefined,
        chain,
        accounts: sim.accounts,
        identityRegistry: sim.identityRegistry,
        multicall3: sim.multicall3,
        sampleKeys,
      },
      options,
    );
  } catch (error) {
    await sim.close();
    throw error;
  }
}

async function startFork(rpcUrl: string, options: BaseContextParameters): Promise<BaseContext> {
  const forkBlock = options.forkBlock === undefined ? baseForkBlockFromEnv() : positiveInteger(Number(options.forkBlock), "forkBlock");
  let chain: LocalChain;
  try {
    chain = await startLocalChain({
      chainId: BASE_SIMULATION_CHAIN_ID,
      http: options.http ?? false,
      fork: { url: rpcUrl, blockNumber: forkBlock },
    });
  } catch (error) {
    throw new DevnetError(`Could not fork Base at block ${forkBlock}`, {
      cause: error,
      details: `Check BASE_RPC_URL (is the node reachable? an archive node is needed for old blocks) and BASE_FORK_BLOCK. ${(error as Error)?.message ?? ""}`,
    });
  }
  return onFork(chain, forkBlock, options);
}

/** The context on the caller's chain: a fork of Base when asked, or (`auto`) when the oracle has code there. */
async function startOnCallerChain(provider: Eip1193Provider, options: BaseContextParameters): Promise<BaseContext> {
  if (options.forkBlock !== undefined) {
    throw new InvalidArgumentError("forkBlock applies only to a fork the kit starts: fork the provider's network at the block instead");
  }
  const chain = await callerChain(provider, options);
  const requested = options.mode ?? "auto";
  if (!["auto", "fork", "simulation"].includes(requested)) throw new InvalidArgumentError(`Unknown mode "${String(requested)}"`);
  const oracleCode = (await provider.request({ method: "eth_getCode", params: [BASE_TRUST_ORACLE_ADDRESS, "latest"] })) as string;
  const forked = oracleCode !== "0x" && oracleCode !== "";
  const mode = requested === "auto" ? (forked ? "fork" : "simulation") : requested;
  if (mode === "simulation") return startSimulation(options);
  if (!forked)
    throw new DevnetError(`Fork mode needs the Base oracle's code on the provider's chain, and ${BASE_TRUST_ORACLE_ADDRESS} has none`);
  const forkBlock = Number(await provider.request({ method: "eth_blockNumber" }));
  // The caller's fork may still be at the block it forked, where Hardhat refuses calls for chain 8453: one local
  // block on top lets them run (see `startLocalChain`).
  await provider.request({ method: "evm_mine", params: [] });
  return onFork(chain, forkBlock, options);
}

/** Probes a fork of Base for sample keys, then finishes the context on it. */
async function onFork(chain: LocalChain, forkBlock: number, options: BaseContextParameters): Promise<BaseContext> {
  const probe = positiveInteger(options.probe ?? DEFAULT_FORK_PROBE, "probe");
  try {
    const { provider } = chain;
    const accounts = ((await provider.request({ method: "eth_accounts" })) as string[]).map((a) => parseAddress(a));
    const publicClient = createPublicClient({ chain: base, transport: revertDecodingTransport(provider) });
    const ids = Array.from({ length: probe }, (_, i) => BigInt(i + 1));
    const answers = await publicClient.multicall({
      multicallAddress: MULTICALL3_ADDRESS,
      contracts: ids.map((agentId) => ({
        address: BASE_TRUST_ORACLE_ADDRESS,
        abi: trustOracleAbi,
        functionName: "getScore" as const,
        args: [agentId, BigInt(BASE_SIMULATION_CHAIN_ID), "erc8004"] as const,
      })),
    });
    const sampleKeys = ids
      .filter((_, i) => {
        const answer = answers[i];
        return answer?.status === "success" && Number((answer.result as readonly unknown[])[3]) !== 0;
      })
      .map((agentId) => resolveRecordKey({ agentId }));
    return await finishContext(
      {
        mode: "fork",
        forkBlock,
        chain,
        accounts,
        identityRegistry: parseAddress(ERC8004_IDENTITY_REGISTRY_ADDRESS),
        multicall3: parseAddress(MULTICALL3_ADDRESS),
        sampleKeys,
      },
      options,
    );
  } catch (error) {
    await chain.close();
    throw error;
  }
}

async function finishContext(setup: ContextSetup, options: BaseContextParameters): Promise<BaseContext> {
  const { provider } = setup.chain;
  const chain: Chain = base;
  const publicClient = createPublicClient({ chain, transport: revertDecodingTransport(provider) }) as PublicClient;
  const installed: InstalledOracleOverride = await installOracleOverride(provider, { oracle: BASE_TRUST_ORACLE_ADDRESS });
  const oracle = installed.oracle;
  /** Keys overridden since the start (or the last restoreOracle), by override hash. */
  const overridden = new Map<string, TestRecordKey>();

  const request = async (method: string, params: unknown[], what: string): Promise<unknown> => {
    try {
      return await provider.request({ method, params });
    } catch (error) {
      throw new DevnetError(`${what} failed (${method})`, { cause: error, details: (error as Error)?.message });
    }
  };
  const latestTimestamp = async (): Promise<number> => {
    const block = (await request("eth_getBlockByNumber", ["latest", false], "Reading the latest block")) as { timestamp: string };
    return Number(block.timestamp);
  };
  const readRecord = async (key: TestRecordKey): Promise<OracleRecordValue> => {
    const { agentId, chainId, registry } = resolveRecordKey(key);
    const [score, tier, sybilSeverity, updatedAt] = await publicClient.readContract({
      address: oracle,
      abi: trustOracleAbi,
      functionName: "getScore",
      args: [agentId, chainId, registry],
    });
    return { score, tier, sybilSeverity, updatedAt: Number(updatedAt) };
  };
  const put = async (key: TestRecordKey, record: OracleRecordValue | null): Promise<void> => {
    await writeOverride(provider, oracle, key, record);
    overridden.set(overrideRecordKey(key), key);
  };

  const context: BaseContext = {
    mode: setup.mode,
    chainId: BASE_SIMULATION_CHAIN_ID,
    forkBlock: setup.forkBlock,
    provider,
    rpcUrl: setup.chain.rpcUrl,
    publicClient,
    accounts: Object.freeze([...setup.accounts]),
    oracle,
    originalOracleCode: installed.originalCodeAddress,
    identityRegistry: setup.identityRegistry,
    multicall3: setup.multicall3,
    sampleKeys: Object.freeze([...setup.sampleKeys]),
    walletClient: (account) =>
      createWalletClient({ account: parseAddress(account, "account"), chain, transport: revertDecodingTransport(provider) }),
    readRecord,
    async setRecord(key, patch) {
      if (typeof patch?.score !== "number") throw new InvalidArgumentError("setRecord needs a record with a score");
      const updatedAt =
        patch.updatedAt === undefined
          ? await latestTimestamp()
          : patch.updatedAt instanceof Date
            ? Math.floor(patch.updatedAt.getTime() / 1000)
            : patch.updatedAt;
      const record: OracleRecordValue = {
        score: patch.score,
        tier: patch.tier ?? tierCode(tierForScore(patch.score), options.encoding),
        sybilSeverity: patch.sybilSeverity ?? 0,
        updatedAt,
      };
      await put(key, record);
      return record;
    },
    clearRecord: (key) => put(key, null),
    async makeStale(key, ageSeconds) {
      if (!Number.isSafeInteger(ageSeconds) || ageSeconds < 0) {
        throw new InvalidArgumentError(`makeStale needs a whole number of seconds ≥ 0, got ${ageSeconds}`);
      }
      const current = await readRecord(key);
      if (current.updatedAt === 0) {
        const { agentId, chainId, registry } = resolveRecordKey(key);
        throw new DevnetError(`No record of agent ${agentId} (chain ${chainId}, ${registry}) to make stale; setRecord first`);
      }
      const record = { ...current, updatedAt: (await latestTimestamp()) - ageSeconds };
      await put(key, record);
      return record;
    },
    async restoreRecord(key) {
      await writeOverride(provider, oracle, key, undefined);
      overridden.delete(overrideRecordKey(key));
    },
    makeOracleRevert: () => setOracleReverting(provider, oracle, true),
    async restoreOracle() {
      await setOracleReverting(provider, oracle, false);
      for (const key of overridden.values()) await writeOverride(provider, oracle, key, undefined);
      overridden.clear();
    },
    async impersonate(address, balance = DEFAULT_IMPERSONATION_BALANCE) {
      const account = parseAddress(address, "address");
      await request("hardhat_impersonateAccount", [account], `Impersonating ${account}`);
      const current = BigInt((await request("eth_getBalance", [account, "latest"], `Reading the balance of ${account}`)) as string);
      if (current < balance) await request("hardhat_setBalance", [account, `0x${balance.toString(16)}`], `Funding ${account}`);
      return account;
    },
    async controllerOf(agentId) {
      try {
        return await publicClient.readContract({
          address: setup.identityRegistry,
          abi: identityRegistryAbi,
          functionName: "ownerOf",
          args: [BigInt(agentId)],
        });
      } catch (error) {
        throw new DevnetError(`The identity registry names no owner of agent ${String(agentId)}`, { cause: error });
      }
    },
    latestTimestamp,
    async increaseTime(seconds) {
      if (!Number.isSafeInteger(seconds) || seconds <= 0) {
        throw new InvalidArgumentError(`increaseTime needs a positive whole number of seconds, got ${seconds}`);
      }
      await request("evm_increaseTime", [seconds], `Moving the clock ${seconds} s forward`);
      await request("evm_mine", [], "Mining a block");
    },
    close: () => setup.chain.close(),
  };
  return context;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError(`${name} must be a positive whole number, got ${value}`);
  return value;
}
