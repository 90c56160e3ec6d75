/**
 * Creation code of the kit's Multicall3 (`contracts/utils/Multicall3.sol`, the canonical Multicall3 ABI), which
 * the oracle reader sends in deployless `eth_call`s on a chain without Multicall3: the call runs it without
 * deploying anything. Generated from the compiled artifact into `src/generated/creation-bytecode.ts` by
 * `npm run generate`.
 *
 * @packageDocumentation
 */
export { MULTICALL3_CREATION_CODE } from "../generated/creation-bytecode.js";
