// The scan's outcomes as the state file keeps them, and the fingerprint of the inputs they were asked on.
import { describe, expect, it } from "vitest";
import { inputFingerprint, outcomeOfStored, storedOutcomeOf } from "../../../src/drift/state/codec";
import { listed, record } from "../stages/fixtures";

describe("the state file's codec", () => {
  it("keeps outcomes whole (times to the millisecond) and fingerprints the inputs they were asked on", () => {
    const verified = {
      kind: "verified" as const,
      kid: "rnwy-trust-v2",
      submission: { ok: true as const, form: "sig" as const },
      expiresAt: new Date("2026-11-23T10:00:00.123Z"),
      data: {
        score: 52,
        tier: "developing",
        sybilSeverity: null,
        at: new Date("2026-11-22T03:00:00.456Z"),
        computedAt: new Date("2026-11-22T03:00:00.456Z"),
      },
    };
    expect(outcomeOfStored(storedOutcomeOf(verified)!)).toEqual(verified);
    const invalid = { kind: "invalid" as const, reason: "bad-signature", message: "m" };
    expect(outcomeOfStored(storedOutcomeOf(invalid)!)).toEqual(invalid);
    expect(storedOutcomeOf({ kind: "listed", data: verified.data })).toBeNull();
    const a = inputFingerprint(listed(52), record(52));
    expect(inputFingerprint(listed(52), record(52))).toBe(a);
    expect(inputFingerprint(listed(53), record(52))).not.toBe(a);
    expect(inputFingerprint(listed(52), record(52, { ageSeconds: 1 }))).not.toBe(a);
  });
});
