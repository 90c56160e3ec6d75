/**
 * Starts the drift job's embedded environment from the command line — a local Base simulation (chain 8453,
 * oracle at the Base address holding last night's snapshot) on a loopback RPC URL, and the local signing
 * service whose data has moved on since — prints where they are, and keeps them running until SIGINT or
 * SIGTERM, so that the drift job can be run against them from another terminal:
 *
 *   npx tsx scripts/devnet.ts [--seed 1] [--size 3000] [--stale-chain polygon|none] [--delisted 5]
 *                             [--api-port 0] [--no-faults] [--no-rate-limit]
 *
 * The service keeps and announces the documented limits by default (30 requests a minute anonymous, 300 with any API
 * key, `POST /api/risk-terms` 5 and 60), as the real service is assumed to: `trustgate doctor` against it holds, and
 * the drift job's client follows what it announces, so that the nightly recipe runs against it as written, with
 * `TRUSTGATE_API_KEY` set to any value. `--no-rate-limit` serves without limits, for quick local runs (the drift
 * command printed then adds `--rate 60000`, since the client would otherwise keep to 30 a minute).
 *
 * @packageDocumentation
 */

import { parseArgs } from "node:util";
import { releaseFreedNativeMemory } from "../src/cli/heap.js";
import { RATE_LIMITS } from "../src/config/service.js";
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
  --no-rate-limit       Serve without limits (default: 30 / 300 requests a minute, announced in every answer)
  -h, --help            Show this help`;

/**
 * The drift command printed for the user to copy: with `--rpc`/`--api` the drift job requires `--agents` or
 * `--all`, so `--all` is part of it. Against the limited service (the default) it needs nothing else: the client
 * follows the limit the service announces (300 a minute with a key: any key is accepted, given in the environment as
 * the nightly recipe does); without limits (`--no-rate-limit`) it adds `--rate 60000`, since the client would keep to
 * the assumed 30 a minute. test/harness/devnet/devnet-script.test.ts runs it as printed.
 */
function driftCommand(rpcUrl: string, apiUrl: string, rateLimited: boolean): string {
  const command = `npx trustgate drift --rpc ${rpcUrl} --api ${apiUrl} --all`;
  return rateLimited ? `${DEVNET_API_KEY_ENV} ${command}` : `${command} --rate 60000`;
}

/** The API key the printed command sets: the local service accepts any key, at the keyed limit (300 a minute). */
const DEVNET_API_KEY_ENV = "TRUSTGATE_API_KEY=local-devnet";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: "string" },
      size: { type: "string" },
      "stale-chain": { type: "string" },
      delisted: { type: "string" },
      "api-port": { type: "string" },
      "no-faults": { type: "boolean", default: false },
      "no-rate-limit": { type: "boolean", default: false },
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
    // The documented limits (the service's defaults), announced in every answer, unless --no-rate-limit.
    rateLimit: values["no-rate-limit"] ? false : { anonymousPerMinute: RATE_LIMITS.anonymous, keyedPerMinute: RATE_LIMITS.withApiKey },
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
  console.log(`  ${driftCommand(env.rpcUrl, env.apiUrl, !values["no-rate-limit"])}`);
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
