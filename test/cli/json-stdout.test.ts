// `npm start --silent -- --json - | jq` (docs/drift.md's command): stdout carries the JSON report and nothing else —
// notices, progress and the summary go to stderr, and so does anything a dependency prints with console.log.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import type { DriftReport } from "../../src/drift/types";
import { passToFail, report, row } from "./report-fixture";

describe("--json - keeps stdout for the JSON alone", () => {
  it("a dependency's console.log during the run goes to stderr", async () => {
    let stdout = "";
    let stderr = "";
    const code = await main(
      ["drift", "--rpc", "http://127.0.0.1:1", "--api", "http://127.0.0.1:2", "--all", "--json", "-"],
      { stdout: { write: (c: string) => (stdout += c) }, stderr: { write: (c: string) => (stderr += c) }, env: {}, isTTY: true },
      {
        runDrift: async () => {
          console.log("Compiled 60 Solidity files successfully");
          console.info("a plugin says hello");
          return report([row({ agentId: "1" }), passToFail("2")]);
        },
      },
    );
    expect(code).toBe(3);
    expect((JSON.parse(stdout) as DriftReport).summary.agents).toBe(2);
    expect(stderr).toContain("Compiled 60 Solidity files successfully\na plugin says hello\n");
    expect(stderr).toContain("DRIFT: 1 gate decision flips (exit 3)");
    // The console is restored afterwards.
    expect(console.log.name).not.toBe("toStderr");
  });

  it("npm start --silent -- --json - writes exactly one JSON document to stdout (the embedded default)", () => {
    const result = spawnSync("npm", ["start", "--silent", "--", "--json", "-"], {
      encoding: "utf8",
      env: { ...process.env, CI: "1" },
      timeout: 180_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(result.status, result.stderr).toBe(3);
    const parsed = JSON.parse(result.stdout) as DriftReport; // throws on a banner or any other line
    expect(parsed.version).toBe(1);
    expect(parsed.summary.agents).toBeGreaterThan(3000);
    expect(result.stderr).toContain("DRIFT:");
    expect(result.stdout.trimStart().startsWith("{")).toBe(true);
  });
});
