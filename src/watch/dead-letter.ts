/**
 * The dead-letter file: where an alert goes that the webhook did not accept, so that none is lost. One JSON line per
 * message ({@link DeadLetter}): the message whole, how many attempts were made, the outcome of each and the last
 * reason, the (redacted) URL and the form it was sent in. Lines are appended, each written and flushed to disk
 * (`fsync`) before the sender reports the message as dead-lettered; the file is created (mode 0600, with its
 * directory) when the first line comes. A reader takes it line by line ({@link parseDeadLetterLine}); a line it cannot
 * read (a crash in the middle of a write leaves a last line cut short) is said, never silently dropped.
 *
 * @packageDocumentation
 */
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { isRecord } from "../util/is-record.js";
import type { AlertMessage } from "./types.js";
import type { WebhookFormat } from "./webhook-body.js";

/** The version of a {@link DeadLetter} line. */
export const DEAD_LETTER_VERSION = 1;

/** One line of the dead-letter file: a message not delivered, and why. */
export interface DeadLetter {
  readonly version: typeof DEAD_LETTER_VERSION;
  /** When the sender gave up (ISO-8601). */
  readonly deadLetteredAt: string;
  /** The webhook's URL, redacted (a Slack URL's secret path is never written). */
  readonly url: string;
  readonly format: WebhookFormat;
  /** Attempts made (0 when none could be: the message could not be written as a body). */
  readonly attempts: number;
  /** The last reason, the one the delivery result carries. */
  readonly reason: string;
  /** What each attempt met, in order (`HTTP 503: …`, `timed out after 10000 ms`, `network error: …`). */
  readonly outcomes: readonly string[];
  /** The message whole, as the alert book made it. */
  readonly message: AlertMessage;
}

/**
 * Appends one dead letter to the file and flushes it to disk.
 *
 * @param path - The dead-letter file.
 * @param letter - The line's content.
 * @throws Whatever the file system throws (a directory that cannot be made, a full disk); the caller reports it.
 */
export function appendDeadLetter(path: string, letter: DeadLetter): void {
  const line = Buffer.from(`${JSON.stringify(letter)}\n`, "utf8");
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a", 0o600);
  try {
    let written = 0;
    while (written < line.length) written += writeSync(fd, line, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads one line of a dead-letter file.
 *
 * @param line - The line, without its end of line.
 * @returns The dead letter, or the reason the line is not one (not JSON, not an object, no message with an id, a
 *   kind and a state).
 */
export function parseDeadLetterLine(line: string): { readonly letter: DeadLetter } | { readonly error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not JSON (a line cut short?)" };
  }
  if (!isRecord(value)) return { error: "not a JSON object" };
  const message = value.message;
  if (!isRecord(message) || typeof message.id !== "string" || typeof message.kind !== "string" || typeof message.state !== "string") {
    return { error: "no message with an id, a kind and a state" };
  }
  return { letter: value as unknown as DeadLetter };
}
