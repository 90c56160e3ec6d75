/**
 * From the command line's source of `trustgate refresh` (`--from`, `--watch`, `--state`, `--gate`) to the
 * `RefreshSource` the library resolves (`src/refresh/source.ts`): the files read here (a report or a watch list that
 * cannot be read is a usage error naming the option), and the fresh drift run set up as `trustgate drift` would be with
 * the same endpoints — the issuer the origin of `--api`, the JWKS `<api>/.well-known/jwks.json`, the staleness limit
 * `--max-age` (default 36 h), drift's concurrency, error limit and encoding.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { JWKS_PATH } from "../config/service.js";
import { createTrustEncoding } from "../config/encodings.js";
import { DEFAULT_MAX_AGE_SECONDS } from "../drift/config.js";
import { DEFAULT_ERROR_LIMIT } from "../drift/error-limit.js";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { readRefreshInputReport } from "../refresh/report-input.js";
import type { RefreshDriftSetup, RefreshSource } from "../refresh/source.js";
import { readWatchList } from "../refresh/watch-list.js";
import { DEFAULT_SERVICE_CONCURRENCY } from "./drift-options.js";
import type { RefreshRunArgs } from "./refresh-args.js";

/**
 * Builds the source of a refresh run from its arguments.
 *
 * @param args - The run's arguments.
 * @param readFile - Reads a file as UTF-8 text (default `fs.readFileSync`).
 * @returns The source.
 * @throws {@link InvalidArgumentError} for a `--from` or `--watch` file that cannot be read or whose content is
 *   refused, naming the option and the file; for the source of `drift --refresh`, whose report is in hand already.
 */
export function refreshSourceOf(
  args: RefreshRunArgs,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): RefreshSource {
  const { source } = args;
  const read = (flag: string, file: string, what: string): string => {
    try {
      return readFile(file);
    } catch (error) {
      throw new InvalidArgumentError(`--${flag} ${file}: cannot read the ${what} (${messageOf(error)})`);
    }
  };
  if (source.kind === "report") {
    return { kind: "report", report: readRefreshInputReport(read("from", source.file, "drift report"), `--from ${source.file}`) };
  }
  if (source.kind === "drift")
    throw new InvalidArgumentError("drift --refresh plans from the scan's own report, not from a source to resolve");
  const drift = driftSetupOf(args, source.ratePerMinute);
  if (source.kind === "watch") {
    const list = readWatchList(read("watch", source.file, "watch list"), `--watch ${source.file}`);
    const given = args.endpoints?.attestedOracle;
    if (given !== undefined && list.attestedOracle !== undefined && given.toLowerCase() !== list.attestedOracle.toLowerCase()) {
      throw new InvalidArgumentError(
        `--watch ${source.file} lists the records of ${list.attestedOracle}, not --attested-oracle ${given}: give one of them, or the same`,
      );
    }
    const attestedOracle = given ?? list.attestedOracle;
    if (attestedOracle === undefined) {
      throw new InvalidArgumentError("--watch reads and pushes to an attested oracle: give it with --attested-oracle <address>");
    }
    return {
      kind: "watch",
      agents: list.agents,
      attestedOracle,
      ...(list.chainId !== undefined ? { chainId: list.chainId } : {}),
      ...(source.oracle !== undefined ? { oracle: source.oracle } : {}),
      ...(source.threshold !== undefined ? { threshold: source.threshold } : {}),
      drift,
    };
  }
  if (source.kind === "state") {
    const { encoding: _encoding, ...rest } = drift;
    return {
      kind: "state",
      path: source.file,
      ...(args.endpoints?.attestedOracle !== undefined ? { attestedOracle: args.endpoints.attestedOracle } : {}),
      drift: rest,
    };
  }
  return {
    kind: "gate",
    gate: source.gate,
    ...(source.eventsFromBlock !== undefined ? { eventsFromBlock: source.eventsFromBlock } : {}),
    drift,
  };
}

function driftSetupOf(args: RefreshRunArgs, ratePerMinute: number | undefined): RefreshDriftSetup {
  const endpoints = args.endpoints;
  if (!endpoints) throw new InvalidArgumentError(`--${args.source.kind} runs a fresh drift: give --rpc and --api`);
  return {
    rpcUrl: endpoints.rpcUrl,
    apiUrl: endpoints.apiUrl,
    issuer: endpoints.issuer ?? new URL(endpoints.apiUrl).origin,
    jwks: endpoints.jwks ?? `${endpoints.apiUrl.replace(/\/+$/, "")}${JWKS_PATH}`,
    maxAgeSeconds: args.plan.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS,
    concurrency: DEFAULT_SERVICE_CONCURRENCY,
    encoding: createTrustEncoding(),
    maxErrors: DEFAULT_ERROR_LIMIT,
    ...(endpoints.apiKey !== undefined ? { apiKey: endpoints.apiKey } : {}),
    ...(endpoints.acceptedKids !== undefined ? { acceptedKids: endpoints.acceptedKids } : {}),
    ...(ratePerMinute !== undefined ? { ratePerMinute } : {}),
  };
}
