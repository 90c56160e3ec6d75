/**
 * `npm run devnet:base`: serves a Base to fork on loopback (the local simulation with its seeded agents, records and
 * registry owners, mined up to the pinned fork block), prints the `BASE_RPC_URL` to give fork suites, and keeps it
 * running until SIGINT or SIGTERM:
 *
 *   npx tsx scripts/devnet-base.ts [--fork-block 44000000] [--agents 24]
 *
 * Real Base is not involved: this is how fork suites (startBaseContext in fork mode, forge's createSelectFork) run
 * without a Base RPC node.
 *
 * @packageDocumentation
 */
import { parseArgs } from "node:util";
import { releaseFreedNativeMemory } from "../src/cli/heap.js";
import { TrustgateError } from "../src/errors.js";
import { startForkableBase } from "../src/harness/devnet/forkable-base.js";
import { DEFAULT_SIMULATED_AGENTS } from "../src/harness/devnet/seeded-population.js";
import { DEFAULT_BASE_FORK_BLOCK } from "../src/harness/testing/fork-block.js";
import { integerFlag } from "./lib/integer-flag";
import { stopOnSignal } from "./lib/stop-on-signal";

const USAGE = `Usage: npx tsx scripts/devnet-base.ts [options]

Serves a Base to fork on 127.0.0.1 (chain 8453, the oracle and the ERC-8004 registry at their Base addresses,
seeded agents and records), mined up to the fork block, then waits for Ctrl-C.

Options:
  --fork-block <n>  Block to mine up to (default ${DEFAULT_BASE_FORK_BLOCK}, the pinned one fork suites use)
  --agents <n>      Agents registered and scored (default ${DEFAULT_SIMULATED_AGENTS})
  -h, --help        Show this help`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "fork-block": { type: "string" },
      agents: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const forkBlock = integerFlag("fork-block", values["fork-block"], DEFAULT_BASE_FORK_BLOCK, 1, Number.MAX_SAFE_INTEGER);
  const target = await startForkableBase({ forkBlock, agents: integerFlag("agents", values.agents, DEFAULT_SIMULATED_AGENTS, 1, 10_000) });
  const blockEnv = forkBlock === DEFAULT_BASE_FORK_BLOCK ? "" : ` BASE_FORK_BLOCK=${forkBlock}`;
  console.log(`Base to fork (local simulation, chain ${target.simulation.chainId}; not real Base)`);
  console.log(`  RPC URL:     ${target.rpcUrl}`);
  console.log(`  fork block:  ${target.forkBlock}`);
  console.log(`  oracle:      ${target.simulation.oracle} (${target.records.length} records)`);
  console.log(`  registry:    ${target.simulation.identityRegistry} (agents 1-${target.owners.size})`);
  console.log("");
  console.log("In another terminal:");
  console.log(`  BASE_RPC_URL=${target.rpcUrl}${blockEnv} npx vitest run test/harness/testing/base-context.test.ts`);
  console.log(`  BASE_RPC_URL=${target.rpcUrl}${blockEnv} npm run test:forge`);
  console.log("Ctrl-C stops.");
  stopOnSignal(() => target.close());
}

// The chain runs in this process: its EVM's allocator returns freed memory at once, as the trustgate program's does.
releaseFreedNativeMemory();
main().catch((error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
  else console.error(error instanceof TrustgateError ? `error: ${error.message}` : error);
  process.exit(2);
});
