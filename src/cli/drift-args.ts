/**
 * The arguments of `trustgate drift`: parsed with `node:util` `parseArgs` (strict) and validated into
 * everything a drift run needs except where the chain and the service are, which may come from the
 * embedded environment (see `drift-config.ts`).
 *
 * Decisions:
 * - `--rpc` and `--api` are required; a part not given comes from the embedded environment only with `--demo`
 *   (see `demo.ts`).
 * - `--agents` and `--all` exclude each other. With neither, `--all` is implied only in the embedded default
 *   (`--demo` with neither `--rpc` nor `--api`); as soon as a real chain or service is named, the agents must be
 *   chosen explicitly, so that pointing the job at the real service never starts a full scan by surprise.
 * - `--chain`, `--audit`, `--audit-confidence`, `--audit-lie-rate`, `--seed`, `--state` and `--full` belong to `--all`
 *   and are refused with `--agents`.
 * - The audit sample is sized by confidence (`--audit-confidence`, default 0.99, of catching a listing that lies about
 *   at least `--audit-lie-rate`, default 1 %, of the agents compared with it); `--audit <fraction>`, the older flat
 *   share, still works and excludes the two.
 * - There is no default audit seed: each run draws a random one (or continues the one of the run it resumes) and
 *   prints it, so that `--seed` reproduces a run. (It used to be the UTC day number, which a listing could predict.)
 * - `--full` needs `--state` (without a state file every run is full). `--max-duration` applies to both scopes; with
 *   `--state` the run it stops can be continued.
 * - With neither `--threshold` nor `--gate`, the rule is `score >= 51` (the `developing` tier).
 * - The API key comes from `--api-key`, else from `TRUSTGATE_API_KEY` (an empty variable counts as unset).
 * - `--max-errors` (a count such as `10`, or a percentage of the scanned agents such as `2.5%`) defaults to
 *   1 %: a run in which more agents than that end in `error` or `missing-attestation` exits 4. The default is
 *   always written into the settings, so a program sees the limit that applies.
 * - `--events-from` defaults to `auto` with `--all`: records the oracle holds but the listing lacks are looked
 *   for in the oracle's events from its deployment block, when that block can be found and the span is small;
 *   otherwise (or with `--events-from off`) the summary says, loudly, that they were not looked for and how to.
 * - `--rpc`, `--api`, `--issuer` and a `--jwks` URL are refused with credentials (`user:pass@`), a query or a fragment,
 *   which would carry a secret into messages (the issuer is written whole into the report and the state file); a key in
 *   the RPC URL's path is accepted and shown redacted everywhere.
 * - `--timeout` applies to each request (RPC, service, JWKS); `ms` is accepted besides the duration forms.
 * - `--attested-oracle` is an endpoint (an address on the chain of `--rpc`), not a setting: the records are read
 *   from it, and `--oracle` (default the Base oracle) names the upstream it is expected to fall back on.
 * - `--verify-workers` (0-64): threads verifying attestations, 0 or 1 for the main thread only; without it,
 *   the drift job decides (worker threads on a machine with more than one core, for a large scan).
 *
 * @packageDocumentation
 */
import { parseArgs } from "node:util";
import { parseAgentRefList } from "../agent/agent-ref.js";
import {
  type AgentScope,
  DEFAULT_AUDIT_CONFIDENCE,
  DEFAULT_AUDIT_LIE_RATE,
  DEFAULT_DECISION_THRESHOLD,
  DEFAULT_ERROR_LIMIT,
  DEFAULT_MAX_AGE_SECONDS,
  type DriftConfig,
  parseErrorLimit,
} from "../drift/index.js";
import { InvalidArgumentError } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { parseChain } from "../inputs/chain.js";
import { parseIntegerInRange, parseThreshold } from "../inputs/numbers.js";
import { parseEndpointUrl } from "../security/endpoint-url.js";
import { parseDuration } from "./duration.js";
import { isCi } from "./io.js";
import { parseJwksArgument } from "./jwks-argument.js";
import { translateParseArgsError } from "./parse-args-error.js";
import { API_KEY_ENV, parseApiKey, parseEncoding, parseTimeout, withFlag } from "./shared-args.js";

/** Default of `--concurrency`. */
export const DEFAULT_SERVICE_CONCURRENCY = 8;
/** Default of `--rows`: rows shown in the table. */
export const DEFAULT_TABLE_ROWS = 50;
export { API_KEY_ENV } from "./shared-args.js";

/** Everything of a {@link DriftConfig} that does not depend on where the chain and the service are. */
export type DriftSettings = Omit<DriftConfig, "rpcUrl" | "apiUrl" | "issuer" | "jwks" | "oracle" | "attestedOracle">;

/** Endpoints given on the command line; a missing one is filled from the embedded environment or a default. */
export interface DriftEndpointArgs {
  /** `--rpc`. */
  readonly rpcUrl?: string;
  /** `--api`, without trailing slashes. */
  readonly apiUrl?: string;
  /** `--oracle`, checksummed. */
  readonly oracle?: `0x${string}`;
  /** `--attested-oracle`, checksummed: an `AttestedTrustOracle` to read the records from instead. */
  readonly attestedOracle?: `0x${string}`;
  /** `--issuer`, without a trailing slash. */
  readonly issuer?: string;
  /** `--jwks`: a URL, or the key set read from a file. */
  readonly jwks?: DriftConfig["jwks"];
}

/** Where the report goes and how much people see. */
export interface DriftOutputOptions {
  /** `--json`: a file path, or `-` for stdout. */
  readonly json?: string;
  /** `--markdown`: a file path, or `-` for stdout. */
  readonly markdown?: string;
  /**
   * `--rows`: rows shown in the table (`Infinity` for `all`). Decision flips and invalid attestations are
   * shown whatever this says; the cap applies to the other rows.
   */
  readonly tableRows: number;
  /** `--wide`: every column and whole reasons, whatever the terminal's width. */
  readonly wide: boolean;
  /** `--quiet`: only the summary, no table, progress bar or notices. */
  readonly quiet: boolean;
  /** `CI` is set: nothing decorative (no progress bar). */
  readonly ci: boolean;
}

/** A validated `trustgate drift` invocation that runs a scan. */
export interface DriftRunArgs {
  readonly kind: "run";
  readonly settings: DriftSettings;
  readonly endpoints: DriftEndpointArgs;
  /** Which parts come from the embedded environment (`--demo`): the chain without `--rpc`, the service without `--api`. */
  readonly embedded: { readonly chain: boolean; readonly api: boolean };
  readonly output: DriftOutputOptions;
}

/** What `trustgate drift <argv>` asks for. */
export type DriftArgs = { readonly kind: "help" } | DriftRunArgs;

/** Surroundings of {@link parseDriftArgs}. */
export interface ParseDriftArgsOptions {
  /** Environment variables (`TRUSTGATE_API_KEY`, `CI`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Clock; default the system clock. (The audit seed no longer depends on it: without `--seed` each run draws one.) */
  readonly now?: () => Date;
  /** Reads a `--jwks` file as UTF-8 text; default `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
}

const OPTIONS = {
  rpc: { type: "string" },
  demo: { type: "boolean" },
  oracle: { type: "string" },
  "attested-oracle": { type: "string" },
  api: { type: "string" },
  "api-key": { type: "string" },
  issuer: { type: "string" },
  jwks: { type: "string" },
  agents: { type: "string", multiple: true },
  all: { type: "boolean" },
  chain: { type: "string" },
  audit: { type: "string" },
  "audit-confidence": { type: "string" },
  "audit-lie-rate": { type: "string" },
  seed: { type: "string" },
  state: { type: "string" },
  full: { type: "boolean" },
  "max-duration": { type: "string" },
  "events-from": { type: "string" },
  threshold: { type: "string" },
  gate: { type: "string" },
  "max-age": { type: "string" },
  "tier-encoding": { type: "string" },
  "sybil-encoding": { type: "string" },
  concurrency: { type: "string" },
  "verify-workers": { type: "string" },
  rate: { type: "string" },
  "max-errors": { type: "string" },
  timeout: { type: "string" },
  json: { type: "string" },
  markdown: { type: "string" },
  rows: { type: "string" },
  wide: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
} as const;

/** Long option names of `trustgate drift`, for suggestions. */
export const DRIFT_OPTION_NAMES: readonly string[] = Object.keys(OPTIONS);

/**
 * Checks that the parts to take from the embedded environment are asked for with `--demo`.
 *
 * @param embedded - Which parts are missing from the command line (no `--rpc`: chain; no `--api`: service).
 * @param demo - Whether `--demo` was given.
 * @throws {@link InvalidArgumentError} (one line) when a part is missing without `--demo`, or when `--demo` is
 *   given with both `--rpc` and `--api`.
 */
export function checkDemoEndpoints(embedded: DriftRunArgs["embedded"], demo: boolean): void {
  if (demo) {
    if (!embedded.chain && !embedded.api) {
      throw new InvalidArgumentError("--demo stands in for a missing --rpc or --api, but both are given: drop --demo or one of them");
    }
    return;
  }
  if (embedded.chain && embedded.api) {
    throw new InvalidArgumentError(
      "Give --rpc and --api (the chain and the trust service to compare), or --demo to run against the embedded local environment",
    );
  }
  if (embedded.chain) {
    throw new InvalidArgumentError(
      "No --rpc given: give the chain's JSON-RPC URL with --rpc, or add --demo to use the embedded local Base chain",
    );
  }
  if (embedded.api) {
    throw new InvalidArgumentError(
      "No --api given: give the trust service's URL with --api, or add --demo to use the embedded local trust service",
    );
  }
}

/** `parseArgs` over the drift options; throws its own errors, which the caller translates. */
function parseDriftOptions(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
}

/**
 * Parses and validates the arguments of `trustgate drift`.
 *
 * @param argv - The arguments after `drift`.
 * @param options - Environment, clock and file reader.
 * @returns `{ kind: "help" }` for `--help`, else the validated run arguments.
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, a
 *   bad number, duration, address, URL, agent, chain or error limit, a conflicting combination, an unreadable
 *   `--jwks` file, or a missing `--rpc`/`--api` without `--demo`.
 */
export function parseDriftArgs(argv: readonly string[], options: ParseDriftArgsOptions = {}): DriftArgs {
  const env = options.env ?? process.env;
  let values: ReturnType<typeof parseDriftOptions>;
  try {
    values = parseDriftOptions(argv);
  } catch (error) {
    throw translateParseArgsError(error, argv, DRIFT_OPTION_NAMES, "trustgate drift");
  }
  if (values.help) return { kind: "help" };

  const endpoints: { -readonly [K in keyof DriftEndpointArgs]: DriftEndpointArgs[K] } = {};
  if (values.rpc !== undefined)
    endpoints.rpcUrl = parseEndpointUrl(values.rpc, { name: "--rpc", protocols: ["http:", "https:", "ws:", "wss:"] });
  if (values.api !== undefined)
    endpoints.apiUrl = parseEndpointUrl(values.api, { name: "--api", protocols: ["http:", "https:"] }).replace(/\/+$/, "");
  if (values.oracle !== undefined) endpoints.oracle = parseAddress(values.oracle, "--oracle");
  if (values["attested-oracle"] !== undefined) endpoints.attestedOracle = parseAddress(values["attested-oracle"], "--attested-oracle");
  // The issuer is written whole into the report and the state file: refused with credentials, a query or a fragment.
  if (values.issuer !== undefined)
    endpoints.issuer = parseEndpointUrl(values.issuer, { name: "--issuer", protocols: ["http:", "https:"] }).replace(/\/+$/, "");
  if (values.jwks !== undefined) endpoints.jwks = parseJwksArgument(values.jwks, options.readFile);
  const embedded = { chain: endpoints.rpcUrl === undefined, api: endpoints.apiUrl === undefined };

  const apiKey = parseApiKey(values["api-key"], env[API_KEY_ENV]);
  const scope = parseScope(values, embedded);
  const gate = values.gate === undefined ? undefined : parseAddress(values.gate, "--gate");
  const threshold =
    values.threshold !== undefined
      ? parseThreshold(values.threshold, "--threshold")
      : gate === undefined
        ? DEFAULT_DECISION_THRESHOLD
        : undefined;
  const maxAgeSeconds =
    values["max-age"] === undefined ? DEFAULT_MAX_AGE_SECONDS : withFlag("--max-age", () => parseDuration(values["max-age"]!));
  const encoding = parseEncoding(values["tier-encoding"], values["sybil-encoding"]);
  const concurrency =
    values.concurrency === undefined ? DEFAULT_SERVICE_CONCURRENCY : parseIntegerInRange(values.concurrency, "--concurrency", 1, 64);
  const verifyWorkers =
    values["verify-workers"] === undefined ? undefined : parseIntegerInRange(values["verify-workers"], "--verify-workers", 0, 64);
  const ratePerMinute = values.rate === undefined ? undefined : parsePositive("--rate", values.rate);
  const maxErrors = values["max-errors"] === undefined ? DEFAULT_ERROR_LIMIT : parseErrorLimit(values["max-errors"], "--max-errors");
  const timeoutMs = values.timeout === undefined ? undefined : parseTimeout(values.timeout);
  const state = values.state === undefined ? undefined : nonEmpty("--state", values.state, "a file name");
  if (values.full && state === undefined) {
    throw new InvalidArgumentError("--full ignores the state file, so it needs --state <file> (without a state file every run is full)");
  }
  const maxDurationSeconds =
    values["max-duration"] === undefined ? undefined : withFlag("--max-duration", () => parseDuration(values["max-duration"]!));

  const settings: DriftSettings = {
    scope,
    maxAgeSeconds,
    concurrency,
    encoding,
    maxErrors,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(gate !== undefined ? { gate } : {}),
    ...(ratePerMinute !== undefined ? { ratePerMinute } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(verifyWorkers !== undefined ? { verifyWorkers } : {}),
    ...(state !== undefined ? { state } : {}),
    ...(values.full ? { full: true } : {}),
    ...(maxDurationSeconds !== undefined ? { maxDurationSeconds } : {}),
  };
  const output = parseOutput(values, env);
  checkDemoEndpoints(embedded, values.demo === true);
  return { kind: "run", settings, endpoints, embedded, output };
}

type Values = {
  agents?: string[] | undefined;
  all?: boolean | undefined;
  chain?: string | undefined;
  audit?: string | undefined;
  "audit-confidence"?: string | undefined;
  "audit-lie-rate"?: string | undefined;
  seed?: string | undefined;
  state?: string | undefined;
  full?: boolean | undefined;
  "events-from"?: string | undefined;
  json?: string | undefined;
  markdown?: string | undefined;
  rows?: string | undefined;
  wide?: boolean | undefined;
  quiet?: boolean | undefined;
};

function parseScope(values: Values, embedded: { chain: boolean; api: boolean }): AgentScope {
  const allOnly = (["chain", "audit", "audit-confidence", "audit-lie-rate", "seed", "events-from", "state", "full"] as const).filter(
    (name) => values[name] !== undefined,
  );
  if (values.agents !== undefined) {
    if (values.all) throw new InvalidArgumentError("--agents and --all exclude each other: give one of them");
    if (allOnly.length > 0) {
      throw new InvalidArgumentError(`--${allOnly[0]} applies only to --all, not to an --agents list`);
    }
    return { kind: "list", agents: parseAgentRefList(values.agents.join(","), "--agents") };
  }
  if (!values.all && !(embedded.chain && embedded.api)) {
    throw new InvalidArgumentError("Choose the agents: --agents chain:id[:registry],... or --all (required when --rpc or --api is given)");
  }
  let chain: string | undefined;
  if (values.chain !== undefined) {
    const found = withFlag("--chain", () => parseChain(values.chain!));
    if (found.chainId === undefined) {
      throw new InvalidArgumentError(`--chain ${found.slug}: not an EVM chain, the oracle holds no records for it`);
    }
    chain = found.slug;
  }
  const audit = parseAudit(values);
  const seed = values.seed === undefined ? undefined : parseIntegerInRange(values.seed, "--seed", 0, Number.MAX_SAFE_INTEGER);
  const eventsFromBlock = parseEventsFrom(values["events-from"]);
  return {
    kind: "all",
    ...(chain !== undefined ? { chain } : {}),
    ...audit,
    ...(seed !== undefined ? { seed } : {}),
    ...(eventsFromBlock !== undefined ? { eventsFromBlock } : {}),
  };
}

/**
 * `--audit <fraction>` (a flat share, the older form), or `--audit-confidence <c>` and `--audit-lie-rate <p>` (each
 * defaulted; the default form): the two forms exclude each other.
 */
function parseAudit(
  values: Values,
): { readonly auditFraction: number } | { readonly auditConfidence: number; readonly auditLieRate: number } {
  const confidenceGiven = values["audit-confidence"] !== undefined || values["audit-lie-rate"] !== undefined;
  if (values.audit !== undefined) {
    if (confidenceGiven) {
      const other = values["audit-confidence"] !== undefined ? "--audit-confidence" : "--audit-lie-rate";
      throw new InvalidArgumentError(
        `--audit (a flat share) and ${other} (a sample sized by confidence) exclude each other: give one form`,
      );
    }
    return { auditFraction: parseFraction("--audit", values.audit) };
  }
  const auditConfidence =
    values["audit-confidence"] === undefined
      ? DEFAULT_AUDIT_CONFIDENCE
      : parseOpenFraction("--audit-confidence", values["audit-confidence"], false);
  const auditLieRate =
    values["audit-lie-rate"] === undefined ? DEFAULT_AUDIT_LIE_RATE : parseOpenFraction("--audit-lie-rate", values["audit-lie-rate"], true);
  return { auditConfidence, auditLieRate };
}

function parseOutput(values: Values, env: Readonly<Record<string, string | undefined>>): DriftOutputOptions {
  const json = values.json === undefined ? undefined : nonEmpty("--json", values.json);
  const markdown = values.markdown === undefined ? undefined : nonEmpty("--markdown", values.markdown);
  if (json === "-" && markdown === "-") {
    throw new InvalidArgumentError("--json - and --markdown - both ask for stdout: send one of them to a file");
  }
  if (json !== undefined && json !== "-" && json === markdown) {
    throw new InvalidArgumentError(`--json and --markdown name the same file "${json}"`);
  }
  const tableRows =
    values.rows === undefined
      ? DEFAULT_TABLE_ROWS
      : values.rows.trim().toLowerCase() === "all"
        ? Number.POSITIVE_INFINITY
        : parseIntegerInRange(values.rows, "--rows", 0, Number.MAX_SAFE_INTEGER, ' or "all"');
  return {
    ...(json !== undefined ? { json } : {}),
    ...(markdown !== undefined ? { markdown } : {}),
    tableRows,
    wide: values.wide === true,
    quiet: values.quiet === true,
    ci: isCi(env),
  };
}

/**
 * `--events-from`: `auto` (the default with `--all`: from the oracle's deployment block when it can be found
 * and the span is small enough, see `src/drift/onchain-enumeration.ts`), `off`, or a block number.
 */
function parseEventsFrom(text: string | undefined): bigint | "auto" | undefined {
  const value = text?.trim().toLowerCase();
  if (value === undefined || value === "auto") return "auto";
  if (value === "off" || value === "none") return undefined;
  if (!/^\d+$/.test(value)) {
    throw new InvalidArgumentError(`--events-from must be a block number, "auto" or "off", got "${text}"`);
  }
  return BigInt(value);
}

function parsePositive(flag: string, text: string): number {
  const value = Number(text.trim());
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(`${flag} must be a positive number, got "${text}"`);
  }
  return value;
}

function parseFraction(flag: string, text: string): number {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed);
  const value = percent ? Number(percent[1]) / 100 : /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new InvalidArgumentError(`${flag} must be a fraction from 0 to 1 (or a percentage such as 5%), got "${text}"`);
  }
  return value;
}

/**
 * A fraction above 0 and below 1 (or up to 1 when `allowOne`), or a percentage (`99%`, `0.5%`).
 */
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

function nonEmpty(flag: string, text: string, what = 'a file name or "-"'): string {
  if (text.trim() === "") throw new InvalidArgumentError(`${flag} needs ${what}`);
  return text.trim();
}
