/**
 * The watch's state file: a round trip (block numbers beyond a JSON number's exact range included) and the refusals: a
 * file cut short, not JSON, of another format or version, of the wrong shape, and of another chain or oracle. The
 * atomic write, with a writer process killed, is `state-atomic-write.test.ts`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, InvalidArgumentError } from "../../src/errors";
import { checkWatchStateSetup, readWatchState, writeWatchState } from "../../src/watch/state";
import { ATTESTED, ORACLE, state } from "./state-fixtures";

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
      queue: [],
      setup: { chainId: 8453, oracle: ORACLE, attestedOracle: null },
    });
    writeWatchState(path, fresh);
    expect(readWatchState(path)).toEqual(fresh);
    // Nothing but the file is left in its directory: the temporary file was renamed over it.
    expect(readdirSync(join(path, ".."))).toEqual(["watch.json"]);
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
    refused(JSON.stringify({ ...file, queue: ["base:not-an-id"] }), /queue\[0\]/);
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
