/**
 * The watch's state file is written atomically: read while a writer process rewrites it in a loop, and after that
 * writer is killed (SIGKILL), it is always one whole state, never a part or a mix.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readWatchState, writeWatchState } from "../../src/watch/state";
import { runChild } from "../support/child-run";
import { alert, state } from "./state-fixtures";

const ROOT = resolve(__dirname, "../..");
const dir = () => mkdtempSync(join(tmpdir(), "trustgate-watch-state-"));

describe("the watch state file", () => {
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
});
