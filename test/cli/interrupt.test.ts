// Ctrl-C during a run: the real command line in a child process, sent SIGINT once its first request reaches a
// loopback server that never answers (so the run is certainly under way, with no clock involved).
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { interruptedLine } from "../../src/cli/interrupt";
import { runChild } from "../support/child-run";
import { type ScriptedServer, startScriptedServer } from "../support/scripted-server";

const ROOT = resolve(__dirname, "../..");

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs `trustgate drift` against a server that hangs, interrupting it at its first request. */
async function interruptedRun(extra: readonly string[]) {
  let child: ChildProcess | undefined;
  server = await startScriptedServer((_request, index) => {
    if (index === 0) child?.kill("SIGINT"); // once, as a person presses Ctrl-C
    return { hang: true };
  });
  const args = ["--import", "tsx", "--conditions=trustgate-source", "src/cli/bin.ts", "drift"];
  args.push("--rpc", server.url, "--api", server.url, "--all", ...extra);
  return runChild(process.execPath, args, ROOT, { timeoutMs: 120_000, onSpawn: (c) => (child = c) });
}

describe("trustgate drift interrupted by Ctrl-C", () => {
  it("exits 130 and says that rerunning with the same --state continues", async () => {
    const state = join(mkdtempSync(join(tmpdir(), "trustgate-interrupt-")), "state.jsonl");
    const run = await interruptedRun(["--state", state]);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(interruptedLine(state));
    expect(interruptedLine(state)).toBe(
      `trustgate: interrupted; run the same command again with --state ${state} to continue where it stopped\n`,
    );
    expect(run.stdout).toBe("");
  });

  it("says nothing was saved without --state", async () => {
    const run = await interruptedRun([]);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("trustgate: interrupted; nothing was saved");
  });
});
