/**
 * Starts the kit's local signing service (a stand-in for the trust service's HTTP API) from the command
 * line and keeps it running until SIGINT or SIGTERM.
 *
 *   npx tsx scripts/serve-api.ts [--port 8787] [--host 127.0.0.1] [--seed 1] [--size 2000]
 *                                [--at <ISO time>] [--key-file <path>] [--issuer <url>] [--no-rate-limit]
 *
 * @packageDocumentation
 */

import { parseArgs } from "node:util";
import { jwksUrlOf } from "../src/config/service.js";
import { TrustgateError } from "../src/errors.js";
import { latestNightlyRun } from "../src/harness/devnet/nightly-snapshot.js";
import { createPopulation, startTrustService } from "../src/harness/service/index.js";
import { integerFlag } from "./lib/integer-flag";
import { stopOnSignal } from "./lib/stop-on-signal";

const USAGE = `Usage: npx tsx scripts/serve-api.ts [options]

Options:
  --port <n>         Port to listen on (default 8787; 0 picks a free one)
  --host <addr>      Address to listen on (default 127.0.0.1)
  --seed <n>         Seed of the synthetic population (default 1)
  --size <n>         Number of agents (default 2000)
  --at <time>        Time of the population's scoring run, ISO-8601 (default: the latest 03:00 UTC)
  --key-file <path>  Keep the signing keys in this JSON file (created on first start)
  --issuer <url>     Issuer written into attestations (default: the service's own origin)
  --no-rate-limit    Disable the 30/300 requests-per-minute limit
  -h, --help         Show this help`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      size: { type: "string" },
      at: { type: "string" },
      "key-file": { type: "string" },
      issuer: { type: "string" },
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
  const at = values.at === undefined ? latestNightlyRun(new Date()) : new Date(values.at);
  if (Number.isNaN(at.getTime())) throw new TrustgateError("INVALID_ARGUMENT", `--at must be an ISO-8601 time, got "${values.at}"`);
  const seed = integerFlag("seed", values.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const size = integerFlag("size", values.size, 2000, 0, 2_000_000);
  // The service documents' example agents (base 16907, base 1380) too, so that documented examples run against it.
  const population = createPopulation({ seed, size, at, documentedAgents: true });
  const service = await startTrustService({
    port: integerFlag("port", values.port, 8787, 0, 65_535),
    ...(values.host !== undefined ? { host: values.host } : {}),
    population,
    ...(values["key-file"] !== undefined ? { keyFile: values["key-file"] } : {}),
    ...(values.issuer !== undefined ? { issuer: values.issuer } : {}),
    ...(values["no-rate-limit"] ? { rateLimit: false as const } : {}),
  });
  console.log(`Trust service listening on ${service.url}`);
  console.log(`JWKS:       ${jwksUrlOf(service.url)}`);
  console.log(`Issuer:     ${service.issuer}`);
  console.log(`Population: seed ${seed}, ${population.size} agents, scored at ${population.at.toISOString()}`);
  console.log(`Rate limit: ${values["no-rate-limit"] ? "disabled" : "30/min anonymous, 300/min with a Bearer key"}`);
  console.log("Press Ctrl+C to stop.");

  stopOnSignal(() => service.close());
}

main().catch((error: unknown) => {
  if (error instanceof TrustgateError) {
    console.error(`error: ${error.message}`);
  } else if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    console.error(`error: ${error.message}\n\n${USAGE}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
