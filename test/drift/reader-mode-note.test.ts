// The drift report's note on how the oracle was read, and where the summary for people prints it.
import { describe, expect, it } from "vitest";
import { formatSummary } from "../../src/cli/format-summary";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses";
import { readerModeNote } from "../../src/drift/reader-mode-note";
import { buildReport } from "../../src/drift/report";

describe("readerModeNote", () => {
  it("says nothing when Multicall3 is deployed", () => {
    expect(readerModeNote({ mode: "multicall3", multicallAddress: MULTICALL3_ADDRESS }, 8453)).toBeNull();
  });

  it("names the address, the chain and the mode used instead, with the node's refusal in eth-call mode", () => {
    expect(readerModeNote({ mode: "deployless-multicall3", multicallAddress: MULTICALL3_ADDRESS }, 31337)).toBe(
      `Multicall3 not deployed at ${MULTICALL3_ADDRESS} on chain 31337: reads used deployless Multicall3 ` +
        "(aggregate3 batches in eth_calls carrying its creation code; nothing deployed)",
    );
    expect(
      readerModeNote({ mode: "eth-call", multicallAddress: MULTICALL3_ADDRESS, deploylessFailure: "creation calls not supported" }, 84532),
    ).toBe(
      `Multicall3 not deployed at ${MULTICALL3_ADDRESS} on chain 84532: reads used one eth_call per record ` +
        "(a deployless Multicall3 call failed: creation calls not supported)",
    );
  });
});

describe("notes in the report and the summary", () => {
  const context = {
    source: {
      rpc: "http://127.0.0.1:1",
      oracle: "0x1",
      api: "http://127.0.0.1:2",
      issuer: "http://127.0.0.1:2",
      chainId: 31337,
      blockNumber: "1",
    },
    decisionRule: "score >= 51",
    maxAgeSeconds: 3600,
    encoding: {
      tiers: [],
      sybilSeverities: [],
      checked: 0,
      contradictions: 0,
      consistent: true,
      examples: [],
      observed: {},
      sybil: { checked: 0, contradictions: 0, consistent: true, examples: [], observed: {} },
    },
    generatedAt: new Date("2026-01-01T00:00:00Z"),
  };

  it("a report without notes has no notes field and no note line", () => {
    const report = buildReport([], { ...context, notes: [] });
    expect("notes" in report).toBe(false);
    expect(formatSummary(report)).not.toContain("note:");
  });

  it("each note is one line of the summary, before the verdict", () => {
    const report = buildReport([], { ...context, notes: ["first thing", "second thing"] });
    expect(report.notes).toEqual(["first thing", "second thing"]);
    const lines = formatSummary(report).split("\n");
    expect(lines.slice(-3, -1)).toEqual(["  note:             first thing", "  note:             second thing"]);
    expect(lines.at(-1)).toMatch(/\(exit \d\)$/); // the verdict stays last
  });
});
