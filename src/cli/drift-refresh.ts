/**
 * `trustgate drift … --refresh`: the refresh after the scan. The scan's report goes as it is to the refresh's own run
 * (`refreshFromReport`: the plan of `src/refresh/plan.ts`, the sender of `refresh-connect.ts`), pushing to the attested
 * oracle the scan read, with the scan's endpoints (chain, service, issuer, JWKS, API key) and `trustgate refresh`'s
 * options given to drift (`--min-change`, `--gas-limit`, `--dry-run`, `--confirm-mainnet`; the scan's `--max-age` is
 * the plan's staleness limit, as it is for a report read with `--from`).
 *
 * @packageDocumentation
 */
import type { DriftConfig } from "../drift/config.js";
import type { DriftReport } from "../drift/types.js";
import { ConfigurationError } from "../errors.js";
import type { DriftRefreshArgs } from "./drift-args.js";
import type { CliIo } from "./io.js";
import type { RefreshRunArgs } from "./refresh-args.js";
import { type RefreshCommandDependencies, refreshFromReport } from "./refresh-command.js";

/**
 * Refreshes the scan's attested oracle from its report.
 *
 * @param report - The scan's report, with every row.
 * @param config - The scan's configuration (its endpoints and attested oracle).
 * @param refresh - What `--refresh` and its options ask.
 * @param cli - Streams and environment (stdout already moved to stderr when a document took it).
 * @param deps - The clock and the sender.
 * @returns The refresh's exit code: 0, or 3 when a due attestation was not pushed.
 * @throws {@link ConfigurationError} when the scan read no attested oracle, or the sender cannot start (no key, a
 *   mainnet without `--confirm-mainnet`), before anything is sent.
 */
export async function refreshAfterDrift(
  report: DriftReport,
  config: DriftConfig,
  refresh: DriftRefreshArgs,
  cli: CliIo,
  deps: RefreshCommandDependencies,
): Promise<number> {
  if (config.attestedOracle === undefined) {
    throw new ConfigurationError("--refresh pushes to the attested oracle the scan reads: give --attested-oracle <address>");
  }
  const args: RefreshRunArgs = {
    kind: "run",
    source: { kind: "drift" },
    plan: refresh.plan,
    dryRun: refresh.dryRun,
    confirmMainnet: refresh.confirmMainnet,
    ...(refresh.json !== undefined ? { json: refresh.json } : {}),
    sending: refresh.sending,
    key: refresh.key,
    endpoints: {
      rpcUrl: config.rpcUrl,
      apiUrl: config.apiUrl,
      issuer: config.issuer,
      jwks: config.jwks,
      attestedOracle: config.attestedOracle,
      ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
      ...(config.acceptedKids !== undefined ? { acceptedKids: config.acceptedKids } : {}),
    },
  };
  (refresh.json === "-" ? cli.stderr : cli.stdout).write("\nRefresh (--refresh):\n");
  const { exitCode } = await refreshFromReport(report, args, cli, deps, { kind: "drift", notes: [] });
  return exitCode;
}
