// `trustgate refresh` end to end on a real chain over HTTP: the embedded local Base chain (Hardhat, served on
// loopback) with the reference oracle holding last night's snapshot (one chain's records days old, one agent
// registered since), the kit's local signing service (real P-256 keys, its JWKS over HTTP), a real
// `AttestedTrustOracle` deployed over the reference oracle, and the real command line for drift and refresh.
// drift → refresh → drift: the refreshed rows are in sync, the sender's transaction count is the plan's batches, and a
// gate on the attested oracle admits an agent it refused before.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Abi, type Address, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrustApiClient } from "../../src/api/client";
import { createJwksResolver } from "../../src/attestation/jwks";
import { signingKeyArgsOf } from "../../src/attestation/onchain-keys";
import { generateSigningKey } from "../../src/harness/signing";
import { refreshAttestedOracle } from "../../src/refresh/refresh";
import { report as driftReport, row } from "../cli/report-fixture";
import { buildTrustCheckResponse, TEST_ISSUER } from "../support/attestations";
import { type RefreshDevnet, startRefreshDevnet } from "../support/refresh-devnet";
import { main } from "../../src/cli/main";
import type { RefreshReport } from "../../src/cli/refresh-command";
import type { DriftReport } from "../../src/drift/types";
import type { EmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { type AttestedOracleClients, revokeTrustSigningKeys, setTrustSigningKeys } from "../../src/oracle/attested-oracle";
import { REFRESH_GAS_ESTIMATE } from "../../src/refresh/plan";
import type { RefreshSendOutcome } from "../../src/refresh/send";

const ROOT = resolve(__dirname, "../..");
/** A throwaway key for the sender (Hardhat's well-known account 1), funded on the local chain below. */
const SENDER_KEY: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const sender = privateKeyToAccount(SENDER_KEY);

async function run(command: string, argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { CI: "true", DEPLOYER_PRIVATE_KEY: SENDER_KEY },
    isTTY: false,
  };
  const code = await main([command, ...argv], io);
  return { code, stdout, stderr };
}

let devnet: RefreshDevnet;
let env: EmbeddedDriftEnvironment;
let clients: AttestedOracleClients;
let attested: Address;

function gateArtifact(): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(resolve(ROOT, "artifacts/contracts/fixtures/GatedAction.sol/GatedAction.json"), "utf8")) as {
    abi: Abi;
    bytecode: Hex;
  };
}

/** A gate reading the attested oracle for agents of `agentChainId`: any score, any sybil severity, records of 36 h at most. */
async function deployGate(agentChainId: number): Promise<Address> {
  const { abi, bytecode } = gateArtifact();
  const policy = { minScore: 0, maxSybilSeverity: 4, maxAge: 36 * 3600, requireController: false };
  const hash = await clients.wallet.deployContract({
    abi,
    bytecode,
    args: [
      { oracle: attested, identityRegistry: env.identityRegistry, agentChainId: BigInt(agentChainId), agentRegistry: "erc8004", policy },
      clients.wallet.account.address,
    ],
    account: clients.wallet.account,
    chain: clients.wallet.chain,
  });
  return getAddress((await clients.public.waitForTransactionReceipt({ hash })).contractAddress!);
}

const deployAttestedOracle = () => devnet.deployAttestedOracle();
const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-devnet-"));

/** drift --all against the attested oracle, a threshold no score reaches (0–95): exit codes show only what is asserted. */
async function drift(file: string): Promise<DriftReport> {
  const { code, stderr } = await run("drift", [
    ...["--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle, "--attested-oracle", attested],
    ...["--all", "--threshold", "96", "--rate", "100000", "--max-errors", "100%", "--json", file],
  ]);
  expect(code, stderr).toBeLessThanOrEqual(4);
  return JSON.parse(readFileSync(file, "utf8")) as DriftReport;
}

beforeAll(async () => {
  devnet = await startRefreshDevnet();
  ({ env, clients } = devnet);
  attested = await deployAttestedOracle();
  await devnet.installServiceKey(attested);
  await devnet.fund(sender.address);
}, 180_000);

afterAll(async () => env?.close());

describe("trustgate refresh on the devnet", () => {
  it("drift finds refreshable rows; the dry run's plan is what the run sends; the next drift reports them in sync, the gate admits", async () => {
    const before = await drift(join(dir, "before.json"));
    const refreshable = before.agents.filter((row) => row.refresh?.possible === true);
    expect(refreshable.length).toBeGreaterThanOrEqual(3);
    // a gate on the attested oracle for the stale chain's agents, refusing records older than 36 h
    const staleRow = refreshable.find((row) => row.chain === "polygon" && row.status === "stale-onchain")!;
    const gate = await deployGate(137);
    const act = () =>
      clients.public.simulateContract({
        address: gate,
        abi: gateArtifact().abi,
        functionName: "act",
        args: [BigInt(staleRow.agentId)],
        account: clients.wallet.account,
      });
    await expect(act()).rejects.toThrow(/RecordStale/);

    // a gas limit of four newer records a batch, so that the plan has several batches
    const gasLimit = REFRESH_GAS_ESTIMATE.transaction + 4 * REFRESH_GAS_ESTIMATE.newerRecord;
    const rules = ["--from", join(dir, "before.json"), "--gas-limit", String(gasLimit), "--min-change", "0"];
    const dry = await run("refresh", [...rules, "--dry-run", "--rpc", env.rpcUrl, "--json", "-"]);
    expect(dry.code, dry.stderr).toBe(0);
    const dryReport = JSON.parse(dry.stdout) as RefreshReport;
    const planned = dryReport.plan;
    // the dry run prices the plan at the chain's current fee
    const cost = dryReport.cost!;
    expect(cost.estimatedGas).toBe(String(planned.totals.estimatedGas));
    expect(BigInt(cost.costWei)).toBe(
      BigInt(planned.totals.estimatedGas) * (BigInt(cost.baseFeePerGas) + BigInt(cost.maxPriorityFeePerGas)),
    );
    expect(BigInt(cost.maxCostWei)).toBe(BigInt(planned.totals.estimatedGas) * BigInt(cost.maxFeePerGas));
    expect(dry.stderr).toMatch(/^Cost at the current fee: [\d,]+ gas \(the plan's estimate\) × .* ETH at the max fee .*$/m);
    expect(planned.totals.due).toBe(refreshable.length);
    expect(planned.totals.batches).toBeGreaterThanOrEqual(2);

    const nonceBefore = await clients.public.getTransactionCount({ address: sender.address });
    const sent = await run("refresh", [...rules, "--rpc", env.rpcUrl, "--api", env.apiUrl, "--confirm-mainnet", "--json", "-"]);
    expect(sent.code, sent.stderr).toBe(0);
    const report = JSON.parse(sent.stdout) as RefreshReport;
    const outcome = report.sent as RefreshSendOutcome;
    // the plan the dry run printed is the one sent: same agents, same batches
    expect(report.plan.batches).toEqual(planned.batches);
    expect(outcome.attestations.map((a) => [a.agent, a.batch, a.outcome])).toEqual(
      planned.due.map((entry) => [entry.agent, entry.batch, "stored"]),
    );
    // one transaction per batch, and no other
    const nonceAfter = await clients.public.getTransactionCount({ address: sender.address });
    expect(nonceAfter - nonceBefore).toBe(planned.totals.batches);
    expect(outcome.transactions.map((t) => t.batch)).toEqual(planned.batches.map((b) => b.index));
    // what it cost is within the dry run's figures: its gas under the estimate, its cost under the most at the max fee
    expect(Number(outcome.totals.gasUsed)).toBeLessThanOrEqual(planned.totals.estimatedGas);
    expect(BigInt(outcome.totals.costWei)).toBeLessThanOrEqual(BigInt(cost.maxCostWei));
    for (const t of outcome.transactions) {
      expect(t.stored).toBe(t.attestations);
      expect(Number(t.gasUsed)).toBeLessThanOrEqual(gasLimit);
    }

    // the gate now admits the agent it refused
    await expect(act()).resolves.toBeDefined();
    const after = await drift(join(dir, "after.json"));
    for (const entry of planned.due) {
      const row = after.agents.find((r) => `${r.chain}:${r.agentId}:${r.registry}` === entry.agent)!;
      expect([entry.agent, row.status]).toEqual([entry.agent, "in-sync"]);
    }

    // a second refresh from the new report finds nothing due and sends nothing
    const again = await run("refresh", [
      "--from",
      join(dir, "after.json"),
      "--rpc",
      env.rpcUrl,
      "--api",
      env.apiUrl,
      "--confirm-mainnet",
      "--json",
      "-",
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RefreshReport).plan.totals.due).toBe(0);
    expect(await clients.public.getTransactionCount({ address: sender.address })).toBe(nonceAfter);
  }, 300_000);

  it("a mainnet (the devnet is chain 8453) without --confirm-mainnet sends nothing and exits 2", async () => {
    const nonce = await clients.public.getTransactionCount({ address: sender.address });
    const { code, stderr } = await run("refresh", ["--from", join(dir, "before.json"), "--rpc", env.rpcUrl, "--api", env.apiUrl]);
    expect(code).toBe(2);
    expect(stderr).toContain("Chain 8453 is a mainnet: nothing is sent there without --confirm-mainnet");
    expect(await clients.public.getTransactionCount({ address: sender.address })).toBe(nonce);
  }, 120_000);
});

describe("refreshAttestedOracle: the eth_call pre-check", () => {
  it("drops an attestation the oracle refuses (its kid revoked there) before sending, and the rest of its batch lands", async () => {
    // An oracle of its own, with two signing keys of the test's; the second kid is revoked on-chain while the JWKS
    // still publishes it, so the attestation signed under it verifies off-chain and the oracle refuses it.
    const current = await generateSigningKey("rnwy-trust-v2");
    const revoked = await generateSigningKey("rnwy-trust-v1");
    const oracle = await deployAttestedOracle();
    await setTrustSigningKeys(clients, oracle, [signingKeyArgsOf(current.publicJwk), signingKeyArgsOf(revoked.publicJwk)]);
    await revokeTrustSigningKeys(clients, oracle, ["rnwy-trust-v1"]);

    const now = new Date(Number((await clients.public.getBlock()).timestamp) * 1000);
    const ids = [900_001, 900_002, 900_003]; // agents no oracle holds: each a first record
    const bodies = new Map<string, unknown>();
    for (const id of ids) {
      const key = id === 900_002 ? revoked : current;
      const times = { issuedAt: new Date(now.getTime() - 60_000), verifiedAt: new Date(now.getTime() - 30_000) };
      bodies.set(
        String(id),
        await buildTrustCheckResponse(key, { agent: { agentId: id, chain: "base", score: 70, tier: "developing" }, ...times }),
      );
    }
    let requests = 0;
    const api = {
      trustCheck: ({ id }: { id: bigint }) => {
        requests++;
        return Promise.resolve(bodies.get(String(id)));
      },
    } as unknown as TrustApiClient;
    const rows = ids.map((id) =>
      row({
        agentId: String(id),
        status: "missing-onchain",
        onchain: null,
        scoreDelta: null,
        refresh: { possible: true, reason: "", kid: "rnwy-trust-v2", keyStatus: "installed", expiresAt: null },
      }),
    );

    const nonce = await clients.public.getTransactionCount({ address: clients.wallet.account.address });
    const { plan, sent } = await refreshAttestedOracle(driftReport(rows), {
      now,
      clients,
      attestedOracle: oracle,
      api,
      issuer: TEST_ISSUER,
      jwks: createJwksResolver({ keys: [current.publicJwk, revoked.publicJwk] as never }),
      confirmMainnet: true,
    });
    expect(plan.batches.map((batch) => batch.agents.length)).toEqual([3]);
    const outcome = sent!;
    expect(requests).toBe(3);
    expect(outcome.attestations.map((a) => [a.agent, a.outcome, a.error])).toEqual([
      ["base:900001:erc8004", "stored", undefined],
      [
        "base:900002:erc8004",
        "refused",
        'revoked kid: the oracle has revoked the key "rnwy-trust-v1" the attestation is signed under (RevokedSigningKey("rnwy-trust-v1")); it is not pushed',
      ],
      ["base:900003:erc8004", "stored", undefined],
    ]);
    expect(outcome.transactions.map((t) => [t.attestations, t.stored])).toEqual([[2, 2]]);
    expect(await clients.public.getTransactionCount({ address: clients.wallet.account.address })).toBe(nonce + 1);
  }, 120_000);
});
