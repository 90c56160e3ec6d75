// The baseline of known problems (--accept): read strictly, each refusal naming the file, the line and the member.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baselineLine, baselineMatch, parseBaseline, parseUntil } from "../../src/drift/baseline";
import { InvalidArgumentError } from "../../src/errors";

const line = (entry: Record<string, unknown>) => JSON.stringify(entry);
const good = { agent: "base:357", problem: "pass-to-fail", reason: "oracle unwritten, ticket OPS-12", until: "2026-12-31" };

describe("parseBaseline", () => {
  it("reads entries, skipping blank and # lines; the agent keyed as every map of the kit keys it, a date accepted through its day", () => {
    const baseline = parseBaseline(
      `# known\n\n${line(good)}\n${line({ ...good, agent: "ethereum:7:olas", problem: "invalid-attestation", until: "2026-12-01T12:00:00+02:00" })}\n`,
      "b.jsonl",
    );
    expect(baseline.entries.map((e) => [e.key, e.problem, e.until.toISOString(), e.line])).toEqual([
      ["base:erc8004:357", "pass-to-fail", "2027-01-01T00:00:00.000Z", 3],
      ["ethereum:olas:7", "invalid-attestation", "2026-12-01T10:00:00.000Z", 4],
    ]);
  });

  it.each([
    ["not JSON", "{agent:", /^The baseline b\.jsonl, line 2: not JSON/],
    ["an array", "[1]", /line 2: not a JSON object$/m],
    [
      "an unknown member",
      line({ ...good, status: "drifted" }),
      /line 2: unknown member "status" \(members: agent, problem, reason, until\)$/m,
    ],
    ["a missing reason", line({ ...good, reason: undefined }), /line 2: member "reason" must be a non-empty string$/m],
    ["a blank reason", line({ ...good, reason: "  " }), /line 2: member "reason" must be a non-empty string$/m],
    ["a bad agent", line({ ...good, agent: "base:x" }), /line 2: member "agent": Invalid agent "base:x"/],
    [
      "an unknown problem",
      line({ ...good, problem: "drifted" }),
      /line 2: member "problem" must be one of pass-to-fail, fail-to-pass, invalid-attestation, got "drifted"$/m,
    ],
    ["a date that does not exist", line({ ...good, until: "2026-02-30" }), /line 2: member "until" must be a date .* got "2026-02-30"$/m],
    ["a time without its offset", line({ ...good, until: "2026-12-31T10:00:00" }), /line 2: member "until" must be a date/],
    [
      "the same agent and problem twice",
      line({ ...good, agent: "base:357:erc8004" }),
      /line 2: base:357:erc8004 pass-to-fail is accepted already on line 1$/m,
    ],
  ])("refuses %s, naming the file, the line and the member", (_what, second, message) => {
    const text = `${line(good)}\n${second}\n`;
    expect(() => parseBaseline(text, "b.jsonl")).toThrow(InvalidArgumentError);
    expect(() => parseBaseline(text, "b.jsonl")).toThrow(message);
  });

  it("matches an agent's problem until the entry's end, and not after; another problem of the same agent is not covered", () => {
    const baseline = parseBaseline(line(good), "b.jsonl");
    const end = Date.parse("2027-01-01T00:00:00Z");
    expect(baselineMatch(baseline, "base:erc8004:357", "pass-to-fail", end - 1)).toEqual({
      reason: good.reason,
      until: "2027-01-01T00:00:00.000Z",
    });
    expect(baselineMatch(baseline, "base:erc8004:357", "pass-to-fail", end)).toBeUndefined();
    expect(baselineMatch(baseline, "base:erc8004:357", "fail-to-pass", end - 1)).toBeUndefined();
    expect(baselineMatch(baseline, "base:erc8004:358", "pass-to-fail", end - 1)).toBeUndefined();
  });

  it("reads back what baselineLine writes, and parseUntil refuses what is not a date or a time with an offset", () => {
    const written = baselineLine({ agent: "base:1:erc8004", problem: "fail-to-pass", reason: "r", until: "2027-06-30" });
    expect(parseBaseline(written, "b").entries[0]).toMatchObject({ key: "base:erc8004:1", problem: "fail-to-pass", reason: "r" });
    expect(parseUntil("tomorrow")).toBeNull();
    expect(parseUntil("2026-13-01")).toBeNull();
    expect(parseUntil("2026-12-31T23:00:00Z")?.toISOString()).toBe("2026-12-31T23:00:00.000Z");
  });

  it("the manual's baseline example is a baseline", () => {
    const manual = readFileSync(join(__dirname, "../../docs/drift.md"), "utf8");
    const start = manual.indexOf("```text\n# the Base oracle is unwritten") + "```text\n".length;
    expect(start).toBeGreaterThan(10);
    const example = manual.slice(start, manual.indexOf("```", start));
    expect(parseBaseline(example, "docs").entries).toHaveLength(1);
  });
});
