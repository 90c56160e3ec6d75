// The heartbeat's cadences: `--expect-write` parsing, the deadline a write sets (around midnight, the grace before
// and after the scheduled time, a longest silence), the silence condition keyed on the oracle's own time, and the
// packed record's updatedAt.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors";
import { DEFAULT_WRITE_CADENCE, parseExpectWrite, recordUpdatedAt, silenceCondition, writeDeadline } from "../../src/watch/heartbeat";
import type { WriteCadence } from "../../src/watch/types";

const ORACLE = "0xd5fdccd492bb5568bc7aeb1f1e888e0bbA6276f4" as const;
const CHECKSUMMED = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4";
const d = (iso: string) => new Date(iso);
const daily = (hhmm: string, graceSeconds: number): WriteCadence => {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  return { kind: "daily", atSecondOfDayUtc: h * 3600 + m * 60, graceSeconds };
};

describe("parseExpectWrite", () => {
  it("reads a daily time in UTC with the default grace, or the grace given in hours and minutes", () => {
    expect(parseExpectWrite("03:00 UTC daily")).toEqual(DEFAULT_WRITE_CADENCE);
    expect(parseExpectWrite("03:00 UTC daily +2h")).toEqual(daily("03:00", 7200));
    expect(parseExpectWrite("  23:30 utc DAILY +1h30m ")).toEqual(daily("23:30", 5400));
    expect(parseExpectWrite("3:05 UTC daily +90m")).toEqual(daily("03:05", 5400));
    expect(parseExpectWrite("00:00 UTC daily +0m")).toEqual(daily("00:00", 0));
  });

  it("the default cadence is the crosswalk's nightly recompute: 03:00 UTC daily, with a grace of 6 hours", () => {
    expect(DEFAULT_WRITE_CADENCE).toEqual(daily("03:00", 6 * 3600));
  });

  it.each(["3am", "03:00 daily", "25:00 UTC daily", "03:60 UTC daily", "03:00 UTC daily +", "03:00 UTC daily +2d", "03:00 UTC weekly", ""])(
    "refuses %j, naming the accepted forms",
    (text) => {
      expect(() => parseExpectWrite(text)).toThrow(InvalidArgumentError);
      expect(() => parseExpectWrite(text)).toThrow(/"HH:MM UTC daily".*"HH:MM UTC daily \+<grace>"/);
    },
  );

  it("refuses a grace of a day or more: the next write would be due before the grace ends", () => {
    expect(() => parseExpectWrite("03:00 UTC daily +24h")).toThrow(/under 24h/);
  });
});

describe("writeDeadline", () => {
  const cadence = daily("03:00", 2 * 3600);

  it("a night's write is due again the next night at the time plus the grace", () => {
    expect(writeDeadline(d("2026-11-22T03:20:00Z"), cadence)).toEqual(d("2026-11-23T05:00:00Z"));
    expect(writeDeadline(d("2026-11-22T03:00:00Z"), cadence)).toEqual(d("2026-11-23T05:00:00Z"));
    // a write late in the day (a manual one) still counts for that night
    expect(writeDeadline(d("2026-11-22T21:00:00Z"), cadence)).toEqual(d("2026-11-23T05:00:00Z"));
  });

  it("a write up to the grace early counts for that night; an earlier one for the night before", () => {
    expect(writeDeadline(d("2026-11-22T01:30:00Z"), cadence)).toEqual(d("2026-11-23T05:00:00Z"));
    expect(writeDeadline(d("2026-11-22T01:00:00Z"), cadence)).toEqual(d("2026-11-23T05:00:00Z"));
    expect(writeDeadline(d("2026-11-22T00:59:59Z"), cadence)).toEqual(d("2026-11-22T05:00:00Z"));
  });

  it("around midnight: a 23:30 write time, and writes just before and after midnight", () => {
    const late = daily("23:30", 3600);
    expect(writeDeadline(d("2026-11-22T23:40:00Z"), late)).toEqual(d("2026-11-24T00:30:00Z"));
    // 40 minutes past midnight: the 22nd's write, landed late
    expect(writeDeadline(d("2026-11-23T00:10:00Z"), late)).toEqual(d("2026-11-24T00:30:00Z"));
    // 45 minutes early: within the grace, counts for the 22nd
    expect(writeDeadline(d("2026-11-22T22:45:00Z"), late)).toEqual(d("2026-11-24T00:30:00Z"));
    // over an hour early: the 21st's
    expect(writeDeadline(d("2026-11-22T22:00:00Z"), late)).toEqual(d("2026-11-23T00:30:00Z"));
  });

  it("a longest silence: the write's time plus it", () => {
    expect(writeDeadline(d("2026-11-22T03:20:00Z"), { kind: "max-silence", seconds: 26 * 3600 })).toEqual(d("2026-11-23T05:20:00Z"));
  });
});

describe("silenceCondition", () => {
  const cadence: WriteCadence = { kind: "max-silence", seconds: 26 * 3600 };
  const lastWrite = d("2026-11-22T03:00:00Z");

  it("is null until the deadline, inclusive, and a condition once it has passed", () => {
    expect(silenceCondition({ oracle: ORACLE, lastWrite, cadence, now: d("2026-11-23T04:59:59Z") })).toBeNull();
    expect(silenceCondition({ oracle: ORACLE, lastWrite, cadence, now: d("2026-11-23T05:00:00Z") })).toBeNull();
    const condition = silenceCondition({ oracle: ORACLE, lastWrite, cadence, now: d("2026-11-23T05:00:01Z") });
    expect(condition).toMatchObject({
      kind: "oracle-silent",
      id: `oracle-silent:${CHECKSUMMED}`,
      agent: null,
      before: null,
      after: null,
      decision: null,
      evidence: { recordUpdatedAt: "2026-11-22T03:00:00.000Z", blockNumber: null, transactionHash: null },
    });
    expect(condition!.summary).toContain("2026-11-22T03:00:00.000Z");
    expect(condition!.evidence.details).toEqual(
      expect.arrayContaining(["cadence: a write every 26h at most", "deadline: 2026-11-23T05:00:00.000Z", "overdue by 1 s"]),
    );
  });

  it("has one identity per oracle, whatever the address's case", () => {
    const now = d("2026-12-01T00:00:00Z");
    const a = silenceCondition({ oracle: ORACLE, lastWrite, cadence, now });
    const b = silenceCondition({ oracle: CHECKSUMMED.toLowerCase() as `0x${string}`, lastWrite, cadence, now });
    expect(a!.id).toBe(b!.id);
  });

  it("with no write found: an alert at once, or from the deadline of the time the watch has known it silent", () => {
    expect(silenceCondition({ oracle: ORACLE, lastWrite: null, cadence, now: lastWrite })!.evidence.details).toContain(
      "no RecordAdded or RecordUpdated found within the lookback",
    );
    const since = d("2026-11-22T10:00:00Z");
    expect(
      silenceCondition({ oracle: ORACLE, lastWrite: null, knownSilentSince: since, cadence, now: d("2026-11-23T11:59:59Z") }),
    ).toBeNull();
    expect(
      silenceCondition({ oracle: ORACLE, lastWrite: null, knownSilentSince: since, cadence, now: d("2026-11-23T12:00:01Z") }),
    ).not.toBeNull();
  });

  it("keys the daily cadence on the oracle's own time: a write computed at 03:00 and landed at 08:00 covers that night", () => {
    const computed = d("2026-11-22T03:00:05Z"); // the record's updatedAt, whatever the block's time
    const cadenceDaily = daily("03:00", 6 * 3600);
    expect(silenceCondition({ oracle: ORACLE, lastWrite: computed, cadence: cadenceDaily, now: d("2026-11-23T08:59:59Z") })).toBeNull();
    expect(
      silenceCondition({ oracle: ORACLE, lastWrite: computed, cadence: cadenceDaily, now: d("2026-11-23T09:00:01Z") })!.summary,
    ).toContain("the daily write at 03:00 UTC (grace 6h) was due by 2026-11-23T09:00:00.000Z");
  });
});

describe("recordUpdatedAt", () => {
  it("reads the uint40 at bit 24 of the packed record, ignoring the bits above it (the attested oracle's key tag)", () => {
    const seconds = BigInt(Date.UTC(2026, 10, 22, 3, 0, 0) / 1000);
    const packed = 62n | (2n << 8n) | (1n << 16n) | (seconds << 24n);
    expect(recordUpdatedAt(packed)).toEqual(d("2026-11-22T03:00:00Z"));
    expect(recordUpdatedAt(packed | (0xabcdefn << 64n))).toEqual(d("2026-11-22T03:00:00Z"));
    expect(recordUpdatedAt(0n).getTime()).toBe(0);
  });
});
