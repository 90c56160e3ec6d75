// `trustgate drift … --refresh` in process, with a stand-in scan and a stand-in sender: the scan's report goes as it is
// to the refresh's plan, the refresh's output keeps off a stdout a document took, and the exit code is the larger of
// the scan's and the refresh's.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import type { RefreshReport } from "../../src/cli/refresh-command";
import type { RefreshRunArgs } from "../../src/cli/refresh-args";
import type { SendRefreshFunction } from "../../src/cli/refresh-connect";
import type { DriftReport } from "../../src/drift/types";
import { planRefresh } from "../../src/refresh/plan";
import { GENERATED_AT, failToPass, REFRESH_POSSIBLE, report, row } from "./report-fixture";

const NOW = new Date(GENERATED_AT);
const ATTESTED = "0x00000000000000000000000000000000000A77e5";
const SCAN = ["drift", "--rpc", "http://127.0.0.1:1/rpc", "--api", "http://127.0.0.1:2", "--agents", "base:7,base:8,base:9"];
const SCANNED = report([
  { ...failToPass("7"), refresh: REFRESH_POSSIBLE },
  row({ agentId: "8", status: "missing-onchain", onchain: null, scoreDelta: null, refresh: REFRESH_POSSIBLE }),
  row({ agentId: "9" }),
]);
const dir = mkdtempSync(join(tmpdir(), "trustgate-drift-refresh-"));

async function drift(argv: string[], sendExit: 0 | 3 = 0) {
  let stdout = "";
  let stderr = "";
  const sent: { plan: unknown; args: RefreshRunArgs }[] = [];
  const send: SendRefreshFunction = (plan, args) => {
    sent.push({ plan, args });
    return Promise.resolve({ exitCode: sendExit, text: "sent (stand-in)\n", json: { stand: "in" } });
  };
  const code = await main(
    [...SCAN, "--attested-oracle", ATTESTED, ...argv],
    {
      stdout: { write: (chunk: string) => ((stdout += chunk), true) },
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
      env: {},
      isTTY: false,
    },
    { runDrift: () => Promise.resolve(SCANNED as DriftReport), now: () => NOW, refresh: { send } },
  );
  return { code, stdout, stderr, sent };
}

describe("trustgate drift --refresh", () => {
  it("plans the scan's own report, sends it with the scan's endpoints, and exits with the larger code", async () => {
    const out = join(dir, "refresh.json");
    const { code, stdout, sent } = await drift(["--refresh", "--min-change", "0", "--confirm-mainnet", "--refresh-json", out]);
    // the scan finds a decision flip (3); the refresh pushes everything due (0)
    expect(code).toBe(3);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.plan).toEqual(planRefresh(SCANNED, { now: NOW, minChange: 0 }));
    expect(sent[0]!.args).toMatchObject({
      source: { kind: "drift" },
      confirmMainnet: true,
      endpoints: { rpcUrl: "http://127.0.0.1:1/rpc", apiUrl: "http://127.0.0.1:2", attestedOracle: ATTESTED },
    });
    const written = JSON.parse(readFileSync(out, "utf8")) as RefreshReport;
    expect([written.mode, written.source, written.exitCode, written.plan.totals.due]).toEqual(["sent", { kind: "drift", notes: [] }, 0, 2]);
    expect(stdout).toContain("Refresh (--refresh):");
    expect(stdout).toContain("sent (stand-in)");
  });

  it("a refresh that leaves a due attestation unpushed makes a clean scan exit 3", async () => {
    const clean = await main(
      [...SCAN, "--attested-oracle", ATTESTED, "--refresh", "--confirm-mainnet"],
      { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, isTTY: false },
      {
        runDrift: () =>
          Promise.resolve(
            report([
              row({ agentId: "8", status: "missing-onchain", onchain: null, scoreDelta: null, refresh: REFRESH_POSSIBLE }),
            ]) as DriftReport,
          ),
        now: () => NOW,
        refresh: { send: () => Promise.resolve({ exitCode: 3, text: "", json: {} }) },
      },
    );
    expect(clean).toBe(3);
  });

  it("with --json -, the refresh's plan goes to stderr and stdout holds the scan's JSON alone; a dry run sends nothing", async () => {
    const { code, stdout, stderr, sent } = await drift(["--json", "-", "--refresh", "--dry-run"]);
    expect(code).toBe(3);
    expect(sent).toEqual([]);
    expect((JSON.parse(stdout) as DriftReport).agents).toHaveLength(3);
    expect(stderr).toContain("Refresh (--refresh):");
    expect(stderr).toContain("Dry run: nothing sent.");
  });
});
