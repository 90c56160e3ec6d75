/**
 * The checks of a drift run before any agent is scanned: the chain answers (its id and the block the run is pinned
 * to), the oracle holds code (or the attested oracle is an `AttestedTrustOracle`, and which upstream it falls back
 * on), how to read the oracle (Multicall3, deployless Multicall3 or one `eth_call` per record), the decision rule
 * (a threshold, or a gate's policy read at the pinned block) and the issuer's keys. Each problem is a
 * {@link ConfigurationError} naming the endpoint.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { getBlockNumber, getChainId, getCode, readContract } from "viem/actions";
import { createJwksResolver, type JwksResolver } from "../attestation/jwks.js";
import { ConfigurationError } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import { readGatePolicy } from "../oracle/gate.js";
import { detectReaderMode, type ReaderModeDetection } from "../oracle/reader-mode.js";
import { redactUrl } from "../security/redact-url.js";
import { failureWithCause } from "../util/network-cause.js";
import { DEFAULT_DECISION_THRESHOLD, type DriftConfig } from "./config.js";
import type { DecisionRule } from "./decision.js";
import type { AttestedOracleSource } from "./types.js";

/** The settings the preflight reads: the endpoints, the rule's inputs and the request time-out. */
export type PreflightSettings = Pick<DriftConfig, "rpcUrl" | "oracle" | "attestedOracle" | "gate" | "threshold" | "jwks" | "timeoutMs"> & {
  /** The `fetch` of the chain client's requests (a circuit breaker's, see `circuit-breaker.ts`); default the global one. */
  readonly rpcFetch?: typeof globalThis.fetch | undefined;
};

/** What the preflight found: the chain pinned at one block, how its oracle is read, the rule and the keys. */
export interface Preflight {
  readonly chain: PublicClient;
  readonly chainId: number;
  /** The block every read of the run is pinned to. */
  readonly blockNumber: bigint;
  readonly reader: ReaderModeDetection;
  /** The attested oracle read instead of the oracle, and its upstream; absent without `attestedOracle`. */
  readonly attested: AttestedOracleSource | undefined;
  readonly rule: DecisionRule;
  readonly jwks: JwksResolver;
}

/**
 * Checks that the chain, the oracle (or attested oracle), the gate and the issuer's keys are reachable.
 *
 * @param settings - Endpoints, threshold and time-out.
 * @returns The chain client and what was read from it, the rule and the key resolver.
 * @throws {@link ConfigurationError} for an endpoint that does not answer or an address without the expected contract.
 */
export async function preflight(settings: PreflightSettings): Promise<Preflight> {
  const chain = createPublicClient({
    transport: http(settings.rpcUrl, {
      retryCount: 2,
      timeout: settings.timeoutMs ?? 30_000,
      ...(settings.rpcFetch ? { fetchFn: settings.rpcFetch } : {}),
    }),
  }) as PublicClient;
  const { attestedOracle } = settings;
  const { chainId, blockNumber, reader } = await checkChain(chain, settings.rpcUrl, attestedOracle ? undefined : settings.oracle);
  const attested = attestedOracle ? await checkAttestedOracle(chain, attestedOracle, settings.oracle, { chainId, blockNumber }) : undefined;
  const rule = await decisionRule(chain, settings, blockNumber);
  const jwks = await checkService(settings);
  return { chain, chainId, blockNumber, reader, attested, rule, jwks };
}

async function checkChain(
  chain: PublicClient,
  rpcUrl: string,
  oracle: Address | undefined,
): Promise<{ chainId: number; blockNumber: bigint; reader: ReaderModeDetection }> {
  let chainId: number;
  let blockNumber: bigint;
  try {
    [chainId, blockNumber] = await Promise.all([getChainId(chain), getBlockNumber(chain)]);
  } catch (error) {
    throw new ConfigurationError(`Cannot reach the RPC at ${redactUrl(rpcUrl)}`, { cause: error, details: failureWithCause(error) });
  }
  // Read mode chosen once, at the pinned block: Multicall3 where deployed, else deployless, else eth_call.
  const [oracleCode, reader] = await Promise.all([
    oracle === undefined ? undefined : getCode(chain, { address: oracle, blockNumber }),
    detectReaderMode(chain, { blockNumber }),
  ]).catch((error: unknown) => {
    throw new ConfigurationError(`Cannot read code from the RPC at ${redactUrl(rpcUrl)}`, {
      cause: error,
      details: failureWithCause(error),
    });
  });
  if (oracle !== undefined && (!oracleCode || oracleCode === "0x")) {
    throw new ConfigurationError(`No contract at the oracle address ${oracle} on chain ${chainId}`);
  }
  return { chainId, blockNumber, reader };
}

/**
 * Checks that the address holds an `AttestedTrustOracle` (code there, and `upstream()` answers an address) and reads
 * its upstream. The oracle address itself is not required to hold code then: the reads go to the attested oracle,
 * and an upstream that is not `oracle` is a warning in the report, not an error.
 */
async function checkAttestedOracle(
  chain: PublicClient,
  address: Address,
  oracle: Address,
  at: { readonly chainId: number; readonly blockNumber: bigint },
): Promise<AttestedOracleSource> {
  let code: string | undefined;
  try {
    code = await getCode(chain, { address, blockNumber: at.blockNumber });
  } catch (error) {
    throw new ConfigurationError(`Cannot read code at the attested oracle address ${address}`, {
      cause: error,
      details: failureWithCause(error),
    });
  }
  if (!code || code === "0x") {
    throw new ConfigurationError(`No contract at the attested oracle address ${address} on chain ${at.chainId} (--attested-oracle)`);
  }
  let upstream: Address;
  try {
    upstream = await readContract(chain, {
      address,
      abi: attestedTrustOracleAbi,
      functionName: "upstream",
      blockNumber: at.blockNumber,
    });
  } catch (error) {
    throw new ConfigurationError(
      `The contract at ${address} (--attested-oracle) is not an AttestedTrustOracle: its upstream() cannot be read`,
      { cause: error, details: firstLine(failureWithCause(error)) },
    );
  }
  return { address, upstream, upstreamIsOracle: upstream.toLowerCase() === oracle.toLowerCase() };
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

async function decisionRule(
  chain: PublicClient,
  config: Pick<DriftConfig, "gate" | "threshold">,
  blockNumber: bigint,
): Promise<DecisionRule> {
  if (!config.gate) return { kind: "threshold", threshold: config.threshold ?? DEFAULT_DECISION_THRESHOLD };
  try {
    const gate = await readGatePolicy(chain, { gate: config.gate, blockNumber });
    const policy = config.threshold === undefined ? gate.policy : { ...gate.policy, minScore: config.threshold };
    return { kind: "gate", gate: gate.gate, policy };
  } catch (error) {
    throw new ConfigurationError(`Cannot read the policy of the gate ${config.gate}`, { cause: error, details: failureWithCause(error) });
  }
}

async function checkService(config: Pick<DriftConfig, "jwks" | "timeoutMs">): Promise<JwksResolver> {
  if (typeof config.jwks !== "string") {
    return createJwksResolver({ keys: config.jwks as Parameters<typeof createJwksResolver>[0]["keys"] & object });
  }
  const resolver = createJwksResolver({ url: config.jwks, timeoutMs: config.timeoutMs });
  try {
    await resolver.reload();
  } catch (error) {
    throw new ConfigurationError(`Cannot fetch the service's JWKS at ${redactUrl(config.jwks)}`, {
      cause: error,
      details: failureWithCause(error),
    });
  }
  return resolver;
}
