/**
 * ABIs of the trust oracle, generated from the compiled contracts (`src/generated/abis.ts`, written by
 * `npm run generate`): the Base oracle's read ABI (`ITrustOracle`), the reference oracle's whole ABI
 * (`TrustScoreOracle`) and the errors a read of the kit's mock oracle can revert with.
 *
 * @packageDocumentation
 */
export { attestedTrustOracleAbi, trustOracleAbi, trustOracleReadErrorsAbi, trustScoreOracleAbi } from "../generated/abis.js";
