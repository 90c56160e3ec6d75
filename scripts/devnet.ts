/**
 * Starts the drift job's embedded environment from the command line — a local Base simulation (chain 8453,
 * oracle at the Base address holding last night's snapshot) on a loopback RPC URL, and the local signing
 * service whose data has moved on since — prints where they are, and keeps them running until SIGINT or
 * SIGTERM, so that the drift job can be run against them from another terminal:
 *
 *   npx tsx scripts/devnet.ts [--seed 1] [--size 3000] [--stale-chain polygon|none] [--delisted 5]
 *                             [--api-port 0] [--no-faults] [--rate-limit]
 *
 * @packageDocumentation
 */

import { parseArgs } from "node:util";
import { releaseFreedNativeMemory } from "../src/cli/heap.js";
import { TrustgateError } from "../src/errors.js";
import {
  DEFAULT_DELISTED,
  DEFAULT_EMBEDDED_SIZE,
  DEFAULT_STALE_CHAIN,
  startEmbeddedDriftEnvironment,
} from "../src/harness/devnet/embedded-drift.js";
import { integerFlag } from "./lib/integer-flag";
import { stopOnSignal } from "./lib/stop-on-signal";

const USAGE = `Usage: npx tsx scripts/devnet.ts [options]

Starts a local Base simulation (chain 8453) whose oracle holds last night's snapshot, and the local signing
service whose data has moved on since, then waits for Ctrl-C.

Options:
  --seed <n>            Seed of the data (default 1)
  --size <n>            Agents in the snapshot (default ${DEFAULT_EMBEDDED_SIZE})
  --stale-chain <slug>  Chain whose on-chain records are 3 days old, or "none" (default ${DEFAULT_STALE_CHAIN})
  --delisted <n>        Agents on-chain that the service no longer knows (default ${DEFAULT_DELISTED})
  --api-port <n>        Port of the service (default 0: a free port)
  --no-faults           Do not inject the tampered signatures and the malformed answer
  --rate-limit          Enforce the service's 30 / 300 requests-per-minute limits (default: none)
  -h, --help            Show this help`;

/**
 * The drift command printed for the user to copy: with `--rpc`/`--api` the drift job requires `--agents` or
 * `--all`, so `--all` is part of it; and since the job keeps to the real service's 30 requests a minute unless
 * told otherwise, `--rate` matches the local service's (none, unless started with `--rate-limit`).
 * test/harness/devnet/devnet-script.test.ts runs it as printed.
 */
function driftCommand(rpcUrl: string, apiUrl: string, rateLimited: boolean): string {
  return `npx trustgate drift --rpc ${rpcUrl} --api ${apiUrl} --all${rateLimited ? "" : " --rate 60000"}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: "string" },
      size: { type: "string" },
      "stale-chain": { type: "string" },
      delisted: { type: "string" },
      "api-port": { type: "string" },
      "no-faults": { type: "boolean", default: false },
      "rate-limit": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const staleChain = values["stale-chain"];
  const started = performance.now();
  const env = await startEmbeddedDriftEnvironment({
    seed: integerFlag("seed", values.seed, 1, 0, Number.MAX_SAFE_INTEGER),
    size: integerFlag("size", values.size, DEFAULT_EMBEDDED_SIZE, 0, 200_000),
    staleChain: staleChain === "none" ? null : staleChain,
    delisted: integerFlag("delisted", values.delisted, DEFAULT_DELISTED, 0, 10_000),
    faults: !values["no-faults"],
    ...(values["rate-limit"] ? {} : { rateLimit: false as const }),
    service: { port: integerFlag("api-port", values["api-port"], 0, 0, 65_535) },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { expectations: x } = env;

  console.log(`Local Base simulation (chain ${env.chainId})`);
  console.log(`  RPC URL:   ${env.rpcUrl}`);
  console.log(`  oracle:    ${env.oracle}`);
  console.log(`  registry:  ${env.identityRegistry}`);
  console.log(`Local trust service`);
  console.log(`  API URL:   ${env.apiUrl}`);
  console.log(`  JWKS URL:  ${env.jwksUrl}`);
  console.log(`  issuer:    ${env.issuer}`);
  console.log(`Scenario (seed ${env.snapshot.seed}, started in ${seconds} s)`);
  console.log(`  snapshot:  ${env.snapshot.size} agents published on-chain, dated ${env.snapshotAt.toISOString()}`);
  console.log(
    `  served:    advanced to ${env.served.at.toISOString()}: ${x.changedKeys.length} changed, ` +
      `${x.addedKeys.length} new (not on-chain)`,
  );
  console.log(
    x.staleChain === undefined
      ? "  stale:     none"
      : `  stale:     ${x.staleKeys.length} ${x.staleChain} records dated ${x.staleUpdatedAt!.toISOString()}`,
  );
  console.log(`  delisted:  ${x.delistedKeys.length ? x.delistedKeys.join(", ") : "none"}`);
  const faults = x.faults.map((f) => `${f.kind} ×${f.times ?? "∞"} on ${f.path ?? "/api/"}`);
  console.log(`  faults:    ${faults.length ? faults.join(", ") : "none"}`);
  console.log("");
  console.log("In another terminal:");
  console.log(`  ${driftCommand(env.rpcUrl, env.apiUrl, values["rate-limit"])}`);
  console.log("Ctrl-C stops.");

  stopOnSignal(() => env.close());
}

// The chain runs in this process: its EVM's allocator returns freed memory at once, as the trustgate program's does.
releaseFreedNativeMemory();
main().catch((error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
  else console.error(error instanceof TrustgateError ? `error: ${error.message}` : error);
  process.exit(2);
});
