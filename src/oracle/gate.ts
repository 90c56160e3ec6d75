/**
 * Reads the configuration of a deployed `TrustGated` gate: which oracle it reads, its policy, and the agent
 * domain (chain id and registry) under which it looks agents up.
 *
 * @packageDocumentation
 */
import type { Address, BlockTag } from "viem";
import { getBlock, getBlockNumber, readContract } from "viem/actions";
import { GateReadError, type InvalidArgumentError, messageOf } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import type { TrustPolicy } from "../policy.js";
import { trustGatedAbi } from "./gate-abi.js";
import type { AnyClient } from "./client.js";

/** A gate's configuration as read from the chain. */
export interface GatePolicy {
  /** The gate. */
  readonly gate: Address;
  /** The oracle the gate reads. */
  readonly oracle: Address;
  /** The gate's policy. */
  readonly policy: TrustPolicy;
  /** The chain id under which the gate looks agents up in the oracle. */
  readonly agentChainId: number;
  /** The registry name under which the gate looks agents up. */
  readonly agentRegistry: string;
  /** The ERC-8004 identity registry of the controller check (the zero address when none). */
  readonly identityRegistry: Address;
  /** The block the configuration was read at. */
  readonly blockNumber: bigint;
}

/** Parameters of {@link readGatePolicy}: the gate, and the block to read at (the shape of `readTrustRecord`'s). */
export interface ReadGatePolicyParameters {
  /** The gate (any contract inheriting `TrustGated`). */
  readonly gate: string;
  /** Block to read at; default the latest block (all four views are read at the same block). */
  readonly blockNumber?: bigint | undefined;
  /** Read at a block tag instead (its number is fetched first, so all views still see one block). */
  readonly blockTag?: BlockTag | undefined;
}

/** What {@link readGatePolicy} throws: a bad address, or no gate read at it. */
export type ReadGatePolicyErrorType = InvalidArgumentError | GateReadError;

/**
 * Reads a deployed gate's oracle, policy, agent domain and identity registry, all at one block.
 *
 * @param client - A viem client.
 * @param parameters - The gate, and the block to read at.
 * @returns The gate's configuration.
 * @throws {@link InvalidArgumentError} for a bad address; {@link GateReadError} (`GATE_READ_FAILED`) when the
 *   address holds no gate (no code, or the views revert or answer garbage) or the RPC request fails.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { readGatePolicy } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const gate = await readGatePolicy(client, { gate: "0xYourGate" }); // oracle, policy and agent domain, at one block
 * console.log(gate.oracle, gate.policy.minScore, gate.agentChainId, gate.agentRegistry);
 * ```
 */
export async function readGatePolicy(client: AnyClient, parameters: ReadGatePolicyParameters): Promise<GatePolicy> {
  const gate = parseAddress(parameters?.gate, "gate");
  try {
    const blockNumber =
      parameters.blockNumber ??
      (parameters.blockTag === undefined
        ? await getBlockNumber(client, { cacheTime: 0 })
        : (await getBlock(client, { blockTag: parameters.blockTag })).number);
    if (blockNumber === null) throw new Error(`block "${parameters.blockTag}" has no number yet`);
    const at = { blockNumber };
    const read = <const name extends "trustOracle" | "trustPolicy" | "agentDomain" | "identityRegistry">(functionName: name) =>
      readContract(client, { address: gate, abi: trustGatedAbi, functionName, ...at });
    const [oracle, policy, [agentChainId, agentRegistry], identityRegistry] = await Promise.all([
      read("trustOracle"),
      read("trustPolicy"),
      read("agentDomain"),
      read("identityRegistry"),
    ]);
    if (agentChainId > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new Error(`the gate's agent chain id ${agentChainId} is not a usable chain id`);
    }
    return {
      gate,
      oracle,
      policy: {
        minScore: policy.minScore,
        maxSybilSeverity: policy.maxSybilSeverity,
        maxAge: policy.maxAge,
        requireController: policy.requireController,
      },
      agentChainId: Number(agentChainId),
      agentRegistry,
      identityRegistry,
      blockNumber: at.blockNumber,
    };
  } catch (error) {
    throw new GateReadError(gate, `Could not read the TrustGated configuration of ${gate}: ${messageOf(error)}`, {
      details: "Check that the address is a TrustGated gate on this chain.",
      cause: error,
    });
  }
}
