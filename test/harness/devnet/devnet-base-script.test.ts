// scripts/devnet-base.ts (`npm run devnet:base`), run as a user runs it: prints the URL of a Base to fork and the
// commands that fork it, serves until SIGINT, then exits cleanly; the fork docs/testing.md describes reads its records.
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_BASE_FORK_BLOCK, startBaseContext } from "../../../src/harness/testing/index.js";

const ROOT = resolve(__dirname, "../../..");

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Collects stdout until `marker` appears (or the process exits). */
function waitFor(child: ChildProcess, marker: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(marker)) resolvePromise(out);
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited with ${code} before "${marker}":\n${out}\n${err}`)));
  });
}

describe("scripts/devnet-base.ts", () => {
  it("serves a Base that startBaseContext forks at the pinned block, prints the commands, and stops on SIGINT", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/devnet-base.ts", "--agents", "6"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const out = await waitFor(child, "Ctrl-C stops.");
    const rpcUrl = /RPC URL:\s+(\S+)/.exec(out)?.[1];
    expect(rpcUrl, out).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).to.contain(`fork block:  ${DEFAULT_BASE_FORK_BLOCK}`);
    expect(out).to.contain(`BASE_RPC_URL=${rpcUrl} npm run test:forge`);
    expect(out).to.contain("not real Base");

    const ctx = await startBaseContext({ mode: "fork", rpcUrl: rpcUrl!, probe: 8 });
    try {
      expect(ctx.forkBlock).to.equal(DEFAULT_BASE_FORK_BLOCK);
      // The seeded agents 1-6 and no others; agent 1's seeded score is 17, agent 2's (17 + 37) mod 96.
      expect(ctx.sampleKeys.map((k) => k.agentId)).to.deep.equal([1n, 2n, 3n, 4n, 5n, 6n]);
      expect((await ctx.readRecord({ agentId: 1n })).score).to.equal(17);
      expect((await ctx.readRecord({ agentId: 2n })).score).to.equal(54);
    } finally {
      await ctx.close();
    }

    // It stops on SIGINT. (Its exit then waits for open keep-alive connections: this process's fork still holds
    // one, so the exit itself is not awaited here; afterAll kills the child.)
    const stopping = waitFor(child, "SIGINT: stopping");
    child.kill("SIGINT");
    await stopping;
  }, 60_000);
});
