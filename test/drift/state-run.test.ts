// One run's use of the state file (src/drift/state-run.ts): the setup checked, a killed run continued, answers reused.
import { describe, expect, it } from "vitest";
import { inputFingerprint, stateLine } from "../../src/drift/state/codec";
import { readDriftState } from "../../src/drift/state/read";
import { openDriftStateRun } from "../../src/drift/state-run";
import { listed, NOW, record } from "./stages/fixtures";
import { ENTRY, file, header, SCOPE } from "./state/lines";

describe("a run's state", () => {
  it("refuses a state written for another setup, unless --full starts it over", () => {
    const path = file([header(), stateLine.agent(ENTRY)]);
    const loaded = readDriftState(path);
    const other = { ...SCOPE, chainId: 1, api: "http://127.0.0.1:9999" };
    expect(() => openDriftStateRun({ path, loaded, scope: other, full: false, now: () => NOW })).toThrow(
      /was written for another setup: chain id 8453 in the state, 1 in this run; API http:\/\/127\.0\.0\.1:8787 in the state, http:\/\/127\.0\.0\.1:9999 in this run/,
    );
    const run = openDriftStateRun({ path, loaded, scope: other, full: true, now: () => NOW });
    expect(run.notes[0]).toMatch(/^STATE STARTED OVER/);
    expect(run.source).toBeUndefined();
    run.begin(5n);
    const started = readDriftState(path)!;
    expect(started.header.chainId).toBe(1);
    expect(started.entries.size).toBe(0);
    expect(started.journal.runs).toHaveLength(1);
  });

  it("continues an interrupted run with its seed, and reuses its answers only on the same inputs", () => {
    const path = file([header(), stateLine.agent(ENTRY)]);
    const first = openDriftStateRun({ path, loaded: readDriftState(path), scope: SCOPE, full: false, now: () => NOW });
    first.begin(5n);
    const fp = inputFingerprint(listed(60), record(60));
    first.checkpoint.record("base:erc8004:3", fp, { kind: "missing", message: "404" });
    first.abandon(); // killed
    const second = openDriftStateRun({ path, loaded: readDriftState(path), scope: SCOPE, full: false, now: () => NOW });
    expect(second.seed).toBe(first.seed);
    expect(second.notes.join(" ")).toMatch(
      /^Continued the run started .* that did not complete \(killed\?\): seed \d+; its 1 checkpointed answers/,
    );
    expect(second.checkpoint.resumed("base:erc8004:3", fp)).toEqual({ kind: "missing", message: "404" });
    expect(second.checkpoint.resumed("base:erc8004:3", inputFingerprint(listed(61), record(60)))).toBeUndefined();
    expect(second.source!.attestation("base:erc8004:1")).toMatchObject({
      kind: "verified",
      fromState: { verifiedAt: new Date(ENTRY.verifiedAt) },
    });
    expect(second.source!.evidence("base:erc8004:1")).toMatchObject({
      verified: { score: 52 },
      onchain: { score: 52, tier: 2, sybilSeverity: 0 },
    });
    // --seed wins over the continued run's.
    expect(openDriftStateRun({ path, loaded: readDriftState(path), scope: SCOPE, full: false, seed: 3, now: () => NOW }).seed).toBe(3);
  });

  it("a run that never started a journal draws a fresh seed each time", () => {
    const path = file([header()]);
    const seeds = new Set(
      [1, 2, 3].map(() => openDriftStateRun({ path, loaded: readDriftState(path), scope: SCOPE, full: false, now: () => NOW }).seed),
    );
    expect(seeds.size).toBe(3);
  });
});
