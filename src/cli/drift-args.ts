/**
 * The arguments of `trustgate drift`: parsed with `node:util` `parseArgs` (strict) and validated into
 * everything a drift run needs except where the chain and the service are, which may come from the
 * embedded environment (see `drift-config.ts`).
 *
 * Each option (its kind, help, scope and value parser) is declared once in `drift-options.ts`; this file applies
 * the rules that concern the run as a whole.
 *
 * Decisions:
 * - `--rpc` and `--api` are required; a part not given comes from the embedded environment only with `--demo`
 *   (see `demo.ts`).
 * - With neither `--agents` nor `--all`, `--all` is implied only in the embedded default (`--demo` with neither
 *   `--rpc` nor `--api`); as soon as a real chain or service is named, the agents must be chosen explicitly, so that
 *   pointing the job at the real service never starts a full scan by surprise.
 * - Which options go together (`--agents` or `--all`, the options of `--all`, `--full` with `--state`) is checked
 *   before any value is parsed: an option that does not belong is named as such, whatever its value.
 * - The audit sample is sized by confidence (`--audit-confidence`, default 0.99, of catching a listing that lies about
 *   at least `--audit-lie-rate`, default 1 %, of the agents compared with it).
 * - There is no default audit seed: each run draws a random one (or continues the one of the run it resumes) and
 *   prints it, so that `--seed` reproduces a run.
 * - `--max-duration` applies to both scopes; with `--state` the run it stops can be continued.
 * - `--accept` and `--fail-on` need `--state`: both are about the night before. `--fail-on` defaults to `any`, so that
 *   nothing passes silently; the baseline file `--accept` names is read and checked before the scan, by the command.
 * - With neither `--threshold` nor `--gate`, the rule is `score >= 51` (the `developing` tier).
 * - The API key comes from `--api-key`, else from `TRUSTGATE_API_KEY` (an empty variable counts as unset).
 * - `--max-errors` (a count such as `10`, or a percentage of the scanned agents such as `2.5%`) defaults to
 *   1 %: a run in which more agents than that end in `error` or `missing-attestation` exits 4. The default is
 *   always written into the settings, so a program sees the limit that applies.
 * - `--events-from` defaults to `auto` with `--all`: records the oracle holds but the listing lacks are looked
 *   for in the oracle's events from its deployment block, when that block can be found and the span is small;
 *   otherwise (or with `--events-from off`) the summary says, loudly, that they were not looked for and how to.
 * - `--attested-oracle` is an endpoint (an address on the chain of `--rpc`), not a setting: the records are read
 *   from it, and `--oracle` (default the Base oracle) names the upstream it is expected to fall back on.
 * - `--refresh` (with `--attested-oracle`) refreshes that oracle from the scan's report when the scan is done, by
 *   `trustgate refresh`'s own run: its options keep their names (`--min-change`, `--gas-limit`, `--dry-run`,
 *   `--confirm-mainnet`; the scan's `--max-age` is the plan's too), and its JSON report goes to `--refresh-json`,
 *   which cannot take stdout when `--json -` or `--markdown -` does.
 *
 * @packageDocumentation
 */
import {
  type AgentScope,
  DEFAULT_AUDIT_CONFIDENCE,
  DEFAULT_AUDIT_LIE_RATE,
  DEFAULT_DECISION_THRESHOLD,
  DEFAULT_MAX_AGE_SECONDS,
  type DriftConfig,
} from "../drift/config.js";
import { DEFAULT_ERROR_LIMIT } from "../drift/error-limit.js";
import { InvalidArgumentError } from "../errors.js";
import {
  checkDriftScope,
  DEFAULT_SERVICE_CONCURRENCY,
  DEFAULT_TABLE_ROWS,
  DRIFT_OPTIONS,
  type DriftOptionValues,
} from "./drift-options.js";
import { isCi } from "./io.js";
import { defaultRefreshJournal, type RefreshKeySource, type RefreshSending } from "./refresh-args.js";
import { parseOptionValues, readRawOptions } from "./option-table.js";
import { API_KEY_ENV, encodingOf, parseApiKey } from "./shared-args.js";

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
  /** `--markdown`: the summary's file path, or `-` for stdout. */
  readonly markdown?: string;
  /** `--markdown-rows`: a file path for every row as Markdown. */
  readonly markdownRows?: string;
  /** `--html`: a file path for the self-contained HTML page. */
  readonly html?: string;
  /** `--refresh-report`: the refresh report (`trustgate refresh --json`) whose refreshes the page shows. */
  readonly refreshReport?: string;
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
  /** `--accept`: the baseline file of known problems, read and checked before the scan (`parseBaseline`). */
  readonly accept?: string;
  /** `--refresh`: refresh the attested oracle from the scan's report, with these settings. */
  readonly refresh?: DriftRefreshArgs;
}

/** What `--refresh` and the refresh options given with it ask of the refresh after the scan. */
export interface DriftRefreshArgs {
  /** `--min-change` and `--gas-limit`, when given (the staleness limit is the scan's `--max-age`). */
  readonly plan: { readonly minChange?: number; readonly gasLimit?: number };
  /** `--dry-run`. */
  readonly dryRun: boolean;
  /** `--confirm-mainnet`. */
  readonly confirmMainnet: boolean;
  /** `--refresh-json`: a file, or `-` for stdout. */
  readonly json?: string;
  /**
   * `--max-fee-per-gas`, `--budget`, `--replace-after`, `--confirmations`, `--journal` (default: beside the first file
   * of `--state`, `--json` and `--refresh-json`, as `<file>.refresh-journal.json`, else
   * `trustgate-drift.refresh-journal.json` in the working directory).
   */
  readonly sending: RefreshSending;
  /** `--keystore`, when given (else `DEPLOYER_PRIVATE_KEY`). */
  readonly key: RefreshKeySource;
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

/**
 * Parses and validates the arguments of `trustgate drift`.
 *
 * @param argv - The arguments after `drift`.
 * @param options - Environment, clock and file reader.
 * @returns `{ kind: "help" }` for `--help`, else the validated run arguments.
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, a
 *   conflicting combination, a bad number, duration, address, URL, agent, chain or error limit, an unreadable
 *   `--jwks` file, or a missing `--rpc`/`--api` without `--demo`.
 */
export function parseDriftArgs(argv: readonly string[], options: ParseDriftArgsOptions = {}): DriftArgs {
  const env = options.env ?? process.env;
  const raw = readRawOptions(DRIFT_OPTIONS, argv, "trustgate drift");
  if (raw.help) return { kind: "help" };
  checkDriftScope(raw);
  const values = parseOptionValues(DRIFT_OPTIONS, raw, options);

  const endpoints: DriftEndpointArgs = {
    ...(values.rpc !== undefined ? { rpcUrl: values.rpc } : {}),
    ...(values.api !== undefined ? { apiUrl: values.api } : {}),
    ...(values.oracle !== undefined ? { oracle: values.oracle } : {}),
    ...(values["attested-oracle"] !== undefined ? { attestedOracle: values["attested-oracle"] } : {}),
    ...(values.issuer !== undefined ? { issuer: values.issuer } : {}),
    ...(values.jwks !== undefined ? { jwks: values.jwks } : {}),
  };
  const embedded = { chain: endpoints.rpcUrl === undefined, api: endpoints.apiUrl === undefined };

  const apiKey = values["api-key"] ?? parseApiKey(undefined, env[API_KEY_ENV]);
  const threshold = values.threshold ?? (values.gate === undefined ? DEFAULT_DECISION_THRESHOLD : undefined);
  const settings: DriftSettings = {
    scope: agentScope(values, embedded),
    maxAgeSeconds: values["max-age"] ?? DEFAULT_MAX_AGE_SECONDS,
    concurrency: values.concurrency ?? DEFAULT_SERVICE_CONCURRENCY,
    encoding: encodingOf(values["tier-encoding"], values["sybil-encoding"]),
    maxErrors: values["max-errors"] ?? DEFAULT_ERROR_LIMIT,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(values.gate !== undefined ? { gate: values.gate } : {}),
    ...(values.rate !== undefined ? { ratePerMinute: values.rate } : {}),
    ...(values.timeout !== undefined ? { timeoutMs: values.timeout } : {}),
    ...(values.state !== undefined ? { state: values.state } : {}),
    ...(values.full ? { full: true } : {}),
    ...(values["max-duration"] !== undefined ? { maxDurationSeconds: values["max-duration"] } : {}),
    ...(values["fail-on"] !== undefined ? { failOn: values["fail-on"] } : {}),
    ...(values["max-network-failures"] !== undefined ? { maxNetworkFailures: values["max-network-failures"] } : {}),
    ...(values["accept-kid"] !== undefined ? { acceptedKids: values["accept-kid"] } : {}),
  };
  const output = outputOptions(values, env);
  checkDemoEndpoints(embedded, values.demo === true);
  const refresh = refreshArgs(values, output);
  return {
    kind: "run",
    settings,
    endpoints,
    embedded,
    output,
    ...(values.accept !== undefined ? { accept: values.accept } : {}),
    ...(refresh ? { refresh } : {}),
  };
}

/** The refresh after the scan, when `--refresh` is given. */
function refreshArgs(values: DriftOptionValues, output: DriftOutputOptions): DriftRefreshArgs | undefined {
  if (values.refresh !== true) return undefined;
  const json = values["refresh-json"];
  if (json === "-" && (output.json === "-" || output.markdown === "-")) {
    throw new InvalidArgumentError(
      `--refresh-json - and --${output.json === "-" ? "json" : "markdown"} - both ask for stdout: send one of them to a file`,
    );
  }
  return {
    plan: {
      ...(values["min-change"] !== undefined ? { minChange: values["min-change"] } : {}),
      ...(values["gas-limit"] !== undefined ? { gasLimit: values["gas-limit"] } : {}),
    },
    dryRun: values["dry-run"] === true,
    confirmMainnet: values["confirm-mainnet"] === true,
    ...(json !== undefined ? { json } : {}),
    sending: {
      ...(values["max-fee-per-gas"] !== undefined ? { maxFeePerGas: values["max-fee-per-gas"] } : {}),
      ...(values.budget !== undefined ? { budget: values.budget } : {}),
      ...(values["replace-after"] !== undefined ? { replaceAfterSeconds: values["replace-after"] } : {}),
      ...(values.confirmations !== undefined ? { confirmations: values.confirmations } : {}),
      journal: values.journal ?? defaultRefreshJournal("trustgate-drift", values.state, output.json, json),
    },
    key: values.keystore !== undefined ? { keystore: values.keystore } : {},
  };
}

/**
 * The agents to scan: an `--agents` list, else every listed agent (with the options of `--all`). Without either,
 * every agent only in the embedded default.
 */
function agentScope(values: DriftOptionValues, embedded: DriftRunArgs["embedded"]): AgentScope {
  if (values.agents !== undefined) return { kind: "list", agents: values.agents };
  if (!values.all && !(embedded.chain && embedded.api)) {
    throw new InvalidArgumentError("Choose the agents: --agents chain:id[:registry],... or --all (required when --rpc or --api is given)");
  }
  const eventsFromBlock = values["events-from"] ?? "auto";
  return {
    kind: "all",
    ...(values.chain !== undefined ? { chain: values.chain } : {}),
    auditConfidence: values["audit-confidence"] ?? DEFAULT_AUDIT_CONFIDENCE,
    auditLieRate: values["audit-lie-rate"] ?? DEFAULT_AUDIT_LIE_RATE,
    ...(values.seed !== undefined ? { seed: values.seed } : {}),
    ...(eventsFromBlock !== "off" ? { eventsFromBlock } : {}),
  };
}

/** Where the report goes: two outputs may not both be stdout, nor the same file. */
function outputOptions(values: DriftOptionValues, env: Readonly<Record<string, string | undefined>>): DriftOutputOptions {
  const { json, markdown, html } = values;
  if (json === "-" && markdown === "-") {
    throw new InvalidArgumentError("--json - and --markdown - both ask for stdout: send one of them to a file");
  }
  if (json !== undefined && json !== "-" && json === markdown) {
    throw new InvalidArgumentError(`--json and --markdown name the same file "${json}"`);
  }
  const refreshReport = values["refresh-report"];
  if (refreshReport !== undefined && html === undefined) {
    throw new InvalidArgumentError("--refresh-report shows the night's refreshes on the page: give --html <file> with it");
  }
  return {
    ...(json !== undefined ? { json } : {}),
    ...(markdown !== undefined ? { markdown } : {}),
    ...(values["markdown-rows"] !== undefined ? { markdownRows: values["markdown-rows"] } : {}),
    ...(html !== undefined ? { html } : {}),
    ...(refreshReport !== undefined ? { refreshReport } : {}),
    tableRows: values.rows ?? DEFAULT_TABLE_ROWS,
    wide: values.wide === true,
    quiet: values.quiet === true,
    ci: isCi(env),
  };
}
