/**
 * The arguments of `trustgate doctor`: parsed with `node:util` `parseArgs` (strict) into a {@link DoctorConfig} and
 * where the report goes.
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
import { parseArgs } from "node:util";
import { type AgentRef, parseAgentRefList } from "../agent/agent-ref.js";
import { TRUST_CHECK_COUNT } from "../doctor/service-probe.js";
import type { DoctorConfig } from "../doctor/run.js";
import { InvalidArgumentError } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { parseCanonicalId } from "../inputs/mcp-server.js";
import { parseEndpointUrl } from "../security/endpoint-url.js";
import { parseJwksArgument } from "./jwks-argument.js";
import { translateParseArgsError } from "./parse-args-error.js";
import { API_KEY_ENV, parseApiKey, parseEncoding, parseTimeout } from "./shared-args.js";

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

const OPTIONS = {
  api: { type: "string" },
  rpc: { type: "string" },
  oracle: { type: "string" },
  issuer: { type: "string" },
  jwks: { type: "string" },
  "api-key": { type: "string" },
  agents: { type: "string" },
  "mcp-server": { type: "string" },
  "tier-encoding": { type: "string" },
  "sybil-encoding": { type: "string" },
  timeout: { type: "string" },
  json: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Long option names of `trustgate doctor`, for suggestions. */
export const DOCTOR_OPTION_NAMES: readonly string[] = Object.keys(OPTIONS);

function parseDoctorOptions(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
}

/**
 * Parses and validates the arguments of `trustgate doctor`.
 *
 * @param argv - The arguments after `doctor`.
 * @param options - Environment and file reader.
 * @returns `{ kind: "help" }` for `--help`, else the validated run arguments.
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, a missing
 *   `--api`, a bad URL, address, agent list, MCP server, encoding or time limit, or an unreadable `--jwks` file.
 */
export function parseDoctorArgs(argv: readonly string[], options: ParseDoctorArgsOptions = {}): DoctorArgs {
  const env = options.env ?? process.env;
  let values: ReturnType<typeof parseDoctorOptions>;
  try {
    values = parseDoctorOptions(argv);
  } catch (error) {
    throw translateParseArgsError(error, argv, DOCTOR_OPTION_NAMES, "trustgate doctor");
  }
  if (values.help) return { kind: "help" };
  if (values.api === undefined) {
    throw new InvalidArgumentError("Give the trust service to check with --api <url> (for example --api https://rnwy.com)");
  }
  const apiUrl = parseEndpointUrl(values.api, { name: "--api", protocols: ["http:", "https:"] }).replace(/\/+$/, "");
  const rpcUrl =
    values.rpc === undefined ? undefined : parseEndpointUrl(values.rpc, { name: "--rpc", protocols: ["http:", "https:", "ws:", "wss:"] });
  const issuer =
    values.issuer === undefined
      ? undefined
      : parseEndpointUrl(values.issuer, { name: "--issuer", protocols: ["http:", "https:"] }).replace(/\/+$/, "");
  const jwks = values.jwks === undefined ? undefined : parseJwksArgument(values.jwks, options.readFile);
  const oracle = values.oracle === undefined ? undefined : parseAddress(values.oracle, "--oracle");
  if (oracle !== undefined && rpcUrl === undefined) {
    throw new InvalidArgumentError("--oracle names an oracle on the chain of --rpc: give --rpc too");
  }
  const apiKey = parseApiKey(values["api-key"], env[API_KEY_ENV]);
  const agents = values.agents === undefined ? undefined : parseAgents(values.agents);
  const mcpServer = values["mcp-server"] === undefined ? undefined : parseCanonicalId(values["mcp-server"], "--mcp-server");
  const encoding =
    values["tier-encoding"] === undefined && values["sybil-encoding"] === undefined
      ? undefined
      : parseEncoding(values["tier-encoding"], values["sybil-encoding"]);
  const timeoutMs = values.timeout === undefined ? undefined : parseTimeout(values.timeout);
  const json = values.json === undefined ? undefined : values.json.trim();
  if (json === "") throw new InvalidArgumentError('--json needs a file name or "-"');

  const config: DoctorConfig = {
    apiUrl,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(jwks !== undefined ? { jwks: jwks as DoctorConfig["jwks"] } : {}),
    ...(rpcUrl !== undefined ? { rpcUrl } : {}),
    ...(oracle !== undefined ? { oracle } : {}),
    ...(encoding !== undefined ? { encoding } : {}),
    ...(agents !== undefined ? { agents } : {}),
    ...(mcpServer !== undefined ? { mcpServer } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
  return { kind: "run", config, ...(json !== undefined ? { json } : {}) };
}

/** `--agents`: one or two EVM agents, `chain:id[:registry]`. */
function parseAgents(text: string): AgentRef[] {
  const agents = parseAgentRefList(text, "--agents");
  if (agents.length > TRUST_CHECK_COUNT) {
    throw new InvalidArgumentError(`--agents takes at most ${TRUST_CHECK_COUNT} agents (one trust-check each), got ${agents.length}`);
  }
  const solana = agents.find((agent) => agent.chainId === null);
  if (solana) throw new InvalidArgumentError(`--agents: ${solana.chain} is not an EVM chain, the oracle holds no records for it`);
  return agents;
}
