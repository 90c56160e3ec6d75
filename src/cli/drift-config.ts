/**
 * Completes the command line's drift arguments into a {@link DriftConfig}: endpoints not given come from
 * the embedded environment, the issuer from the API's origin, the JWKS from the API.
 *
 * @packageDocumentation
 */
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import { JWKS_PATH } from "../config/service.js";
import type { DriftConfig } from "../drift/config.js";
import { InvalidArgumentError } from "../errors.js";
import type { DriftRunArgs } from "./drift-args.js";

/**
 * Client-side request limit used against the embedded service when `--rate` is not given: that service has
 * no rate limit, and the default for the real one (30 a minute without a key) would make the embedded
 * default scan take half an hour.
 */
export const EMBEDDED_RATE_PER_MINUTE = 60_000;

/**
 * What the state file records for the embedded trust service instead of its URL: it takes a free loopback port each
 * run, and a state written by one `--demo` run must serve the next.
 */
export const EMBEDDED_SERVICE_IDENTITY = "embedded:demo";

/** The endpoints of an embedded drift environment (local chain and local trust service). */
export interface EmbeddedEndpoints {
  readonly rpcUrl: string;
  readonly oracle: `0x${string}`;
  readonly apiUrl: string;
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Records per `eth_call` the embedded chain is best read with (`DriftConfig.readChunkSize`); default the reader's. */
  readonly readChunkSize?: number | undefined;
}

/**
 * Builds the drift configuration.
 *
 * - chain: `--rpc`, else the embedded chain; oracle: `--oracle`, else the embedded oracle when the chain is
 *   embedded, else the Base oracle; attested oracle: `--attested-oracle`, else none (records read from the oracle);
 * - service: `--api`, else the embedded service; issuer: `--issuer`, else the origin of `--api` (or the
 *   embedded issuer); JWKS: `--jwks`, else `<api>/.well-known/jwks.json` (or the embedded JWKS);
 * - rate: `--rate`, else {@link EMBEDDED_RATE_PER_MINUTE} against the embedded service, else the client's
 *   default (30 or 300 a minute, by API key);
 * - the embedded service is recorded in the state file as {@link EMBEDDED_SERVICE_IDENTITY}, not by its URL;
 * - the embedded chain is read in the calls it asks for (`readChunkSize`).
 *
 * @param args - Validated `trustgate drift` arguments.
 * @param embedded - The embedded environment; required when `--rpc` or `--api` was not given.
 * @returns The configuration `runDrift` takes.
 * @throws {@link InvalidArgumentError} when an endpoint is missing and no embedded environment is given.
 */
export function resolveDriftConfig(args: DriftRunArgs, embedded?: EmbeddedEndpoints): DriftConfig {
  const { endpoints } = args;
  const rpcUrl = endpoints.rpcUrl ?? embedded?.rpcUrl;
  const apiUrl = endpoints.apiUrl ?? embedded?.apiUrl;
  if (rpcUrl === undefined || apiUrl === undefined) {
    throw new InvalidArgumentError(`No ${rpcUrl === undefined ? "--rpc" : "--api"} given and no embedded environment to stand in for it`);
  }
  const apiGiven = endpoints.apiUrl !== undefined;
  const oracle = endpoints.oracle ?? (endpoints.rpcUrl === undefined ? embedded!.oracle : BASE_TRUST_ORACLE_ADDRESS);
  const issuer = endpoints.issuer ?? (apiGiven ? new URL(apiUrl).origin : embedded!.issuer);
  const jwks = endpoints.jwks ?? (apiGiven ? `${apiUrl.replace(/\/+$/, "")}${JWKS_PATH}` : embedded!.jwksUrl);
  const rate = args.settings.ratePerMinute === undefined && !apiGiven ? { ratePerMinute: EMBEDDED_RATE_PER_MINUTE } : {};
  const identity = apiGiven ? {} : { serviceIdentity: EMBEDDED_SERVICE_IDENTITY };
  const attested = endpoints.attestedOracle === undefined ? {} : { attestedOracle: endpoints.attestedOracle };
  const chunk = endpoints.rpcUrl === undefined && embedded?.readChunkSize !== undefined ? { readChunkSize: embedded.readChunkSize } : {};
  return { ...args.settings, ...rate, rpcUrl, oracle, ...attested, ...chunk, apiUrl, issuer, ...identity, jwks };
}
