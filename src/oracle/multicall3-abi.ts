/**
 * The whole Multicall3 ABI (`0xcA11bde05977b3631167028862bE2a173976CA11` on Base and most EVM chains), generated
 * from the kit's own `contracts/utils/Multicall3.sol` (`src/generated/abis.ts`, written by `npm run generate`).
 * viem's `multicall3Abi` has only `aggregate3`, `getEthBalance` and `getCurrentBlockTimestamp`; the kit's local
 * networks and tests use the other functions too.
 *
 * @packageDocumentation
 */
export { multicall3Abi } from "../generated/abis.js";
