/**
 * The options of `trustgate doctor`, declared once (see `option-table.ts`): the `parseArgs` configuration, the
 * options' part of `trustgate doctor --help`, the scope check and the type of the parsed values come from
 * {@link DOCTOR_OPTIONS}.
 *
 * @packageDocumentation
 */
import { type AgentRef, parseAgentRefList } from "../agent/agent-ref.js";
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import { TRUST_CHECK_COUNT } from "../doctor/service-probe.js";
import { InvalidArgumentError } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { parseCanonicalId } from "../inputs/mcp-server.js";
import { parseJwksArgument } from "./jwks-argument.js";
import { type CommandOption, formatOptionGroup, type OptionValues } from "./option-table.js";
import {
  parseApiKey,
  parseApiUrl,
  parseIssuerUrl,
  parseNonBlank,
  parseRpcUrl,
  parseSybilEncoding,
  parseTierEncoding,
  parseTimeout,
} from "./shared-args.js";

/** What the doctor options' `parse` functions need besides the value. */
export interface DoctorParseContext {
  /** Reads a `--jwks` file as UTF-8 text; default `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
}

/** Help sections of the doctor options, by key, with their titles (in the order they are shown). */
export const DOCTOR_HELP_GROUPS = {
  where: "Where to look:",
  ask: "What to ask about:",
  output: "Output:",
} as const;

/** One option of `trustgate doctor`. */
export type DoctorOption = CommandOption<DoctorParseContext> & { readonly group: keyof typeof DOCTOR_HELP_GROUPS };

/** The options of `trustgate doctor`, in the order the help lists them. */
export const DOCTOR_OPTIONS = [
  {
    name: "api",
    kind: "string",
    arg: "url",
    group: "where",
    description: "Trust API base URL (required; user:pass@, ?query, #fragment refused)",
    parse: parseApiUrl,
  },
  {
    name: "api-key",
    kind: "string",
    arg: "key",
    group: "where",
    description: "API key (default: $TRUSTGATE_API_KEY); never printed",
    parse: (value: string) => parseApiKey(value, undefined)!,
  },
  {
    name: "issuer",
    kind: "string",
    arg: "url",
    group: "where",
    description: "Issuer whose JWKS to use (default: the origin of --api)",
    parse: parseIssuerUrl,
  },
  {
    name: "jwks",
    kind: "string",
    arg: "url|file",
    group: "where",
    description:
      'JWKS to verify against (default: <issuer>/.well-known/jwks.json when --issuer is given, else <api>/.well-known/jwks.json); a file holds a JWKS as JSON ({"keys": [...]})',
    parse: (value: string, context: DoctorParseContext) => parseJwksArgument(value, context.readFile),
  },
  {
    name: "rpc",
    kind: "string",
    arg: "url",
    group: "where",
    description:
      "JSON-RPC URL of the chain with the oracle (a key in its path is accepted and never shown); enables onchain-encodings and onchain-p256, and onchain-submit forks it instead of starting an empty chain",
    parse: parseRpcUrl,
  },
  {
    name: "oracle",
    kind: "string",
    arg: "address",
    group: "where",
    description: `Oracle whose records are compared\n(default: ${BASE_TRUST_ORACLE_ADDRESS}, Base)`,
    scope: { needs: { option: "rpc", message: "--oracle names an oracle on the chain of --rpc: give --rpc too" } },
    parse: (value: string) => parseAddress(value, "--oracle"),
  },
  {
    name: "agents",
    kind: "string",
    arg: "list",
    group: "ask",
    description: "One or two agents for the trust-checks, chain:id[:registry],...\n(default: the first agents of the service's listing)",
    parse: parseTrustCheckAgents,
  },
  {
    name: "mcp-server",
    kind: "string",
    arg: "owner/name",
    group: "ask",
    description: "MCP server for /api/mcp-attestation when the owner's entity names none",
    parse: (value: string) => parseCanonicalId(value, "--mcp-server"),
  },
  {
    name: "tier-encoding",
    kind: "string",
    arg: "names",
    group: "ask",
    description: "Tier names by on-chain code\n(default flagged,limited,developing,established)",
    parse: parseTierEncoding,
  },
  {
    name: "sybil-encoding",
    kind: "string",
    arg: "names",
    group: "ask",
    description: "Sybil severity names by on-chain code\n(default none,low,moderate,elevated,heavy)",
    parse: parseSybilEncoding,
  },
  {
    name: "timeout",
    kind: "string",
    arg: "duration",
    group: "ask",
    description: "Time limit of each request: 30s, 2m, 500ms (default 15s)",
    parse: parseTimeout,
  },
  {
    name: "json",
    kind: "string",
    arg: "file|-",
    group: "output",
    description: 'Write the JSON report to a file, or to stdout with "-" (the table then goes to stderr)',
    parse: (value: string) => parseNonBlank("--json", value),
  },
  { name: "help", kind: "boolean", short: "h", group: "output", description: "Show this help" },
] as const satisfies readonly DoctorOption[];

/** The parsed values of the doctor options given, typed from {@link DOCTOR_OPTIONS}. */
export type DoctorOptionValues = OptionValues<typeof DOCTOR_OPTIONS>;

/**
 * The options' part of `trustgate doctor --help`: each section's title and its options, a blank line between
 * sections.
 *
 * @returns The text, ending with a newline.
 */
export function formatDoctorOptionsHelp(): string {
  const options: readonly DoctorOption[] = DOCTOR_OPTIONS;
  return Object.entries(DOCTOR_HELP_GROUPS)
    .map(([group, title]) => `${title}\n${formatOptionGroup(options, group)}`)
    .join("\n");
}

/** `--agents`: one or two EVM agents, `chain:id[:registry]`. */
function parseTrustCheckAgents(text: string): AgentRef[] {
  const agents = parseAgentRefList(text, "--agents");
  if (agents.length > TRUST_CHECK_COUNT) {
    throw new InvalidArgumentError(`--agents takes at most ${TRUST_CHECK_COUNT} agents (one trust-check each), got ${agents.length}`);
  }
  const solana = agents.find((agent) => agent.chainId === null);
  if (solana) throw new InvalidArgumentError(`--agents: ${solana.chain} is not an EVM chain, the oracle holds no records for it`);
  return agents;
}
