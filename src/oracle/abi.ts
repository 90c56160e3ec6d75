/**
 * ABIs of the trust oracle, generated from the compiled contracts (`src/generated/abis.ts`, written by
 * `npm run generate`): the Base oracle's read ABI (`ITrustOracle`), the reference oracle's whole ABI
 * (`TrustScoreOracle`) and the errors a read of the kit's mock oracle can revert with. The two the package publishes
 * are named here again, so that their documentation (with an example) lives beside the kit's code, not in the
 * generated file.
 *
 * @packageDocumentation
 */
import { attestedTrustOracleAbi as generatedAttestedTrustOracleAbi, trustOracleAbi as generatedTrustOracleAbi } from "../generated/abis.js";

export { trustOracleReadErrorsAbi, trustScoreOracleAbi } from "../generated/abis.js";

/**
 * The read ABI of the oracle deployed on Base (`ITrustOracle`): `getScore`, `hasScore`, `meetsThreshold`,
 * `agentCount`. Served identically by the reference oracle and the mock.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { BASE_TRUST_ORACLE_ADDRESS, trustOracleAbi } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const agents = await client.readContract({ address: BASE_TRUST_ORACLE_ADDRESS, abi: trustOracleAbi, functionName: "agentCount" });
 * const [score, tier, sybilSeverity, updatedAt] = await client.readContract({
 *   address: BASE_TRUST_ORACLE_ADDRESS,
 *   abi: trustOracleAbi,
 *   functionName: "getScore",
 *   args: [16907n, 8453n, "erc8004"],
 * });
 * ```
 */
export const trustOracleAbi = generatedTrustOracleAbi;

/**
 * The attested oracle (`AttestedTrustOracle`, whole ABI so that AccessControl's errors decode too): the Base oracle's
 * read ABI, answered with the fresher of its own record and its upstream's, plus the submission functions (the
 * service's signed trust-check attestations verified on-chain), the admin's signing keys and chain slugs, the record
 * and key events, and every error a submission reverts with.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { attestedTrustOracleAbi } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const upstream = await client.readContract({ address: "0xYourAttestedOracle", abi: attestedTrustOracleAbi, functionName: "upstream" });
 * ```
 */
export const attestedTrustOracleAbi = generatedAttestedTrustOracleAbi;
