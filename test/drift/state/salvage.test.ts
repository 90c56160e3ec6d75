// What --full keeps of a state file it cannot read: the header's history when that line is readable and of this
// setup; otherwise nothing, and the run says why and what it dropped.
import { describe, expect, it } from "vitest";
import { stateLine } from "../../../src/drift/state/codec";
import { stateHeader } from "../../../src/drift/state/header";
import { readStateFileForRun } from "../../../src/drift/state/salvage";
import { openDriftStateRun } from "../../../src/drift/state-run";
import type { DriftNightSummary } from "../../../src/drift/types";
import { ConfigurationError } from "../../../src/errors";
import { NOW } from "../stages/fixtures";
import { ENTRY, file, SCOPE } from "./lines";

const NIGHT: DriftNightSummary = {
  startedAt: NOW.toISOString(),
  finishedAt: NOW.toISOString(),
  exitCode: 3,
  statuses: {
    "invalid-attestation": 0,
    error: 0,
    drifted: 1,
    "stale-onchain": 0,
    "missing-onchain": 0,
    "missing-attestation": 0,
    "in-sync": 4,
  },
  flips: { passToFail: 1, failToPass: 0 },
  signedFetches: 5,
};
const withHistory = (scope = SCOPE) => stateLine.header(stateHeader(scope, NOW, null, [NIGHT, NIGHT]));

describe("--full and a state file it cannot read", () => {
  it("without --full, the reader's error stands", () => {
    const path = file([withHistory(), "not json\n", stateLine.agent(ENTRY)]);
    expect(() => readStateFileForRun(path, false)).toThrow(ConfigurationError);
  });

  it("keeps the readable header's history and counts what it drops", () => {
    const path = file([withHistory(), stateLine.agent(ENTRY), "not json\n", stateLine.agent({ ...ENTRY, agent: "base:erc8004:2" })]);
    const read = readStateFileForRun(path, true);
    expect(read.loaded).toBeNull();
    expect(read.recovered).toMatchObject({ droppedAgents: 2, droppedLines: 1 });
    const run = openDriftStateRun({ path, loaded: null, recovered: read.recovered, scope: SCOPE, full: true, now: () => NOW });
    expect(run.history()).toEqual([NIGHT, NIGHT]);
    expect(run.notes.join("\n")).toMatch(
      /^STATE STARTED OVER: .* could not be read \(The state file .* is malformed at line 3: not JSON .*\); --full started it over: kept the history of 2 nights from its header; dropped 2 agent entries and 1 other line \(their agents are fetched again\)$/,
    );
  });

  it("drops the history of another setup, or of a header it cannot read, and says why", () => {
    const other = file([withHistory({ ...SCOPE, chainId: 1 }), "not json\n", stateLine.agent(ENTRY)]);
    const a = openDriftStateRun({
      path: other,
      loaded: null,
      recovered: readStateFileForRun(other, true).recovered,
      scope: SCOPE,
      full: true,
      now: () => NOW,
    });
    expect(a.history()).toEqual([]);
    expect(a.notes.join("\n")).toContain("dropped its history: it was written for another setup (chain id");
    const garbled = file(["{garbled\n", stateLine.agent(ENTRY)]);
    const b = openDriftStateRun({
      path: garbled,
      loaded: null,
      recovered: readStateFileForRun(garbled, true).recovered,
      scope: SCOPE,
      full: true,
      now: () => NOW,
    });
    expect(b.history()).toEqual([]);
    expect(b.notes.join("\n")).toContain(
      "dropped its history: its header line could not be read either; dropped 1 agent entry and 1 other line",
    );
  });
});
