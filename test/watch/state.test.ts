/**
 * The watch's state file: a round trip (block numbers beyond a JSON number's exact range included), the atomic write
 * (a writer killed at any moment leaves the old state or the new one, never a mix), and the refusals: a file cut
 * short, not JSON, of another format or version, of the wrong shape, and of another chain or oracle.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, InvalidArgumentError } from "../../src/errors";
import { checkWatchStateSetup, readWatchState, type WatchState, writeWatchState } from "../../src/watch/state";
import type { OutstandingAlert } from "../../src/watch/types";
import { runChild } from "../support/child-run";

const ROOT = resolve(__dirname, "../..");
const ORACLE = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4";
const ATTESTED = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;

const alert: OutstandingAlert = {
  condition: {
    kind: "pass-to-fail",
    id: "pass-to-fail:base:erc8004:16907",
    agent: "base:16907:erc8004",
    summary: "base:16907 passes on-chain (score 80) but the service's signed score is 40",
    before: { score: 80, tier: "established", sybilSeverity: "none", updatedAt: "2026-11-29T03:00:00.000Z" },
    after: { score: 40, tier: "limited", sybilSeverity: "low", attestedAt: "2026-11-29T09:58:00.000Z", kid: "rnwy-trust-v2" },
    decision: { onchain: true, attested: false },
    evidence: {
      blockNumber: "44000123",
      transactionHash: hash(7),
      kid: "rnwy-trust-v2",
      issuedAt: "2026-11-29T09:00:00.000Z",
      expiresAt: "2026-11-30T09:58:00.000Z",
      recordUpdatedAt: "2026-11-29T03:00:00.000Z",
      details: ["decision flips at threshold 51"],
    },
  },
  since: "2026-11-29T09:58:01.000Z",
  lastSentAt: "2026-11-29T09:58:02.000Z",
};

function state(overrides: Partial<WatchState> = {}): WatchState {
  return {
    version: 1,
    setup: { chainId: 8453, oracle: ORACLE, attestedOracle: ATTESTED },
    position: {
      // Past 2^53: a JSON number would lose it.
      last: { number: 9_007_199_254_740_993n, hash: hash(3), timestamp: 1_764_410_400 },
      recent: [
        { number: 9_007_199_254_740_991n, hash: hash(1) },
        { number: 9_007_199_254_740_992n, hash: hash(2) },
        { number: 9_007_199_254_740_993n, hash: hash(3) },
      ],
    },
    alerts: [alert],
    lastWrite: { at: "2026-11-29T03:00:12.000Z", blockNumber: "44000000" },
    audit: { cursor: 1200 },
    queue: [{ chain: "base", chainId: 8453, agentId: 16907n, registry: "erc8004" }],
    savedAt: "2026-11-29T10:00:00.000Z",
    ...overrides,
  };
}

const dir = () => mkdtempSync(join(tmpdir(), "trustgate-watch-state-"));

describe("the watch state file", () => {
  it("reads back what was written, block numbers as decimal strings; a missing file is undefined", () => {
    const path = join(dir(), "watch.json");
    expect(readWatchState(path)).toBeUndefined();
    writeWatchState(path, state());
    expect(readWatchState(path)).toEqual(state());
    const text = readFileSync(path, "utf8");
    expect(text).toContain('"number": "9007199254740993"');
    expect(JSON.parse(text)).toMatchObject({ format: "trustgate-watch-state", version: 1 });
    // A state before the first block processed, nothing outstanding, no write seen.
    const fresh = state({
      position: null,
      alerts: [],
      lastWrite: null,
      audit: { cursor: 0 },
      setup: { chainId: 8453, oracle: ORACLE, attestedOracle: null },
    });
    writeWatchState(path, fresh);
    expect(readWatchState(path)).toEqual(fresh);
    // Nothing but the file is left in its directory: the temporary file was renamed over it.
    expect(readdirSync(join(path, ".."))).toEqual(["watch.json"]);
  });

  it("writes atomically: read while a writer rewrites it, and after the writer is killed, the file is always one whole state", async () => {
    const path = join(dir(), "watch.json");
    // Two states of about 2 MB each (many alerts), written one after the other until the writer is killed.
    const many = (n: number) =>
      state({ alerts: Array.from({ length: 2_000 }, (_, i) => ({ ...alert, condition: { ...alert.condition, id: `a${n}:${i}` } })) });
    writeWatchState(path, many(0));
    const statesFile = join(path, "..", "states.json");
    writeFileSync(statesFile, JSON.stringify([0, 1].map((n) => ({ ...many(n), position: null, queue: [] }))));
    const script = [
      `const { writeWatchState } = require(${JSON.stringify(join(ROOT, "src/watch/state.ts"))});`,
      `const { readFileSync } = require("node:fs");`,
      `const states = JSON.parse(readFileSync(${JSON.stringify(statesFile)}, "utf8"));`,
      `for (let i = 0; ; i++) { writeWatchState(${JSON.stringify(path)}, states[i % 2]); if (i === 3) process.stdout.write("written\\n"); }`,
    ].join("\n");
    /** Whether each read saw a whole state (one of the two, never a mix), or the error it hit. */
    const reads: (string | boolean)[] = [];
    const wholeState = (): boolean => {
      const read = readWatchState(path)!;
      return read.alerts.length === 2_000 && new Set(read.alerts.map((a) => a.condition.id.split(":")[0])).size === 1;
    };
    const run = await runChild(process.execPath, ["--import", "tsx", "-e", script], ROOT, {
      timeoutMs: 120_000,
      onSpawn: (child) => {
        let reading = false;
        child.stdout!.on("data", (chunk: Buffer) => {
          if (reading || !chunk.toString().includes("written")) return;
          reading = true;
          void (async () => {
            // Reads while the writer keeps rewriting the file: a writer in place would be caught part-way.
            for (let i = 0; i < 40; i++) {
              try {
                reads.push(wholeState());
              } catch (error) {
                reads.push((error as Error).message);
              }
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            child.kill("SIGKILL");
          })();
        });
      },
    });
    expect(run.stdout, run.stderr).toContain("written");
    expect(run.code).toBeNull(); // killed, mid-loop
    expect(reads).toEqual(Array.from({ length: 40 }, () => true));
    expect(wholeState()).toBe(true);
  });

  it("refuses a file cut short, one that is not JSON, one of another format or version, and one of the wrong shape, naming the file", () => {
    const path = join(dir(), "watch.json");
    writeWatchState(path, state());
    const whole = readFileSync(path, "utf8");
    const refused = (text: string, problem: RegExp) => {
      writeFileSync(path, text);
      const error = (() => {
        try {
          readWatchState(path);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).shortMessage).toContain(path);
      expect((error as ConfigurationError).shortMessage).toMatch(problem);
    };
    refused(whole.slice(0, whole.length / 2), /not JSON/);
    refused("", /not JSON/);
    refused(
      `{"type":"header","format":"trustgate-drift-state","version":1}\n`,
      /format is "trustgate-drift-state", not "trustgate-watch-state"/,
    );
    refused(JSON.stringify({ ...JSON.parse(whole), version: 2 }), /format version is 2, not 1/);
    const file = JSON.parse(whole) as Record<string, any>;
    refused(
      JSON.stringify({ ...file, position: { ...file.position, last: { ...file.position.last, number: 12 } } }),
      /position\.last\.number/,
    );
    refused(
      JSON.stringify({ ...file, position: { ...file.position, last: { ...file.position.last, number: "-1" } } }),
      /position\.last\.number/,
    );
    refused(JSON.stringify({ ...file, setup: { ...file.setup, oracle: "0x1234" } }), /setup\.oracle/);
    refused(JSON.stringify({ ...file, savedAt: "yesterday" }), /savedAt: expected an ISO-8601 time/);
    refused(
      JSON.stringify({ ...file, alerts: [{ ...file.alerts[0], condition: { ...file.alerts[0].condition, kind: "bored" } }] }),
      /alerts\.0\.condition\.kind/,
    );
    refused(JSON.stringify({ ...file, audit: { cursor: -1 } }), /audit\.cursor/);
    expect(existsSync(path)).toBe(true); // refused, never removed
  });

  it("refuses a state of another chain, oracle or attested oracle; accepts its own in any address case", () => {
    const saved = state();
    const setup = saved.setup;
    expect(() => checkWatchStateSetup(saved, { ...setup, oracle: ORACLE.toLowerCase() as typeof ORACLE })).not.toThrow();
    expect(() => checkWatchStateSetup(saved, { ...setup, chainId: 84532 })).toThrow(InvalidArgumentError);
    expect(() => checkWatchStateSetup(saved, { ...setup, chainId: 84532 })).toThrow(/chain 8453, not 84532/);
    expect(() => checkWatchStateSetup(saved, { ...setup, oracle: ATTESTED })).toThrow(/oracle 0xD5fd.*, not 0x5FbD/);
    expect(() => checkWatchStateSetup(saved, { ...setup, attestedOracle: null })).toThrow(/attested oracle 0x5FbD.*, not none/);
  });
});
