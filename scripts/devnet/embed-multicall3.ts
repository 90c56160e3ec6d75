/**
 * Former name of `scripts/devnet/embed-bytecode.ts`, kept because messages and notes name it: writes every
 * embedded runtime bytecode, Multicall3's included (`src/devnet/multicall3-bytecode.ts`).
 * `npx hardhat compile && npx tsx scripts/devnet/embed-multicall3.ts`.
 */
import "./embed-bytecode";
