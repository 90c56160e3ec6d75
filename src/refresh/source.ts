/**
 * What a refresh pushes, from where: the sources of `trustgate refresh` (and of `refreshAttestedOracle`), each ending
 * in the same thing — a drift report whose rows the plan (`plan.ts`) reads. One planner, one set of push rules: a
 * source only chooses the rows.
 *
 * | source | flag | the rows |
 * |---|---|---|
 * | `report` | `--from report.json`, `trustgate drift … --refresh` | a drift report already made (`readRefreshInputReport` of its JSON, or `runDrift`'s report) |
 * | `watch` | `--watch agents.txt` | a fresh drift run over the listed agents (`watch-list.ts`), reading the attested oracle |
 * | `state` | `--state drift-state.jsonl` | a fresh drift run over the agents of the drift job's state file, with the setup its header records (`state-agents.ts` says why the state's own lines are not enough) |
 * | `gate` | `--gate <address>` | a fresh drift run over the agents the gate's oracle holds records of under the gate's agent domain, the gate's policy as the decision rule (`gate-agents.ts` says how and why) |
 *
 * A fresh drift run is a list run (`scope: { kind: "list" }`) always reading an attested oracle, so that each row's
 * refresh assessment checks the attestation's kid against its keys; it takes no state file, and writes none.
 *
 * @packageDocumentation
 */
import { createPublicClient, getAddress, http, type PublicClient } from "viem";
import { readContract } from "viem/actions";
import type { AgentRef } from "../agent/agent-ref.js";
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import type { DriftConfig } from "../drift/config.js";
import { type DriftHooks, runDrift } from "../drift/run.js";
import { readDriftState } from "../drift/state/read.js";
import type { DriftReport } from "../drift/types.js";
import { ConfigurationError, messageOf } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import { isZeroAddress } from "../inputs/address.js";
import { listGateAgents } from "./gate-agents.js";
import type { RefreshInputReport } from "./report-input.js";
import { refreshStateAgents } from "./state-agents.js";

/**
 * What a fresh drift run of a source needs besides its agents, oracles and rule: the endpoints and the run's limits
 * (the `DriftConfig` fields of the same names and meanings).
 */
export type RefreshDriftSetup = Pick<DriftConfig, "rpcUrl" | "apiUrl" | "issuer" | "jwks" | "maxAgeSeconds" | "concurrency" | "encoding"> &
  Partial<Pick<DriftConfig, "apiKey" | "acceptedKids" | "ratePerMinute" | "timeoutMs" | "maxErrors" | "readChunkSize">>;

/** Where the rows of a refresh come from (see the module notes). */
export type RefreshSource =
  /** A drift report already made. */
  | { readonly kind: "report"; readonly report: RefreshInputReport }
  /** A fresh drift run over a watch list. */
  | {
      readonly kind: "watch";
      readonly agents: readonly AgentRef[];
      /** The attested oracle to read (and push to). */
      readonly attestedOracle: `0x${string}`;
      /** Its expected upstream (default: the one the attested oracle names, its `upstream()`). */
      readonly oracle?: `0x${string}`;
      /** The chain the watch list was written for (a records listing names it); the RPC must serve it. */
      readonly chainId?: number;
      /** The decision rule's threshold (default the drift job's, 51); ignored with `gate`. */
      readonly threshold?: number;
      readonly drift: RefreshDriftSetup;
    }
  /** A fresh drift run over the agents of the drift job's state file. */
  | {
      readonly kind: "state";
      /** The state file. */
      readonly path: string;
      /** The attested oracle to read, when the state's runs read none (else it must be theirs). */
      readonly attestedOracle?: `0x${string}`;
      readonly drift: Omit<RefreshDriftSetup, "encoding">;
    }
  /** A fresh drift run over the agents a gate can be asked about, under its policy. */
  | {
      readonly kind: "gate";
      /** The gate. */
      readonly gate: `0x${string}`;
      /** Where its oracles' events are replayed from (default `"auto"`: each one's deployment block). */
      readonly eventsFromBlock?: bigint | "auto";
      readonly drift: RefreshDriftSetup;
    };

/** What {@link resolveRefreshSource} returns. */
export interface ResolvedRefreshSource {
  /** The report the plan reads. */
  readonly report: RefreshInputReport;
  /** The fresh drift run's report (its summary and verdict), for the sources that run one. */
  readonly drift?: DriftReport;
  /** Sentences for people: what the source read, and what it could not. */
  readonly notes: readonly string[];
}

/** Runs a drift job (the signature of `runDrift`; replaceable in tests). */
export type RefreshDriftRunner = (config: DriftConfig, hooks?: DriftHooks) => Promise<DriftReport>;

/**
 * Resolves a source to the drift report the plan reads: a report as it is; for the other sources, the agents and
 * rule, then a fresh drift run over them.
 *
 * @param source - The source.
 * @param options - The drift run's hooks (clock, progress), and the runner (default `runDrift`).
 * @returns The report, the fresh run's report, and notes.
 * @throws {@link ConfigurationError} for a state file that cannot be read or holds no agent, a state whose runs read
 *   another attested oracle, a state or gate without an attested oracle, a gate whose agents cannot be listed, or a
 *   drift run that cannot start (`runDrift`'s errors).
 */
export async function resolveRefreshSource(
  source: RefreshSource,
  options: { readonly hooks?: DriftHooks; readonly runDrift?: RefreshDriftRunner } = {},
): Promise<ResolvedRefreshSource> {
  if (source.kind === "report") return { report: source.report, notes: [] };
  const run = options.runDrift ?? ((config: DriftConfig, hooks?: DriftHooks) => runDrift(config, { ...hooks, keepRows: true }));
  const fresh = async (config: DriftConfig, notes: string[]): Promise<ResolvedRefreshSource> => {
    const drift = await run(config, options.hooks);
    return { report: drift, drift, notes };
  };

  if (source.kind === "watch") {
    const client = createPublicClient({
      transport: http(source.drift.rpcUrl, source.drift.timeoutMs ? { timeout: source.drift.timeoutMs } : {}),
    });
    if (source.chainId !== undefined) {
      const served = await client.getChainId();
      if (served !== source.chainId) {
        throw new ConfigurationError(
          `The watch list names chain ${source.chainId}, but --rpc serves chain ${served}: give the RPC of its chain`,
        );
      }
    }
    const upstream = source.oracle ?? (await upstreamOf(client, source.attestedOracle));
    return fresh(
      {
        ...source.drift,
        oracle: upstream,
        attestedOracle: source.attestedOracle,
        scope: { kind: "list", agents: source.agents },
        ...(source.threshold !== undefined ? { threshold: source.threshold } : {}),
      },
      [`watch list: ${source.agents.length} agent${source.agents.length === 1 ? "" : "s"}, a fresh drift run over them`],
    );
  }

  if (source.kind === "state") {
    const loaded = readDriftState(source.path);
    if (loaded === null) throw new ConfigurationError(`--state ${source.path}: no such state file, or an empty one`);
    const state = refreshStateAgents(loaded);
    if (
      state.attestedOracle !== null &&
      source.attestedOracle !== undefined &&
      state.attestedOracle.toLowerCase() !== source.attestedOracle.toLowerCase()
    ) {
      throw new ConfigurationError(
        `--state ${source.path} was written for the attested oracle ${state.attestedOracle}, not --attested-oracle ${source.attestedOracle}`,
      );
    }
    const attestedOracle = state.attestedOracle ?? source.attestedOracle;
    if (attestedOracle === undefined) {
      throw new ConfigurationError(
        `--state ${source.path}: its runs read no attested oracle; give the one to push to with --attested-oracle <address>`,
      );
    }
    const resolved = await fresh(
      {
        ...source.drift,
        encoding: state.encoding,
        oracle: state.oracle,
        attestedOracle,
        scope: { kind: "list", agents: state.agents },
        ...state.rule,
      },
      [`state ${source.path}: ${state.agents.length} agent${state.agents.length === 1 ? "" : "s"}, a fresh drift run over them`],
    );
    if (resolved.report.source.chainId !== state.chainId) {
      throw new ConfigurationError(
        `--state ${source.path} was written for chain ${state.chainId}, but --rpc serves chain ${resolved.report.source.chainId}`,
      );
    }
    return resolved;
  }

  const client = createPublicClient({
    transport: http(source.drift.rpcUrl, source.drift.timeoutMs ? { timeout: source.drift.timeoutMs } : {}),
  });
  const gate = await listGateAgents(client, source.gate, source.eventsFromBlock ?? "auto");
  return fresh(
    {
      ...source.drift,
      oracle: gate.upstream,
      attestedOracle: gate.attestedOracle,
      gate: gate.gate.gate,
      scope: { kind: "list", agents: gate.agents },
    },
    [
      `gate ${gate.gate.gate}: ${gate.agents.length} agent${gate.agents.length === 1 ? "" : "s"} with a record under its agent domain (chain ${gate.gate.agentChainId}, registry ${gate.gate.agentRegistry}), its policy as the rule`,
      ...gate.notes,
    ],
  );
}

/**
 * The upstream an attested oracle names (`upstream()`), as a watch list's default oracle: the one its reads fall back
 * on. The zero address (an attested oracle without an upstream) stands for none: the Base oracle's address is then
 * the drift run's reference, as `trustgate drift` takes it.
 */
async function upstreamOf(client: PublicClient, attestedOracle: `0x${string}`): Promise<`0x${string}`> {
  let upstream: `0x${string}`;
  try {
    upstream = await readContract(client, { address: attestedOracle, abi: attestedTrustOracleAbi, functionName: "upstream" });
  } catch (error) {
    throw new ConfigurationError(
      `--attested-oracle ${attestedOracle}: its upstream() cannot be read (${messageOf(error)}): is it an AttestedTrustOracle on this chain? Or give --oracle <address>`,
    );
  }
  return isZeroAddress(upstream) ? BASE_TRUST_ORACLE_ADDRESS : getAddress(upstream);
}
