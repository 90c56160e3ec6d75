import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatMarkdown, MARKDOWN_SUMMARY_ROWS } from "../../src/cli/format-markdown";
import { MARKDOWN_ROWS_HEADER, markdownRow, markdownRowsHead } from "../../src/cli/markdown-rows";
import { createTopRows, formatTable, tableRows } from "../../src/cli/format-table";
import { createReportStream, jsonHeadText, jsonRowText } from "../../src/cli/report-stream";
import { reportJson } from "../../src/cli/write-outputs";
import { buildReport, sortRows } from "../../src/drift/report";
import type { DriftReport, DriftReportHead, DriftRow, DriftStatus } from "../../src/drift/types";
import { CONSISTENT, errorRow, failToPass, GENERATED_AT, invalid, passToFail, report, row } from "./report-fixture";

/** A deterministic pseudo-random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES: DriftStatus[] = ["in-sync", "drifted", "stale-onchain", "missing-onchain", "missing-attestation", "error"];

/** `count` rows of every kind, in a shuffled order: flips both ways, invalid attestations, several chains and registries, ids past 2^53. */
function mixedRows(count: number, seed: number): DriftRow[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const rows: DriftRow[] = [];
  for (let i = 0; i < count; i++) {
    const agentId = next() < 0.05 ? (2n ** 70n + BigInt(i)).toString() : String(Math.floor(next() * 500));
    const kind = next();
    const base =
      kind < 0.05
        ? passToFail(agentId)
        : kind < 0.1
          ? failToPass(agentId)
          : kind < 0.13
            ? invalid(agentId)
            : kind < 0.2
              ? errorRow(agentId)
              : row({ agentId, status: pick(STATUSES), scoreDelta: next() < 0.3 ? null : Math.floor(next() * 41) - 20 });
    rows.push({ ...base, chain: pick(["base", "ethereum", "arbitrum", "bnb"]), registry: pick(["erc8004", "olas"]) });
  }
  return rows;
}

function headOf(full: DriftReport): DriftReportHead {
  const { agents: _agents, ...head } = full;
  return head;
}

function streamed(
  rows: readonly DriftRow[],
  options: { json?: string; markdown?: string; markdownRows?: string; tableRows?: number; spoolDir?: string } = {},
) {
  const chunks: string[] = [];
  const stream = createReportStream({
    tableRows: options.tableRows ?? 50,
    stdout: { write: (chunk: string) => chunks.push(chunk) },
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.markdown !== undefined ? { markdown: options.markdown } : {}),
    ...(options.markdownRows !== undefined ? { markdownRows: options.markdownRows } : {}),
    ...(options.spoolDir !== undefined ? { spoolDir: options.spoolDir } : {}),
  });
  for (const r of rows) stream.add(r);
  return { stream, stdout: () => chunks.join("") };
}

describe("createReportStream: the documents of a streamed report", () => {
  const rows = mixedRows(700, 7);
  const full = buildReport(rows, {
    source: {
      rpc: "http://127.0.0.1:8545",
      oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      api: "a",
      issuer: "i",
      chainId: 8453,
      blockNumber: "9",
    },
    decisionRule: "score >= 51",
    maxAgeSeconds: 36 * 3600,
    encoding: CONSISTENT,
    notes: ["a note"],
    projection: {
      signedFetches: 600,
      ratePerMinute: 30,
      projectedSeconds: 1200,
      apiKey: false,
      withApiKey: { ratePerMinute: 300, projectedSeconds: 120 },
    },
    generatedAt: new Date(GENERATED_AT),
  });

  it("writes the JSON exactly as the in-memory report, rows most severe first, whatever order they came in", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-stream-"));
    const file = join(dir, "report.json");
    const { stream } = streamed(rows, { json: file });
    try {
      expect(await stream.finish(headOf(full))).toEqual({ files: { json: file }, failed: [] });
    } finally {
      stream.close();
    }
    const text = readFileSync(file, "utf8");
    expect(text).toBe(reportJson(full));
    const parsed = JSON.parse(text) as DriftReport;
    expect(parsed.agents).toEqual(JSON.parse(JSON.stringify(sortRows(rows))));
    expect(parsed.summary).toEqual(full.summary);
    expect(Object.keys(parsed)).toEqual([
      "version",
      "generatedAt",
      "verdict",
      "source",
      "decisionRule",
      "maxAgeSeconds",
      "summary",
      "actions",
      "notes",
      "projection",
      "agents",
    ]);
    // The spool is gone.
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("writes the Markdown exactly as formatMarkdown, to stdout with -", async () => {
    const { stream, stdout } = streamed(rows, { markdown: "-" });
    try {
      expect(await stream.finish(headOf(full))).toEqual({ files: {}, failed: [] });
    } finally {
      stream.close();
    }
    expect(stdout()).toBe(formatMarkdown(full));
  });

  it("writes the summary as formatMarkdown when there are more flips than it lists, whatever order they came in", async () => {
    const many = [...Array.from({ length: 150 }, (_, i) => passToFail(String(1000 + i))), ...mixedRows(400, 3)];
    const big = report(many);
    const shuffled = [...many].reverse();
    const { stream, stdout } = streamed(shuffled, { markdown: "-", tableRows: 0 });
    try {
      await stream.finish(headOf(big));
    } finally {
      stream.close();
    }
    expect(stdout()).toBe(formatMarkdown(big));
    const listed = stdout()
      .split("\n")
      .filter((line) => /^\| [a-z-]+ \| ([▲▼]| \|)/.test(line));
    expect(listed).toHaveLength(MARKDOWN_SUMMARY_ROWS);
    expect(listed[0]).toBe(markdownRow(sortRows(many)[0]!, { maxCell: 240 }));
  });

  it("writes every row with --markdown-rows: the head, the table's header, then each row most severe first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-stream-"));
    const file = join(dir, "rows.md");
    const { stream } = streamed(rows, { markdownRows: file });
    try {
      expect(await stream.finish(headOf(full))).toEqual({ files: { markdownRows: file }, failed: [] });
    } finally {
      stream.close();
    }
    expect(readFileSync(file, "utf8")).toBe(
      `${[markdownRowsHead(headOf(full)), ...MARKDOWN_ROWS_HEADER, ...sortRows(rows).map((r) => markdownRow(r))].join("\n")}\n`,
    );
    expect(readdirSync(dir)).toEqual(["rows.md"]);
  });

  it("writes both documents for no rows, as the in-memory report has them", async () => {
    const empty = report([]);
    const dir = mkdtempSync(join(tmpdir(), "trustgate-stream-"));
    const { stream } = streamed([], { json: join(dir, "r.json"), markdown: join(dir, "r.md") });
    await stream.finish(headOf(empty));
    stream.close();
    expect(readFileSync(join(dir, "r.json"), "utf8")).toBe(reportJson(empty));
    expect(readFileSync(join(dir, "r.md"), "utf8")).toBe(formatMarkdown(empty, { json: join(dir, "r.json") }));
    expect(jsonHeadText(headOf(empty), 0).endsWith('"agents": []\n}\n')).toBe(true);
  });

  it("puts rows in the order of sortRows for many shuffles", async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const shuffled = mixedRows(300, seed);
      const { stream, stdout } = streamed(shuffled, { json: "-" });
      await stream.finish(headOf(report(shuffled)));
      stream.close();
      const agents = (JSON.parse(stdout()) as DriftReport).agents;
      expect(agents.map((r) => `${r.chain}:${r.registry}:${r.agentId}:${r.status}`)).toEqual(
        sortRows(shuffled).map((r) => `${r.chain}:${r.registry}:${r.agentId}:${r.status}`),
      );
    }
  });

  it("keeps its spool in the output file's folder while it runs, and removes it on close", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-stream-"));
    const { stream } = streamed(rows.slice(0, 5), { json: join(dir, "r.json") });
    const spool = readdirSync(dir).filter((name) => name.startsWith(".trustgate-rows-"));
    expect(spool).toHaveLength(1);
    stream.close();
    expect(existsSync(join(dir, spool[0]!))).toBe(false);
    stream.close(); // twice is fine
  });

  it("counts every row in its tally and writes a row's JSON as JSON.stringify indents it inside the report", () => {
    const { stream } = streamed(rows);
    expect(stream.count).toBe(rows.length);
    expect(stream.tally.byStatus).toEqual(full.summary.byStatus);
    expect(stream.tally.flips).toEqual(full.summary.flips);
    stream.close();
    const one = row({ agentId: "1" });
    expect(JSON.stringify({ agents: [one] }, null, 2)).toContain(jsonRowText(one));
  });
});

describe("createTopRows: the table of a streamed report", () => {
  it("shows flips and invalid attestations first with a small --rows, as the table over all rows does", () => {
    const rows = mixedRows(2000, 11);
    for (const maxRows of [0, 1, 3, 50, 200, Number.POSITIVE_INFINITY]) {
      const top = createTopRows(maxRows);
      for (const r of rows) top.add(r);
      expect(top.total).toBe(rows.length);
      const fromTop = formatTable({ agents: top.rows(), generatedAt: GENERATED_AT }, { maxRows, totalRows: top.total });
      const fromAll = formatTable({ agents: rows, generatedAt: GENERATED_AT }, { maxRows });
      expect(fromTop).toBe(fromAll);
      if (Number.isFinite(maxRows)) {
        const always = rows.filter((r) => r.decision.flipped || r.status === "invalid-attestation").length;
        expect(top.rows().length).toBeLessThanOrEqual(always + maxRows);
      }
    }
  });

  it("puts a flip and an invalid attestation above the rest with --rows 1", () => {
    const rows = [
      row({ agentId: "1" }),
      errorRow("2"),
      invalid("3"),
      row({ agentId: "4", status: "drifted", scoreDelta: 9 }),
      passToFail("5"),
    ];
    const top = createTopRows(1);
    for (const r of rows) top.add(r);
    const { shown } = tableRows(top.rows(), 1);
    expect(shown.map((r) => r.agentId)).toEqual(["5", "3"]);
    const table = formatTable({ agents: top.rows(), generatedAt: GENERATED_AT }, { maxRows: 1, totalRows: top.total }).split("\n");
    expect(table[1]).toMatch(/^drifted\s+▲ pass→fail\s+base:5/);
    expect(table[2]).toMatch(/^invalid-attestation/);
    expect(table.at(-1)).toBe("… 3 more rows (see --json)");
  });
});
