/**
 * The drift job's embedded default: what it runs against when no RPC or API URL is given. A local Base
 * simulation served on loopback HTTP, whose oracle holds last night's snapshot of the service's data, and the
 * kit's local signing service, whose data has moved on since:
 *
 * - every agent of the snapshot population is on-chain, dated the snapshot time (the latest 03:00 UTC);
 * - one chain's records (`staleChain`) are dated days earlier, as if publishing for that chain had stopped;
 * - a few agents are on-chain that the service no longer knows (`delisted`);
 * - the service serves the population advanced to now: some scores changed (some across the 51 threshold and
 *   the tier boundaries), some sybil severities changed, some agents were registered (not on-chain);
 * - optionally (by default), faults on `/api/trust-check`: see {@link DEFAULT_EMBEDDED_FAULTS}.
 *
 * Deterministic for a seed, apart from the clock (pass `now` to fix it too).
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { resolveChain } from "../../config/chains.js";
import type { TrustEncoding } from "../../config/encodings.js";
import { jwksUrlOf } from "../../config/service.js";
import { InvalidArgumentError } from "../../errors.js";
import { checkChunkSize } from "../../oracle/reader.js";
import {
  type AdvancedPopulation,
  type AdvanceParameters,
  agentKey,
  createPopulation,
  DEFAULT_POPULATION_CHAINS,
  type FaultSpec,
  type Population,
  type RunningTrustService,
  startTrustService,
  type TrustServiceParameters,
} from "../service/index.js";
import { type BaseSimulation, startBaseSimulation } from "./base-simulation.js";
import { pickDelistedAgents } from "./delisted-agents.js";
import type { HardhatConfigSource } from "./hardhat-network.js";
import { latestNightlyRun, type SnapshotAgent, snapshotRecords } from "./nightly-snapshot.js";

/** Agents in the embedded population by default. */
export const DEFAULT_EMBEDDED_SIZE = 3_000;

/** Registries of the embedded population by default. */
export const DEFAULT_EMBEDDED_REGISTRIES: readonly string[] = ["erc8004", "olas"];

/** Chain whose records are stale by default. */
export const DEFAULT_STALE_CHAIN = "polygon";

/** How much older than the snapshot the stale chain's records are, by default: 3 days, in seconds. */
export const DEFAULT_STALE_AGE_SECONDS = 3 * 86_400;

/** Delisted agents (on-chain, unknown to the service) by default. */
export const DEFAULT_DELISTED = 5;

/**
 * Records per `eth_call` a drift job should read the embedded chain with (`readChunkSize`), instead of the reader's
 * 500. Hardhat 2's in-process EVM (EDR 0.12) holds on to memory in proportion to the EVM steps of the calls it has
 * run, about 200 bytes a step, after their answers are collected (measured growing to about 1.3 GB): one `aggregate3`
 * of 500 records runs some 350,000 steps and left about 75 MB behind, so reading the demo's 3,030 agents in calls of
 * 500 grew the process by about 550 MB; in calls of 25, by about 20 MB (Hardhat 3's EDR keeps nothing). In process,
 * a round trip costs next to nothing: no time is lost.
 */
export const EMBEDDED_READ_CHUNK_SIZE = 25;

/** How the service's data moves on since the snapshot by default (see `AdvanceParameters`). */
export const DEFAULT_EMBEDDED_ADVANCE = {
  changedFraction: 0.04,
  crossingFraction: 0.4,
  sybilChangedFraction: 0.01,
  newAgents: 30,
} as const;

/**
 * Faults injected by default, on `/api/trust-check` only: two answers signed with a tampered value (invalid
 * attestations) and one 200 answer whose JSON body is cut in half (clients do not retry it: an error row). The
 * two kinds are taken independently (tampering when an answer is signed, cutting when it is written), so the
 * first answer gets both: requested one after the other, answer 1 is the error row, answer 2 the invalid
 * attestation, the rest are sound. With requests in flight together, a run shows exactly one error row and
 * one or two invalid attestations.
 */
export const DEFAULT_EMBEDDED_FAULTS: readonly FaultSpec[] = Object.freeze([
  Object.freeze({ kind: "tampered-signature", path: "/api/trust-check", times: 2 } as const),
  Object.freeze({ kind: "malformed-json", path: "/api/trust-check", times: 1 } as const),
]);

/** Options of {@link startEmbeddedDriftEnvironment}. */
export interface EmbeddedDriftParameters {
  /** Also hold the service documents' example agents (base 16907, base 1380) on-chain and in the service; default false. */
  readonly documentedAgents?: boolean | undefined;
  /** Seed of the population, the delisted agents and (unless `advance.seed`) the changes; default 1. */
  readonly seed?: number | undefined;
  /** Agents in the snapshot; default {@link DEFAULT_EMBEDDED_SIZE}. */
  readonly size?: number | undefined;
  /** Chain slugs (EVM chains only); default the service's default chains (nine). */
  readonly chains?: readonly string[] | undefined;
  /** Registries; default {@link DEFAULT_EMBEDDED_REGISTRIES}. */
  readonly registries?: readonly string[] | undefined;
  /** The scenario's "now": the served data's scoring time. Default the system clock. */
  readonly now?: Date | undefined;
  /** Time of the snapshot; default the latest 03:00 UTC before `now`. Must be before `now`. */
  readonly snapshotAt?: Date | undefined;
  /** Chain whose records are stale; `null` for none. Default {@link DEFAULT_STALE_CHAIN}. */
  readonly staleChain?: string | null | undefined;
  /** How much older than the snapshot the stale records are, seconds; default {@link DEFAULT_STALE_AGE_SECONDS}. */
  readonly staleAgeSeconds?: number | undefined;
  /** Agents on-chain that the service does not know; default {@link DEFAULT_DELISTED}. */
  readonly delisted?: number | undefined;
  /** How the data moves on (`at` is `now`); default {@link DEFAULT_EMBEDDED_ADVANCE} with `seed`. */
  readonly advance?: Partial<Omit<AdvanceParameters, "at">> | undefined;
  /** `true` (default): {@link DEFAULT_EMBEDDED_FAULTS}; `false`: none; or the faults to inject. */
  readonly faults?: boolean | readonly FaultSpec[] | undefined;
  /** The service's rate limit; default `false` (none). */
  readonly rateLimit?: TrustServiceParameters["rateLimit"];
  /** Code tables the snapshot is published with; default the kit's assumed encoding. */
  readonly encoding?: TrustEncoding | undefined;
  /** Further service options (port, host, keys, issuer, clock). */
  readonly service?: Omit<TrustServiceParameters, "population" | "rateLimit"> | undefined;
  /** The oracle's publisher; default the node's first account. */
  readonly publisher?: string | undefined;
  /** Where the chain's Hardhat network configuration comes from (see `startLocalChain`); default `auto`. */
  readonly hardhatConfig?: HardhatConfigSource | undefined;
  /** What the environment gives as `readChunkSize`; default {@link EMBEDDED_READ_CHUNK_SIZE}. */
  readonly readChunkSize?: number | undefined;
}

/** What the environment was built to show, for checking a drift report against. Keys are `<chain>:<registry>:<agentId>`. */
export interface EmbeddedDriftExpectations {
  /** Agents whose served record differs from the on-chain one (score, tier or sybil severity), in population order. */
  readonly changedKeys: readonly string[];
  /** Agents the service knows that have no on-chain record, in population order. */
  readonly addedKeys: readonly string[];
  /** The stale chain's slug, if any. */
  readonly staleChain: string | undefined;
  /** Every on-chain record of the stale chain (population order). */
  readonly staleKeys: readonly string[];
  /** The `updatedAt` of the stale records, if any. */
  readonly staleUpdatedAt: Date | undefined;
  /** Agents on-chain that the service answers 404 for (sorted). */
  readonly delistedKeys: readonly string[];
  /** Faults injected into the service, in order. */
  readonly faults: readonly FaultSpec[];
}

/** A running embedded drift environment. */
export interface EmbeddedDriftEnvironment {
  /** JSON-RPC URL of the local Base simulation (`http://127.0.0.1:<port>`). */
  readonly rpcUrl: string;
  /** 8453. */
  readonly chainId: number;
  /** The oracle (at the Base oracle address). */
  readonly oracle: Address;
  /** Multicall3 (canonical address). */
  readonly multicall3: Address;
  /** The ERC-8004 identity registry (at its Base address; no agents registered). */
  readonly identityRegistry: Address;
  /** Records per `eth_call` to read this chain with (a drift job's `readChunkSize`); see {@link EMBEDDED_READ_CHUNK_SIZE}. */
  readonly readChunkSize: number;
  /** Origin of the local signing service. */
  readonly apiUrl: string;
  /** Issuer its attestations name. */
  readonly issuer: string;
  /** Its JWKS URL. */
  readonly jwksUrl: string;
  /** Time of the snapshot published on-chain. */
  readonly snapshotAt: Date;
  /** The population as of the snapshot (what is on-chain, stale dates aside). */
  readonly snapshot: Population;
  /** The population the service serves (the snapshot advanced to `now`). */
  readonly served: AdvancedPopulation;
  /** The delisted agents' on-chain records. */
  readonly delisted: readonly SnapshotAgent[];
  /** What a drift report should find. */
  readonly expectations: EmbeddedDriftExpectations;
  /** The chain, for more setup (time travel, extra records, gates). */
  readonly simulation: BaseSimulation;
  /** The service, for more setup (faults, population). */
  readonly service: RunningTrustService;
  /** Stops the service and the chain. */
  close(): Promise<void>;
}

/**
 * Starts the drift job's embedded environment (see the module notes).
 *
 * @param options - Sizes, seed, clock, stale chain, delisted count, changes, faults, service options, call sizes.
 * @returns The running environment and what it was built to show.
 * @throws {@link InvalidArgumentError} for inconsistent options; `DevnetError` when the chain cannot be built.
 */
export async function startEmbeddedDriftEnvironment(options: EmbeddedDriftParameters = {}): Promise<EmbeddedDriftEnvironment> {
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new InvalidArgumentError("now must be a valid Date");
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const snapshotAt = options.snapshotAt ?? latestNightlyRun(new Date(now.getTime() - 1000));
  if (!(snapshotAt instanceof Date) || !(snapshotAt.getTime() < at.getTime())) {
    throw new InvalidArgumentError(`snapshotAt must be a valid Date before now (${at.toISOString()})`);
  }
  const snapshot = createPopulation({
    seed,
    size: options.size ?? DEFAULT_EMBEDDED_SIZE,
    chains: options.chains ?? DEFAULT_POPULATION_CHAINS,
    registries: options.registries ?? DEFAULT_EMBEDDED_REGISTRIES,
    at: snapshotAt,
    ...(options.documentedAgents ? { documentedAgents: true } : {}),
  });
  const staleChain = options.staleChain === null ? undefined : resolveChain(options.staleChain ?? DEFAULT_STALE_CHAIN).slug;
  if (staleChain !== undefined && !snapshot.chains.includes(staleChain)) {
    throw new InvalidArgumentError(`staleChain "${staleChain}" is not one of the population's chains (${snapshot.chains.join(", ")})`);
  }
  const readChunkSize = checkChunkSize(options.readChunkSize ?? EMBEDDED_READ_CHUNK_SIZE, "readChunkSize");
  const staleAgeSeconds = options.staleAgeSeconds ?? DEFAULT_STALE_AGE_SECONDS;
  if (!Number.isSafeInteger(staleAgeSeconds) || staleAgeSeconds <= 0 || staleAgeSeconds * 1000 >= snapshotAt.getTime()) {
    throw new InvalidArgumentError(`staleAgeSeconds must be a positive whole number of seconds, got ${staleAgeSeconds}`);
  }
  const staleUpdatedAt = staleChain === undefined ? undefined : new Date(snapshotAt.getTime() - staleAgeSeconds * 1000);
  const delisted = pickDelistedAgents(snapshot, {
    count: options.delisted ?? DEFAULT_DELISTED,
    seed,
    at: snapshotAt,
    excludeChains: staleChain === undefined ? [] : [staleChain],
  });
  const advanceGiven = Object.fromEntries(Object.entries(options.advance ?? {}).filter(([, v]) => v !== undefined));
  const served = snapshot.advance({ seed, ...DEFAULT_EMBEDDED_ADVANCE, ...advanceGiven, at });
  const faults: readonly FaultSpec[] =
    options.faults === false ? [] : options.faults === true || options.faults === undefined ? DEFAULT_EMBEDDED_FAULTS : options.faults;
  const records = snapshotRecords([...snapshot.agents, ...delisted], {
    encoding: options.encoding,
    ...(staleChain === undefined ? {} : { staleChains: [staleChain], staleAt: staleUpdatedAt }),
  });

  const [simulationResult, serviceResult] = await Promise.allSettled([
    startBaseSimulation({ http: true, publisher: options.publisher, hardhatConfig: options.hardhatConfig }),
    startTrustService({ ...options.service, population: snapshot, rateLimit: options.rateLimit ?? false }),
  ]);
  const closeAll = async (): Promise<void> => {
    await Promise.all([
      simulationResult.status === "fulfilled" ? simulationResult.value.close() : undefined,
      serviceResult.status === "fulfilled" ? serviceResult.value.close() : undefined,
    ]);
  };
  try {
    if (simulationResult.status === "rejected") throw simulationResult.reason;
    if (serviceResult.status === "rejected") throw serviceResult.reason;
    const simulation = simulationResult.value;
    const service = serviceResult.value;

    // The nightly run publishes the snapshot (records dated at or before the snapshot time)…
    const latest = await simulation.latestTimestamp();
    if (latest < at.getTime() / 1000) await simulation.setTime(at);
    await simulation.publish(records);
    // … and the service's data moves on.
    service.setPopulation(served);
    for (const fault of faults) service.injectFault(fault);

    const staleKeys = staleChain === undefined ? [] : snapshot.agents.filter((a) => a.chain === staleChain).map(agentKey);
    const expectations: EmbeddedDriftExpectations = Object.freeze({
      changedKeys: served.changes.changedKeys,
      addedKeys: served.changes.addedKeys,
      staleChain,
      staleKeys: Object.freeze(staleKeys),
      staleUpdatedAt,
      delistedKeys: Object.freeze(delisted.map(agentKey)),
      faults: Object.freeze(faults.map((f) => Object.freeze({ ...f }))),
    });
    let closing: Promise<void> | undefined;
    return {
      rpcUrl: simulation.rpcUrl!,
      chainId: simulation.chainId,
      oracle: simulation.oracle,
      multicall3: simulation.multicall3,
      identityRegistry: simulation.identityRegistry,
      readChunkSize,
      apiUrl: service.url,
      issuer: service.issuer,
      jwksUrl: jwksUrlOf(service.url),
      snapshotAt: new Date(snapshotAt.getTime()),
      snapshot,
      served,
      delisted: Object.freeze(delisted),
      expectations,
      simulation,
      service,
      close: () => (closing ??= closeAll()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
