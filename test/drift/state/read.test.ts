// Reading the state file: lines parsed and checked one by one, a last line cut short tolerated, anything else malformed refused with its line.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stateLine } from "../../../src/drift/state/codec";
import { DriftStateJournal } from "../../../src/drift/state/journal";
import { readDriftState } from "../../../src/drift/state/read";
import { ConfigurationError } from "../../../src/errors";
import { NOW } from "../stages/fixtures";
import { ENTRY, file, header, SCOPE } from "./lines";

describe("reading the state file", () => {
  it("round-trips a header, entries and a journal", () => {
    const run = { run: "r1", startedAt: NOW.toISOString(), seed: 7, full: false, blockNumber: "12", resumes: null };
    const outcome = {
      run: "r1",
      agent: "base:erc8004:2",
      fp: "abc",
      at: NOW.toISOString(),
      outcome: { kind: "error" as const, message: "500" },
    };
    const path = file([header(), stateLine.agent(ENTRY), stateLine.run(run), stateLine.outcome(outcome)]);
    const state = readDriftState(path)!;
    expect(state.header).toMatchObject({ format: "trustgate-drift-state", version: 1, ...SCOPE, lastRun: null });
    expect(state.entries.get("base:erc8004:1")).toEqual(ENTRY);
    expect(state.journal.runs).toEqual([run]);
    expect(state.journal.outcomes.get("base:erc8004:2")).toEqual(outcome);
    expect(state.truncatedLine).toBeUndefined();
    expect(state.validLength).toBe(readFileSync(path).length);
  });

  it("is absent when the file does not exist or is empty", () => {
    expect(readDriftState(join(tmpdir(), "no-such-state.jsonl"))).toBeNull();
    expect(readDriftState(file([]))).toBeNull();
  });

  it("tolerates a last line cut short by a crash, reports it, and cuts it off before appending", () => {
    const full = stateLine.agent({ ...ENTRY, agent: "base:erc8004:9" });
    const path = file([header(), stateLine.agent(ENTRY), full.slice(0, 40)]);
    const state = readDriftState(path)!;
    expect(state.truncatedLine).toBe(3);
    expect([...state.entries.keys()]).toEqual(["base:erc8004:1"]);
    const journal = DriftStateJournal.open(path, state.validLength);
    journal.append(stateLine.stop({ run: "r", at: NOW.toISOString(), reason: "max-duration" }));
    journal.close();
    journal.append("ignored after close\n");
    const again = readDriftState(path)!;
    expect(again.truncatedLine).toBeUndefined();
    expect(again.journal.stops).toHaveLength(1);
    // A complete line without its end of line is cut short too (the crash came before the newline).
    expect(readDriftState(file([header(), full.trimEnd()]))!.truncatedLine).toBe(2);
  });

  it.each([
    [[`{"type":"agent"}\n`], /line 1: the first line must be the header/],
    [[`not json\n`, header()], /line 1: not JSON/],
    [[header(), `{"type":"agent"\n`, stateLine.agent(ENTRY)], /line 2: not JSON/],
    [[header(), `{"type":"agent","agent":"x"}\n`, stateLine.agent(ENTRY)], /line 2: agent: verified: /],
    [[header(), `{"type":"bogus"}\n`, stateLine.agent(ENTRY)], /line 2: unknown line type "bogus"/],
    [[header().replace('"version":1', '"version":2')], /line 1: format version 2 is not 1/],
    [[header().replace("trustgate-drift-state", "other")], /line 1: format "other" is not trustgate-drift-state/],
    [
      [header(), stateLine.outcome({ run: "r", agent: "a", fp: "f", at: NOW.toISOString(), outcome: { kind: "missing", message: "m" } })],
      /line 2: an outcome line before any run line/,
    ],
  ])("refuses anything else malformed, naming the line: %#", (lines, message) => {
    const path = file(lines);
    let thrown: unknown;
    try {
      readDriftState(path);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as ConfigurationError).shortMessage).toContain(`The state file ${path} is malformed at `);
    expect((thrown as ConfigurationError).shortMessage).toMatch(message);
  });
});
