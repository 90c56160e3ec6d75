/**
 * The arguments of `trustgate refresh`: parsed with `node:util` `parseArgs` (strict) and validated into what a
 * refresh run needs. Each option is declared once in `refresh-options.ts`; this file applies the rules that concern
 * the run as a whole.
 *
 * Decisions:
 * - Exactly one source of what to push (`src/refresh/source.ts`): `--from` (a drift JSON report), `--watch` (a watch
 *   list), `--state` (the drift job's state file) or `--gate` (a gate's agents); none, or more than one, is a usage
 *   error. `--watch`, `--state` and `--gate` run a fresh drift over their agents, so they need `--rpc` and `--api`
 *   even with `--dry-run`, and `--watch` needs `--attested-oracle` (the oracle it reads and pushes to).
 * - `--dry-run` from a report needs nothing else: the plan is a function of the report and the push rules. A run that
 *   sends needs `--rpc` (the chain) and `--api` (the service, for fresh attestations: the report carries none, they
 *   expire within a day).
 * - The API key comes from `--api-key`, else from `TRUSTGATE_API_KEY` (an empty variable counts as unset).
 * - The journal is `--journal`, else next to the source's file (`<report>.refresh-journal.json`, and the same beside a
 *   watch list or a state file; for `--gate`, `refresh-<gate address>.refresh-journal.json` in the working directory):
 *   a rerun from the same source resumes its run.
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
  /** The kids accepted: the kit's trust kids and each `--accept-kid`; absent, the kit's. */
  readonly acceptedKids?: readonly string[];
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

/** Where the rows come from, as given (`src/refresh/source.ts` resolves it). */
export type RefreshSourceArgs =
  /** `--from`: the drift JSON report. */
  | { readonly kind: "report"; readonly file: string }
  /** `--watch`, with the fresh drift run's `--oracle`, `--threshold` and `--rate`. */
  | {
      readonly kind: "watch";
      readonly file: string;
      readonly oracle?: `0x${string}`;
      readonly threshold?: number;
      readonly ratePerMinute?: number;
    }
  /** `--state`, with the fresh drift run's `--rate`. */
  | { readonly kind: "state"; readonly file: string; readonly ratePerMinute?: number }
  /** `--gate`, with `--events-from` and the fresh drift run's `--rate`. */
  | { readonly kind: "gate"; readonly gate: `0x${string}`; readonly eventsFromBlock?: bigint | "auto"; readonly ratePerMinute?: number }
  /** `trustgate drift … --refresh`: the report of the scan just made. */
  | { readonly kind: "drift" };

/** A refresh run's arguments. */
export interface RefreshRunArgs {
  readonly kind: "run";
  /** What to push: exactly one source. */
  readonly source: RefreshSourceArgs;
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

/** The options that each name a source of what to push; exactly one is given. */
export const REFRESH_SOURCE_FLAGS = ["from", "watch", "state", "gate"] as const;

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
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, no source or
 *   more than one, a run that sends (or a source that runs drift) without `--rpc` or `--api`, `--watch` without
 *   `--attested-oracle`, or a value an option refuses.
 */
export function parseRefreshArgs(argv: readonly string[], options: ParseRefreshArgsOptions = {}): RefreshArgs {
  const env = options.env ?? process.env;
  const raw = readRawOptions(REFRESH_OPTIONS, argv, "trustgate refresh");
  if (raw.help) return { kind: "help" };
  const sources = REFRESH_SOURCE_FLAGS.filter((flag) => raw[flag] !== undefined);
  if (sources.length !== 1) {
    throw new InvalidArgumentError(
      sources.length === 0
        ? "Say what to push: --from <report.json> (trustgate drift --json writes it), --watch <file>, --state <file> or --gate <address>"
        : `${sources.map((flag) => `--${flag}`).join(" and ")} are each a source of what to push: give one of them`,
    );
  }
  checkOptionScope(REFRESH_OPTIONS, raw, (option) =>
    option.name === "rate" && raw.from !== undefined
      ? "--rate limits the fresh drift run of --watch, --state or --gate; --from runs none"
      : undefined,
  );
  const values = parseOptionValues(REFRESH_OPTIONS, raw, options);
  const dryRun = values["dry-run"] === true;
  const freshDrift = raw.from === undefined;
  if ((!dryRun || freshDrift) && (values.rpc === undefined || values.api === undefined)) {
    const missing = [values.rpc === undefined ? "--rpc <url>" : null, values.api === undefined ? "--api <url>" : null].filter(Boolean);
    throw new InvalidArgumentError(
      freshDrift
        ? `--${sources[0]} runs a fresh drift over its agents, so it needs ${missing.join(" and ")}: the chain and the service to compare (with --dry-run too)`
        : `A refresh that sends needs ${missing.join(" and ")}: the chain to push to and the service to fetch fresh attestations from (or give --dry-run to print the plan)`,
    );
  }
  const rate = values.rate !== undefined ? { ratePerMinute: values.rate } : {};
  const source: RefreshSourceArgs =
    values.from !== undefined
      ? { kind: "report", file: values.from }
      : values.watch !== undefined
        ? {
            kind: "watch",
            file: values.watch,
            ...(values.oracle !== undefined ? { oracle: values.oracle } : {}),
            ...(values.threshold !== undefined ? { threshold: values.threshold } : {}),
            ...rate,
          }
        : values.state !== undefined
          ? { kind: "state", file: values.state, ...rate }
          : {
              kind: "gate",
              gate: values.gate!,
              ...(values["events-from"] !== undefined ? { eventsFromBlock: values["events-from"] } : {}),
              ...rate,
            };
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
          ...(values["accept-kid"] !== undefined ? { acceptedKids: values["accept-kid"] } : {}),
          ...(values["attested-oracle"] !== undefined ? { attestedOracle: values["attested-oracle"] } : {}),
        }
      : undefined;
  return {
    kind: "run",
    source,
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
      journal: values.journal ?? defaultRefreshJournal(`refresh-${values.gate?.toLowerCase()}`, values.from, values.watch, values.state),
    },
    key: values.keystore !== undefined ? { keystore: values.keystore } : {},
  };
}

/**
 * The refresh journal's default name: beside the first of `files` that is a file (not absent, not `-` for stdout),
 * else `fallback`, with {@link REFRESH_JOURNAL_SUFFIX} after it. One rule for `trustgate refresh` (beside its source's
 * file) and `trustgate drift --refresh` (beside the state, else the JSON report).
 *
 * @param fallback - The name when no file is given (`refresh-<gate>`, `trustgate-drift`).
 * @param files - The candidate files, in order of preference.
 * @returns The journal's file name.
 */
export function defaultRefreshJournal(fallback: string, ...files: readonly (string | undefined)[]): string {
  return `${files.find((file) => file !== undefined && file !== "-") ?? fallback}${REFRESH_JOURNAL_SUFFIX}`;
}
