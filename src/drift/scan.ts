/**
 * The drift scan of an explicit list of agents: the pipeline ({@link runScan}) with the list as its
 * enumeration and every agent's signed attestation fetched.
 *
 * @packageDocumentation
 */
import type { AgentRef } from "../agent/agent-ref.js";
import { type DriftScanOptions, runScan, type ScanResult } from "./pipeline.js";
import { enumerateList } from "./stages/enumerate.js";

/**
 * Scans an explicit list of agents.
 *
 * @param agents - The agents.
 * @param options - Chain, oracle, API, verification, rule and limits.
 * @returns Rows (agents on EVM chains first, in input order), oracle reads and timings.
 */
export async function scanAgents(agents: readonly AgentRef[], options: DriftScanOptions): Promise<ScanResult> {
  return runScan({ enumerate: async () => enumerateList(agents), triage: "all" }, options);
}
