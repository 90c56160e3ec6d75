/**
 * The arguments of `trustgate watch`: parsed from the option table (`watch-options.ts`) and completed into what the
 * loop (`runWatch`), the webhook sender, the metrics server and the log take.
 *
 * Decisions:
 * - `--rpc` and `--api` are required: the watch follows a real chain and asks a real service (no embedded default:
 *   a process that runs for weeks watches what it is pointed at).
 * - The issuer is the origin of `--api` unless `--issuer`; the JWKS `<api>/.well-known/jwks.json` unless `--jwks`; the
 *   API key `--api-key`, else `TRUSTGATE_API_KEY`.
 * - The webhook's HMAC key is `TRUSTGATE_WEBHOOK_SECRET`, never an argument (arguments are visible to every user of
 *   the machine): `--webhook` without it is a usage error.
 * - The dead-letter file is `--dead-letter`, else beside the state file (`<state>.dead-letter.jsonl`), else
 *   `watch.dead-letter.jsonl` in the working directory.
 *
 * @packageDocumentation
 */
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import { JWKS_PATH } from "../config/service.js";
import { DEFAULT_MAX_AGE_SECONDS } from "../drift/config.js";
import { InvalidArgumentError } from "../errors.js";
import type { WatchConfig } from "../watch/watch.js";
import type { WebhookFormat } from "../watch/webhook.js";
import { checkOptionScope, parseOptionValues, readRawOptions } from "./option-table.js";
import { API_KEY_ENV, encodingOf, parseApiKey } from "./shared-args.js";
import { WATCH_OPTIONS, type WatchParseContext } from "./watch-options.js";

/** Environment variable holding the webhook's HMAC key. */
export const WEBHOOK_SECRET_ENV = "TRUSTGATE_WEBHOOK_SECRET";

/** The dead-letter file's name beside the state file: the state's, with this after it. */
export const DEAD_LETTER_SUFFIX = ".dead-letter.jsonl";

/** Where alerts go: the webhook, its body's form, its key and its dead-letter file. */
export interface WatchWebhookArgs {
  readonly url: string;
  readonly format: WebhookFormat;
  readonly secret: string;
  readonly deadLetter: string;
}

/** What a watch run takes from the command line. */
export interface WatchRunArgs {
  readonly kind: "run";
  readonly config: WatchConfig;
  /** `--webhook`; absent: alerts are logged only. */
  readonly webhook?: WatchWebhookArgs;
  /** `--metrics`: where to serve `/metrics`, `/healthz`, `/readyz`. */
  readonly metrics?: { readonly host: string; readonly port: number };
  /** `--log-format`. */
  readonly logFormat: "text" | "json";
}

/** What {@link parseWatchArgs} returns. */
export type WatchArgs = { readonly kind: "help" } | WatchRunArgs;

/** What {@link parseWatchArgs} reads besides the arguments. */
export interface ParseWatchArgsOptions extends WatchParseContext {
  /** Environment (`TRUSTGATE_API_KEY`, `TRUSTGATE_WEBHOOK_SECRET`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Parses and validates the arguments of `trustgate watch`.
 *
 * @param argv - The arguments after `watch`.
 * @param options - Environment and file reader.
 * @returns `{ kind: "help" }` for `--help`, else the run's arguments.
 * @throws {@link InvalidArgumentError} with a one-line message for an unknown option, a missing value, no `--rpc` or
 *   `--api`, `--webhook` without its key in the environment, or a value an option refuses.
 */
export function parseWatchArgs(argv: readonly string[], options: ParseWatchArgsOptions = {}): WatchArgs {
  const env = options.env ?? process.env;
  const raw = readRawOptions(WATCH_OPTIONS, argv, "trustgate watch");
  if (raw.help) return { kind: "help" };
  checkOptionScope(WATCH_OPTIONS, raw);
  const values = parseOptionValues(WATCH_OPTIONS, raw, options);
  if (values.rpc === undefined || values.api === undefined) {
    const missing = [values.rpc === undefined ? "--rpc <url>" : null, values.api === undefined ? "--api <url>" : null].filter(Boolean);
    throw new InvalidArgumentError(`trustgate watch needs ${missing.join(" and ")}: the chain to follow and the service to ask`);
  }
  const apiKey = values["api-key"] ?? parseApiKey(undefined, env[API_KEY_ENV]);
  const apiOrigin = new URL(values.api).origin;
  const config: WatchConfig = {
    rpcUrl: values.rpc,
    oracle: values.oracle ?? BASE_TRUST_ORACLE_ADDRESS,
    ...(values["attested-oracle"] !== undefined ? { attestedOracle: values["attested-oracle"] } : {}),
    apiUrl: values.api,
    ...(apiKey !== undefined ? { apiKey } : {}),
    issuer: values.issuer ?? apiOrigin,
    jwks: values.jwks ?? `${values.api.replace(/\/+$/, "")}${JWKS_PATH}`,
    ...(values["accept-kid"] !== undefined ? { acceptedKids: values["accept-kid"] } : {}),
    ...(values.threshold !== undefined ? { threshold: values.threshold } : {}),
    ...(values.gate !== undefined ? { gate: values.gate } : {}),
    maxAgeSeconds: values["max-age"] ?? DEFAULT_MAX_AGE_SECONDS,
    encoding: encodingOf(values["tier-encoding"], values["sybil-encoding"]),
    ...(values.rate !== undefined ? { ratePerMinute: values.rate } : {}),
    ...(values.timeout !== undefined ? { timeoutMs: values.timeout } : {}),
    ...(values.confirmations !== undefined ? { confirmations: values.confirmations } : {}),
    ...(values["poll-interval"] !== undefined ? { pollIntervalMs: values["poll-interval"] } : {}),
    ...(values.state !== undefined ? { state: values.state } : {}),
    ...(values.ws !== undefined ? { newHeadsUrl: values.ws } : {}),
    ...(values["from-block"] !== undefined ? { fromBlock: values["from-block"] } : {}),
    ...(values["events-from"] !== undefined ? { keysFromBlock: values["events-from"] } : {}),
    ...(values["expect-write"] !== undefined ? { cadence: values["expect-write"] } : {}),
    ...(values["max-silence"] !== undefined ? { cadence: { kind: "max-silence", seconds: values["max-silence"] } } : {}),
    ...(values["health-interval"] !== undefined ? { healthIntervalSeconds: values["health-interval"] } : {}),
    ...(values.reminder !== undefined ? { reminderIntervalSeconds: values.reminder } : {}),
    ...(values["report-link"] !== undefined ? { report: values["report-link"] } : {}),
    ...(values["audit-share"] !== undefined ? { auditShare: values["audit-share"] } : {}),
    ...(values["audit-chain"] !== undefined ? { auditChain: values["audit-chain"] } : {}),
  };
  let webhook: WatchWebhookArgs | undefined;
  if (values.webhook !== undefined) {
    const secret = env[WEBHOOK_SECRET_ENV];
    if (secret === undefined || secret.trim() === "") {
      throw new InvalidArgumentError(
        `--webhook signs each alert with HMAC-SHA256: set ${WEBHOOK_SECRET_ENV} to the key the receiver verifies with (never given as an argument)`,
      );
    }
    webhook = {
      url: values.webhook,
      format: values["webhook-format"] ?? "json",
      secret,
      deadLetter: values["dead-letter"] ?? `${values.state ?? "watch"}${DEAD_LETTER_SUFFIX}`,
    };
  }
  return {
    kind: "run",
    config,
    ...(webhook ? { webhook } : {}),
    ...(values.metrics !== undefined ? { metrics: values.metrics } : {}),
    logFormat: values["log-format"] ?? "text",
  };
}
