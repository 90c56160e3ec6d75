/**
 * The options of `trustgate refresh`, declared once (see `option-table.ts`): the `parseArgs` configuration, the
 * options' part of `trustgate refresh --help`, the scope check and the type of the parsed values come from
 * {@link REFRESH_OPTIONS}. The push rules' defaults are the plan's (`src/refresh/plan.ts`).
 *
 * @packageDocumentation
 */
import { parseAddress } from "../inputs/address.js";
import { acceptKidOption } from "./accept-kid-option.js";
import { parseBudget, parseFeePerGas } from "../inputs/amount.js";
import { DEFAULT_REPLACE_AFTER_SECONDS } from "../refresh/transaction.js";
import { parseIntegerInRange, parseThreshold } from "../inputs/numbers.js";
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import { InvalidArgumentError } from "../errors.js";
import { DEFAULT_REFRESH_BATCH_GAS, DEFAULT_REFRESH_MIN_CHANGE, REFRESH_GAS_ESTIMATE, TRANSACTION_GAS_CAP } from "../refresh/plan.js";
import { parseDuration } from "./duration.js";
import { parseJwksArgument } from "./jwks-argument.js";
import { type CommandOption, formatOptionGroup, type OptionValues } from "./option-table.js";
import {
  parseApiKey,
  parseApiUrl,
  parseEventsFrom,
  parseIssuerUrl,
  parseNonBlank,
  parsePositive,
  parseRpcUrl,
  withFlag,
} from "./shared-args.js";

/** What the refresh options' `parse` functions need besides the value. */
export interface RefreshParseContext {
  /** Reads a `--jwks` file as UTF-8 text; default `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
}

/** Help sections of the refresh options, by key, with their titles (in the order they are shown). */
export const REFRESH_HELP_GROUPS = {
  what: "What to push (exactly one of --from, --watch, --state, --gate):",
  rules: "Push rules:",
  where: "Where to push (not needed with --dry-run):",
  sending: "Fees, budget and transactions:",
  output: "Safety and output:",
} as const;

/** One option of `trustgate refresh`. */
export type RefreshOption = CommandOption<RefreshParseContext> & { readonly group: keyof typeof REFRESH_HELP_GROUPS };

/** The options of `trustgate refresh`, in the order the help lists them. */
export const REFRESH_OPTIONS = [
  {
    name: "from",
    kind: "string",
    arg: "file",
    group: "what",
    description: "The drift job's JSON report (trustgate drift --json report.json): its refreshable rows",
    parse: (value: string) => parseNonBlank("--from", value, "a file name"),
  },
  {
    name: "watch",
    kind: "string",
    arg: "file",
    group: "what",
    description:
      "A watch list: one chain:id[:registry] a line (# comments), as drift --agents reads them; a fresh drift run over them reading --attested-oracle (needs --rpc, --api, --attested-oracle)",
    parse: (value: string) => parseNonBlank("--watch", value, "a file name"),
  },
  {
    name: "state",
    kind: "string",
    arg: "file",
    group: "what",
    description:
      "The drift job's state file (drift --all --state): a fresh drift run over every agent it holds, with the oracle, attested oracle, rule and encoding its header records (read, never written; needs --rpc, --api)",
    parse: (value: string) => parseNonBlank("--state", value, "a file name"),
  },
  {
    name: "gate",
    kind: "string",
    arg: "address",
    group: "what",
    description:
      "A TrustGated gate: a fresh drift run over the agents its attested oracle or that oracle's upstream holds records of under the gate's agent chain and registry (their RecordAdded events), the gate's policy as the rule; the gate's oracle is the one pushed to (needs --rpc, --api)",
    scope: { excludes: "attested-oracle" },
    parse: (value: string) => parseAddress(value, "--gate"),
  },
  {
    name: "events-from",
    kind: "string",
    arg: "block|auto",
    group: "what",
    description:
      "With --gate: replay the oracles' events from this block (default auto: each oracle's deployment block, when at most 1,000,000 blocks back)",
    scope: { needs: { option: "gate", message: "--events-from says where --gate replays its oracles' events: give --gate <address>" } },
    parse: (value: string) => {
      const from = parseEventsFrom(value);
      if (from === "off") throw new InvalidArgumentError("--events-from off leaves --gate no agents: give a block or auto");
      return from;
    },
  },
  {
    name: "oracle",
    kind: "string",
    arg: "address",
    group: "what",
    description: `With --watch: the upstream the attested oracle is expected to fall back on (default the Base oracle ${BASE_TRUST_ORACLE_ADDRESS})`,
    scope: { needs: { option: "watch", message: "--oracle goes with --watch (--state and --gate read it from the state or the gate)" } },
    parse: (value: string) => parseAddress(value, "--oracle"),
  },
  {
    name: "threshold",
    kind: "string",
    arg: "n",
    group: "what",
    description: "With --watch: the decision rule score >= n of the decision-flip rule (default 51, as drift)",
    scope: {
      needs: { option: "watch", message: "--threshold goes with --watch (--state and --gate read the rule from the state or the gate)" },
    },
    parse: (value: string) => parseThreshold(value, "--threshold"),
  },
  {
    name: "rate",
    kind: "string",
    arg: "per-minute",
    group: "what",
    description: "With --watch, --state or --gate: the fresh drift run's request limit (as drift --rate)",
    parse: (value: string) => parsePositive("--rate", value),
  },
  {
    name: "max-age",
    kind: "string",
    arg: "duration",
    group: "rules",
    description:
      "Push a record older than this (default: the drift report's --max-age, 36h for a fresh drift run;\nforms: 90m, 36h, 2d, 1h30m, or seconds)",
    parse: (value: string) => withFlag("--max-age", () => parseDuration(value)),
  },
  {
    name: "min-change",
    kind: "string",
    arg: "points",
    group: "rules",
    description: `Push a score that moved by more than this many points (default ${DEFAULT_REFRESH_MIN_CHANGE}); a decision flip or a missing record is pushed whatever the move`,
    parse: (value: string) => parseIntegerInRange(value, "--min-change", 0, 100),
  },
  {
    name: "gas-limit",
    kind: "string",
    arg: "gas",
    group: "rules",
    description: `Gas limit of one batch transaction (default ${DEFAULT_REFRESH_BATCH_GAS}; under ${TRANSACTION_GAS_CAP}, the per-transaction cap 2^24)`,
    parse: (value: string) =>
      parseIntegerInRange(
        value,
        "--gas-limit",
        REFRESH_GAS_ESTIMATE.transaction + REFRESH_GAS_ESTIMATE.firstRecord,
        TRANSACTION_GAS_CAP - 1,
      ),
  },
  {
    name: "rpc",
    kind: "string",
    arg: "url",
    group: "where",
    description: "JSON-RPC URL of the chain with the attested oracle (a key in its path is accepted and never shown)",
    parse: parseRpcUrl,
  },
  {
    name: "attested-oracle",
    kind: "string",
    arg: "address",
    group: "where",
    description: "The AttestedTrustOracle to push to (default: the one the drift report read, --attested-oracle there)",
    parse: (value: string) => parseAddress(value, "--attested-oracle"),
  },
  {
    name: "api",
    kind: "string",
    arg: "url",
    group: "where",
    description: "Trust API base URL to fetch fresh signed attestations from (user:pass@, ?query, #fragment refused)",
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
    description: "Issuer the attestations must name (default: the origin of --api)",
    parse: parseIssuerUrl,
  },
  {
    name: "jwks",
    kind: "string",
    arg: "url|file",
    group: "where",
    description: "JWKS to verify the fresh attestations against (default: <issuer>/.well-known/jwks.json)",
    parse: (value: string, context: RefreshParseContext) => parseJwksArgument(value, context.readFile),
  },
  acceptKidOption("where"),
  {
    name: "max-fee-per-gas",
    kind: "string",
    arg: "fee",
    group: "sending",
    description:
      "Fee ceiling per gas (2gwei, 1500000000wei): when the chain's fee (base fee and tip) is over it, the run stops before sending more (exit 4); no transaction offers more, a replacement included (default: none)",
    parse: (value: string) => parseFeePerGas(value, "--max-fee-per-gas"),
  },
  {
    name: "budget",
    kind: "string",
    arg: "amount",
    group: "sending",
    description:
      "Most the run may spend, in ether (0.01eth) or gas (5000000gas): charged is gas used × effective price of what was sent (gas used, for gas); a transaction whose estimate at its max fee does not fit what is left is not sent, and the run stops (exit 4) (default: none)",
    parse: (value: string) => parseBudget(value, "--budget"),
  },
  {
    name: "replace-after",
    kind: "string",
    arg: "duration",
    group: "sending",
    description: `Re-send a transaction not mined after this long with the same nonce and both fees 12.5 % higher, never over --max-fee-per-gas (default ${DEFAULT_REPLACE_AFTER_SECONDS}s; forms: 90s, 2m, or seconds)`,
    parse: (value: string) => withFlag("--replace-after", () => parseDuration(value)),
  },
  {
    name: "confirmations",
    kind: "string",
    arg: "n",
    group: "sending",
    description: "Blocks, its own included, before a transaction's receipt counts (default 1)",
    parse: (value: string) => parseIntegerInRange(value, "--confirmations", 1, 1000),
  },
  {
    name: "journal",
    kind: "string",
    arg: "file",
    group: "sending",
    description:
      "The run's journal: every transaction before it is sent and its outcome after; a rerun with it settles what is in flight and pushes nothing twice (default: beside the source file, <file>.refresh-journal.json; for --gate, refresh-<address>.refresh-journal.json here)",
    parse: (value: string) => parseNonBlank("--journal", value, "a file name"),
  },
  {
    name: "keystore",
    kind: "string",
    arg: "file",
    group: "sending",
    description:
      "Sign with the key of an encrypted keystore (Web3 Secret Storage v3: geth, cast wallet) instead of $DEPLOYER_PRIVATE_KEY; its password from $KEYSTORE_PASSWORD, else asked for on the terminal",
    parse: (value: string) => parseNonBlank("--keystore", value, "a file name"),
  },
  {
    name: "dry-run",
    kind: "boolean",
    group: "output",
    description:
      "Print the plan (agents, reasons, batches, estimated gas) and send nothing; with --rpc, its cost at the chain's current fee too",
  },
  {
    name: "confirm-mainnet",
    kind: "boolean",
    group: "output",
    description: "Allow sending on a mainnet (Ethereum 1, Base 8453): without it nothing is sent there",
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
] as const satisfies readonly RefreshOption[];

/** A long option name of `trustgate refresh`. */
export type RefreshOptionName = (typeof REFRESH_OPTIONS)[number]["name"];

/** The parsed values of the refresh options given, typed from {@link REFRESH_OPTIONS}. */
export type RefreshOptionValues = OptionValues<typeof REFRESH_OPTIONS>;

/**
 * The options' part of `trustgate refresh --help`, section by section.
 *
 * @returns The help lines.
 */
export function formatRefreshOptionsHelp(): string {
  return Object.entries(REFRESH_HELP_GROUPS)
    .map(([group, title]) => `${title}\n${formatOptionGroup(REFRESH_OPTIONS, group)}`)
    .join("\n");
}
