// `trustgate drift --attested-oracle` and the refresh assessment, end to end: the embedded local Base chain (Hardhat,
// served on loopback HTTP) with the reference oracle holding last night's snapshot (one chain's records days old),
// the kit's local signing service (real P-256 keys, its JWKS over HTTP), real `AttestedTrustOracle`s deployed next
// to it, and the real command line. Each case reads the JSON report the command wrote.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Abi, type Address, createPublicClient, createWalletClient, getAddress, type Hex, http, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingKeyArgsOf, signingKeyArgsOfJwks } from "../../src/attestation/onchain-keys";
import { main } from "../../src/cli/main";
import { exitCodeOf } from "../../src/drift/verdict";
import type { DriftReport, DriftRow } from "../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot";
import { agentKey, type PopulationAgent } from "../../src/harness/service/index";
import { generateSigningKey } from "../../src/harness/signing";
import { attestedTrustOracleAbi } from "../../src/oracle/abi";
import { type AttestedOracleClients, setTrustSigningKeys, submitTrustAttestation } from "../../src/oracle/attested-oracle";
import { buildTrustCheckResponse } from "../support/attestations";

const ROOT = resolve(__dirname, "../..");
const ZERO = "0x0000000000000000000000000000000000000000";
const HOUR_MS = 3_600_000;

/** Runs the real command line in process; `--json -` puts the report on stdout, the summary goes to stderr. */
async function drift(argv: string[], now?: () => Date) {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { CI: "true" },
    isTTY: false,
  };
  const code = await main(["drift", ...argv], io, now ? { now } : {});
  const report = code === 0 || code === 3 || code === 4 ? (JSON.parse(stdout) as DriftReport) : undefined;
  return { code, stdout, stderr, report };
}

let env: EmbeddedDriftEnvironment;
let clients: AttestedOracleClients;
let artifact: { abi: Abi; bytecode: Hex };
/** polygon (stale chain): its record is three days older than the snapshot, the service's data is not. */
let stale: PopulationAgent;
/** Registered after the snapshot: the service knows it, the oracle does not. */
let added: PopulationAgent;
/** On-chain record re-published after the service's computation, with another sybil code: drifted, not newer. */
let republished: PopulationAgent;
/** Agrees with the chain. */
let inSync: PopulationAgent;

const spec = (a: PopulationAgent) => `${a.chain}:${a.agentId}:${a.registry}`;
const rowOf = (report: DriftReport, a: PopulationAgent): DriftRow => {
  const row = report.agents.find((r) => agentKey(r) === agentKey(a));
  if (!row) throw new Error(`no row for ${agentKey(a)}`);
  return row;
};
/** The endpoints, and a threshold no score reaches (0–95): no decision flips, so exit codes show only what is asserted. */
const endpoints = () => [
  "--rpc",
  env.rpcUrl,
  "--api",
  env.apiUrl,
  "--oracle",
  env.oracle,
  "--threshold",
  "96",
  "--rate",
  "100000",
  "--json",
  "-",
];
const listed = () => ["--agents", [stale, added, republished, inSync].map(spec).join(",")];

async function deployAttestedOracle(upstream: Address): Promise<Address> {
  const hash = await clients.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [clients.wallet.account.address, upstream],
    account: clients.wallet.account,
    chain: clients.wallet.chain,
  });
  return getAddress((await clients.public.waitForTransactionReceipt({ hash })).contractAddress!);
}

async function serviceJwks() {
  return (await (await fetch(env.jwksUrl)).json()) as { keys: Parameters<typeof signingKeyArgsOfJwks>[0]["keys"] };
}

async function trustCheckBody(agent: PopulationAgent): Promise<unknown> {
  const url = `${env.apiUrl}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`;
  return (await fetch(url)).json();
}

beforeAll(async () => {
  env = await startEmbeddedDriftEnvironment({
    size: 40,
    chains: ["base", "polygon"],
    registries: ["erc8004"],
    staleChain: "polygon",
    delisted: 2,
    faults: false,
    advance: { changedFraction: 0, newAgents: 1 },
  });
  artifact = JSON.parse(
    readFileSync(resolve(ROOT, "artifacts/contracts/oracle/AttestedTrustOracle.sol/AttestedTrustOracle.json"), "utf8"),
  ) as { abi: Abi; bytecode: Hex };
  const chain = {
    id: 8453,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [env.rpcUrl] } },
  } as const;
  const transport = http(env.rpcUrl);
  clients = {
    wallet: createWalletClient({ account: env.simulation.publisher, chain, transport }),
    public: createPublicClient({ chain, transport }) as PublicClient,
  };

  const served = env.served.agents;
  stale = served.find((a) => env.expectations.staleKeys.includes(agentKey(a)))!;
  added = served.find((a) => env.expectations.addedKeys.includes(agentKey(a)))!;
  const onBase = served.filter((a) => a.chain === "base" && !env.expectations.addedKeys.includes(agentKey(a)));
  [republished, inSync] = [onBase[0]!, onBase[1]!];
  // The chain is written after the service computed `republished`'s score, and says another sybil severity (no
  // decision flip under the score threshold): chain and service disagree about the same computation.
  const [record] = snapshotRecords([republished]);
  await env.simulation.publish([
    { ...record!, sybilSeverity: (record!.sybilSeverity + 1) % 5, updatedAt: Math.floor(republished.updatedAt.getTime() / 1000) + 60 },
  ]);
}, 120_000);

afterAll(async () => env?.close());

describe("drift without --attested-oracle: the refresh assessment, kids unchecked", () => {
  it("marks the stale and the missing record refreshable, not the one the chain already has newer, and exits 0", async () => {
    const { code, report } = await drift([...endpoints(), ...listed()]);
    expect(report!.source.attestedOracle).toBeUndefined();
    const staleRow = rowOf(report!, stale);
    expect(staleRow.status).toBe("stale-onchain");
    expect(staleRow.refresh).toMatchObject({
      possible: true,
      kid: "rnwy-trust-v2",
      keyStatus: "unchecked",
      call: { function: "submitJwsAttestation", form: "jws" },
    });
    expect(staleRow.refresh!.blocker).toBeUndefined();
    expect(staleRow.refresh!.reason).toContain('kid "rnwy-trust-v2" not checked');
    expect(Date.parse(staleRow.refresh!.expiresAt!)).toBeGreaterThan(Date.now());

    expect(rowOf(report!, added)).toMatchObject({ status: "missing-onchain", refresh: { possible: true } });
    expect(rowOf(report!, added).refresh!.reason).toContain("the oracle holds no record");

    const notNewer = rowOf(report!, republished);
    expect(notNewer.status).toBe("drifted");
    expect(notNewer.computedAfterRefresh).toBe(false);
    expect(notNewer.refresh).toMatchObject({ possible: false, blocker: "not-newer" });
    expect(notNewer.refresh!.reason).toMatch(/issuedAt .* is not after the on-chain record's updatedAt/);

    expect(rowOf(report!, inSync)).toMatchObject({ status: "in-sync", refresh: null });
    expect(report!.summary.refreshable).toBe(2);
    expect(report!.summary.flips).toEqual({ passToFail: 0, failToPass: 0 });
    // Refreshable rows change nothing in the exit code: no flip, no invalid attestation.
    expect(code).toBe(0);
  });
});

describe("drift --attested-oracle", () => {
  let attested: Address;
  beforeAll(async () => {
    attested = await deployAttestedOracle(env.oracle);
    await setTrustSigningKeys(clients, attested, signingKeyArgsOfJwks(await serviceJwks(), ["rnwy-trust-v2"]));
  });

  it("reads the attested oracle, says so, and checks the kid against its keys", async () => {
    const { code, report, stderr } = await drift([...endpoints(), ...listed(), "--attested-oracle", attested]);
    expect(code).toBe(0);
    expect(report!.source.oracle).toBe(env.oracle);
    expect(report!.source.attestedOracle).toEqual({ address: attested, upstream: env.oracle, upstreamIsOracle: true });
    expect(report!.notes ?? []).not.toContainEqual(expect.stringContaining("UPSTREAM MISMATCH"));
    // The attested oracle holds nothing of its own yet: it answers the upstream's stale record.
    const row = rowOf(report!, stale);
    expect(row.status).toBe("stale-onchain");
    expect(row.refresh).toMatchObject({ possible: true, keyStatus: "installed", call: { function: "submitJwsAttestation" } });
    expect(row.refresh!.reason).toContain(`kid "rnwy-trust-v2" installed on the attested oracle ${attested}`);
    expect(stderr).toContain(
      `oracle read:      attested oracle ${attested} (the fresher of its own records and its upstream ${env.oracle}'s)`,
    );
    expect(stderr).toContain(
      `refreshable:      2 of 3 stale, missing or drifted with a verified attestation (not: not-newer 1); kids checked against the attested oracle ${attested}`,
    );
  });

  it("after the attestation is submitted there, the same agent is in sync through it — and still stale on the Base oracle", async () => {
    await submitTrustAttestation(clients, attested, await trustCheckBody(stale));
    const through = await drift([...endpoints(), "--agents", spec(stale), "--attested-oracle", attested]);
    const row = rowOf(through.report!, stale);
    expect(row.status).toBe("in-sync");
    expect(row.refresh).toBeNull();
    expect(Date.parse(row.onchain!.updatedAt)).toBe(stale.updatedAt.getTime()); // the signed issuedAt, stored on-chain
    expect(through.report!.summary.refreshable).toBe(0);
    const direct = await drift([...endpoints(), "--agents", spec(stale)]);
    expect(rowOf(direct.report!, stale).status).toBe("stale-onchain");
  });

  it("a kid the attested oracle does not hold, holds under another key, or revoked: not refreshable, the reason names the kid", async () => {
    const bare = await deployAttestedOracle(env.oracle);
    const run = async () => rowOf((await drift([...endpoints(), "--agents", spec(stale), "--attested-oracle", bare])).report!, stale);

    const missing = await run();
    expect(missing.status).toBe("stale-onchain");
    expect(missing.refresh).toMatchObject({
      possible: false,
      blocker: "kid-not-installed",
      keyStatus: "not-installed",
      kid: "rnwy-trust-v2",
    });
    expect(missing.refresh!.reason).toContain(`kid "rnwy-trust-v2" is not installed on the attested oracle ${bare}`);
    expect(missing.refresh!.call).toBeUndefined();

    const other = signingKeyArgsOf((await generateSigningKey("rnwy-trust-v2")).publicJwk);
    await setTrustSigningKeys(clients, bare, [other]);
    expect((await run()).refresh).toMatchObject({ possible: false, blocker: "key-mismatch", keyStatus: "mismatch" });

    const hash = await clients.wallet.writeContract({
      address: bare,
      abi: attestedTrustOracleAbi,
      functionName: "revokeSigningKey",
      args: ["rnwy-trust-v2"],
      account: clients.wallet.account,
      chain: clients.wallet.chain,
    });
    await clients.public.waitForTransactionReceipt({ hash });
    const revoked = await run();
    expect(revoked.refresh).toMatchObject({ possible: false, blocker: "kid-revoked", keyStatus: "revoked" });
    expect(revoked.refresh!.reason).toContain('kid "rnwy-trust-v2" is revoked');
  });

  it("an attestation past its expiry but within the clock skew verifies and is refreshable: one skew on both sides", async () => {
    // The drift job's clock 24 h and 20 s after the service's: the attestation expired 20 s ago, within the 60 s skew
    // the verifier and the oracle (`MAX_CLOCK_SKEW`) both allow, so the row is compared and the oracle would take it.
    const shifted = () => new Date(Date.now() + 24 * HOUR_MS + 20_000);
    const { report } = await drift([...endpoints(), "--agents", spec(added), "--attested-oracle", attested], shifted);
    const row = rowOf(report!, added);
    expect(row.status).toBe("missing-onchain");
    expect(row.attested).not.toBeNull();
    expect(row.refresh).toMatchObject({ possible: true, keyStatus: "installed" });
    expect(report!.summary.refreshable).toBe(1);
  });

  it("an invalid attestation (tampered signature) is never assessed, let alone refreshable", async () => {
    env.service.injectFault({ kind: "tampered-signature", path: "/api/trust-check", times: 1 });
    const { code, report } = await drift([...endpoints(), "--agents", spec(added), "--attested-oracle", attested]);
    const row = rowOf(report!, added);
    expect(row.status).toBe("invalid-attestation");
    expect(row.refresh).toBeNull();
    expect(report!.summary.refreshable).toBe(0);
    expect(code).toBe(3);
  });

  it("--all combines the records the attested oracle's events announce with its upstream's", async () => {
    // A record only the attested oracle holds, for an agent neither the service nor the upstream knows, signed
    // under a key of our own that the oracle's admin installs.
    const own = await generateSigningKey("test-extra-v1");
    await setTrustSigningKeys(clients, attested, [signingKeyArgsOf(own.publicJwk)]);
    const latest = Number((await clients.public.getBlock()).timestamp) * 1000;
    const body = await buildTrustCheckResponse(own, {
      agent: { agentId: "987654321", chain: "base", registry: "erc8004", score: 70, tier: "developing", sybilSeverity: null },
      issuedAt: new Date(latest - HOUR_MS),
      verifiedAt: new Date(latest - 60_000),
    });
    await submitTrustAttestation(clients, attested, body);

    const { report } = await drift([
      ...endpoints(),
      "--all",
      "--audit-lie-rate",
      "1",
      "--max-errors",
      "50%",
      "--attested-oracle",
      attested,
    ]);
    const enumeration = report!.summary.triage!.onchainEnumeration!;
    const sources = enumeration.sources!;
    expect(sources.map((s) => [s.role, s.oracle])).toEqual([
      ["attested-oracle", attested],
      ["upstream", env.oracle],
    ]);
    expect(sources[0]!.records).toBe(2); // the stale agent submitted above, and agent 987654321
    expect(sources[1]!.records).toBe(env.snapshot.agents.length + env.delisted.length);
    expect(enumeration.notListed).toBe(env.delisted.length + 1);
    const extra = report!.agents.find((r) => r.chain === "base" && r.agentId === "987654321")!;
    expect(extra).toMatchObject({ status: "missing-attestation", onchain: { score: 70, tier: "developing" } });
    for (const key of env.expectations.delistedKeys)
      expect(
        report!.agents.some((r) => agentKey(r) === key),
        key,
      ).toBe(true);
  });
});

describe("drift --attested-oracle: what it refuses and what it warns about", () => {
  it("exits 2 with one clear line for an address without code, and for a contract that is not an attested oracle", async () => {
    const empty = await drift([...endpoints(), ...listed(), "--attested-oracle", "0x000000000000000000000000000000000000dEaD"]);
    expect(empty.code).toBe(2);
    expect(empty.stdout).toBe("");
    expect(empty.stderr.trim().split("\n")).toHaveLength(1);
    expect(empty.stderr).toContain("No contract at the attested oracle address 0x000000000000000000000000000000000000dEaD on chain 8453");

    const notAttested = await drift([...endpoints(), ...listed(), "--attested-oracle", env.oracle]);
    expect(notAttested.code).toBe(2);
    expect(notAttested.stderr).toContain(`The contract at ${env.oracle} (--attested-oracle) is not an AttestedTrustOracle`);
  });

  it("warns, without failing, when the attested oracle's upstream is not --oracle", async () => {
    const orphan = await deployAttestedOracle(ZERO);
    const { code, report, stderr } = await drift([...endpoints(), "--agents", spec(inSync), "--attested-oracle", orphan]);
    expect(report!.source.attestedOracle).toEqual({ address: orphan, upstream: ZERO, upstreamIsOracle: false });
    const warning = `UPSTREAM MISMATCH: the attested oracle ${orphan} does not fall back on the oracle ${env.oracle} (--oracle)`;
    expect(report!.notes).toContainEqual(expect.stringContaining(warning));
    expect(stderr).toContain(`note:             ${warning}; it has no upstream oracle`);
    // Read from an oracle that holds nothing: the agent's record is missing there, and the run still reports.
    expect(rowOf(report!, inSync).status).toBe("missing-onchain");
    expect(code).toBe(exitCodeOf(report!));
  });
});
