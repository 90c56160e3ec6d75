// The embedded drift environment is the same for the same seed (and clock), and differs for another seed.
import { expect } from "chai";
import { createPublicClient, http, type PublicClient } from "viem";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, it } from "vitest";
import { chainIdOf } from "../../../src/config/chains.js";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../../src/harness/devnet/embedded-drift.js";
import { agentKey } from "../../../src/harness/service/index.js";
import { trustOracleAbi } from "../../../src/oracle/abi.js";
import { readTrustRecords } from "../../../src/oracle/reader.js";

/** Every on-chain record of the environment's snapshot and delisted agents, as lines of text. */
async function onchainLines(env: EmbeddedDriftEnvironment): Promise<string[]> {
  const client = createPublicClient({ chain: base, transport: http(env.rpcUrl, { retryCount: 0 }) }) as PublicClient;
  const agents = [...env.snapshot.agents, ...env.delisted];
  const reads = await readTrustRecords(client, {
    oracle: env.oracle,
    keys: agents.map((a) => ({ agentId: BigInt(a.agentId), chainId: chainIdOf(a.chain), registry: a.registry })),
  });
  return reads.map((r, i) =>
    r.ok && r.hasScore
      ? `${agentKey(agents[i]!)} ${r.score} ${r.tier} ${r.sybilSeverity} ${r.updatedAt}`
      : `${agentKey(agents[i]!)} missing`,
  );
}

/** The served population's records, as lines of text. */
function servedLines(env: EmbeddedDriftEnvironment): string[] {
  return env.served.agents.map(
    (a) => `${agentKey(a)} ${a.score} ${a.tier} ${a.sybilSeverity} ${a.updatedAt.toISOString()} ${a.owner} ${a.badges.earned.join(",")}`,
  );
}

describe("startEmbeddedDriftEnvironment determinism", () => {
  const now = new Date("2026-11-22T17:30:00.000Z");
  let first: EmbeddedDriftEnvironment;
  let second: EmbeddedDriftEnvironment;
  let other: EmbeddedDriftEnvironment;

  beforeAll(async () => {
    first = await startEmbeddedDriftEnvironment({ seed: 7, size: 400, now, faults: false });
    second = await startEmbeddedDriftEnvironment({ seed: 7, size: 400, now, faults: false });
    other = await startEmbeddedDriftEnvironment({ seed: 8, size: 400, now, faults: false, staleChain: null, delisted: 0 });
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close(), other?.close()]);
  });

  it("the same seed and clock give the same snapshot, changes, expectations and on-chain records", async () => {
    expect(first.snapshotAt.toISOString()).to.equal("2026-11-22T03:00:00.000Z");
    expect(second.snapshotAt.toISOString()).to.equal(first.snapshotAt.toISOString());
    expect(servedLines(second)).to.deep.equal(servedLines(first));
    expect(second.snapshot.agents.map(agentKey)).to.deep.equal(first.snapshot.agents.map(agentKey));
    expect(second.expectations).to.deep.equal(first.expectations);
    expect(first.expectations.changedKeys.length).to.be.above(0);
    expect(first.expectations.addedKeys.length).to.be.above(0);
    expect(first.expectations.delistedKeys.length).to.equal(5);
    const lines = await onchainLines(first);
    expect(lines.some((l) => l.endsWith("missing"))).to.equal(false);
    expect(await onchainLines(second)).to.deep.equal(lines);
    // Two independent services: same data, different signing keys and ports.
    expect(second.apiUrl).to.not.equal(first.apiUrl);
    expect(second.rpcUrl).to.not.equal(first.rpcUrl);
  });

  it("another seed gives other agents and other changes", () => {
    expect(other.snapshot.agents.map(agentKey)).to.not.deep.equal(first.snapshot.agents.map(agentKey));
    expect(servedLines(other)).to.not.deep.equal(servedLines(first));
    expect(other.expectations.changedKeys).to.not.deep.equal(first.expectations.changedKeys);
  });

  it("without a stale chain and delisted agents, the chain holds exactly the snapshot, all dated at the snapshot", async () => {
    expect(other.expectations.staleChain).to.equal(undefined);
    expect(other.expectations.staleKeys).to.deep.equal([]);
    expect(other.expectations.staleUpdatedAt).to.equal(undefined);
    expect(other.expectations.delistedKeys).to.deep.equal([]);
    const lines = await onchainLines(other);
    expect(lines).to.have.length(400);
    const snapshotSeconds = String(other.snapshotAt.getTime() / 1000);
    expect(lines.filter((l) => !l.endsWith(` ${snapshotSeconds}`))).to.deep.equal([]);
    const client = createPublicClient({ chain: base, transport: http(other.rpcUrl) });
    expect(await client.readContract({ address: other.oracle, abi: trustOracleAbi, functionName: "agentCount" })).to.equal(400n);
  });

  it("with the stale chain, its records are dated staleAgeSeconds before the snapshot", async () => {
    const stale = new Set(first.expectations.staleKeys);
    expect(stale.size).to.be.above(0);
    const staleSeconds = String(first.expectations.staleUpdatedAt!.getTime() / 1000);
    for (const line of await onchainLines(first)) {
      const key = line.split(" ")[0]!;
      expect(line.endsWith(` ${staleSeconds}`), line).to.equal(stale.has(key));
    }
  });
});
