// The sender of `trustgate refresh` on a real chain over HTTP (the embedded local Base chain, the kit's local signing
// service, a real AttestedTrustOracle over the reference oracle): the fee ceiling and the budget stop a run with exit
// 4; a stuck transaction is replaced with the same nonce and raised fees, and its receipt counts after the
// confirmations asked for; a replacement over the ceiling stops the run with the transaction left to a rerun; a run
// killed (SIGKILL of a real process) with its first batch's transaction in flight is resumed from its journal without
// pushing an attestation twice, the rerun signing with an encrypted keystore; a journal's dropped transaction is
// pushed again, once.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encryptKeystoreJson } from "ethers";
import { type Address, createWalletClient, type Hex, http, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrustApiClient } from "../../src/api/client";
import { createJwksResolver } from "../../src/attestation/jwks";
import { signingKeyArgsOf } from "../../src/attestation/onchain-keys";
import { main } from "../../src/cli/main";
import type { RefreshReport } from "../../src/cli/refresh-command";
import type { DriftReport } from "../../src/drift/types";
import { attestedTrustOracleAbi } from "../../src/generated/abis";
import type { EmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { generateSigningKey } from "../../src/harness/signing";
import { type AttestedOracleClients, setTrustSigningKeys } from "../../src/oracle/attested-oracle";
import type { RefreshJournalContent } from "../../src/refresh/journal";
import { REFRESH_GAS_ESTIMATE } from "../../src/refresh/plan";
import { refreshAttestedOracle } from "../../src/refresh/refresh";
import type { RefreshSendOutcome } from "../../src/refresh/send";
import { report as driftReport, row } from "../cli/report-fixture";
import { buildTrustCheckResponse, TEST_ISSUER } from "../support/attestations";
import { type RefreshDevnet, startRefreshDevnet } from "../support/refresh-devnet";

const ROOT = resolve(__dirname, "../..");
/** A throwaway key for the sender (Hardhat's well-known account 2), funded on the local chain below. */
const SENDER_KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const sender = privateKeyToAccount(SENDER_KEY);
const dir = mkdtempSync(join(tmpdir(), "trustgate-refresh-sender-"));
/** A gas limit of four newer records a batch, so that a plan has several batches. */
const GAS_LIMIT = REFRESH_GAS_ESTIMATE.transaction + 4 * REFRESH_GAS_ESTIMATE.newerRecord;

let devnet: RefreshDevnet;
let env: EmbeddedDriftEnvironment;
let clients: AttestedOracleClients;

async function run(command: string, argv: string[], extraEnv: Record<string, string> = { DEPLOYER_PRIVATE_KEY: SENDER_KEY }) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { CI: "true", ...extraEnv },
    isTTY: false,
  };
  const code = await main([command, ...argv], io);
  return { code, stdout, stderr };
}

function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  return clients.public.request({ method: method as "eth_chainId", params: params as never });
}

const deployAttestedOracle = () => devnet.deployAttestedOracle();

/** A fresh attested oracle with the service's key installed, and the drift report against it (its file). */
async function oracleAndReport(name: string): Promise<{ oracle: Address; file: string; report: DriftReport }> {
  const oracle = await deployAttestedOracle();
  await devnet.installServiceKey(oracle);
  const file = join(dir, `${name}.json`);
  const { code, stderr } = await run("drift", [
    ...["--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle, "--attested-oracle", oracle],
    ...["--all", "--threshold", "96", "--rate", "100000", "--max-errors", "100%", "--json", file],
  ]);
  expect(code, stderr).toBeLessThanOrEqual(4);
  return { oracle, file, report: JSON.parse(readFileSync(file, "utf8")) as DriftReport };
}

/** The refresh command's arguments to push a report's rows to an oracle, four records a batch. */
function refreshArgs(file: string, oracle: Address): string[] {
  return [
    ...["--from", file, "--attested-oracle", oracle, "--rpc", env.rpcUrl, "--api", env.apiUrl],
    ...["--gas-limit", String(GAS_LIMIT), "--min-change", "0", "--confirm-mainnet"],
  ];
}

/** How many RecordAdded or RecordUpdated logs the oracle emitted for each record key, over the whole chain. */
async function writesPerKey(oracle: Address): Promise<Map<string, number>> {
  const logs = await clients.public.getLogs({ address: oracle, fromBlock: 0n, toBlock: "latest" });
  const counts = new Map<string, number>();
  for (const log of parseEventLogs({ abi: attestedTrustOracleAbi, logs, eventName: ["RecordAdded", "RecordUpdated"] })) {
    counts.set(log.args.key, (counts.get(log.args.key) ?? 0) + 1);
  }
  return counts;
}

const nonceOf = (address: Address) => clients.public.getTransactionCount({ address, blockTag: "pending" });

beforeAll(async () => {
  devnet = await startRefreshDevnet();
  ({ env, clients } = devnet);
  await devnet.fund(sender.address);
}, 180_000);

afterAll(async () => env?.close());

describe("trustgate refresh: the fee ceiling and the budget stop a run with exit 4", () => {
  it("a fee above --max-fee-per-gas sends nothing: exit 4, every due row stopped by the fee ceiling", async () => {
    const { oracle, file } = await oracleAndReport("fee");
    const nonce = await nonceOf(sender.address);
    const { code, stdout, stderr } = await run("refresh", [...refreshArgs(file, oracle), "--max-fee-per-gas", "1wei", "--json", "-"]);
    expect(code, stderr).toBe(4);
    expect(await nonceOf(sender.address)).toBe(nonce);
    const report = JSON.parse(stdout) as RefreshReport;
    const sent = report.sent as RefreshSendOutcome;
    expect(report.plan.totals.due).toBeGreaterThanOrEqual(3);
    expect(sent.stopped?.reason).toBe("fee-ceiling");
    expect(sent.stopped?.detail).toMatch(/^the chain's fee is .* \(base fee .* and tip .*\), over the ceiling --max-fee-per-gas 1 wei$/);
    expect(sent.attestations.map((a) => [a.agent, a.outcome, a.stop])).toEqual(
      report.plan.due.map((entry) => [entry.agent, "stopped", "fee-ceiling"]),
    );
    expect(sent.transactions).toEqual([]);
    expect(stderr).toContain(`Stopped by the fee ceiling (stopped: fee-ceiling): the chain's fee is`);
    expect(stderr).toContain(`Not sent: ${report.plan.totals.due} attestations`);
  }, 120_000);

  it("a --budget in gas that covers the first batch only: one transaction sent, the rest stopped by the budget, exit 4", async () => {
    const { oracle, file } = await oracleAndReport("budget");
    const dry = await run("refresh", [...refreshArgs(file, oracle), "--dry-run", "--json", "-"]);
    const plan = (JSON.parse(dry.stdout) as RefreshReport).plan;
    expect(plan.totals.batches).toBeGreaterThanOrEqual(2);
    const budget = plan.batches[0]!.estimatedGas + 20_000;
    const nonce = await nonceOf(sender.address);
    const { code, stdout, stderr } = await run("refresh", [...refreshArgs(file, oracle), "--budget", `${budget}gas`, "--json", "-"]);
    expect(code, stderr).toBe(4);
    expect(await nonceOf(sender.address)).toBe(nonce + 1);
    const sent = (JSON.parse(stdout) as RefreshReport).sent as RefreshSendOutcome;
    expect(sent.stopped?.reason).toBe("budget");
    expect(sent.transactions.map((t) => [t.batch, t.status, t.stored])).toEqual([[0, "success", plan.batches[0]!.agents.length]]);
    expect(BigInt(sent.totals.gasUsed)).toBeLessThanOrEqual(BigInt(budget));
    expect(sent.attestations.map((a) => [a.agent, a.outcome])).toEqual(
      plan.due.map((entry) => [entry.agent, entry.batch === 0 ? "stored" : "stopped"]),
    );
    expect(sent.attestations.filter((a) => a.outcome === "stopped").every((a) => a.stop === "budget")).toBe(true);
  }, 120_000);
});

/**
 * A run of one agent no oracle holds (a first record) on an oracle of its own, with a signing key of the test's: the
 * drift report, the options of `refreshAttestedOracle` with a journal, and a reader of that journal.
 */
async function oneAgentRun(agentId: number, name: string) {
  const key = await generateSigningKey("rnwy-trust-v2");
  const oracle = await deployAttestedOracle();
  await setTrustSigningKeys(clients, oracle, [signingKeyArgsOf(key.publicJwk)]);
  const now = new Date(Number((await clients.public.getBlock()).timestamp) * 1000);
  const body = await buildTrustCheckResponse(key, {
    agent: { agentId, chain: "base", score: 70, tier: "developing" },
    issuedAt: new Date(now.getTime() - 60_000),
    verifiedAt: new Date(now.getTime() - 30_000),
  });
  const report = driftReport([
    row({
      agentId: String(agentId),
      status: "missing-onchain",
      onchain: null,
      scoreDelta: null,
      refresh: { possible: true, reason: "", kid: "rnwy-trust-v2", keyStatus: "installed", expiresAt: null },
    }),
  ]);
  const journal = join(dir, `${name}.journal.json`);
  const options = {
    now,
    clients,
    attestedOracle: oracle,
    api: { trustCheck: () => Promise.resolve(body) } as unknown as TrustApiClient,
    issuer: TEST_ISSUER,
    jwks: createJwksResolver({ keys: [key.publicJwk] as never }),
    confirmMainnet: true,
    journal,
  };
  const read = () => (existsSync(journal) ? (JSON.parse(readFileSync(journal, "utf8")) as RefreshJournalContent) : null);
  return { report, options, read };
}

describe("refreshAttestedOracle: a stuck transaction is replaced, and a receipt counts after its confirmations", () => {
  it("re-sends with the same nonce and fees raised 12.5 %: the replacement lands, the first does not, one record stored", async () => {
    const { report, options, read } = await oneAgentRun(910_001, "replace");
    const wait = async (until: () => boolean) => {
      while (!until()) await new Promise((r) => setTimeout(r, 25));
    };

    await rpc("evm_setAutomine", [false]);
    try {
      const running = refreshAttestedOracle(report, {
        ...options,
        replaceAfterSeconds: 1,
        confirmations: 2,
        pollingIntervalMs: 25,
      });
      // the first send is left unmined until the run replaces it
      await wait(() => (read()?.transactions[0]?.sent.length ?? 0) >= 2);
      const [first, second] = read()!.transactions[0]!.sent;
      expect(second!.hash).not.toBe(first!.hash);
      for (const fee of ["maxFeePerGas", "maxPriorityFeePerGas"] as const) {
        expect(BigInt(second![fee]) * 8n).toBeGreaterThanOrEqual(BigInt(first![fee]) * 9n);
      }
      await rpc("evm_mine");
      // one block: the receipt is there, but it counts only after the second confirmation
      await clients.public.waitForTransactionReceipt({ hash: second!.hash, pollingInterval: 25 });
      await new Promise((r) => setTimeout(r, 500)); // twenty of the run's polls: time to count a receipt it should not
      expect(read()!.transactions[0]!.state).toBe("in-flight");
      await rpc("evm_mine");
      const outcome = (await running).sent!;
      expect(outcome.transactions.map((t) => [t.hash, t.status, t.sent.length, t.stored])).toEqual([[second!.hash, "success", 2, 1]]);
      expect(outcome.attestations.map((a) => a.outcome)).toEqual(["stored"]);
      expect(read()!.transactions[0]!.state).toBe("mined");
      await expect(clients.public.getTransactionReceipt({ hash: first!.hash })).rejects.toThrow(/could not be found/);
      expect([...(await writesPerKey(options.attestedOracle)).values()]).toEqual([1]);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  }, 120_000);
});

describe("refreshAttestedOracle: a replacement the ceiling forbids", () => {
  it("stops the run (fee-ceiling) with the transaction left pending and in the journal; a rerun settles it", async () => {
    const { report, options, read } = await oneAgentRun(910_002, "ceiling");
    const block = await clients.public.getBlock();
    const tip = (await clients.public.estimateFeesPerGas({ chain: null })).maxPriorityFeePerGas;
    // a ceiling just over the chain's fee now: the first send fits, a raise of 12.5 % does not
    const ceiling = block.baseFeePerGas! + tip + 1n;
    await rpc("evm_setAutomine", [false]);
    let outcome: RefreshSendOutcome;
    try {
      outcome = (await refreshAttestedOracle(report, { ...options, maxFeePerGas: ceiling, replaceAfterSeconds: 1, pollingIntervalMs: 25 }))
        .sent!;
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const hash = read()!.transactions[0]!.sent[0]!.hash;
    expect(outcome.stopped?.reason).toBe("fee-ceiling");
    expect(outcome.stopped?.detail).toContain(`transaction ${hash} (nonce ${read()!.transactions[0]!.nonce}) was not mined within 1 s`);
    expect(outcome.attestations.map((a) => [a.outcome, a.stop, a.transaction])).toEqual([["stopped", "fee-ceiling", hash]]);
    expect(outcome.transactions.map((t) => [t.status, t.sent.length])).toEqual([["pending", 1]]);
    expect(BigInt(read()!.transactions[0]!.sent[0]!.maxFeePerGas)).toBeLessThanOrEqual(ceiling);
    expect(read()!.transactions[0]!.state).toBe("in-flight");

    await rpc("evm_mine");
    const rerun = (await refreshAttestedOracle(report, { ...options, pollingIntervalMs: 25 })).sent!;
    expect(rerun.attestations.map((a) => [a.outcome, a.transaction, a.fromJournal])).toEqual([["stored", hash, true]]);
    expect(rerun.totals.transactions).toBe(0);
    expect([...(await writesPerKey(options.attestedOracle)).values()]).toEqual([1]);
  }, 120_000);
});

describe("trustgate refresh: a run killed with its first batch in flight resumes from its journal", () => {
  it("pushes no attestation twice: one transaction a batch in all, one write per record key; the rerun signs with a keystore", async () => {
    const { oracle, file } = await oracleAndReport("killed");
    const dry = await run("refresh", [...refreshArgs(file, oracle), "--dry-run", "--json", "-"]);
    const plan = (JSON.parse(dry.stdout) as RefreshReport).plan;
    expect(plan.totals.batches).toBeGreaterThanOrEqual(2);
    const journal = join(dir, "killed.journal.json");
    const nonce = await nonceOf(sender.address);

    await rpc("evm_setAutomine", [false]);
    let stderr = "";
    try {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "src/cli/bin.ts", "refresh", ...refreshArgs(file, oracle), "--journal", journal],
        { cwd: ROOT, env: { ...process.env, CI: "1", DEPLOYER_PRIVATE_KEY: SENDER_KEY }, stdio: ["ignore", "ignore", "pipe"] },
      );
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise((r) => child.once("exit", r));
      const deadline = Date.now() + 90_000;
      const inFlight = () => {
        if (!existsSync(journal)) return false;
        const content = JSON.parse(readFileSync(journal, "utf8")) as RefreshJournalContent;
        return content.transactions.length === 1 && content.transactions[0]!.sent.length === 1;
      };
      while (!inFlight()) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the run did not get its first send in flight: ${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      child.kill("SIGKILL");
      await exited;
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    // the killed run's transaction is mined after its death
    await rpc("evm_mine");
    const killed = JSON.parse(readFileSync(journal, "utf8")) as RefreshJournalContent;
    expect(killed.transactions.map((t) => [t.batch, t.state])).toEqual([[0, "in-flight"]]);
    expect(await nonceOf(sender.address)).toBe(nonce + 1);

    // the rerun: the same report and journal, the key from an encrypted keystore
    const keystore = join(dir, "sender.keystore.json");
    writeFileSync(
      keystore,
      await encryptKeystoreJson({ address: sender.address, privateKey: SENDER_KEY }, "pw", { scrypt: { N: 1 << 10 } }),
    );
    const rerun = await run("refresh", [...refreshArgs(file, oracle), "--journal", journal, "--keystore", keystore, "--json", "-"], {
      KEYSTORE_PASSWORD: "pw",
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout + rerun.stderr).not.toContain(SENDER_KEY.slice(2));
    const sent = (JSON.parse(rerun.stdout) as RefreshReport).sent as RefreshSendOutcome;
    expect(sent.from).toBe(sender.address);
    expect(sent.transactions.map((t) => [t.batch, t.status, t.fromJournal])).toEqual(
      plan.batches.map((b) => [b.index, "success", b.index === 0]),
    );
    expect(sent.attestations.map((a) => [a.agent, a.outcome, a.fromJournal === true])).toEqual(
      plan.due.map((entry) => [entry.agent, "stored", entry.batch === 0]),
    );
    // one transaction a batch, the killed run's included, and each record written once
    expect(await nonceOf(sender.address)).toBe(nonce + plan.totals.batches);
    const writes = await writesPerKey(oracle);
    expect(writes.size).toBe(plan.totals.due);
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
    // the journal holds every transaction and its outcome
    const settled = JSON.parse(readFileSync(journal, "utf8")) as RefreshJournalContent;
    expect(settled.transactions.map((t) => [t.batch, t.state, Object.values(t.outcomes!).every((o) => o === "stored")])).toEqual(
      plan.batches.map((b) => [b.index, "mined", true]),
    );

    // and a third run with the same journal sends nothing
    const third = await run("refresh", [...refreshArgs(file, oracle), "--journal", journal, "--json", "-"]);
    expect(third.code, third.stderr).toBe(0);
    expect(await nonceOf(sender.address)).toBe(nonce + plan.totals.batches);

    // the next night's report written to the same file: the journal's stored rows are decided afresh by the
    // pre-check (already current), not taken from the journal
    const night = JSON.parse(readFileSync(file, "utf8")) as DriftReport;
    writeFileSync(file, JSON.stringify({ ...night, generatedAt: new Date(Date.parse(night.generatedAt) + 1000).toISOString() }));
    const next = await run("refresh", [...refreshArgs(file, oracle), "--journal", journal, "--json", "-"]);
    expect(next.code, next.stderr).toBe(0);
    const nextSent = (JSON.parse(next.stdout) as RefreshReport).sent as RefreshSendOutcome;
    expect(nextSent.attestations.map((a) => [a.agent, a.outcome, a.fromJournal])).toEqual(
      plan.due.map((entry) => [entry.agent, "already-current", undefined]),
    );
    expect(await nonceOf(sender.address)).toBe(nonce + plan.totals.batches);
  }, 180_000);
});

describe("trustgate refresh: a journal's transaction that no node knows any more", () => {
  it("is settled as dropped, and its agents are pushed again, once", async () => {
    const { oracle, file } = await oracleAndReport("dropped");
    const dry = await run("refresh", [...refreshArgs(file, oracle), "--dry-run", "--json", "-"]);
    const plan = (JSON.parse(dry.stdout) as RefreshReport).plan;
    const nonce = await nonceOf(sender.address);
    // an earlier run's first send, left in the mempool and then dropped from it (a restarted node, an eviction)
    await rpc("evm_setAutomine", [false]);
    let hash: Hex;
    try {
      const wallet = createWalletClient({ account: sender, chain: clients.wallet.chain, transport: http(env.rpcUrl) });
      hash = await wallet.sendTransaction({ to: oracle, data: "0x", gas: 100_000n, nonce, chain: clients.wallet.chain });
      await rpc("hardhat_dropTransaction", [hash]);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const first = plan.batches[0]!;
    const journal = join(dir, "dropped.journal.json");
    const content: RefreshJournalContent = {
      version: 1,
      attestedOracle: oracle,
      chainId: 8453,
      from: sender.address,
      transactions: [
        {
          report: plan.from.generatedAt,
          batch: 0,
          nonce,
          agents: first.agents,
          kids: first.agents.map(() => "rnwy-trust-v2"),
          chainIds: first.agents.map((agent) => plan.due.find((e) => e.agent === agent)!.chainId),
          sent: [{ hash, maxFeePerGas: "1000000000", maxPriorityFeePerGas: "1000000" }],
          state: "in-flight",
        },
      ],
    };
    writeFileSync(journal, JSON.stringify(content));

    const rerun = await run("refresh", [...refreshArgs(file, oracle), "--journal", journal, "--json", "-"]);
    expect(rerun.code, rerun.stderr).toBe(0);
    const sent = (JSON.parse(rerun.stdout) as RefreshReport).sent as RefreshSendOutcome;
    expect(sent.transactions.map((t) => [t.batch, t.status, t.fromJournal])).toEqual([
      [0, "dropped", true],
      ...plan.batches.map((b) => [b.index, "success", false]),
    ]);
    expect(sent.attestations.map((a) => [a.agent, a.outcome])).toEqual(plan.due.map((entry) => [entry.agent, "stored"]));
    expect(await nonceOf(sender.address)).toBe(nonce + plan.totals.batches);
    expect([...(await writesPerKey(oracle)).values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});
