// The sources of `trustgate refresh` end to end on a real chain over HTTP: the embedded local Base chain (Hardhat on
// loopback) with the reference oracle holding last night's snapshot (the polygon agents' records days old, one agent
// registered since), the kit's local signing service, a real `AttestedTrustOracle` over the reference oracle, and the
// real command line. A drift run with a state file finds the refreshable rows; `--watch` pushes those of a watch list
// and nothing else; `--gate` and `--state` plan, by a fresh drift run, exactly the refreshable rows of their agents not
// yet pushed; `drift --refresh` pushes the rest, one transaction per batch; the next drift run finds them in sync.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Abi, type Address, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import type { RefreshReport } from "../../src/cli/refresh-command";
import type { DriftReport, DriftRow } from "../../src/drift/types";
import type { EmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import type { AttestedOracleClients } from "../../src/oracle/attested-oracle";
import { REFRESH_GAS_ESTIMATE } from "../../src/refresh/plan";
import type { RefreshSendOutcome } from "../../src/refresh/send";
import { capturedIo } from "../support/captured-io";
import { startRefreshDevnet } from "../support/refresh-devnet";

const ROOT = resolve(__dirname, "../..");
/** A throwaway key for the sender (Hardhat's well-known account 2), funded on the local chain below. */
const SENDER_KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const sender = privateKeyToAccount(SENDER_KEY);
const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-sources-"));

let env: EmbeddedDriftEnvironment;
let clients: AttestedOracleClients;
let attested: Address;

async function run(argv: string[]) {
  const captured = capturedIo({ CI: "true", DEPLOYER_PRIVATE_KEY: SENDER_KEY });
  const code = await main(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const agentOf = (row: Pick<DriftRow, "chain" | "agentId" | "registry">) => `${row.chain}:${row.agentId}:${row.registry}`;
const endpoints = () => ["--rpc", env.rpcUrl, "--api", env.apiUrl];
/** drift --all against the attested oracle, a threshold no score reaches (0–95): the exit codes show only what is asserted. */
const driftArgs = (json: string) => [
  "drift",
  ...endpoints(),
  ...["--oracle", env.oracle, "--attested-oracle", attested],
  ...["--all", "--threshold", "96", "--rate", "100000", "--max-errors", "100%", "--json", json],
];
const readReport = (file: string) => JSON.parse(readFileSync(file, "utf8")) as DriftReport;
const refreshable = (report: DriftReport) => report.agents.filter((row) => row.refresh?.possible === true).map(agentOf);
const sentCount = () => clients.public.getTransactionCount({ address: sender.address });

function artifact(path: string): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(resolve(ROOT, "artifacts/contracts", path), "utf8")) as { abi: Abi; bytecode: Hex };
}

async function deploy(path: string, args: unknown[]): Promise<Address> {
  const { abi, bytecode } = artifact(path);
  const hash = await clients.wallet.deployContract({ abi, bytecode, args, account: clients.wallet.account, chain: clients.wallet.chain });
  return getAddress((await clients.public.waitForTransactionReceipt({ hash })).contractAddress!);
}

/** A gate reading `oracle` for the agents of `agentChainId`: any score, any sybil severity, records of 36 h at most. */
function deployGate(oracle: Address, agentChainId: bigint): Promise<Address> {
  const policy = { minScore: 0, maxSybilSeverity: 4, maxAge: 36 * 3600, requireController: false };
  return deploy("fixtures/GatedAction.sol/GatedAction.json", [
    { oracle, identityRegistry: env.identityRegistry, agentChainId, agentRegistry: "erc8004", policy },
    clients.wallet.account.address,
  ]);
}

beforeAll(async () => {
  const devnet = await startRefreshDevnet();
  ({ env, clients } = devnet);
  attested = await devnet.deployAttestedOracle();
  await devnet.installServiceKey(attested);
  await devnet.fund(sender.address);
}, 180_000);

afterAll(async () => env?.close());

describe("the sources of trustgate refresh on the devnet", () => {
  it("--watch, --gate, --state, then drift --refresh: each plans its agents' due rows; the next drift finds them in sync", async () => {
    // The night's drift run, with its state file.
    const state = join(dir, "state.jsonl");
    const night = await run([...driftArgs(join(dir, "night.json")), "--state", state]);
    expect(night.code, night.stderr).toBeLessThanOrEqual(4);
    const due = refreshable(readReport(join(dir, "night.json")));
    const polygon = due.filter((agent) => agent.startsWith("polygon:"));
    const base = due.filter((agent) => agent.startsWith("base:"));
    expect(polygon.length).toBeGreaterThanOrEqual(3);
    expect(base.length).toBeGreaterThanOrEqual(1);

    // --watch: two refreshable agents and one that is not due, with comments and a blank line; only the two are pushed.
    const watched = [polygon[0]!, polygon[1]!];
    const notDue = readReport(join(dir, "night.json")).agents.find((row) => row.refresh?.possible !== true)!;
    const list = join(dir, "watch.txt");
    writeFileSync(
      list,
      `# agents we keep fresh\n${watched[0]}\n\n${agentOf(notDue)}  # not due tonight\n${watched[1]!.replace(/:erc8004$/, "")}\n`,
    );
    const before = await sentCount();
    const watch = await run([
      "refresh",
      ...["--watch", list, "--attested-oracle", attested, "--oracle", env.oracle, "--threshold", "96", "--rate", "100000"],
      ...endpoints(),
      ...["--min-change", "0", "--confirm-mainnet", "--json", "-"],
    ]);
    expect(watch.code, watch.stderr).toBe(0);
    const watchReport = JSON.parse(watch.stdout) as RefreshReport;
    expect(watchReport.source).toMatchObject({ kind: "watch", driftExitCode: expect.any(Number) as number });
    expect(watchReport.plan.due.map((entry) => entry.agent)).toEqual(watched);
    expect(watchReport.plan.totals.due + watchReport.plan.totals.skipped + watchReport.plan.totals.inSync).toBe(3);
    expect((watchReport.sent as RefreshSendOutcome).attestations.map((a) => a.outcome)).toEqual(["stored", "stored"]);
    expect(await sentCount()).toBe(before + 1);

    // --gate: a gate reading the attested oracle for polygon agents; its agents are the polygon records, and what is
    // due among them is the night's refreshable polygon rows not pushed by the watch list.
    const gate = await deployGate(attested, 137n);
    const gateRun = await run([
      "refresh",
      "--gate",
      gate,
      ...endpoints(),
      "--rate",
      "100000",
      "--min-change",
      "0",
      "--dry-run",
      "--json",
      "-",
    ]);
    expect(gateRun.code, gateRun.stderr).toBe(0);
    const gatePlan = (JSON.parse(gateRun.stdout) as RefreshReport).plan;
    expect(gatePlan.from.attestedOracle).toBe(attested);
    expect(new Set(gatePlan.due.map((entry) => entry.agent))).toEqual(new Set(polygon.slice(2)));
    const polygonRows = readReport(join(dir, "night.json")).agents.filter((row) => row.chain === "polygon" && row.onchain !== null);
    expect(gatePlan.totals.due + gatePlan.totals.skipped + gatePlan.totals.inSync).toBe(polygonRows.length);
    expect(gateRun.stderr).toContain(`trustgate: gate ${gate}: ${polygonRows.length} agents with a record under its agent domain`);

    // --state: every agent of the night's state, with its setup (attested oracle, rule score >= 96): what is due is
    // the night's refreshable rows less the watched two.
    const stateRun = await run([
      "refresh",
      "--state",
      state,
      ...endpoints(),
      "--rate",
      "100000",
      "--min-change",
      "0",
      "--dry-run",
      "--json",
      "-",
    ]);
    expect(stateRun.code, stateRun.stderr).toBe(0);
    const statePlan = (JSON.parse(stateRun.stdout) as RefreshReport).plan;
    expect(statePlan.from.attestedOracle).toBe(attested);
    expect(new Set(statePlan.due.map((entry) => entry.agent))).toEqual(new Set(due.filter((agent) => !watched.includes(agent))));
    expect(await sentCount()).toBe(before + 1);

    // drift --refresh: the scan's refreshable rows are pushed, one transaction per batch.
    const gasLimit = REFRESH_GAS_ESTIMATE.transaction + 4 * REFRESH_GAS_ESTIMATE.newerRecord;
    const refreshJson = join(dir, "refresh.json");
    const mid = join(dir, "mid.json");
    const scanAndPush = await run([
      ...driftArgs(mid),
      ...["--refresh", "--min-change", "0", "--gas-limit", String(gasLimit), "--confirm-mainnet", "--refresh-json", refreshJson],
    ]);
    const scan = readReport(mid);
    const pushed = JSON.parse(readFileSync(refreshJson, "utf8")) as RefreshReport;
    expect(scanAndPush.code, scanAndPush.stderr).toBe(Math.max(scan.verdict.exitCode, pushed.exitCode));
    expect(pushed.source).toEqual({ kind: "drift", notes: [] });
    expect(new Set(pushed.plan.due.map((entry) => entry.agent))).toEqual(new Set(refreshable(scan)));
    expect(pushed.plan.totals.due).toBe(due.length - watched.length);
    expect(pushed.plan.totals.batches).toBeGreaterThanOrEqual(2);
    expect((pushed.sent as RefreshSendOutcome).attestations.every((a) => a.outcome === "stored")).toBe(true);
    expect(await sentCount()).toBe(before + 1 + pushed.plan.totals.batches);
    expect(scanAndPush.stdout).toContain("Refresh (--refresh):");

    // The next drift run: every pushed row in sync, nothing refreshable left.
    const next = await run(driftArgs(join(dir, "after.json")));
    expect(next.code, next.stderr).toBeLessThanOrEqual(4);
    const after = readReport(join(dir, "after.json"));
    for (const agent of due) {
      const row = after.agents.find((r) => agentOf(r) === agent)!;
      expect([agent, row.status]).toEqual([agent, "in-sync"]);
    }
    expect(refreshable(after)).toEqual([]);
  }, 600_000);
});

describe("the sources of trustgate refresh on the devnet: what stops them", () => {
  it("a watched agent the service does not know: the fresh drift run cannot verify enough, the refresh exits 4 and sends nothing", async () => {
    const list = join(dir, "unknown.txt");
    writeFileSync(list, "base:987654321\n");
    const before = await sentCount();
    const { code, stdout, stderr } = await run([
      "refresh",
      ...["--watch", list, "--attested-oracle", attested, "--oracle", env.oracle, "--rate", "100000"],
      ...endpoints(),
      ...["--confirm-mainnet", "--json", "-"],
    ]);
    expect(code, stderr).toBe(4);
    const report = JSON.parse(stdout) as RefreshReport;
    expect([report.source.driftExitCode, report.exitCode, report.plan.totals.due]).toEqual([4, 4, 0]);
    expect(report.plan.skipped.map((skip) => [skip.agent, skip.skip])).toEqual([["base:987654321:erc8004", "no-attestation"]]);
    expect(await sentCount()).toBe(before);
  }, 120_000);

  it("a gate that reads an oracle other than an AttestedTrustOracle is a usage error (exit 2): nothing to push to", async () => {
    const gate = await deployGate(env.oracle, 8453n);
    const { code, stderr } = await run(["refresh", "--gate", gate, ...endpoints(), "--dry-run"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`--gate ${gate}: the oracle it reads, ${env.oracle}, is not an AttestedTrustOracle`);
  }, 120_000);
});
