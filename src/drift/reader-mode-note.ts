/**
 * The drift report's note on how the oracle was read, when that was not through a deployed Multicall3.
 *
 * @packageDocumentation
 */
import type { OracleReaderMode, ReaderModeDetection } from "../oracle/reader-mode.js";

/** How each fallback mode is named in the note. */
const MODE_PHRASES: Readonly<Record<Exclude<OracleReaderMode, "multicall3">, string>> = {
  "deployless-multicall3": "deployless Multicall3 (aggregate3 batches in eth_calls carrying its creation code; nothing deployed)",
  "eth-call": "one eth_call per record",
};

/**
 * The note a report carries when the chain has no Multicall3: where it is missing, on which chain, and what the
 * reads used instead. For example `Multicall3 not deployed at 0xcA11… on chain 31337: reads used deployless
 * Multicall3 (…)`.
 *
 * @param reader - What the run's probe found.
 * @param chainId - The chain the oracle was read on.
 * @returns The note, or `null` in `multicall3` mode (nothing to say).
 */
export function readerModeNote(reader: ReaderModeDetection, chainId: number): string | null {
  if (reader.mode === "multicall3") return null;
  const why = reader.deploylessFailure === undefined ? "" : ` (a deployless Multicall3 call failed: ${reader.deploylessFailure})`;
  return `Multicall3 not deployed at ${reader.multicallAddress} on chain ${chainId}: reads used ${MODE_PHRASES[reader.mode]}${why}`;
}
