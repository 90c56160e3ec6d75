/**
 * The alert book: deduplication, reminders and resolved messages. The watch raises a {@link Condition} every time it
 * sees a problem (each check of a drifting agent, each heartbeat tick while the oracle stays silent); the book turns
 * that stream into the few messages a person wants:
 *
 * - the first time an id is raised: one `firing` message;
 * - while it stays raised: nothing, except one `reminder` each `reminderIntervalSeconds` after the last message
 *   (never with an interval of 0). {@link AlertBook.raise} gives it when the condition is raised again after the
 *   interval; {@link AlertBook.dueReminders} gives those of conditions nobody raises again (a check that only runs on
 *   a write, while no write comes);
 * - when it is cleared: one `resolved` message, with the last facts it was raised with;
 * - clearing an id that is not outstanding gives nothing, so the loop may clear every id it checked and found fine.
 *
 * The facts of an outstanding condition are replaced by each raise, so a reminder and the resolved message carry the
 * newest ones; its `since` stays the time it was first raised. {@link AlertBook.outstanding} is what the state file
 * keeps: a book created from it sends no second `firing` for a condition that was outstanding before a restart, and
 * its reminders keep their pace.
 *
 * Memory is bounded by the conditions outstanding at once (at most one per agent and kind, plus the oracle's and the
 * service's), never by the number of raises.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import type { AlertEvidence, AlertMessage, AlertState, Condition, OutstandingAlert } from "./types.js";

/** How the alert book behaves. */
export interface AlertBookOptions {
  /** Seconds between reminders of a condition that stays outstanding; 0 sends none. */
  readonly reminderIntervalSeconds: number;
  /** A link or path to the night's drift report, put on each message (`--report-link`); `null` or absent: none. */
  readonly report?: string | null;
  /** The clock the messages are dated by and reminders are timed on. */
  readonly now: () => Date;
}

/** Turns conditions raised and cleared into the messages to send (see the module notes). */
export interface AlertBook {
  /**
   * A condition seen now: a `firing` message when it is new, a `reminder` when the interval passed since the last
   * message, else `null` (its facts are updated all the same).
   */
  raise(condition: Condition): AlertMessage | null;
  /**
   * A condition gone: a `resolved` message when it was outstanding (with its last facts, the evidence given laid over
   * them), else `null`.
   */
  clear(id: string, evidence?: Partial<AlertEvidence>): AlertMessage | null;
  /** Reminders due now for conditions raised earlier and not raised again since (e.g. the oracle stays silent). */
  dueReminders(): AlertMessage[];
  /** Whether a condition with this id is outstanding (raised and not cleared). */
  isOutstanding(id: string): boolean;
  /** The outstanding conditions, oldest first: what the state file keeps; a book created from it sends no re-alert. */
  outstanding(): readonly OutstandingAlert[];
}

interface Entry {
  condition: Condition;
  readonly since: string;
  lastSentMs: number;
  lastSentAt: string;
}

/**
 * Creates an alert book.
 *
 * @param options - The reminder interval, the report link and the clock.
 * @param restored - The outstanding alerts a previous run kept ({@link AlertBook.outstanding}); they are outstanding
 *   again, with their `since` and the time of their last message, so no `firing` is sent for them again. A later entry
 *   with the same id replaces an earlier one.
 * @returns The book.
 * @throws {@link InvalidArgumentError} when the interval is not a finite number of seconds ≥ 0, or a restored entry
 *   has no id or a time that is not an ISO-8601 date (the state file is then not the book's).
 */
export function createAlertBook(options: AlertBookOptions, restored: readonly OutstandingAlert[] = []): AlertBook {
  const { reminderIntervalSeconds, now } = options;
  if (typeof reminderIntervalSeconds !== "number" || !Number.isFinite(reminderIntervalSeconds) || reminderIntervalSeconds < 0) {
    throw new InvalidArgumentError(`Invalid reminder interval ${String(reminderIntervalSeconds)}: expected a number of seconds ≥ 0`);
  }
  const intervalMs = reminderIntervalSeconds * 1000;
  const report = options.report ?? null;
  const entries = new Map<string, Entry>();

  for (const alert of restored) {
    const id = alert?.condition?.id;
    if (typeof id !== "string" || id === "") {
      throw new InvalidArgumentError("Invalid outstanding alert to restore: its condition has no id");
    }
    const sinceMs = Date.parse(alert.since);
    const lastSentMs = Date.parse(alert.lastSentAt);
    if (Number.isNaN(sinceMs) || Number.isNaN(lastSentMs)) {
      throw new InvalidArgumentError(`Invalid outstanding alert to restore "${id}": its since or lastSentAt is not an ISO-8601 time`);
    }
    entries.delete(id);
    entries.set(id, { condition: alert.condition, since: alert.since, lastSentMs, lastSentAt: alert.lastSentAt });
  }

  const message = (condition: Condition, state: AlertState, since: string, at: string): AlertMessage => ({
    ...condition,
    state,
    since,
    at,
    report,
  });

  const reminderDue = (entry: Entry, nowMs: number): boolean => intervalMs > 0 && nowMs - entry.lastSentMs >= intervalMs;

  const remind = (entry: Entry, at: Date): AlertMessage => {
    entry.lastSentMs = at.getTime();
    entry.lastSentAt = at.toISOString();
    return message(entry.condition, "reminder", entry.since, entry.lastSentAt);
  };

  return {
    raise(condition) {
      const at = now();
      const entry = entries.get(condition.id);
      if (entry === undefined) {
        const iso = at.toISOString();
        entries.set(condition.id, { condition, since: iso, lastSentMs: at.getTime(), lastSentAt: iso });
        return message(condition, "firing", iso, iso);
      }
      entry.condition = condition;
      return reminderDue(entry, at.getTime()) ? remind(entry, at) : null;
    },

    clear(id, evidence) {
      const entry = entries.get(id);
      if (entry === undefined) return null;
      entries.delete(id);
      const given = Object.fromEntries(Object.entries(evidence ?? {}).filter(([, value]) => value !== undefined));
      const condition: Condition = { ...entry.condition, evidence: { ...entry.condition.evidence, ...given } };
      return message(condition, "resolved", entry.since, now().toISOString());
    },

    dueReminders() {
      const at = now();
      const due: AlertMessage[] = [];
      for (const entry of entries.values()) {
        if (reminderDue(entry, at.getTime())) due.push(remind(entry, at));
      }
      return due;
    },

    isOutstanding(id) {
      return entries.has(id);
    },

    outstanding() {
      return [...entries.values()].map((entry) => ({ condition: entry.condition, since: entry.since, lastSentAt: entry.lastSentAt }));
    },
  };
}
