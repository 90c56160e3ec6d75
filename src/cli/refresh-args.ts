/**
 * The arguments of `trustgate refresh`: parsed with `node:util` `parseArgs` (strict) and validated into what a
 * refresh run needs. Each option is declared once in `refresh-options.ts`; this file applies the rules that concern
 * the run as a whole.
 *
 * Decisions:
 * - `--from` is required: the drift job's JSON report is, for now, the one source of what to push.
 * - `--dry-run` needs nothing else: the plan is a function of the report and the push rules. A run that sends needs
 *   `--rpc` (the chain) and `--api` (the service, for fresh attestations: the report carries none, they expire
 *   within a day).
 * - The API key comes from `--api-key`, else from `TRUSTGATE_API_KEY` (an empty variable counts as unset).
 * - The journal is `--journal`, else next to the drift report (`<report>.refresh-journal.json`): a rerun from the same
 *   report resumes the run of that report.
 *
 * @packageDocumentation
 */
import type { DriftConfig } from "../drift/config.js";
import { InvalidArgumentError } from "../errors.js";
import type { RefreshPlanOptions } from "../refresh/plan.js";
import { readRawOptions, checkOptionScope, parseOptionValues } from "./option-table.js";
import { REFRESH_OPTIONS, type RefreshParseContext } from "./refresh-options.js";
import { API_KEY_ENV, parseApiKey } from "./shared-args.js";

/** Where a run that sends pushes, and where it fetches the fresh attestations. */
export interface RefreshEndpoints {
  /** `--rpc`. */
  readonly rpcUrl: string;
  /** `--api`. */
  readonly apiUrl: string;
  /** `--api-key` or `TRUSTGATE_API_KEY`. */
  readonly apiKey?: string;
  /** `--issuer`. */
  readonly issuer?: string;
  /** `--jwks`: a URL, or the key set read from a file. */
  readonly jwks?: DriftConfig["jwks"];
  /** `--attested-oracle`; absent: the one the drift report read. */
  readonly attestedOracle?: `0x${string}`;
}

/** How a run that sends spends and sends: `--max-fee-per-gas`, `--budget`, `--replace-after`, `--confirmations`, `--journal`. */
export interface RefreshSending {
  /** Fee ceiling, wei per gas. */
  readonly maxFeePerGas?: bigint;
  readonly budget?: { readonly unit: "wei" | "gas"; readonly amount: bigint };
  readonly replaceAfterSeconds?: number;
  readonly confirmations?: number;
  /** The journal file: `--journal`, else `<--from>.refresh-journal.json`. */
  readonly journal: string;
}

/** `--keystore`: the encrypted keystore that holds the sender's key (else `DEPLOYER_PRIVATE_KEY`). */
export interface RefreshKeySource {
  readonly keystore?: string;
}

/** A refresh run's arguments. */
export interface RefreshRunArgs {
  readonly kind: "run";
  /** `--from`: the drift JSON report. */
  readonly from: string;
  /** The push rules and batch size given (the plan fills the defaults). */
  readonly plan: Omit<RefreshPlanOptions, "now">;
  /** `--dry-run`: print the plan, send nothing. */
  readonly dryRun: boolean;
  /** `--confirm-mainnet`. */
  readonly confirmMainnet: boolean;
  /** `--json`: a file, or `-` for stdout. */
  readonly json?: string;
  /** `--rpc`: with `--dry-run` alone, the chain the plan is priced on (its cost at the current fee). */
  readonly rpcUrl?: string;
  /** Where to push; absent only with `--dry-run` when `--rpc` and `--api` are not given. */
  readonly endpoints?: RefreshEndpoints;
  /** Fees, budget, replacement, confirmations and journal of a run that sends. */
  readonly sending: RefreshSending;
  /** Where the sender's key comes from. */
  readonly key: RefreshKeySource;
}

/** The default journal's name: the drift report's, with this after it. */
export const REFRESH_JOURNAL_SUFFIX = ".refresh-journal.json";

/** What {@link parseRefreshArgs} returns. */
export type RefreshArgs = { readonly kind: "help" } | RefreshRunArgs;

/** What {@link parseRefreshArgs} reads besides the arguments. */
export interface ParseRefreshArgsOptions extends RefreshParseContext {
  /** Environment (`TRUSTGATE_API_KEY`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Parses and validates the arguments of `trustgate refresh`.
 *
 * @param argv - The arguments after `refresh`.
 * @param options - Environment and file reader.
 * @returns `{ kind: "help" }` for `--help`, else the validated run arguments.
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, a missing
 *   `--from`, a run that sends without `--rpc` or `--api`, or a value an option refuses.
 */
export function parseRefreshArgs(argv: readonly string[], options: ParseRefreshArgsOptions = {}): RefreshArgs {
  const env = options.env ?? process.env;
  const raw = readRawOptions(REFRESH_OPTIONS, argv, "trustgate refresh");
  if (raw.help) return { kind: "help" };
  if (raw.from === undefined) {
    throw new InvalidArgumentError("Give the drift job's JSON report with --from <file> (trustgate drift --json report.json writes it)");
  }
  checkOptionScope(REFRESH_OPTIONS, raw);
  const values = parseOptionValues(REFRESH_OPTIONS, raw, options);
  const dryRun = values["dry-run"] === true;
  if (!dryRun && (values.rpc === undefined || values.api === undefined)) {
    const missing = [values.rpc === undefined ? "--rpc <url>" : null, values.api === undefined ? "--api <url>" : null].filter(Boolean);
    throw new InvalidArgumentError(
      `A refresh that sends needs ${missing.join(" and ")}: the chain to push to and the service to fetch fresh attestations from (or give --dry-run to print the plan)`,
    );
  }
  const apiKey = values["api-key"] ?? parseApiKey(undefined, env[API_KEY_ENV]);
  const plan: Omit<RefreshPlanOptions, "now"> = {
    ...(values["max-age"] !== undefined ? { maxAgeSeconds: values["max-age"] } : {}),
    ...(values["min-change"] !== undefined ? { minChange: values["min-change"] } : {}),
    ...(values["gas-limit"] !== undefined ? { gasLimit: values["gas-limit"] } : {}),
  };
  const endpoints: RefreshEndpoints | undefined =
    values.rpc !== undefined && values.api !== undefined
      ? {
          rpcUrl: values.rpc,
          apiUrl: values.api,
          ...(apiKey !== undefined ? { apiKey } : {}),
          ...(values.issuer !== undefined ? { issuer: values.issuer } : {}),
          ...(values.jwks !== undefined ? { jwks: values.jwks } : {}),
          ...(values["attested-oracle"] !== undefined ? { attestedOracle: values["attested-oracle"] } : {}),
        }
      : undefined;
  return {
    kind: "run",
    from: values.from!,
    plan,
    dryRun,
    confirmMainnet: values["confirm-mainnet"] === true,
    ...(values.json !== undefined ? { json: values.json } : {}),
    ...(values.rpc !== undefined ? { rpcUrl: values.rpc } : {}),
    ...(endpoints ? { endpoints } : {}),
    sending: {
      ...(values["max-fee-per-gas"] !== undefined ? { maxFeePerGas: values["max-fee-per-gas"] } : {}),
      ...(values.budget !== undefined ? { budget: values.budget } : {}),
      ...(values["replace-after"] !== undefined ? { replaceAfterSeconds: values["replace-after"] } : {}),
      ...(values.confirmations !== undefined ? { confirmations: values.confirmations } : {}),
      journal: values.journal ?? `${values.from!}${REFRESH_JOURNAL_SUFFIX}`,
    },
    key: values.keystore !== undefined ? { keystore: values.keystore } : {},
  };
}
