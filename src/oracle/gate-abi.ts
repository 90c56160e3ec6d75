/**
 * ABI of a deployed `TrustGated` gate, generated from `ITrustGated` (`src/generated/abis.ts`, written by
 * `npm run generate`), named here again so that its documentation (with an example) lives beside the kit's code.
 *
 * @packageDocumentation
 */
import { trustGatedAbi as generatedTrustGatedAbi } from "../generated/abis.js";

/**
 * The outside view of a `TrustGated` gate (`ITrustGated`): its oracle, policy, agent domain and identity registry, the
 * non-reverting `trustVerdict`, the owner's setters, the configuration events and the refusal errors (to name why a
 * gated call reverted).
 *
 * @example
 * ```ts
 * import { createPublicClient, decodeErrorResult, http } from "viem";
 * import { base } from "viem/chains";
 * import { trustGatedAbi } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const policy = await client.readContract({ address: "0xYourGate", abi: trustGatedAbi, functionName: "trustPolicy" });
 * // name why a gated call reverted, from its revert data
 * const refusal = (data: `0x${string}`) => decodeErrorResult({ abi: trustGatedAbi, data }).errorName;
 * ```
 */
export const trustGatedAbi = generatedTrustGatedAbi;
