/**
 * The options of `trustgate drift`, declared once: for each, its name, kind, argument, help section, description,
 * scope (what it needs, excludes or belongs to) and how its value is parsed. The `parseArgs` configuration, the
 * options' part of `trustgate drift --help`, the scope checks and the type of the parsed values all come from
 * {@link DRIFT_OPTIONS}.
 *
 * @packageDocumentation
 */
import { type AgentRef, parseAgentRefList } from "../agent/agent-ref.js";
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import { parseErrorLimit } from "../drift/error-limit.js";
import { DEFAULT_MAX_NETWORK_FAILURES } from "../drift/circuit-breaker.js";
import { InvalidArgumentError } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { parseChain } from "../inputs/chain.js";
import { parseIntegerInRange, parseThreshold } from "../inputs/numbers.js";
import { parseDuration } from "./duration.js";
import { acceptKidOption } from "./accept-kid-option.js";
import { REFRESH_OPTIONS, type RefreshOptionName } from "./refresh-options.js";
import { MARKDOWN_SUMMARY_MAX_BYTES, MARKDOWN_SUMMARY_ROWS } from "./format-markdown.js";
import { parseJwksArgument } from "./jwks-argument.js";
import {
  checkOptionScope,
  type CommandOption,
  formatOptionGroup,
  type OptionName,
  type OptionScope,
  type OptionValues,
  type RawOptionValues,
} from "./option-table.js";
import {
  parseApiKey,
  parseApiUrl,
  parseIssuerUrl,
  parseNonBlank,
  parseRpcUrl,
  parseSybilEncoding,
  parseTierEncoding,
  parseEventsFrom,
  parsePositive,
  parseTimeout,
  withFlag,
} from "./shared-args.js";

/** Default of `--concurrency`. */
export const DEFAULT_SERVICE_CONCURRENCY = 8;
/** Default of `--rows`: rows shown in the table. */
export const DEFAULT_TABLE_ROWS = 50;

/** What the drift options' `parse` functions need besides the value. */
export interface DriftParseContext {
  /** Reads a `--jwks` file as UTF-8 text; default `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
}

/**
 * One option of `trustgate drift`. An option whose scope `belongsTo` `all` goes with `--all` (or the embedded
 * default, which scans every agent) and is refused with an `--agents` list; the help prefixes a scoped option's
 * description with what it goes with (`With --all: `, `With --state: `).
 */
export type DriftOption = CommandOption<DriftParseContext> & { readonly group: keyof typeof DRIFT_HELP_GROUPS };

/** Help sections of the drift options, by key, with their titles (in the order they are shown). */
export const DRIFT_HELP_GROUPS = {
  where: "Where to look (--rpc and --api are required unless --demo is given):",
  agents: "Which agents (--agents or --all; required when --rpc or --api is given):",
  rule: "Decision rule (default: score >= 51):",
  limits: "Limits:",
  output: "Output:",
  refresh: "Refresh after the scan (trustgate refresh's options, by the same names):",
} as const;

/** The options of `trustgate drift`, in the order the help lists them. */
export const DRIFT_OPTIONS = [
  {
    name: "rpc",
    kind: "string",
    arg: "url",
    group: "where",
    description:
      "JSON-RPC URL of the chain with the oracle; a key in its path is accepted and shown redacted (user:pass@, ?query, #fragment refused)",
    parse: parseRpcUrl,
  },
  {
    name: "oracle",
    kind: "string",
    arg: "address",
    group: "where",
    description: `Oracle address\n(default: ${BASE_TRUST_ORACLE_ADDRESS}, Base)`,
    parse: (value: string) => parseAddress(value, "--oracle"),
  },
  {
    name: "attested-oracle",
    kind: "string",
    arg: "address",
    group: "where",
    description:
      "Read the records from this AttestedTrustOracle instead: the fresher of its own record and its upstream's (warned about when that is not --oracle); each stale, missing or drifted row says whether the signed attestation could refresh it there (REFRESH; its kid checked against the oracle's keys, unchecked without this flag)",
    parse: (value: string) => parseAddress(value, "--attested-oracle"),
  },
  {
    name: "api",
    kind: "string",
    arg: "url",
    group: "where",
    description: "Trust API base URL (user:pass@, ?query, #fragment refused)",
    parse: parseApiUrl,
  },
  {
    name: "api-key",
    kind: "string",
    arg: "key",
    group: "where",
    description: "API key, raises the rate limit (default: $TRUSTGATE_API_KEY)",
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
    description: 'JWKS to verify against (default: <api>/.well-known/jwks.json);\na file holds a JWKS as JSON ({"keys": [...]})',
    parse: (value: string, context: DriftParseContext) => parseJwksArgument(value, context.readFile),
  },
  acceptKidOption("where"),
  {
    name: "demo",
    kind: "boolean",
    group: "where",
    description:
      "Use the embedded local Base chain and trust service for whichever of --rpc and --api is not given (both, usually). Needs the optional peer dependency hardhat: Hardhat 3 (npm install --save-dev hardhat@3.18.0, Node 22+) or Hardhat 2 (hardhat@2.29.1); in the trustgate repository itself: npm start",
  },
  {
    name: "agents",
    kind: "repeatable",
    arg: "list",
    group: "agents",
    description: "chain:id[:registry],... e.g. base:1234,ethereum:7:olas (repeatable)",
    scope: { excludes: "all" },
    parse: (values: readonly string[]): AgentRef[] => parseAgentRefList(values.join(","), "--agents"),
  },
  {
    name: "all",
    kind: "boolean",
    group: "agents",
    description: "Every agent the service lists; triage decides which signed\nattestations to fetch",
  },
  {
    name: "chain",
    kind: "string",
    arg: "slug",
    group: "agents",
    description: "only the agents of this chain",
    scope: { belongsTo: "all" },
    parse: parseEvmChain,
  },
  {
    name: "audit-confidence",
    kind: "string",
    arg: "c",
    group: "agents",
    description:
      "size the random audit of the listing so that it catches, with probability c, a listing that lies about at least --audit-lie-rate of the agents compared with it (default 0.99)",
    scope: { belongsTo: "all" },
    parse: (value: string) => parseOpenFraction("--audit-confidence", value, false),
  },
  {
    name: "audit-lie-rate",
    kind: "string",
    arg: "p",
    group: "agents",
    description: "that share of lying entries (default 0.01; 1% also works)",
    scope: { belongsTo: "all" },
    parse: (value: string) => parseOpenFraction("--audit-lie-rate", value, true),
  },
  {
    name: "seed",
    kind: "string",
    arg: "n",
    group: "agents",
    description: "seed of the audit sample (default: a random one per run, printed in the report; the same seed draws the same sample)",
    scope: { belongsTo: "all" },
    parse: (value: string) => parseIntegerInRange(value, "--seed", 0, Number.MAX_SAFE_INTEGER),
  },
  {
    name: "state",
    kind: "string",
    arg: "file",
    group: "agents",
    description:
      "keep what was verified between runs in this file (created if missing) and fetch only where something could have changed since; a run killed or stopped continues where it was when run again",
    scope: { belongsTo: "all" },
    parse: (value: string) => parseNonBlank("--state", value, "a file name"),
  },
  {
    name: "full",
    kind: "boolean",
    group: "agents",
    description:
      "ignore what it holds and fetch as a first run would (it is still written); also starts over a state from another setup, or one it cannot read (keeping the nights' history when its header is readable)",
    scope: {
      belongsTo: "all",
      needs: {
        option: "state",
        message: "--full ignores the state file, so it needs --state <file> (without a state file every run is full)",
      },
    },
  },
  {
    name: "accept",
    kind: "string",
    arg: "file",
    group: "agents",
    description:
      "accept the known problems this baseline lists (JSON Lines: agent, problem, reason, until; trustgate accept writes one from a report) until their date: still reported, as accepted; with --fail-on new they no longer exit 3",
    scope: {
      belongsTo: "all",
      needs: { option: "state", message: "--accept compares tonight with the night before, so it needs --state <file>" },
    },
    parse: (value: string) => parseNonBlank("--accept", value, "a file name"),
  },
  {
    name: "fail-on",
    kind: "string",
    arg: "new|any",
    group: "agents",
    description:
      "which decision flips and invalid attestations exit 3: any (the default), or only those new since the night before and not accepted (persisting and accepted ones are still reported); a run that could not verify still exits 4",
    scope: {
      belongsTo: "all",
      needs: { option: "state", message: "--fail-on compares tonight with the night before, so it needs --state <file>" },
    },
    parse: parseFailOn,
  },
  {
    name: "events-from",
    kind: "string",
    arg: "block|auto|off",
    group: "agents",
    description:
      "also replay the oracle's RecordAdded/RecordRemoved events from this block to find on-chain records the listing lacks (delisted agents). Default auto: from the oracle's deployment block when it can be found and is at most 1,000,000 blocks back; otherwise, and with off, the summary says loudly that they were not looked for",
    scope: { belongsTo: "all" },
    parse: parseEventsFrom,
  },
  {
    name: "threshold",
    kind: "string",
    arg: "n",
    group: "rule",
    description: "A gate admits an agent when score >= n (integer 0-100)",
    parse: (value: string) => parseThreshold(value, "--threshold"),
  },
  {
    name: "gate",
    kind: "string",
    arg: "address",
    group: "rule",
    description:
      "Evaluate the policy of this deployed TrustGated contract (score, sybil severity, age); with --threshold, n replaces its minScore",
    parse: (value: string) => parseAddress(value, "--gate"),
  },
  {
    name: "max-age",
    kind: "string",
    arg: "duration",
    group: "rule",
    description: "On-chain records older than this are stale (default 36h;\nforms: 90m, 36h, 2d, 1h30m, or seconds)",
    parse: (value: string) => withFlag("--max-age", () => parseDuration(value)),
  },
  {
    name: "tier-encoding",
    kind: "string",
    arg: "names",
    group: "rule",
    description: "Tier names by on-chain code\n(default flagged,limited,developing,established)",
    parse: parseTierEncoding,
  },
  {
    name: "sybil-encoding",
    kind: "string",
    arg: "names",
    group: "rule",
    description: "Sybil severity names by on-chain code\n(default none,low,moderate,elevated,heavy)",
    parse: parseSybilEncoding,
  },
  {
    name: "concurrency",
    kind: "string",
    arg: "n",
    group: "limits",
    description: `Service requests in flight (1-64, default ${DEFAULT_SERVICE_CONCURRENCY})`,
    parse: (value: string) => parseIntegerInRange(value, "--concurrency", 1, 64),
  },
  {
    name: "rate",
    kind: "string",
    arg: "per-minute",
    group: "limits",
    description:
      "Client-side request limit and cap (default: the limit the service announces, else 30, or 300 with an API key; none against the embedded service)",
    parse: (value: string) => parsePositive("--rate", value),
  },
  {
    name: "timeout",
    kind: "string",
    arg: "duration",
    group: "limits",
    description: "Time-out of each RPC, service and JWKS request: 30s, 2m, 500ms (default 30s for RPC, 15s per service attempt)",
    parse: parseTimeout,
  },
  {
    name: "max-errors",
    kind: "string",
    arg: "n|%",
    group: "limits",
    description:
      "Agents that may end unverified (status error or missing-attestation) before the run fails with exit 4: a count (10) or a percentage of the scanned agents (2.5%); default 1%",
    parse: (value: string) => parseErrorLimit(value, "--max-errors"),
  },
  {
    name: "max-duration",
    kind: "string",
    arg: "duration",
    group: "limits",
    description:
      "Start no signed fetch after this long (30m, 1h): the run ends partial (exit 4, the agents left are error rows); with --state, running it again continues where it stopped",
    parse: (value: string) => withFlag("--max-duration", () => parseDuration(value)),
  },
  {
    name: "max-network-failures",
    kind: "string",
    arg: "n",
    group: "limits",
    description: `Stop asking the service, or the RPC, after this many network failures in a row (refused, reset, timed out): the run ends partial (exit 4, the agents left are error rows with that cause); with --state, running it again continues (default ${DEFAULT_MAX_NETWORK_FAILURES}; 0 never stops)`,
    parse: (value: string) => parseIntegerInRange(value, "--max-network-failures", 0, 1_000_000),
  },
  {
    name: "json",
    kind: "string",
    arg: "file|-",
    group: "output",
    description:
      'Write the JSON report to a file, or to stdout with "-" (stdout then carries nothing else; the summary goes to stderr). Through npm:\nnpm start --silent -- --json - | jq .summary',
    parse: (value: string) => parseNonBlank("--json", value),
  },
  {
    name: "markdown",
    kind: "string",
    arg: "file|-",
    group: "output",
    description: `Write a summary as Markdown to a file, or to stdout with "-": the verdict, the decision flips and invalid attestations (the first ${MARKDOWN_SUMMARY_ROWS}), the unverified agents by cause, the totals; at most ${MARKDOWN_SUMMARY_MAX_BYTES / 1024} KB, for a CI step summary or a mail`,
    parse: (value: string) => parseNonBlank("--markdown", value),
  },
  {
    name: "markdown-rows",
    kind: "string",
    arg: "file",
    group: "output",
    description: "Write every row as a Markdown table to a file",
    parse: (value: string) => parseOutputFile("--markdown-rows", value, "the rows are a document to keep, not to pipe"),
  },
  {
    name: "html",
    kind: "string",
    arg: "file",
    group: "output",
    description:
      "Write the report as one self-contained HTML page (the verdict, the tier matrix, the score and age charts, every row; with --state the nights before): it loads nothing, and opens offline",
    parse: (value: string) => parseOutputFile("--html", value, "the page is meant to be opened, not piped"),
  },
  {
    name: "refresh-report",
    kind: "string",
    arg: "file",
    group: "output",
    description:
      "With --html: show the night's refreshes on the page, from the JSON report trustgate refresh --json wrote (what was pushed, skipped and why, refused with the error, and the cost)",
    parse: (value: string) => parseNonBlank("--refresh-report", value, "a file name"),
  },
  {
    name: "rows",
    kind: "string",
    arg: "n|all",
    group: "output",
    description: `Rows shown in the table besides decision flips and invalid attestations, which are always shown (default ${DEFAULT_TABLE_ROWS}; --json, --html and --markdown-rows hold all rows)`,
    parse: parseRows,
  },
  {
    name: "wide",
    kind: "boolean",
    group: "output",
    description:
      "Every column and whole reasons; otherwise the table fits the terminal's width (columns dropped or shortened; no limit when stdout is not a terminal)",
  },
  {
    name: "quiet",
    kind: "boolean",
    short: "q",
    group: "output",
    description: "Print only the summary: no table, progress bar or notices",
  },
  { name: "help", kind: "boolean", short: "h", group: "output", description: "Show this help" },
  {
    name: "refresh",
    kind: "boolean",
    group: "refresh",
    description:
      "After the scan, push fresh signed attestations to the attested oracle for the rows of its report that are due, as trustgate refresh --from the report would (DEPLOYER_PRIVATE_KEY sends)",
    scope: {
      needs: {
        option: "attested-oracle",
        message: "--refresh pushes to the attested oracle the scan reads: give --attested-oracle <address>",
      },
    },
  },
  fromRefresh("min-change"),
  fromRefresh("gas-limit"),
  fromRefresh("dry-run"),
  fromRefresh("confirm-mainnet"),
  fromRefresh("max-fee-per-gas"),
  fromRefresh("budget"),
  fromRefresh("replace-after"),
  fromRefresh("confirmations"),
  fromRefresh("journal"),
  fromRefresh("keystore"),
  {
    name: "refresh-json",
    kind: "string",
    arg: "file|-",
    group: "refresh",
    description: 'Write the refresh\'s JSON report (trustgate refresh --json) to a file, or to stdout with "-"',
    scope: { needs: { option: "refresh", message: "--refresh-json writes the report of --refresh: give --refresh" } },
    parse: (value: string) => parseNonBlank("--refresh-json", value),
  },
] as const satisfies readonly DriftOption[];

/**
 * An option of `trustgate refresh` that `trustgate drift --refresh` accepts too: the same declaration (name, value,
 * parser, help), in the drift help's refresh section, given only with `--refresh`.
 */
function fromRefresh<const Name extends RefreshOptionName>(
  name: Name,
): Omit<Extract<(typeof REFRESH_OPTIONS)[number], { name: Name }>, "group" | "scope"> & {
  readonly group: "refresh";
  readonly scope: OptionScope;
} {
  const option = REFRESH_OPTIONS.find((candidate) => candidate.name === name) as Extract<(typeof REFRESH_OPTIONS)[number], { name: Name }>;
  return {
    ...option,
    group: "refresh",
    scope: { needs: { option: "refresh", message: `--${name} is an option of the refresh after the scan: give --refresh` } },
  };
}

/** The parsed values of the drift options given, typed from {@link DRIFT_OPTIONS}. */
export type DriftOptionValues = OptionValues<typeof DRIFT_OPTIONS>;

/** A long option name of `trustgate drift`. */
export type DriftOptionName = OptionName<typeof DRIFT_OPTIONS>;

/** Long option names of `trustgate drift`, for suggestions. */
export const DRIFT_OPTION_NAMES: readonly DriftOptionName[] = DRIFT_OPTIONS.map((option) => option.name);

/**
 * Checks the scope rules of {@link DRIFT_OPTIONS} against the options given.
 *
 * @param given - What `parseArgs` read (only which options are present matters).
 * @throws {@link InvalidArgumentError} (one line) for the first option, in the table's order, given with an option
 *   it excludes, without one it needs, or with an `--agents` list when it belongs to `--all`.
 */
export function checkDriftScope(given: RawOptionValues): void {
  checkOptionScope(DRIFT_OPTIONS as readonly DriftOption[], given, (option) =>
    option.scope?.belongsTo === "all" && given.agents !== undefined
      ? `--${option.name} applies only to --all, not to an --agents list`
      : undefined,
  );
}

/**
 * The options' part of `trustgate drift --help`: each section's title and its options, a blank line between
 * sections. A scoped option's description starts with what it goes with (`With --all: `, `With --state: `).
 *
 * @returns The text, ending with a newline.
 */
export function formatDriftOptionsHelp(): string {
  const options: readonly DriftOption[] = DRIFT_OPTIONS;
  return Object.entries(DRIFT_HELP_GROUPS)
    .map(([group, title]) => `${title}\n${formatOptionGroup(options, group, describeWithScope)}`)
    .join("\n");
}

/** A drift option's description as the help shows it: prefixed with the option it goes with, if any. */
function describeWithScope(option: DriftOption): string {
  const within = option.scope?.needs?.option ?? option.scope?.belongsTo;
  return within === undefined ? option.description : `With --${within}: ${option.description}`;
}

/** `--chain`: a chain slug or id (aliases resolved) of an EVM chain, as its canonical slug. */
function parseEvmChain(value: string): string {
  const found = withFlag("--chain", () => parseChain(value));
  if (found.chainId === undefined) {
    throw new InvalidArgumentError(`--chain ${found.slug}: not an EVM chain, the oracle holds no records for it`);
  }
  return found.slug;
}

/** `--fail-on`: `new` or `any`. */
function parseFailOn(text: string): "new" | "any" {
  const value = text.trim().toLowerCase();
  if (value !== "new" && value !== "any") throw new InvalidArgumentError(`--fail-on must be "new" or "any", got "${text}"`);
  return value;
}

/** `--rows`: a count, or `all` (`Infinity`). */
function parseRows(text: string): number {
  return text.trim().toLowerCase() === "all"
    ? Number.POSITIVE_INFINITY
    : parseIntegerInRange(text, "--rows", 0, Number.MAX_SAFE_INTEGER, ' or "all"');
}

/** A fraction above 0 and below 1 (or up to 1 when `allowOne`), or a percentage (`99%`, `0.5%`). */
function parseOpenFraction(flag: string, text: string, allowOne: boolean): number {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed);
  const value = percent ? Number(percent[1]) / 100 : /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value > 0 && (allowOne ? value <= 1 : value < 1))) {
    const range = allowOne ? "above 0 and at most 1" : "above 0 and below 1";
    throw new InvalidArgumentError(
      `${flag} must be a fraction ${range} (or a percentage such as ${allowOne ? "1%" : "99%"}), got "${text}"`,
    );
  }
  return value;
}

/** An output that takes a file only (`--html`, `--markdown-rows`): `-` is refused, for the reason given. */
function parseOutputFile(flag: string, text: string, why: string): string {
  const file = parseNonBlank(flag, text);
  if (file === "-") throw new InvalidArgumentError(`${flag} takes a file, not "-": ${why}`);
  return file;
}
