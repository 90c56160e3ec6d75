// The state file's header: what it was written for, compared with a run's setup.
import { describe, expect, it } from "vitest";
import { stateHeader, stateScopeMismatches } from "../../../src/drift/state/header";
import { NOW } from "../stages/fixtures";
import { SCOPE } from "./lines";

describe("the state file's header", () => {
  it("says what differs from the run's setup", () => {
    const state = stateHeader(SCOPE, NOW, null);
    expect(stateScopeMismatches(state, { ...SCOPE, api: "http://127.0.0.1:8787/" })).toEqual([]);
    expect(stateScopeMismatches(state, { ...SCOPE, oracle: SCOPE.oracle.toLowerCase() as typeof SCOPE.oracle })).toEqual([]);
    expect(stateScopeMismatches(state, { ...SCOPE, chainId: 1, rule: "score >= 60" })).toEqual([
      "chain id 8453 in the state, 1 in this run",
      "decision rule score >= 51 in the state, score >= 60 in this run",
    ]);
  });
});
