/**
 * The options of `trustgate watch`, declared once (see `option-table.ts`). The chain, service and rule options are
 * the drift job's own declarations (`drift-options.ts`), so that the two commands read them alike; the watch's
 * options follow.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { parseEndpointUrl } from "../security/endpoint-url.js";
import { parseIntegerInRange } from "../inputs/numbers.js";
import { DEFAULT_AUDIT_SHARE } from "../watch/audit-walk.js";
import { parseExpectWrite } from "../watch/heartbeat.js";
import { parseListenAddress } from "../watch/server.js";
import {
  DEFAULT_HEALTH_INTERVAL_SECONDS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_REMINDER_SECONDS,
  DEFAULT_WATCH_CONFIRMATIONS,
} from "../watch/watch.js";
import { DRIFT_OPTIONS, type DriftOptionName, type DriftParseContext } from "./drift-options.js";
import { formatDuration, parseDuration } from "./duration.js";
import { type CommandOption, formatOptionGroup, type OptionValues } from "./option-table.js";
import { parseNonBlank, withFlag } from "./shared-args.js";

/** What the watch options' `parse` functions need besides the value: the drift options' context (a file reader). */
export type WatchParseContext = DriftParseContext;

/** Help sections of the watch options, by key, with their titles (in the order they are shown). */
export const WATCH_HELP_GROUPS = {
  where: "Where to look (--rpc and --api are required):",
  rule: "Decision rule (default: score >= 51), as trustgate drift reads it:",
  follow: "Following the chain:",
  heartbeat: "The oracle's heartbeat and the service's health:",
  alerts: "Alerts:",
  service: "Metrics, logs, state:",
  limits: "Limits:",
} as const;

/** One option of `trustgate watch`. */
export type WatchOption = CommandOption<WatchParseContext> & { readonly group: keyof typeof WATCH_HELP_GROUPS };

/** The drift option of that name, as `trustgate drift` declares it. */
type DriftOptionNamed<N extends DriftOptionName> = Extract<(typeof DRIFT_OPTIONS)[number], { readonly name: N }>;

/** A drift option, under one of the watch's help sections (its drift-only scope dropped). */
function driftOption<N extends DriftOptionName, G extends keyof typeof WATCH_HELP_GROUPS>(
  name: N,
  group: G,
): Omit<DriftOptionNamed<N>, "group" | "scope"> & { readonly group: G } {
  const option = DRIFT_OPTIONS.find((candidate) => candidate.name === name)!;
  return { ...option, scope: undefined, group } as unknown as Omit<DriftOptionNamed<N>, "group" | "scope"> & { readonly group: G };
}

/** A duration option: `90s`, `5m`, `26h`, `2d`, or seconds. */
function duration(flag: string) {
  return (value: string) => withFlag(flag, () => parseDuration(value));
}

/** `--webhook-format`. */
function parseWebhookFormat(value: string): "json" | "slack" {
  if (value === "json" || value === "slack") return value;
  throw new InvalidArgumentError(`--webhook-format must be json or slack, got "${value}"`);
}

/** `--log-format`. */
function parseLogFormat(value: string): "text" | "json" {
  if (value === "text" || value === "json") return value;
  throw new InvalidArgumentError(`--log-format must be text or json, got "${value}"`);
}

/** `--audit-share`: a fraction from 0 (no audit) to 1. */
function parseAuditShare(value: string): number {
  const share = Number(value.trim().endsWith("%") ? Number(value.trim().slice(0, -1)) / 100 : value);
  if (value.trim() === "" || !Number.isFinite(share) || share < 0 || share > 1) {
    throw new InvalidArgumentError(`--audit-share must be a fraction from 0 to 1 (or 0%-100%), got "${value}"`);
  }
  return share;
}

/** The options of `trustgate watch`, in the order the help lists them. */
export const WATCH_OPTIONS = [
  driftOption("rpc", "where"),
  driftOption("oracle", "where"),
  {
    name: "attested-oracle",
    kind: "string",
    arg: "address",
    group: "where",
    description:
      "Also follow this AttestedTrustOracle (its records, attestations and key events: RecordSignedBy, SigningKeyRevoked) and read the records from it",
    parse: driftOption("attested-oracle", "where").parse,
  },
  driftOption("api", "where"),
  driftOption("api-key", "where"),
  driftOption("issuer", "where"),
  driftOption("jwks", "where"),
  driftOption("accept-kid", "where"),
  driftOption("threshold", "rule"),
  driftOption("gate", "rule"),
  driftOption("max-age", "rule"),
  driftOption("tier-encoding", "rule"),
  driftOption("sybil-encoding", "rule"),
  {
    name: "confirmations",
    kind: "string",
    arg: "n",
    group: "follow",
    description: `Blocks a change waits for before it is believed (0-1000, default ${DEFAULT_WATCH_CONFIRMATIONS}); a reorg deeper than that is read again`,
    parse: (value: string) => parseIntegerInRange(value, "--confirmations", 0, 1000),
  },
  {
    name: "poll-interval",
    kind: "string",
    arg: "duration",
    group: "follow",
    description: `Time between polls of the chain once caught up (default ${DEFAULT_POLL_INTERVAL_MS / 1000}s; 500ms, 2s, 1m)`,
    parse: (value: string) => {
      const ms = /^(\d+)ms$/.exec(value.trim());
      const result = ms ? Number(ms[1]) : withFlag("--poll-interval", () => parseDuration(value)) * 1000;
      if (!(result >= 100 && result <= 3_600_000))
        throw new InvalidArgumentError(`--poll-interval must be from 100ms to 1h, got "${value}"`);
      return result;
    },
  },
  {
    name: "ws",
    kind: "string",
    arg: "url",
    group: "follow",
    description:
      "A WebSocket endpoint of the chain (ws://, wss://): each new head wakes the watch at once instead of at the next poll; polling goes on",
    parse: (value: string) => parseEndpointUrl(value, { name: "--ws", protocols: ["ws:", "wss:"] }),
  },
  {
    name: "from-block",
    kind: "string",
    arg: "n",
    group: "follow",
    description: "The first block to follow when there is no state (default: the first one confirmed after start)",
    parse: (value: string) => BigInt(parseIntegerInRange(value, "--from-block", 0, Number.MAX_SAFE_INTEGER)),
  },
  {
    name: "events-from",
    kind: "string",
    arg: "block",
    group: "follow",
    description:
      "Replay the oracle's RecordAdded events from this block at start, to name the agent of every later RecordUpdated (default: agents are named by RecordAdded events seen since and by the service's listing)",
    parse: (value: string) => BigInt(parseIntegerInRange(value, "--events-from", 0, Number.MAX_SAFE_INTEGER)),
  },
  {
    name: "expect-write",
    kind: "string",
    arg: "when",
    group: "heartbeat",
    description:
      'When the oracle writes: "03:00 UTC daily" (optionally "+2h" of grace). Default: the service\'s nightly recompute at 03:00 UTC (its crosswalk)',
    scope: { excludes: "max-silence" },
    parse: (value: string) => parseExpectWrite(value),
  },
  {
    name: "max-silence",
    kind: "string",
    arg: "duration",
    group: "heartbeat",
    description: "Or: the longest time between two of the oracle's writes (26h), keyed on the records' own times",
    parse: duration("--max-silence"),
  },
  {
    name: "health-interval",
    kind: "string",
    arg: "duration",
    group: "heartbeat",
    description: `How often the service's answers, JWKS and kids are checked (default ${formatDuration(DEFAULT_HEALTH_INTERVAL_SECONDS)})`,
    parse: duration("--health-interval"),
  },
  {
    name: "webhook",
    kind: "string",
    arg: "url",
    group: "alerts",
    description:
      "POST each alert here as JSON, signed with HMAC-SHA256 over the raw body (header x-trustgate-signature; the key from $TRUSTGATE_WEBHOOK_SECRET, required)",
    parse: (value: string) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new InvalidArgumentError(`--webhook must be an http(s) URL, got "${value}"`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError(`--webhook must be an http(s) URL`);
      return url.href;
    },
  },
  {
    name: "webhook-format",
    kind: "string",
    arg: "json|slack",
    group: "alerts",
    description: "The body: the alert's JSON (default), or a Slack-compatible message (text and blocks)",
    scope: { needs: { option: "webhook", message: "--webhook-format says how --webhook posts, so it needs --webhook <url>" } },
    parse: parseWebhookFormat,
  },
  {
    name: "dead-letter",
    kind: "string",
    arg: "file",
    group: "alerts",
    description:
      "Where alerts not delivered after the retries go, one JSON line each (default: <state>.dead-letter.jsonl, else watch.dead-letter.jsonl)",
    scope: { needs: { option: "webhook", message: "--dead-letter keeps what --webhook could not deliver, so it needs --webhook <url>" } },
    parse: (value: string) => parseNonBlank("--dead-letter", value, "a file name"),
  },
  {
    name: "reminder",
    kind: "string",
    arg: "duration",
    group: "alerts",
    description: `Send a persisting problem again after this long (default ${formatDuration(DEFAULT_REMINDER_SECONDS)}; 0 never)`,
    parse: duration("--reminder"),
  },
  {
    name: "report-link",
    kind: "string",
    arg: "url|path",
    group: "alerts",
    description: "A link or path to the night's drift report, put on each alert",
    parse: (value: string) => parseNonBlank("--report-link", value, "a URL or a path"),
  },
  {
    name: "metrics",
    kind: "string",
    arg: "host:port",
    group: "service",
    description: "Serve Prometheus metrics at /metrics, and /healthz and /readyz, on this address (127.0.0.1:9464, :9464)",
    parse: (value: string) => parseListenAddress(value),
  },
  {
    name: "log-format",
    kind: "string",
    arg: "text|json",
    group: "service",
    description: "Log lines on stderr: text (default) or one JSON object a line",
    parse: parseLogFormat,
  },
  {
    name: "state",
    kind: "string",
    arg: "file",
    group: "service",
    description:
      "Keep the last block processed, the agents waiting and the alerts outstanding here (written after each poll, atomically): a restart resumes without missing a block or alerting twice",
    parse: (value: string) => parseNonBlank("--state", value, "a file name"),
  },
  driftOption("rate", "limits"),
  {
    name: "audit-share",
    kind: "string",
    arg: "fraction",
    group: "limits",
    description: `Share of the rate the slow audit of every listed agent may spend between writes (0-1, default ${Number(DEFAULT_AUDIT_SHARE.toFixed(2))}; 0: no audit)`,
    parse: parseAuditShare,
  },
  {
    name: "audit-chain",
    kind: "string",
    arg: "slug",
    group: "limits",
    description: "Audit only the agents of this chain",
    parse: driftOption("chain", "limits").parse,
  },
  driftOption("timeout", "limits"),
  { name: "help", short: "h", kind: "boolean", group: "service", description: "Show this help" },
] as const satisfies readonly WatchOption[];

/** The parsed values of the watch options. */
export type WatchOptionValues = OptionValues<typeof WATCH_OPTIONS>;

/**
 * The options' part of `trustgate watch --help`, section by section.
 *
 * @returns The lines, with a blank line between sections.
 */
export function formatWatchOptions(): string {
  return Object.entries(WATCH_HELP_GROUPS)
    .map(([group, title]) => `${title}\n${formatOptionGroup(WATCH_OPTIONS, group)}`)
    .join("\n");
}
