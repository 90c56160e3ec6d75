/**
 * The arguments of `trustgate doctor`, parsed from the option table of `doctor-options.ts` into a
 * {@link DoctorConfig} and where the report goes.
 *
 * Decisions:
 * - `--api` is required (there is no embedded service to check: the doctor is for the real one).
 * - `--rpc`, `--api`, `--issuer` and a `--jwks` URL are checked as drift checks them: no credentials, query or
 *   fragment (a key in the RPC URL's path is accepted and never shown).
 * - The API key comes from `--api-key`, else `TRUSTGATE_API_KEY`, as for drift; it is never printed.
 * - `--agents` names at most two agents (the trust-checks asked for); without it the listing's first ones are used.
 * - `--json -` puts the JSON on stdout and the table on stderr; `--json <file>` writes the file and the table goes to
 *   stdout.
 *
 * @packageDocumentation
 */
import type { DoctorConfig } from "../doctor/run.js";
import { InvalidArgumentError } from "../errors.js";
import { DOCTOR_OPTIONS } from "./doctor-options.js";
import { checkOptionScope, parseOptionValues, readRawOptions } from "./option-table.js";
import { API_KEY_ENV, encodingOf, parseApiKey } from "./shared-args.js";

/** A validated `trustgate doctor` invocation. */
export interface DoctorRunArgs {
  readonly kind: "run";
  /** What to check. */
  readonly config: DoctorConfig;
  /** `--json`: a file path, or `-` for stdout. */
  readonly json?: string;
}

/** What `trustgate doctor <argv>` asks for. */
export type DoctorArgs = { readonly kind: "help" } | DoctorRunArgs;

/** Surroundings of {@link parseDoctorArgs}. */
export interface ParseDoctorArgsOptions {
  /** Environment variables (`TRUSTGATE_API_KEY`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Reads a `--jwks` file as UTF-8 text; default `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
}

/**
 * Parses and validates the arguments of `trustgate doctor`.
 *
 * @param argv - The arguments after `doctor`.
 * @param options - Environment and file reader.
 * @returns `{ kind: "help" }` for `--help`, else the validated run arguments.
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, a missing
 *   `--api`, `--oracle` without `--rpc`, a bad URL, address, agent list, MCP server, encoding or time limit, or an
 *   unreadable `--jwks` file.
 */
export function parseDoctorArgs(argv: readonly string[], options: ParseDoctorArgsOptions = {}): DoctorArgs {
  const env = options.env ?? process.env;
  const raw = readRawOptions(DOCTOR_OPTIONS, argv, "trustgate doctor");
  if (raw.help) return { kind: "help" };
  if (raw.api === undefined) {
    throw new InvalidArgumentError("Give the trust service to check with --api <url> (for example --api https://rnwy.com)");
  }
  checkOptionScope(DOCTOR_OPTIONS, raw);
  const values = parseOptionValues(DOCTOR_OPTIONS, raw, options);
  const apiKey = values["api-key"] ?? parseApiKey(undefined, env[API_KEY_ENV]);
  const encodingGiven = values["tier-encoding"] !== undefined || values["sybil-encoding"] !== undefined;

  const config: DoctorConfig = {
    apiUrl: values.api!,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(values.issuer !== undefined ? { issuer: values.issuer } : {}),
    ...(values.jwks !== undefined ? { jwks: values.jwks as DoctorConfig["jwks"] } : {}),
    ...(values.rpc !== undefined ? { rpcUrl: values.rpc } : {}),
    ...(values.oracle !== undefined ? { oracle: values.oracle } : {}),
    ...(encodingGiven ? { encoding: encodingOf(values["tier-encoding"], values["sybil-encoding"]) } : {}),
    ...(values.agents !== undefined ? { agents: values.agents } : {}),
    ...(values["mcp-server"] !== undefined ? { mcpServer: values["mcp-server"] } : {}),
    ...(values.timeout !== undefined ? { timeoutMs: values.timeout } : {}),
  };
  return { kind: "run", config, ...(values.json !== undefined ? { json: values.json } : {}) };
}
