// The alert book: one persisting problem alerts once, reminds at its interval, resolves once; a restart restores it
// without a second firing. The clock is injected: no test waits.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors";
import { createAlertBook } from "../../src/watch/alert-book";
import type { AlertEvidence, Condition } from "../../src/watch/types";
import { FAKE_EPOCH } from "../support/fake-clock";

const MINUTE = 60_000;

function clockAt(start = FAKE_EPOCH) {
  let t = start;
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const EVIDENCE: AlertEvidence = {
  blockNumber: "120",
  transactionHash: `0x${"ab".repeat(32)}`,
  kid: "rnwy-trust-v2",
  issuedAt: "2026-11-22T03:00:00.000Z",
  expiresAt: "2026-11-23T09:00:00.000Z",
  recordUpdatedAt: "2026-11-22T03:01:00.000Z",
  details: [],
};

function flip(score = 40, evidence: Partial<AlertEvidence> = {}): Condition {
  return {
    kind: "pass-to-fail",
    id: "pass-to-fail:8453:erc8004:7",
    agent: "base:7",
    summary: `base:7 passes on-chain (score 80) but fails on its attestation (score ${score})`,
    before: { score: 80, tier: "established", sybilSeverity: "none", updatedAt: "2026-11-22T03:01:00.000Z" },
    after: { score, tier: "limited", sybilSeverity: "none", attestedAt: "2026-11-22T09:00:00.000Z", kid: "rnwy-trust-v2" },
    decision: { onchain: true, attested: false },
    evidence: { ...EVIDENCE, ...evidence },
  };
}

const SILENT: Condition = {
  kind: "oracle-silent",
  id: "oracle-silent:0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f4",
  agent: null,
  summary: "the oracle has not written since 2026-11-21T03:00:00Z (due by 2026-11-22T05:00:00Z)",
  before: null,
  after: null,
  decision: null,
  evidence: { ...EVIDENCE, transactionHash: null, kid: null, issuedAt: null, expiresAt: null, details: ["deadline 2026-11-22T05:00:00Z"] },
};

describe("createAlertBook", () => {
  it("alerts once for a persisting condition, reminds at the interval, and resolves once", () => {
    const clock = clockAt();
    const book = createAlertBook({ reminderIntervalSeconds: 3600, report: "https://ops.example/drift/2026-11-22.html", now: clock.now });

    const first = book.raise(flip());
    expect(first).toMatchObject({ state: "firing", id: flip().id, kind: "pass-to-fail", agent: "base:7" });
    expect(first?.since).toBe(new Date(FAKE_EPOCH).toISOString());
    expect(first?.at).toBe(first?.since);
    expect(first?.report).toBe("https://ops.example/drift/2026-11-22.html");
    expect(book.isOutstanding(flip().id)).toBe(true);

    // Raised again every few minutes for 59 minutes: nothing more to send.
    const sent: unknown[] = [];
    for (let minute = 1; minute < 60; minute++) {
      clock.advance(MINUTE);
      const again = book.raise(flip(40 - (minute % 3)));
      if (again !== null) sent.push(again);
    }
    expect(sent).toEqual([]);

    // The 60th minute: one reminder, with the newest facts and the first `since`.
    clock.advance(MINUTE);
    const reminder = book.raise(flip(35));
    expect(reminder).toMatchObject({ state: "reminder", since: first?.since, at: new Date(FAKE_EPOCH + 60 * MINUTE).toISOString() });
    expect(reminder?.after?.score).toBe(35);
    clock.advance(MINUTE);
    expect(book.raise(flip(35))).toBeNull();

    // Gone: one resolved message, the evidence given laid over the last facts; then nothing.
    clock.advance(MINUTE);
    const resolved = book.clear(flip().id, { blockNumber: "180", transactionHash: undefined });
    expect(resolved).toMatchObject({ state: "resolved", id: flip().id, since: first?.since });
    expect(resolved?.evidence.blockNumber).toBe("180");
    expect(resolved?.evidence.transactionHash).toBe(EVIDENCE.transactionHash);
    expect(resolved?.after?.score).toBe(35);
    expect(book.isOutstanding(flip().id)).toBe(false);
    expect(book.clear(flip().id)).toBeNull();
    expect(book.outstanding()).toEqual([]);

    // Raised after it resolved: a new firing, with a new `since`.
    clock.advance(MINUTE);
    expect(book.raise(flip())).toMatchObject({ state: "firing", since: new Date(FAKE_EPOCH + 63 * MINUTE).toISOString() });
  });

  it("gives due reminders for conditions nobody raises again, each at its own pace", () => {
    const clock = clockAt();
    const book = createAlertBook({ reminderIntervalSeconds: 600, now: clock.now });
    expect(book.raise(SILENT)?.state).toBe("firing");
    clock.advance(5 * MINUTE);
    expect(book.raise(flip())?.state).toBe("firing");
    expect(book.dueReminders()).toEqual([]);

    clock.advance(5 * MINUTE); // the silence's 10 minutes, the flip's 5
    const due = book.dueReminders();
    expect(due.map((m) => [m.id, m.state])).toEqual([[SILENT.id, "reminder"]]);
    expect(due[0]?.report).toBeNull();
    expect(book.dueReminders()).toEqual([]);

    clock.advance(5 * MINUTE);
    expect(book.dueReminders().map((m) => m.id)).toEqual([flip().id]);
    // A raise right after a due reminder does not remind again.
    expect(book.raise(flip())).toBeNull();
  });

  it("sends no reminders with an interval of 0", () => {
    const clock = clockAt();
    const book = createAlertBook({ reminderIntervalSeconds: 0, now: clock.now });
    expect(book.raise(SILENT)?.state).toBe("firing");
    clock.advance(1000 * 24 * 60 * MINUTE);
    expect(book.raise(SILENT)).toBeNull();
    expect(book.dueReminders()).toEqual([]);
    expect(book.clear(SILENT.id)?.state).toBe("resolved");
  });

  it("clear of an id that is not outstanding gives null", () => {
    const book = createAlertBook({ reminderIntervalSeconds: 60, now: clockAt().now });
    expect(book.clear("pass-to-fail:8453:erc8004:99")).toBeNull();
    book.raise(SILENT);
    expect(book.clear(flip().id)).toBeNull();
    expect(book.isOutstanding(SILENT.id)).toBe(true);
  });

  it("restored from outstanding(), sends no second firing and keeps the reminder pace and the since", () => {
    const clock = clockAt();
    const before = createAlertBook({ reminderIntervalSeconds: 3600, now: clock.now });
    const fired = before.raise(flip());
    clock.advance(10 * MINUTE);
    before.raise(SILENT);
    // What the state file keeps goes through JSON.
    const kept = JSON.parse(JSON.stringify(before.outstanding()));
    expect(kept.map((a: { condition: Condition }) => a.condition.id)).toEqual([flip().id, SILENT.id]);

    clock.advance(20 * MINUTE); // the restart
    const after = createAlertBook({ reminderIntervalSeconds: 3600, now: clock.now }, kept);
    expect(after.isOutstanding(flip().id)).toBe(true);
    expect(after.raise(flip())).toBeNull();
    expect(after.raise(SILENT)).toBeNull();
    expect(after.dueReminders()).toEqual([]);

    clock.advance(30 * MINUTE); // an hour after the flip's firing
    const due = after.dueReminders();
    expect(due.map((m) => m.id)).toEqual([flip().id]);
    expect(due[0]?.since).toBe(fired?.since);
    expect(after.clear(SILENT.id)).toMatchObject({ state: "resolved", since: new Date(FAKE_EPOCH + 10 * MINUTE).toISOString() });
  });

  it("refuses a negative or non-finite interval and a restored entry it cannot read", () => {
    const now = clockAt().now;
    expect(() => createAlertBook({ reminderIntervalSeconds: -1, now })).toThrow(InvalidArgumentError);
    expect(() => createAlertBook({ reminderIntervalSeconds: Number.NaN, now })).toThrow(InvalidArgumentError);
    expect(() =>
      createAlertBook({ reminderIntervalSeconds: 60, now }, [
        { condition: SILENT, since: "yesterday", lastSentAt: "2026-11-22T10:00:00Z" },
      ]),
    ).toThrow(/oracle-silent:.*not an ISO-8601 time/);
    expect(() =>
      createAlertBook({ reminderIntervalSeconds: 60, now }, [
        { condition: { ...SILENT, id: "" }, since: "2026-11-22T10:00:00Z", lastSentAt: "2026-11-22T10:00:00Z" },
      ]),
    ).toThrow(/no id/);
  });

  it("keeps one entry per id however often it is raised", () => {
    const clock = clockAt();
    const book = createAlertBook({ reminderIntervalSeconds: 60, now: clock.now });
    for (let i = 0; i < 10_000; i++) {
      clock.advance(1000);
      book.raise(i % 2 === 0 ? SILENT : flip(i % 50));
    }
    expect(book.outstanding()).toHaveLength(2);
  });
});
