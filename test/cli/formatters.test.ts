import { describe, expect, it } from "vitest";
import { formatMarkdown } from "../../src/cli/format-markdown";
import { formatSummary, formatVerdict } from "../../src/cli/format-summary";
import { formatTable } from "../../src/cli/format-table";
import { exitCodeOf, verdictOf } from "../../src/drift/verdict";
import { DRIFT_STATUS_MEANINGS, type DriftReport, type DriftStatus } from "../../src/drift/types";
import { CONSISTENT, errorRow, failToPass, invalid, passToFail, report, row } from "./report-fixture";

/** Data lines of a table (header and footer removed). */
function bodyLines(table: string): string[] {
  return table
    .split("\n")
    .slice(1)
    .filter((line) => !line.startsWith("…"));
}

describe("formatTable", () => {
  const rows = [row({ agentId: "1" }), errorRow("2"), failToPass("3"), invalid("4"), passToFail("5")];

  it("puts decision flips first, then the statuses by severity, whatever the input order", () => {
    const lines = bodyLines(formatTable(report(rows)));
    expect(lines.map((line) => line.split(/\s{2,}/)[0])).toEqual(["drifted", "drifted", "invalid-attestation", "error", "in-sync"]);
    // The larger score change comes first among the flips: 3 (+30) before 5 (-15).
    expect(lines[0]).toContain("base:3:erc8004");
    expect(lines[1]).toContain("base:5:erc8004");
  });

  it("marks flips by direction and shows both sides, the signed delta, the age and the reason", () => {
    const lines = bodyLines(formatTable(report(rows)));
    expect(lines[0]).toMatch(
      /^drifted\s+▼ fail→pass\s+base:3:erc8004\s+40\s+limited\s+none\s+1d 9h\s+70\s+developing\s+none\s+\+30\s+score 40 → 70/,
    );
    expect(lines[1]).toMatch(/▲ pass→fail\s+base:5:erc8004\s+60\s+developing\s+none\s+9h\s+45\s+limited\s+low\s+-15\s+score 60 → 45/);
    expect(lines[4]).toMatch(/^in-sync\s+base:1:erc8004\s+60 .* 0$/);
  });

  it("shows - for what is unknown", () => {
    const line = bodyLines(formatTable(report([errorRow("9")])))[0]!;
    expect(line).toMatch(/^error\s+base:9:erc8004\s+-\s+-\s+-\s+-\s+-\s+-\s+-\s+-\s+service request failed/);
  });

  it("aligns every column: each header starts where its cells start", () => {
    const table = formatTable(report(rows));
    const [header, ...body] = table.split("\n");
    const start = header!.indexOf("AGENT");
    for (const line of body) expect(line.slice(start, start + 5)).toBe("base:");
    const delta = header!.indexOf("Δ");
    // Right-aligned numbers end under the header's end.
    expect(body[0]!.slice(delta - 2, delta + 1)).toBe("+30");
  });

  it("shows future-dated records as such", () => {
    const future = row({
      agentId: "8",
      onchain: { score: 60, tier: "developing", sybilSeverity: "none", updatedAt: "2026-11-22T12:30:00.000Z" },
    });
    expect(formatTable(report([future]))).toContain("in 30m");
  });

  it("cuts long reasons to the width given, keeps them whole without one (--wide, a file or a pipe)", () => {
    const long = errorRow("7", `service request failed: ${"x".repeat(200)}`);
    const whole = formatTable(report([long]));
    expect(
      bodyLines(whole)[0]!
        .split(/\s{2,}/)
        .pop(),
    ).toBe(long.reason);

    const fitted = formatTable(report([long]), { width: 120 });
    for (const line of fitted.split("\n")) expect(line.length).toBeLessThanOrEqual(120);
    expect(bodyLines(fitted)[0]!.endsWith("…")).toBe(true);

    const narrow = formatTable(report([long]), { width: 10 });
    for (const line of narrow.split("\n")) expect(line.length).toBeLessThanOrEqual(10); // whole lines cut as a last resort
    expect(
      formatTable(report([long]), { maxReasonWidth: 30 })
        .split("\n")[1]!
        .split(/\s{2,}/)
        .pop(),
    ).toHaveLength(30);
  });

  it("puts a whole reason on one line", () => {
    const multi = errorRow("6", "first line\nsecond line");
    expect(bodyLines(formatTable(report([multi])))[0]).toContain("first line second line");
  });

  it("shows at most maxRows rows (default 50) and counts the rest", () => {
    const many = Array.from({ length: 60 }, (_, i) => row({ agentId: String(i) }));
    const capped = formatTable(report(many)).split("\n");
    expect(capped).toHaveLength(1 + 50 + 1);
    expect(capped.at(-1)).toBe("… 10 more rows (see --json)");

    const three = formatTable(report([...many, passToFail("99")]), { maxRows: 3 }).split("\n");
    expect(three).toHaveLength(5);
    expect(three[1]).toContain("base:99:erc8004"); // the flip survives the cap
    expect(three.at(-1)).toBe("… 58 more rows (see --json)");

    expect(formatTable(report(many), { maxRows: Number.POSITIVE_INFINITY }).split("\n")).toHaveLength(61);
    expect(
      formatTable(report([row({ agentId: "1" }), row({ agentId: "2" })]), { maxRows: 1 })
        .split("\n")
        .at(-1),
    ).toBe("… 1 more row (see --json)");
  });

  it("says when there is nothing to show", () => {
    expect(formatTable(report([]))).toBe("No agents scanned.");
  });
});

describe("formatSummary", () => {
  it("counts statuses (severity order, zeros left out), flips per direction, record dates and the verdict", () => {
    const rows = [
      row({ agentId: "1" }),
      row({ agentId: "2" }),
      errorRow("3"),
      failToPass("4"),
      passToFail("5"),
      passToFail("6"),
      invalid("7"),
    ];
    const text = formatSummary(report(rows, { errorLimit: { kind: "count", value: 1 } }));
    const lines = text.split("\n");
    expect(lines[0]).toBe("7 agents checked · rule score >= 51 · stale after 1d 12h");
    expect(text).toContain("status:           1 invalid-attestation, 1 error, 3 drifted, 2 in-sync");
    expect(text).toContain("decision flips:   3 (2 pass→fail, 1 fail→pass)");
    expect(text).toContain("oldest 2026-11-21T03:00:00.000Z (1d 9h ago), newest 2026-11-22T03:00:00.000Z (9h ago)");
    expect(text).toContain("tier encoding:    consistent with tiers flagged,limited,developing,established (3 records checked)");
    expect(text).toContain(
      "sybil encoding:   consistent with sybil none,low,moderate,elevated,heavy (3 records checked against the service's severity)",
    );
    expect(text).toContain("unverified:       1 of 7 agents (14.29%): error 1, missing-attestation 0; limit --max-errors 1\n");
    expect(lines.at(-1)).toBe("DRIFT: 3 gate decisions flip and 1 attestation is invalid (exit 3)");
    expect(text).not.toContain("triage");
  });

  it("says OK with exit 0 when nothing flips, every attestation verified and the errors stay within --max-errors", () => {
    const text = formatSummary(report([row({ agentId: "1" }), errorRow("2")], { errorLimit: { kind: "percent", value: 50 } }));
    expect(text).toContain("unverified:       1 of 2 agents (50%): error 1, missing-attestation 0; limit --max-errors 50% (at most 1)\n");
    expect(text.split("\n").at(-1)).toBe(
      "OK: no gate decision flips and no attestation is invalid; 1 agent unverified, within --max-errors 50% (exit 0)",
    );
    expect(text).toContain("decision flips:   none");
  });

  it("says FAILED with exit 4, and why, when more agents than --max-errors allows could not be verified", () => {
    const all = Array.from({ length: 12 }, (_, i) => errorRow(String(i + 1)));
    const text = formatSummary(report(all));
    expect(text.split("\n").at(-1)).toBe("FAILED: could not verify: 12 of 12 agents unverified, more than --max-errors 1% allows (exit 4)");
    expect(text).toContain(
      "unverified:       12 of 12 agents (100%): error 12, missing-attestation 0; limit --max-errors 1% (at most 0) — EXCEEDED",
    );
  });

  it("counts missing attestations as unverified, and still names flips and invalid attestations when exit 4 wins over 3", () => {
    const missing = row({
      agentId: "3",
      status: "missing-attestation",
      attested: null,
      scoreDelta: null,
      decision: { onchain: true, attested: false, flipped: true },
    });
    const verdict = formatVerdict(
      report([passToFail("1"), invalid("2"), missing, errorRow("4")], { errorLimit: { kind: "count", value: 1 } }),
    );
    expect(verdict).toBe(
      "FAILED: could not verify: 2 of 4 agents unverified, more than --max-errors 1 allows; so far 2 gate decisions flip and 1 attestation is invalid (exit 4)",
    );
  });

  it("never rounds a share to 0% or 100% when it is neither", () => {
    const many = [errorRow("0"), ...Array.from({ length: 19_999 }, (_, i) => row({ agentId: String(i + 1) }))];
    expect(formatSummary(report(many))).toContain("unverified:       1 of 20000 agents (<0.01%)");
    const mostly = [row({ agentId: "0" }), ...Array.from({ length: 19_999 }, (_, i) => errorRow(String(i + 1)))];
    expect(formatSummary(report(mostly))).toContain("unverified:       19999 of 20000 agents (>99.99%)");
  });

  it("says FAILED with exit 4 when no agent was scanned", () => {
    expect(formatVerdict(report([]))).toBe("FAILED: could not verify: no agent was scanned (exit 4)");
    expect(formatVerdict(report([], { errorLimit: { kind: "percent", value: 100 } }))).toBe(
      "FAILED: could not verify: no agent was scanned (exit 4)",
    );
  });

  it("says what verdictOf says (the JSON's and the page's reason), after the exit code's label", () => {
    const partialOf = (built: DriftReport) => ({
      summary: { ...built.summary, partial: { reason: "max-duration" as const, maxDurationSeconds: 60, notFetched: 3, resumable: false } },
    });
    const cases = [
      ["OK", report([row({ agentId: "1" })])],
      ["DRIFT", report([passToFail("1"), invalid("2")])],
      ["FAILED", report([errorRow("1")])],
      ["PARTIAL", partialOf(report([passToFail("1")]))],
    ] as const;
    for (const [label, built] of cases) {
      const { exitCode, reason } = verdictOf(built);
      expect(formatVerdict(built)).toBe(`${label}: ${reason} (exit ${exitCode})`);
    }
  });

  it("exits 3 on an invalid attestation alone", () => {
    expect(formatVerdict(report([invalid("1")]))).toBe("DRIFT: 1 attestation is invalid (exit 3)");
  });

  it("reports a contradicted tier encoding with an example", () => {
    const text = formatSummary(
      report([row({ agentId: "1" })], {
        encoding: {
          ...CONSISTENT,
          checked: 118,
          contradictions: 4,
          consistent: false,
          examples: ["8453:1:erc8004 score=80 tierCode=2 (expected established)"],
        },
      }),
    );
    expect(text).toContain(
      "CONTRADICTED by 4 of 118 records (tiers flagged,limited,developing,established), e.g. 8453:1:erc8004 score=80 tierCode=2",
    );
  });

  it("reports a contradicted sybil encoding with an example, and one it could not check", () => {
    const contradicted = formatSummary(
      report([row({ agentId: "1" })], {
        encoding: {
          ...CONSISTENT,
          sybil: {
            checked: 40,
            contradictions: 3,
            consistent: false,
            examples: ["8453:7:erc8004 score=40 sybilCode=3 (stated heavy, code 4; attestation)"],
            observed: { heavy: [3] },
          },
        },
      }),
    );
    expect(contradicted).toContain(
      "sybil encoding:   CONTRADICTED by 3 of 40 records (sybil none,low,moderate,elevated,heavy), e.g. 8453:7:erc8004 score=40 sybilCode=3 (stated heavy, code 4; attestation)",
    );
    const unchecked = { ...CONSISTENT, sybil: { checked: 0, contradictions: 0, consistent: true, examples: [], observed: {} } };
    expect(formatSummary(report([row({ agentId: "1" })], { encoding: unchecked }))).toContain(
      "sybil encoding:   not checked, no record the service states at the same score and computation (sybil none,low,moderate,elevated,heavy)",
    );
    expect(formatMarkdown(report([row({ agentId: "1" })], { encoding: unchecked }))).toContain("| Sybil encoding | not checked");
  });

  it("reports what triage saved", () => {
    const text = formatSummary(
      report([row({ agentId: "1" })], {
        triage: {
          listed: 2000,
          signedFetches: 180,
          fetchesSaved: 1820,
          reasons: { audit: 20, mismatch: 150, stale: 10 },
          auditFraction: 0.01,
          listingContradictions: 2,
        },
      }),
    );
    expect(text.split("\n").filter((line) => /^ {2}triage: | {20}\S/.test(line))).toEqual([
      "  triage:           180 of 2000 listed agents fetched and verified; the other 1820 (91%) taken from the listing",
      "                    fetched because: mismatch 150, stale 10",
      "                    random audit 1%",
      "                    the listing contradicted by 2 signed answers",
    ]);
  });

  it("reports fetches avoided by reason, the audit's sizing and seed, and the state file", () => {
    const text = formatSummary(
      report([row({ agentId: "1" })], {
        triage: {
          listed: 2000,
          signedFetches: 480,
          fetchesSaved: 1520,
          reasons: { audit: 456, "listing-changed": 24 },
          avoided: { mismatch: 30, "near-threshold": 300 },
          avoidedBy: { state: 320, chain: 10 },
          auditFraction: 456 / 1900,
          audit: { confidence: 0.99, lieRate: 0.01, eligible: 1900, sampleSize: 456, liesAtLeast: 19, detectionProbability: 0.9901 },
          seed: 123456789,
          state: {
            file: "night.jsonl",
            entries: 900,
            fromState: 330,
            full: false,
            oldestAttestation: { agent: "base:erc8004:7", computedAt: "2026-11-19T12:00:00.000Z", verifiedAt: "2026-11-20T12:00:00.000Z" },
          },
          listingContradictions: 0,
        },
      }),
    );
    // A few plain lines: what was avoided, and by what, stays in the JSON.
    expect(text).toContain(
      "  triage:           480 of 2000 listed agents fetched and verified; the other 1520 (76%) taken from the listing\n" +
        "                    fetched because: listing-changed 24\n" +
        "                    random audit 456 of 1900 (99% to catch a listing lying about 1%; seed 123456789)\n",
    );
    expect(text).not.toContain("avoided");
    for (const line of text.split("\n").filter((l) => /^ {2}triage: | {20}\S/.test(l))) expect(line.length).toBeLessThanOrEqual(120);
    expect(text).toContain(
      "state:            night.jsonl: 900 agents, 330 rows from it; oldest verified attestation base:erc8004:7, verified 2d ago (computed 3d ago)",
    );
  });

  it("says PARTIAL with exit 4 when the run stopped at --max-duration, whatever else it found", () => {
    const base = report([row({ agentId: "1" })]);
    const partial = {
      ...base,
      summary: { ...base.summary, partial: { reason: "max-duration" as const, maxDurationSeconds: 1800, notFetched: 12, resumable: true } },
    };
    expect(exitCodeOf(partial)).toBe(4);
    expect(formatSummary(partial).split("\n").at(-1)).toBe(
      "PARTIAL: could not verify: stopped at --max-duration with 12 signed attestations not fetched (run it again with the same --state to continue) (exit 4)",
    );
  });

  it("handles a report without rows", () => {
    const text = formatSummary(report([], { encoding: { ...CONSISTENT, checked: 0 } }));
    expect(text).toContain("0 agents checked");
    expect(text).toContain("status:           none");
    expect(text).toContain("on-chain records: none");
    expect(text).toContain("not checked, no on-chain record");
  });
});

describe("formatMarkdown", () => {
  const rows = [row({ agentId: "1" }), invalid("2"), passToFail("3"), errorRow("4", "bad | pipe <b>html</b>")];
  const md = formatMarkdown(report(rows, { rpc: "https://base-mainnet.example/v2/SECRETKEY", errorLimit: { kind: "count", value: 1 } }));
  const lines = md.split("\n");

  it("starts with a title and the verdict, then its sections in order, and ends with a newline", () => {
    expect(lines[0]).toBe("# trustgate drift report");
    expect(lines[2]).toBe("**DRIFT: 1 gate decision flips and 1 attestation is invalid (exit 3)**");
    expect(lines.filter((line) => line.startsWith("## "))).toEqual([
      "## Since last night",
      "## Decision flips and invalid attestations",
      "## Unverified agents by cause",
      "## Totals",
      "## What to do",
      "## Every row",
    ]);
    expect(md.endsWith("hold every row.\n")).toBe(true);
  });

  it("has a summary table with the source, rule and flips, and never the RPC path", () => {
    expect(md).toContain("| Decision rule | `score >= 51` |");
    expect(md).toContain("| Chain | 8453 at block 123456 |");
    expect(md).toContain("| Oracle | `0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4` |");
    expect(md).toContain("| Decision flips | 1 (1 pass→fail, 0 fail→pass) |");
    expect(md).toContain("| Unverified | 1 of 4 agents (25%): error 1, missing-attestation 0; limit --max-errors 1 |");
    expect(md).toContain("| RPC | https://base-mainnet.example/v2/… |");
    expect(md).not.toContain("SECRETKEY");
  });

  it("counts every status, zeros included, in severity order", () => {
    const start = lines.indexOf("| Status | Agents | Meaning |");
    const table = lines.slice(start, start + 9);
    expect(table).toEqual([
      "| Status | Agents | Meaning |",
      "|---|--:|---|",
      ...[
        ["invalid-attestation", 1],
        ["error", 1],
        ["drifted", 1],
        ["stale-onchain", 0],
        ["missing-onchain", 0],
        ["missing-attestation", 0],
        ["in-sync", 1],
      ].map(([status, n]) => `| ${status} | ${n} | ${DRIFT_STATUS_MEANINGS[status as DriftStatus]} |`),
    ]);
    // Each status is defined where it is shown.
    expect(DRIFT_STATUS_MEANINGS["stale-onchain"]).toContain("--max-age");
  });

  it("lists the decision flips and invalid attestations, flips first, with the same number of cells as the header", () => {
    const start = lines.indexOf("## Decision flips and invalid attestations");
    const end = lines.indexOf("## Unverified agents by cause");
    const table = lines.slice(start + 2, end).filter((line) => line.startsWith("|"));
    expect(table).toHaveLength(2 + 2);
    const cells = (line: string) => line.replace(/\\\|/g, "").split("|").length;
    for (const line of table) expect(cells(line)).toBe(cells(table[0]!));
    expect(table[2]).toMatch(
      /^\| drifted \| ▲ pass→fail \| `base:3:erc8004` \| 60 \| developing \| none \| 2026-11-22T03:00:00.000Z \| 45 \| limited \| low \| -15 \|/,
    );
    expect(table[3]).toMatch(/^\| invalid-attestation \|/);
    expect(lines).toContain(
      "All 2 listed, most severe first; the other 2 rows are in the JSON report, the page and the Markdown rows, which this run did not write (`--json`, `--html`, `--markdown-rows`).",
    );
  });

  it("escapes pipes and HTML inside cells", () => {
    expect(md).toContain("bad \\| pipe &lt;b&gt;html&lt;/b&gt;");
    expect(md).not.toContain("<b>");
  });

  it("includes triage when present and says when there are no rows", () => {
    const empty = formatMarkdown(
      report([], { triage: { listed: 10, signedFetches: 2, fetchesSaved: 8, reasons: {}, auditFraction: 0.05, listingContradictions: 0 } }),
    );
    expect(empty).toContain("| Triage | 10 listed, 2 signed fetches, 8 saved |");
    expect(empty).toContain("| Triage audit | audit 5%, 0 listing contradictions |");
    expect(empty).toContain("No agents scanned.");
    expect(empty).toContain("**FAILED: could not verify: no agent was scanned (exit 4)**");
    expect(empty).toContain("| Unverified | 0 of 0 agents: error 0, missing-attestation 0; limit --max-errors 1% (at most 0) — EXCEEDED |");
  });

  it("gives the exit-4 verdict and the reason in the Markdown too", () => {
    const failed = formatMarkdown(report([errorRow("1"), row({ agentId: "2" })]));
    expect(failed.split("\n")[2]).toBe("**FAILED: could not verify: 1 of 2 agents unverified, more than --max-errors 1% allows (exit 4)**");
  });
});
