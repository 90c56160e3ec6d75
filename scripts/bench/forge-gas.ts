/**
 * The gate's gas under forge: `scripts/bench/foundry/GateGas.t.sol` builds the same contracts and calls as
 * `measureGateGas` (Hardhat) and reads each steady-state call's gas with `vm.lastCallGas()` under `--isolate`, where
 * forge runs every top-level call as its own transaction — so the figure is the whole transaction's, as Hardhat's
 * receipt gives it.
 *
 * @packageDocumentation
 */
import { execFileSync } from "node:child_process";
import { FORGE_SOLC_SHIM, locateForge, REPO_ROOT } from "../lib/forge-binary";

/** Gas per gate, by the names the forge test logs (`baseline`, `all`, `owner`, `wallet`). */
export type ForgeGateGas = Readonly<Record<string, number>>;

/**
 * Runs the forge gas test.
 *
 * @returns The gas per gate, or why forge could not run.
 */
export function measureForgeGateGas(): { readonly ok: true; readonly gas: ForgeGateGas } | { readonly ok: false; readonly reason: string } {
  const forge = locateForge();
  if (!forge.ok) return forge;
  const out = execFileSync(forge.path, ["test", "--offline", "--use", FORGE_SOLC_SHIM, "--isolate", "--json", "-vv"], {
    cwd: REPO_ROOT,
    env: { ...process.env, FOUNDRY_TEST: "scripts/bench/foundry" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });
  const suites = JSON.parse(out) as Record<string, { test_results: Record<string, { status: string; decoded_logs: string[] }> }>;
  const result = Object.values(suites)[0]?.test_results["test_gateGas()"];
  if (!result || result.status !== "Success")
    return { ok: false, reason: `forge's gas test did not pass: ${JSON.stringify(result ?? null)}` };
  const gas: Record<string, number> = {};
  for (const line of result.decoded_logs) {
    const match = /^(\w+): (\d+)$/.exec(line.trim());
    if (match) gas[match[1]!] = Number(match[2]);
  }
  return { ok: true, gas };
}
