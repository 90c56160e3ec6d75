/**
 * `trustgate watch`: runs the watch (`runWatch`, `src/watch/watch.ts`) as a service until SIGTERM or SIGINT, with
 * the webhook sender (`--webhook`), the metrics and health server (`--metrics`) and structured log lines on stderr
 * (`--log-format text|json`).
 *
 * A first SIGTERM or SIGINT drains: the checks and deliveries in flight finish, the state is saved, the server closes,
 * and the process exits 0. A second one while draining exits at once with 130 (the state file is written atomically,
 * so it holds the last tick saved). Exit 2 for a usage or configuration error found before the loop (no `--rpc`, a
 * chain or service that does not answer at start, a state file of another oracle); 1 for an unexpected failure.
 *
 * @packageDocumentation
 */
import { redactUrl } from "../security/redact-url.js";
import { createWatchMetrics } from "../watch/metrics.js";
import { startWatchServer, type WatchHealth, type WatchServer } from "../watch/server.js";
import { runWatch, type WatchHooks, type WatchLogEvent, type WatchStatus } from "../watch/watch.js";
import { createWebhookSender } from "../watch/webhook.js";
import { WATCH_HELP } from "./help.js";
import { INTERRUPTED_EXIT_CODE } from "./interrupt.js";
import type { CliIo, CliStream } from "./io.js";
import { parseWatchArgs } from "./watch-args.js";

/** What {@link watchCommand} calls, replaceable in tests. */
export interface WatchCommandDependencies {
  /** The loop; default `runWatch`. */
  readonly runWatch?: typeof runWatch;
  /** Clock; default the system clock. */
  readonly now?: () => Date;
  /**
   * Subscribes to the stop signals (SIGTERM, SIGINT); default the process's. Returns the unsubscribe function.
   */
  readonly onStopSignal?: (handler: (signal: string) => void) => () => void;
  /** Ends the process on a second stop signal; default `process.exit`. */
  readonly exit?: (code: number) => void;
  /** Receives the metrics server once it listens (tests read its URL). */
  readonly onServer?: (server: WatchServer) => void;
}

/**
 * Runs `trustgate watch`.
 *
 * @param argv - The arguments after `watch`.
 * @param io - Streams and environment.
 * @param deps - Replacements for tests.
 * @returns 0 once drained after a stop signal; 2 for a usage or configuration error before the loop.
 * @throws For the caller's error handling (`main` prints it and exits 2 or 1).
 */
export async function watchCommand(argv: readonly string[], io: CliIo, deps: WatchCommandDependencies = {}): Promise<number> {
  const args = parseWatchArgs(argv, { env: io.env });
  if (args.kind === "help") {
    io.stdout.write(WATCH_HELP);
    return 0;
  }
  const now = deps.now ?? (() => new Date());
  const log = logWriter(io.stderr, args.logFormat, now);
  const controller = new AbortController();
  let draining = false;
  const unsubscribe = (deps.onStopSignal ?? processStopSignals)((signal) => {
    if (draining) {
      log({
        level: "warn",
        event: "stop-forced",
        message: `${signal} again: exiting without waiting (the state holds the last tick saved)`,
      });
      (deps.exit ?? ((code: number) => process.exit(code)))(INTERRUPTED_EXIT_CODE);
      return;
    }
    draining = true;
    log({ level: "info", event: "draining", message: `${signal}: finishing the checks and alerts in flight, then saving the state` });
    controller.abort(new Error(`stopped by ${signal}`));
  });
  const metrics = createWatchMetrics({ now });
  let status: WatchStatus | undefined;
  let lastFailure: string | null = null;
  const health = (): WatchHealth => {
    const reasons: string[] = [];
    if (!status) reasons.push("connecting to the chain and the service");
    else if (!status.caughtUp) reasons.push(`catching up: last block processed ${String(status.lastBlock ?? "none")}`);
    if (lastFailure) reasons.push(`last tick failed: ${lastFailure}`);
    return { live: true, ready: status !== undefined && status.caughtUp && lastFailure === null, reasons };
  };
  let server: WatchServer | undefined;
  try {
    if (args.metrics) {
      server = await startWatchServer({ ...args.metrics, metrics, health });
      deps.onServer?.(server);
      log({ level: "info", event: "metrics", message: `metrics at ${server.url}/metrics, health at /healthz and /readyz` });
    }
    const sender = args.webhook
      ? createWebhookSender({
          url: args.webhook.url,
          format: args.webhook.format,
          secret: args.webhook.secret,
          deadLetter: args.webhook.deadLetter,
          now,
        })
      : undefined;
    if (args.webhook) {
      log({
        level: "info",
        event: "webhook",
        message: `alerts to ${redactUrl(args.webhook.url)} (${args.webhook.format}); not delivered: ${args.webhook.deadLetter}`,
      });
    } else log({ level: "warn", event: "no-webhook", message: "no --webhook: alerts are only logged" });
    const hooks: WatchHooks = {
      ...(sender ? { deliver: (message, signal) => sender.send(message, signal) } : {}),
      metrics,
      log,
      signal: controller.signal,
      now,
      onReady: (ready) => (status = ready),
      onTick: (tick) => {
        lastFailure = tick.failure;
        if (status) {
          status = {
            ...status,
            lastBlock: tick.step?.confirmed?.number ?? status.lastBlock,
            caughtUp: tick.step?.caughtUp ?? status.caughtUp,
            queued: tick.queued,
          };
        }
      },
    };
    const summary = await (deps.runWatch ?? runWatch)(args.config, hooks);
    await sender?.idle();
    log({
      level: "info",
      event: "summary",
      message: `checked ${summary.checked} agent(s) in ${summary.ticks} tick(s); alerts sent ${summary.alerts.sent}, not delivered ${summary.alerts.failed}; ${summary.outstanding} outstanding`,
    });
    return 0;
  } finally {
    unsubscribe();
    await server?.close();
  }
}

/** The process's SIGTERM and SIGINT. */
function processStopSignals(handler: (signal: string) => void): () => void {
  const onTerm = () => handler("SIGTERM");
  const onInt = () => handler("SIGINT");
  process.on("SIGTERM", onTerm);
  process.on("SIGINT", onInt);
  return () => {
    process.removeListener("SIGTERM", onTerm);
    process.removeListener("SIGINT", onInt);
  };
}

/**
 * Writes log events as lines: `<time> <level> <event>: <message>` (text), or one JSON object a line with `time`,
 * `level`, `event`, `message` and the event's fields (json).
 *
 * @param stream - Where the lines go (stderr).
 * @param format - `text` or `json`.
 * @param now - Clock.
 * @returns The log function the loop takes.
 */
export function logWriter(stream: CliStream, format: "text" | "json", now: () => Date): (event: WatchLogEvent) => void {
  return (event) => {
    const time = now().toISOString();
    if (format === "json") {
      stream.write(`${JSON.stringify({ ...event.fields, time, level: event.level, event: event.event, message: event.message })}\n`);
    } else stream.write(`${time} ${event.level} ${event.event}: ${event.message}\n`);
  };
}
