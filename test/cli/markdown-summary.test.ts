// The Markdown summary (`--markdown`): bounded at any population, the unverified agents grouped by cause, each
// refresh sentence said once, the other outputs named; and at 150,000 agents (the benchmarks' population,
// scripts/bench/synthetic-report.ts) under its 64 KB limit and GitHub's 1 MiB step-summary limit.
import { describe, expect, it } from "vitest";
import { causeOf, createCauseTally, MAX_CAUSES } from "../../src/cli/error-causes";
import {
  formatMarkdown,
  MARKDOWN_SECTIONS,
  MARKDOWN_SUMMARY_CAUSES,
  MARKDOWN_SUMMARY_MAX_BYTES,
  MARKDOWN_SUMMARY_ROWS,
} from "../../src/cli/format-markdown";
import type { DriftRow, RowRefresh } from "../../src/drift/types";
import { GITHUB_STEP_SUMMARY_MAX_BYTES, measureMarkdownSummary } from "../../scripts/bench/markdown-summary";
import { errorRow, failToPass, invalid, passToFail, report, row } from "./report-fixture";

const bytes = (text: string) => Buffer.byteLength(text);
const section = (md: string, title: string) => {
  const lines = md.split("\n");
  const start = lines.indexOf(title);
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start, end < 0 ? undefined : end);
};
/** The listed rows of the summary: lines of its first table that start with a status. */
const listedRows = (md: string) => section(md, "## Decision flips and invalid attestations").filter((line) => /^\| [a-z-]+ \|/.test(line));

const REFRESH: RowRefresh = {
  possible: true,
  reason:
    'submitJwsAttestation can refresh it before 2026-11-23T10:14:18.000Z: issuedAt 2026-11-22T10:14:13.000Z, newer than the on-chain record\'s 2026-11-22T03:00:00.000Z; kid "rnwy-trust-v2" not checked: no attested oracle named (--attested-oracle)',
  kid: "rnwy-trust-v2",
  keyStatus: "unchecked",
  expiresAt: "2026-11-23T10:14:18.000Z",
  call: { function: "submitJwsAttestation", form: "jws" },
};

describe("the Markdown summary", () => {
  it("is composed of one function per section, the rows' filling what the others leave", () => {
    expect(MARKDOWN_SECTIONS.map((s) => s.name)).toEqual([
      "verdict",
      "since last night",
      "decision flips and invalid attestations",
      "unverified agents by cause",
      "totals",
      "what to do",
      "every row",
    ]);
    expect(MARKDOWN_SECTIONS.filter((s) => s.fills).map((s) => s.name)).toEqual(["decision flips and invalid attestations"]);
  });

  it("lists the first flips and invalid attestations, says how many were left out and where every row is", () => {
    const rows = [
      ...Array.from({ length: 300 }, (_, i) => passToFail(String(i + 1))),
      ...Array.from({ length: 30 }, (_, i) => invalid(String(1000 + i))),
      ...Array.from({ length: 500 }, (_, i) => row({ agentId: String(2000 + i) })),
    ];
    const md = formatMarkdown(report(rows), { json: "out/report.json", html: "out/report.html", markdownRows: "out/rows.md" });
    const listed = listedRows(md);
    expect(listed).toHaveLength(MARKDOWN_SUMMARY_ROWS);
    // Most severe first: the flips, by agent; the invalid attestations come after all 300 flips, so none is listed.
    expect(listed[0]).toContain("`base:1:erc8004`");
    expect(listed.every((line) => line.startsWith("| drifted | ▲ pass→fail |"))).toBe(true);
    expect(md).toContain(
      `${330 - MARKDOWN_SUMMARY_ROWS} of 330 decision flips and invalid attestations left out here, to keep this summary under 64 KB: ` +
        `${MARKDOWN_SUMMARY_ROWS} listed, most severe first; every row (830) is in the JSON report \`out/report.json\`, the page \`out/report.html\` ` +
        "and the Markdown rows `out/rows.md`.",
    );
    expect(section(md, "## Every row")).toEqual([
      "## Every row",
      "",
      "- JSON report, every row with every field: `out/report.json`",
      "- Page, every row (sortable, filterable) and the nights before: `out/report.html`",
      "- Every row as Markdown: `out/rows.md`",
      "",
    ]);
    // In-sync rows are counted, never listed.
    expect(md).not.toContain("`base:2000:erc8004`");
    expect(md).toContain("| in-sync | 500 |");
  });

  it("says none when nothing flips and nothing is invalid, and says where the rows are", () => {
    const md = formatMarkdown(report([row({ agentId: "1" }), row({ agentId: "2" })]), { json: "-" });
    expect(section(md, "## Decision flips and invalid attestations")).toEqual([
      "## Decision flips and invalid attestations",
      "",
      "None. The 2 rows are in the JSON report (stdout).",
      "",
    ]);
    expect(md).toContain("- JSON report, every row with every field: written to stdout");
  });

  it("gives each row's refresh assessment in a word, and each word's sentence once", () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ ...failToPass(String(i + 1)), refresh: REFRESH }));
    const md = formatMarkdown(report(rows));
    for (const line of listedRows(md)) expect(line).toContain("| yes | score 40 → 70");
    expect(md.split("submitJwsAttestation can refresh it before").length - 1).toBe(1);
    expect(md).toContain(`- \`yes\`: \`base:1:erc8004\` submitJwsAttestation can refresh it before 2026-11-23T10:14:18.000Z`);
  });

  it("groups the unverified agents by cause, with counts and an example, the largest group first", () => {
    const unknown = (id: string, chain: string): DriftRow => ({
      ...row({ agentId: id, chain, status: "missing-attestation", attested: null, scoreDelta: null }),
      reason: `the service does not know the agent (Unknown agent ${id} on ${chain} (registry erc8004))`,
    });
    const notJson = (id: string) =>
      errorRow(
        id,
        `service request failed: GET http://127.0.0.1:41975/api/trust-check?id=${id}&chain=base&registry=erc8004 returned a body that is not JSON (HTTP 200)`,
      );
    const refused = (id: string) => errorRow(id, "Cannot reach the service at http://127.0.0.1:9 (connect ECONNREFUSED 127.0.0.1:9)");
    const rows = [
      unknown("33", "avalanche"),
      unknown("476", "ethereum"),
      unknown("14", "optimism"),
      notJson("4"),
      notJson("200"),
      ...Array.from({ length: 7 }, (_, i) => refused(String(50 + i))),
      row({ agentId: "1" }),
    ];
    const md = formatMarkdown(report(rows));
    expect(section(md, "## Unverified agents by cause").filter((line) => line.startsWith("| "))).toEqual([
      "| Status | Cause | Agents | Example |",
      "| error | Cannot reach the service at http://127.0.0.1:9 (connect ECONNREFUSED 127.0.0.1:9) | 7 | `base:50:erc8004` |",
      "| missing-attestation | the service does not know the agent (Unknown agent {id} on {chain} (registry {registry})) | 3 | `avalanche:33:erc8004` |",
      "| error | service request failed: GET http://127.0.0.1:41975/api/trust-check?… returned a body that is not JSON (HTTP 200) | 2 | `base:4:erc8004` |",
    ]);
  });

  it("names a cause without the agent's identity, query strings and times, and keeps what is the same for all", () => {
    const at = (reason: string, agentId = "7", chain = "base") => causeOf({ ...errorRow(agentId, reason), chain });
    expect(at("HTTP 503 for base:7:erc8004 at 2026-11-22T03:00:00.000Z")).toBe("HTTP 503 for {chain}:{id}:{registry} at {time}");
    expect(at("Agent #7 on base: timed out after 7 attempts")).toBe("Agent #{id} on {chain}: timed out after 7 attempts");
    expect(at("no record for id 7 (chain base, registry erc8004)")).toBe("no record for id {id} (chain {chain}, registry {registry})");
    // The id or the chain elsewhere (a status, a count, a word) is part of the cause.
    expect(at("HTTP 200 from the base URL", "200")).toBe("HTTP 200 from the base URL");
    expect(at("GET https://rnwy.com/api/trust-check?id=7&chain=base failed")).toBe("GET https://rnwy.com/api/trust-check?… failed");
    expect(at("")).toBe("no reason given");
  });

  it("keeps its tally of causes bounded, whatever the rows, and its examples independent of their order", () => {
    const rows = Array.from({ length: MAX_CAUSES + 50 }, (_, i) => errorRow(String(i), `failure number ${i + 100000}`));
    const tally = createCauseTally();
    for (const r of rows) tally.add(r);
    expect(tally.groups()).toHaveLength(MAX_CAUSES);
    expect(tally.otherRows).toBe(50);
    const md = formatMarkdown(report(rows));
    expect(section(md, "## Unverified agents by cause").filter((line) => line.startsWith("| error |"))).toHaveLength(
      MARKDOWN_SUMMARY_CAUSES,
    );
    expect(md).toContain(`And ${MAX_CAUSES + 50 - MARKDOWN_SUMMARY_CAUSES} agents of other causes: every row's reason is in`);
    const same = Array.from({ length: 5 }, (_, i) => errorRow(String(9 - i)));
    const forward = createCauseTally();
    const backward = createCauseTally();
    for (const r of same) forward.add(r);
    for (const r of [...same].reverse()) backward.add(r);
    expect(forward.groups()[0]!.example.agentId).toBe("5");
    expect(backward.groups()).toEqual(forward.groups());
  });

  it("stays within 64 KB when every row is a flip with a long reason and every agent fails differently", () => {
    const long = "x".repeat(5000);
    const rows = [
      ...Array.from({ length: 20_000 }, (_, i) => ({ ...passToFail(String(i)), reason: `${long} ${i}`, refresh: REFRESH })),
      ...Array.from({ length: 5000 }, (_, i) => errorRow(String(100_000 + i), `${long} cause ${i}`)),
    ];
    const md = formatMarkdown(report(rows), { json: `${"d/".repeat(400)}report.json` });
    expect(bytes(md)).toBeLessThanOrEqual(MARKDOWN_SUMMARY_MAX_BYTES);
    expect(listedRows(md).length).toBeGreaterThan(0);
    expect(md).toMatch(/\d+ of 20000 decision flips and invalid attestations left out here/);
    expect(md).toContain("## Totals");
    expect(md.endsWith("\n")).toBe(true);
  });

  it("at 150,000 agents (the benchmarks' population) is at most 64 KB, far under GitHub's 1 MiB, and lists what fits", async () => {
    const f = await measureMarkdownSummary(150_000);
    expect(f.problems).toBeGreaterThan(MARKDOWN_SUMMARY_ROWS);
    expect(f.summaryBytes).toBeLessThanOrEqual(MARKDOWN_SUMMARY_MAX_BYTES);
    expect(f.summaryBytes).toBeLessThan(GITHUB_STEP_SUMMARY_MAX_BYTES);
    expect(f.listed).toBe(MARKDOWN_SUMMARY_ROWS);
    expect(f.summary).toContain(
      `${f.problems - MARKDOWN_SUMMARY_ROWS} of ${f.problems} decision flips and invalid attestations left out here`,
    );
    expect(f.summary).toMatch(/every row \(150000\) is in the Markdown rows `.*rows\.md`\./);
    // The refresh sentence is said once, not on each of the rows.
    expect(f.summary.split("submitJwsAttestation can refresh it before").length - 1).toBe(1);
    expect(f.summary).toContain("| error | service request failed: GET /api/trust-check failed with HTTP 503 |");
    // Every row is in --markdown-rows: far over what a step summary takes.
    expect(f.rowsBytes).toBeGreaterThan(GITHUB_STEP_SUMMARY_MAX_BYTES);
  }, 120_000);
});
