/**
 * Delivery of alerts to a webhook: each {@link AlertMessage} is POSTed as its body ({@link webhookBody}, `json` or
 * `slack`), signed ({@link WEBHOOK_SIGNATURE_HEADER}), retried, and, when it cannot be delivered, written to the
 * dead-letter file. Nothing is lost: every message is either delivered (a 2xx) or a line of that file.
 *
 * Each attempt, with its own time limit (`timeoutMs`, default 10 s), ends one of three ways:
 *
 * | outcome | when | then |
 * |---|---|---|
 * | delivered | a 2xx | done |
 * | retried | a network error, the time limit, 408, 425, 429 or a 5xx | after a wait: the response's `Retry-After` when it has one, else exponential backoff with full jitter (a random wait up to `initialMs × 2^retry`, capped at `maxMs`; default 1 s and 60 s) |
 * | final | any other status: a 4xx (the receiver refuses this message, it will refuse it again) or a 3xx (redirects are not followed: the signed alert goes only to the configured URL) | dead letter at once, the status and the start of the body as the reason |
 *
 * After `retries` retries (default 6), a `Retry-After` longer than `maxRetryAfterMs` (default 5 min), or an abort of
 * the send's signal (the loop's drain on SIGTERM: the attempt in progress finishes, but no wait for a retry begins or
 * goes on), the message goes to the dead-letter file with the last reason.
 *
 * Every request carries `Content-Type: application/json`, the signature header, and
 * {@link WEBHOOK_DELIVERY_HEADER}: an id derived from the body, the same for every attempt and every redelivery of the
 * message, so that a receiver can drop a delivery it has already taken (a retry after a response that was lost).
 * Messages about the same condition are sent in the order given (a `resolved` never overtakes its `firing`); those
 * about different conditions go in parallel. The URL is never shown whole: messages, reasons and dead letters name it
 * redacted ({@link redactUrl}), since a Slack webhook's path is its secret.
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, unlinkSync, appendFileSync } from "node:fs";
import { backoffDelay, DEFAULT_USER_AGENT, parseRetryAfter } from "../api/http.js";
import { type Sleep, systemSleep } from "../api/rate-limiter.js";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { sanitizeText } from "../security/outside-text.js";
import { redactUrl, redactUrlsIn } from "../security/redact-url.js";
import { networkCauseOf } from "../util/network-cause.js";
import { appendDeadLetter, DEAD_LETTER_VERSION, parseDeadLetterLine } from "./dead-letter.js";
import type { AlertMessage, DeliveryResult } from "./types.js";
import { WEBHOOK_FORMATS, type WebhookFormat, webhookBody } from "./webhook-body.js";
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from "./webhook-signature.js";

export { DEAD_LETTER_VERSION, type DeadLetter, parseDeadLetterLine } from "./dead-letter.js";
export {
  type SlackBlock,
  type SlackWebhookBody,
  WEBHOOK_BODY_VERSION,
  type WebhookFormat,
  type WebhookJsonBody,
  webhookBody,
} from "./webhook-body.js";
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  signWebhookBody,
  type VerifyWebhookSignatureInput,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from "./webhook-signature.js";

/** The request header that carries the delivery's id: the same for every attempt and redelivery of one message. */
export const WEBHOOK_DELIVERY_HEADER = "x-trustgate-delivery";

/** Retries after the first attempt, by default. */
export const DEFAULT_WEBHOOK_RETRIES = 6;
/** The backoff between attempts, by default: 1 s, doubling, at most 60 s (before jitter). */
export const DEFAULT_WEBHOOK_BACKOFF: { readonly initialMs: number; readonly maxMs: number } = { initialMs: 1000, maxMs: 60_000 };
/** The time limit of one attempt, by default: 10 s. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The longest `Retry-After` waited for, by default: 5 min (a longer one dead-letters the message with that reason). */
export const DEFAULT_WEBHOOK_MAX_RETRY_AFTER_MS = 300_000;

/** Statuses below 500 that are retried: the receiver is busy, not refusing the message. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);
/** Characters of a refusing response's body kept in the reason. */
const REASON_BODY_CHARS = 200;
/** Bytes of a response's body read for the reason; the rest is not read. */
const REASON_BODY_BYTES = 4096;

/** How the webhook is reached. */
export interface WebhookOptions {
  /** The webhook's URL (http or https; may carry a secret in its path or query: it is only ever shown redacted). */
  readonly url: string;
  /** The body's form. */
  readonly format: WebhookFormat;
  /** The HMAC key of the signature (the command line reads it from the environment, never from its arguments). */
  readonly secret: string;
  /** Retries after the first attempt (default 6). */
  readonly retries?: number;
  /** The backoff between attempts: exponential from `initialMs` to `maxMs`, with full jitter (default 1 s .. 60 s). */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** The time limit of one attempt, in milliseconds (default 10 s). */
  readonly timeoutMs?: number;
  /** The longest `Retry-After` waited for, in milliseconds (default 5 min). */
  readonly maxRetryAfterMs?: number;
  /** The dead-letter file: one JSON line per message not delivered ({@link DeadLetter}). */
  readonly deadLetter: string;
  /** The `fetch` used (default the global one). */
  readonly fetch?: typeof fetch;
  /** The wait between attempts; it may end early when the signal aborts (default a timer that does). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock: signature timestamps, `Retry-After` dates, dead letters' times (default the current time). */
  readonly now?: () => Date;
  /** The jitter's random source in `[0, 1)` (default `Math.random`). */
  readonly random?: () => number;
}

/** Sends alert messages to one webhook. */
export interface WebhookSender {
  /**
   * Delivers a message (see the module notes). Never rejects: a failure is a result, and a dead letter.
   *
   * @param message - The message.
   * @param signal - Aborted on the loop's drain: no further wait for a retry.
   */
  send(message: AlertMessage, signal?: AbortSignal): Promise<DeliveryResult>;
  /** Waits for sends in flight (the loop's drain on SIGTERM). */
  idle(): Promise<void>;
}

type AttemptOutcome =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly reason: string; readonly retryAfterMs: number | undefined }
  | { readonly kind: "final"; readonly reason: string };

function positive(value: number | undefined, fallback: number, name: string, allowZero = false): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== "number" || !Number.isFinite(chosen) || chosen < 0 || (!allowZero && chosen === 0)) {
    throw new InvalidArgumentError(`Invalid webhook ${name} ${String(value)}: expected a finite number${allowZero ? " ≥ 0" : " > 0"}`);
  }
  return chosen;
}

/** The start of a response body, as one printable line, or "" when it cannot be read. */
async function bodyStart(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  try {
    while (received < REASON_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.byteLength;
    }
  } catch {
    // The start read so far is enough for a reason.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = sanitizeText(Buffer.concat(parts).subarray(0, REASON_BODY_BYTES).toString("utf8")).trim();
  return text.length <= REASON_BODY_CHARS ? text : `${text.slice(0, REASON_BODY_CHARS)}…`;
}

/**
 * Creates the sender of one webhook.
 *
 * @param options - The URL, the body's form, the secret, the retry policy, the dead-letter file, and injectable
 *   `fetch`, `sleep`, clock and jitter.
 * @returns The sender.
 * @throws {@link InvalidArgumentError} for a URL that is not http(s) or carries user info, an unknown form, an empty
 *   secret or dead-letter path, or a retry count, backoff or time limit that is not a finite number in range.
 */
export function createWebhookSender(options: WebhookOptions): WebhookSender {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new InvalidArgumentError("Invalid webhook URL: not a URL");
  }
  const shownUrl = redactUrl(url);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidArgumentError(`Invalid webhook URL ${shownUrl}: expected http or https`);
  if (url.username !== "" || url.password !== "") {
    throw new InvalidArgumentError(
      `Invalid webhook URL ${shownUrl}: it contains credentials (user:password@); the body is signed with the secret instead`,
    );
  }
  if (!WEBHOOK_FORMATS.includes(options.format)) {
    throw new InvalidArgumentError(
      `Invalid webhook format ${JSON.stringify(String(options.format))}: expected ${WEBHOOK_FORMATS.join(" or ")}`,
    );
  }
  if (typeof options.secret !== "string" || options.secret === "") throw new InvalidArgumentError("Invalid webhook secret: it is empty");
  if (typeof options.deadLetter !== "string" || options.deadLetter.trim() === "") {
    throw new InvalidArgumentError("Invalid webhook dead-letter file: no path given");
  }
  const retries = positive(options.retries, DEFAULT_WEBHOOK_RETRIES, "retries", true);
  if (!Number.isInteger(retries)) throw new InvalidArgumentError(`Invalid webhook retries ${retries}: expected a whole number`);
  const initialMs = positive(options.backoff?.initialMs, DEFAULT_WEBHOOK_BACKOFF.initialMs, "backoff initialMs");
  const maxMs = positive(options.backoff?.maxMs, DEFAULT_WEBHOOK_BACKOFF.maxMs, "backoff maxMs");
  if (maxMs < initialMs) throw new InvalidArgumentError(`Invalid webhook backoff: maxMs ${maxMs} is less than initialMs ${initialMs}`);
  const timeoutMs = positive(options.timeoutMs, DEFAULT_WEBHOOK_TIMEOUT_MS, "timeoutMs");
  const maxRetryAfterMs = positive(options.maxRetryAfterMs, DEFAULT_WEBHOOK_MAX_RETRY_AFTER_MS, "maxRetryAfterMs", true);
  const { format, secret, deadLetter } = options;
  const fetchFn = options.fetch ?? fetch;
  const sleep: Sleep = options.sleep ?? systemSleep;
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const target = url.href;

  const attempt = async (body: string, deliveryId: string): Promise<AttemptOutcome> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const timestamp = Math.floor(now().getTime() / 1000);
      const response = await fetchFn(target, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": DEFAULT_USER_AGENT,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(body, secret, timestamp),
          [WEBHOOK_DELIVERY_HEADER]: deliveryId,
        },
        body,
        redirect: "manual",
        signal: controller.signal,
      });
      const { status } = response;
      if (status >= 200 && status < 300) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: "delivered" };
      }
      const start = await bodyStart(response);
      const reason = `HTTP ${status}${start === "" ? "" : `: ${start}`}`;
      if (RETRYABLE_STATUSES.has(status) || status >= 500) {
        return { kind: "retry", reason, retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), now().getTime()) };
      }
      if (status >= 300 && status < 400) {
        return { kind: "final", reason: `${reason} (a redirect, not followed: the signed alert goes only to the configured URL)` };
      }
      return { kind: "final", reason };
    } catch (error) {
      if (controller.signal.aborted) return { kind: "retry", reason: `timed out after ${timeoutMs} ms`, retryAfterMs: undefined };
      return { kind: "retry", reason: `network error: ${networkCauseOf(error) ?? messageOf(error)}`, retryAfterMs: undefined };
    } finally {
      clearTimeout(timer);
    }
  };

  const giveUp = (message: AlertMessage, attempts: number, reason: string, outcomes: readonly string[]): DeliveryResult => {
    const shownReason = redactUrlsIn(reason);
    try {
      appendDeadLetter(deadLetter, {
        version: DEAD_LETTER_VERSION,
        deadLetteredAt: now().toISOString(),
        url: shownUrl,
        format,
        attempts,
        reason: shownReason,
        outcomes: outcomes.map(redactUrlsIn),
        message,
      });
      return { delivered: false, attempts, reason: shownReason, deadLettered: true };
    } catch (error) {
      return {
        delivered: false,
        attempts,
        reason: `${shownReason}; and the dead-letter file ${deadLetter} could not be written: ${redactUrlsIn(messageOf(error))}`,
        deadLettered: false,
      };
    }
  };

  const deliver = async (message: AlertMessage, signal: AbortSignal | undefined): Promise<DeliveryResult> => {
    let body: string;
    try {
      body = webhookBody(message, format);
    } catch (error) {
      return giveUp(message, 0, `the message could not be written as a ${format} body: ${messageOf(error)}`, []);
    }
    const deliveryId = createHash("sha256").update(body).digest("hex").slice(0, 32);
    const outcomes: string[] = [];
    for (let attempts = 1; ; attempts++) {
      const outcome = await attempt(body, deliveryId);
      if (outcome.kind === "delivered") return { delivered: true, attempts };
      outcomes.push(outcome.reason);
      if (outcome.kind === "final") return giveUp(message, attempts, outcome.reason, outcomes);
      if (attempts > retries) return giveUp(message, attempts, `gave up after ${attempts} attempts; last: ${outcome.reason}`, outcomes);
      const { retryAfterMs } = outcome;
      if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs) {
        const seconds = Math.ceil(retryAfterMs / 1000);
        return giveUp(
          message,
          attempts,
          `${outcome.reason}, Retry-After ${seconds} s is longer than the longest wait (${maxRetryAfterMs / 1000} s)`,
          outcomes,
        );
      }
      const aborted = `aborted (the watch is stopping) after ${attempts} attempt${attempts === 1 ? "" : "s"}; last: ${outcome.reason}`;
      if (signal?.aborted) return giveUp(message, attempts, aborted, outcomes);
      await sleep(retryAfterMs ?? backoffDelay(attempts - 1, { baseDelayMs: initialMs, maxDelayMs: maxMs }, random), signal);
      if (signal?.aborted) return giveUp(message, attempts, aborted, outcomes);
    }
  };

  const inFlight = new Set<Promise<DeliveryResult>>();
  /** The last send of each condition id still in flight: the next one waits for it. */
  const tails = new Map<string, Promise<DeliveryResult>>();

  return {
    send(message, signal) {
      const previous = tails.get(message.id);
      const run = (previous ?? Promise.resolve())
        .then(() => deliver(message, signal))
        .catch(
          // deliver() returns its failures; this is a last guard so that send() never rejects.
          (error: unknown): DeliveryResult => giveUp(message, 0, `unexpected failure: ${messageOf(error)}`, []),
        );
      tails.set(message.id, run);
      inFlight.add(run);
      void run.then(() => {
        inFlight.delete(run);
        if (tails.get(message.id) === run) tails.delete(message.id);
      });
      return run;
    },

    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

/**
 * Sends again the messages of a dead-letter file, in order, through a sender (after the receiver is back).
 *
 * The file is first moved aside (`<path>.redelivering`, appended to when an earlier redelivery was interrupted), so
 * that the sender's own dead letters, when it writes to the same file, start a new one. A message that fails again is
 * dead-lettered by the sender; a line that cannot be read is appended back to `path` as it was. The moved-aside file is
 * removed at the end, unless a message could be neither delivered nor dead-lettered again: it then stays, and the next
 * redelivery takes it up. A message is thus never lost, but may be delivered twice after a crash here: receivers
 * deduplicate by {@link WEBHOOK_DELIVERY_HEADER}.
 *
 * @param path - The dead-letter file.
 * @param sender - The sender to deliver through.
 * @returns How many messages were delivered, and how many were not (lines unreadable included).
 */
export async function redeliverDeadLetters(path: string, sender: WebhookSender): Promise<{ delivered: number; failed: number }> {
  const work = `${path}.redelivering`;
  if (existsSync(path)) {
    if (existsSync(work)) {
      appendFileSync(work, readFileSync(path));
      unlinkSync(path);
    } else {
      renameSync(path, work);
    }
  }
  if (!existsSync(work)) return { delivered: 0, failed: 0 };
  let delivered = 0;
  let failed = 0;
  let keepWork = false;
  for (const line of readFileSync(work, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const parsed = parseDeadLetterLine(line);
    if ("error" in parsed) {
      failed++;
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
      continue;
    }
    const result = await sender.send(parsed.letter.message);
    if (result.delivered) {
      delivered++;
    } else {
      failed++;
      if (!result.deadLettered) keepWork = true;
    }
  }
  if (!keepWork) unlinkSync(work);
  return { delivered, failed };
}
