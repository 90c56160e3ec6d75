import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors";
import {
  type DriftStateScope,
  DriftStateJournal,
  inputFingerprint,
  outcomeOfStored,
  readDriftState,
  stateHeader,
  stateLine,
  stateScopeMismatches,
  storedOutcomeOf,
  writeDriftStateAtomically,
} from "../../../src/drift/state-file";
import { openDriftStateRun } from "../../../src/drift/state-run";
import { ENCODING, listed, NOW, record } from "../stages/fixtures";

const SCOPE: DriftStateScope = {
  oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  attestedOracle: null,
  chainId: 8453,
  api: "http://127.0.0.1:8787",
  issuer: "http://127.0.0.1:8787",
  rule: "score >= 51",
  encoding: { tiers: [...ENCODING.tiers], sybilSeverities: [...ENCODING.sybilSeverities] },
};
const ENTRY = {
  agent: "base:erc8004:1",
  verified: {
    score: 52,
    tier: "developing",
    sybilSeverity: null,
    at: "2026-11-22T03:00:00.000Z",
    computedAt: "2026-11-22T03:00:00.000Z",
    kid: "rnwy-trust-v2",
    expiresAt: "2026-11-23T10:00:00.000Z",
    submission: { ok: true as const, form: "sig" as const },
  },
  unverified: null,
  verifiedAt: "2026-11-22T10:00:00.000Z",
  onchain: { score: 52, tierCode: 2, sybilSeverityCode: 0, updatedAt: 1_795_000_000 },
  block: "12",
};

function file(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "state-")), "state.jsonl");
  writeFileSync(path, lines.join(""));
  return path;
}

const header = () => stateLine.header(stateHeader(SCOPE, NOW, null));

describe("the state file", () => {
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

  it("says what differs from the run's setup", () => {
    const state = stateHeader(SCOPE, NOW, null);
    expect(stateScopeMismatches(state, { ...SCOPE, api: "http://127.0.0.1:8787/" })).toEqual([]);
    expect(stateScopeMismatches(state, { ...SCOPE, oracle: SCOPE.oracle.toLowerCase() as typeof SCOPE.oracle })).toEqual([]);
    expect(stateScopeMismatches(state, { ...SCOPE, chainId: 1, rule: "score >= 60" })).toEqual([
      "chain id 8453 in the state, 1 in this run",
      "decision rule score >= 51 in the state, score >= 60 in this run",
    ]);
  });

  it("writes atomically: the file is the old one or the new one, never a mix", () => {
    const path = file([header(), stateLine.agent(ENTRY)]);
    writeDriftStateAtomically(path, [header(), stateLine.agent({ ...ENTRY, agent: "base:erc8004:5" })]);
    expect([...readDriftState(path)!.entries.keys()]).toEqual(["base:erc8004:5"]);
    expect(() => writeDriftStateAtomically(join(path, "no", "such", "dir"), [header()])).toThrow();
    expect([...readDriftState(path)!.entries.keys()]).toEqual(["base:erc8004:5"]);
  });

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
