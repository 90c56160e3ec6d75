// The drift job's embedded default, checked from the outside: the chain through its RPC URL (Multicall3 reads),
// the service through HTTP, as the drift job will see them.
import { expect } from "chai";
import { createPublicClient, http, type PublicClient } from "viem";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, it } from "vitest";
import { verifyTrustAttestation } from "../../../src/attestation/verify.js";
import { BASE_TRUST_ORACLE_ADDRESS } from "../../../src/config/addresses.js";
import { chainIdOf } from "../../../src/config/chains.js";
import { sybilSeverityCode, sybilSeverityName, tierCode, tierName } from "../../../src/config/encodings.js";
import { InvalidArgumentError } from "../../../src/errors.js";
import {
  DEFAULT_DELISTED,
  DEFAULT_EMBEDDED_FAULTS,
  DEFAULT_EMBEDDED_SIZE,
  DEFAULT_STALE_AGE_SECONDS,
  DEFAULT_STALE_CHAIN,
  EMBEDDED_READ_CHUNK_SIZE,
  type EmbeddedDriftEnvironment,
  startEmbeddedDriftEnvironment,
} from "../../../src/harness/devnet/embedded-drift.js";
import { agentKey, type PopulationAgent } from "../../../src/harness/service/index.js";
import { trustOracleAbi } from "../../../src/oracle/abi.js";
import { readTrustRecords } from "../../../src/oracle/reader.js";
import type { TrustRecordResult } from "../../../src/oracle/records.js";

interface KeyParts {
  chain: string;
  registry: string;
  agentId: number;
}

function parseKey(key: string): KeyParts {
  const [chain, registry, agentId] = key.split(":");
  return { chain: chain!, registry: registry!, agentId: Number(agentId) };
}

/** GET /api/trust-check for an agent: status and parsed body (the raw text when it does not parse). */
async function trustCheck(env: EmbeddedDriftEnvironment, agent: KeyParts): Promise<{ status: number; body: any; text: string }> {
  const url = `${env.apiUrl}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`;
  const res = await fetch(url);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

/** The on-chain records of the given agents, read through Multicall3 over the RPC URL. */
function readOnchain(client: PublicClient, env: EmbeddedDriftEnvironment, agents: readonly KeyParts[]): Promise<TrustRecordResult[]> {
  return readTrustRecords(client, {
    oracle: env.oracle,
    keys: agents.map((a) => ({ agentId: BigInt(a.agentId), chainId: chainIdOf(a.chain), registry: a.registry })),
  });
}

/** `score tier sybil updatedAt` of a successful read, or the failure. */
function onchainLine(read: TrustRecordResult | undefined): string {
  if (!read) return "missing";
  if (!read.ok) return `error ${read.error.shortMessage}`;
  if (!read.hasScore) return "none";
  return `${read.score} ${read.tier} ${read.sybilSeverity} ${read.updatedAt}`;
}

function expectedLine(agent: PopulationAgent, updatedAt: Date = agent.updatedAt): string {
  return `${agent.score} ${tierCode(agent.tier)} ${sybilSeverityCode(agent.sybilSeverity)} ${updatedAt.getTime() / 1000}`;
}

describe("the embedded drift environment (default size, real clock, no faults)", () => {
  let env: EmbeddedDriftEnvironment;
  let client: PublicClient;
  let startedAt: Date;

  beforeAll(async () => {
    startedAt = new Date();
    env = await startEmbeddedDriftEnvironment({ faults: false });
    client = createPublicClient({ chain: base, transport: http(env.rpcUrl, { retryCount: 0 }) }) as PublicClient;
  });

  afterAll(async () => {
    await env?.close();
  });

  it("serves a chain with id 8453 and the oracle at the Base address over loopback, and the service with its JWKS", async () => {
    expect(env.rpcUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await client.getChainId()).to.equal(8453);
    expect(env.chainId).to.equal(8453);
    expect(env.oracle).to.equal(BASE_TRUST_ORACLE_ADDRESS);
    expect(env.issuer).to.equal(env.apiUrl);
    expect(env.jwksUrl).to.equal(`${env.apiUrl}/.well-known/jwks.json`);
    const jwks = (await (await fetch(env.jwksUrl)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).to.include("rnwy-trust-v2");
  });

  it("dates the snapshot at the latest 03:00 UTC, and serves the data advanced to now", () => {
    const at = env.snapshotAt;
    expect([at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()]).to.deep.equal([3, 0, 0, 0]);
    expect(at.getTime()).to.be.below(startedAt.getTime());
    expect(at.getTime()).to.be.at.least(startedAt.getTime() - 86_400_000 - 1000);
    expect(env.snapshot.at.getTime()).to.equal(at.getTime());
    expect(env.snapshot.size).to.equal(DEFAULT_EMBEDDED_SIZE);
    expect(env.snapshot.registries).to.deep.equal(["erc8004", "olas"]);
    expect(env.snapshot.chains.length).to.be.at.least(5);
    expect(env.served.changes.since.getTime()).to.equal(at.getTime());
    expect(env.served.at.getTime()).to.be.above(at.getTime());
    expect(env.served.size).to.equal(DEFAULT_EMBEDDED_SIZE + env.expectations.addedKeys.length);
    expect(env.service.population).to.equal(env.served);
  });

  it("holds every snapshot record on-chain, as the snapshot has it (the stale chain dated earlier), and the delisted ones", async () => {
    const agents = env.snapshot.agents;
    const reads = await readOnchain(client, env, agents);
    const stale = env.expectations.staleUpdatedAt!;
    const got = reads.map((r, i) => `${agentKey(agents[i]!)} ${onchainLine(r)}`);
    const want = agents.map((a) => `${agentKey(a)} ${expectedLine(a, a.chain === DEFAULT_STALE_CHAIN ? stale : a.updatedAt)}`);
    const first = got.findIndex((line, i) => line !== want[i]);
    expect(first, `first difference: got "${got[first]}", want "${want[first]}"`).to.equal(-1);
    expect(agents.every((a) => a.updatedAt.getTime() === env.snapshotAt.getTime())).to.equal(true);
    const count = await client.readContract({ address: env.oracle, abi: trustOracleAbi, functionName: "agentCount" });
    expect(count).to.equal(BigInt(DEFAULT_EMBEDDED_SIZE + DEFAULT_DELISTED));
  });

  it("asks to be read in calls of 25 records, small for the memory of Hardhat 2's EVM", () => {
    expect(EMBEDDED_READ_CHUNK_SIZE).to.equal(25);
    expect(env.readChunkSize).to.equal(EMBEDDED_READ_CHUNK_SIZE);
  });

  it("dates the stale chain's records three days before the snapshot, and names all of them", async () => {
    const { staleChain, staleKeys, staleUpdatedAt } = env.expectations;
    expect(staleChain).to.equal(DEFAULT_STALE_CHAIN);
    expect(staleUpdatedAt!.getTime()).to.equal(env.snapshotAt.getTime() - DEFAULT_STALE_AGE_SECONDS * 1000);
    const polygon = env.snapshot.agents.filter((a) => a.chain === "polygon");
    expect(polygon.length).to.be.above(20);
    expect(staleKeys).to.deep.equal(polygon.map(agentKey));
    const reads = await readOnchain(client, env, staleKeys.map(parseKey));
    for (const [i, read] of reads.entries()) {
      expect(read.ok && read.hasScore && read.updatedAt, staleKeys[i]).to.equal(staleUpdatedAt!.getTime() / 1000);
    }
  });

  it("keeps delisted agents on-chain while the service answers 404 for them", async () => {
    const { delistedKeys } = env.expectations;
    expect(delistedKeys).to.have.length(DEFAULT_DELISTED);
    expect(env.delisted.map(agentKey)).to.deep.equal(delistedKeys);
    const reads = await readOnchain(client, env, delistedKeys.map(parseKey));
    for (const [i, read] of reads.entries())
      expect(onchainLine(read), delistedKeys[i]).to.equal(expectedLine(env.delisted[i] as PopulationAgent));
    for (const key of delistedKeys) {
      const parts = parseKey(key);
      expect(parts.chain).to.not.equal(DEFAULT_STALE_CHAIN);
      expect(env.served.get(parts.chain, parts.agentId, parts.registry)).to.equal(undefined);
      const { status } = await trustCheck(env, parts);
      expect(status, key).to.equal(404);
    }
  });

  it("moved a few percent of scores on, some across 51 and tier boundaries, and some sybil severities", () => {
    const { changed } = env.served.changes;
    expect(env.expectations.changedKeys).to.deep.equal(changed.map((c) => c.key));
    expect(changed.length).to.be.within(DEFAULT_EMBEDDED_SIZE * 0.02, DEFAULT_EMBEDDED_SIZE * 0.08);
    expect(changed.filter((c) => c.crossed.includes(51)).length, "crossing 51").to.be.at.least(5);
    expect(changed.filter((c) => c.tierChanged).length, "tier changes").to.be.at.least(10);
    expect(changed.filter((c) => c.sybilChanged).length, "sybil changes").to.be.at.least(5);
  });

  it("serves changed agents with their new record, signed, while the chain keeps the old one", async () => {
    const keys = env.expectations.changedKeys.slice(0, 25);
    const reads = await readOnchain(client, env, keys.map(parseKey));
    for (const [i, key] of keys.entries()) {
      const change = env.served.changes.changed[i]!;
      const { status, body } = await trustCheck(env, parseKey(key));
      expect(status, key).to.equal(200);
      // The service says "no sybil signal" with null; the population and the chain's encoding call it "none".
      expect([body.score, body.tier, body.sybilSeverity ?? "none"], key).to.deep.equal([
        change.after.score,
        change.after.tier,
        change.after.sybilSeverity,
      ]);
      const read = reads[i]!;
      if (!read.ok || !read.hasScore) throw new Error(`${key} is not on-chain`);
      expect([read.score, tierName(read.tier), sybilSeverityName(read.sybilSeverity)], key).to.deep.equal([
        change.before.score,
        change.before.tier,
        change.before.sybilSeverity,
      ]);
      expect([read.score, read.sybilSeverity], key).to.not.deep.equal([body.score, sybilSeverityCode(body.sybilSeverity ?? "none")]);
      const verdict = await verifyTrustAttestation(body, { issuer: env.issuer, jwks: env.jwksUrl });
      expect(verdict.valid, `${key}: ${verdict.message}`).to.equal(true);
    }
  });

  it("serves new agents, which have no on-chain record", async () => {
    const { addedKeys } = env.expectations;
    expect(addedKeys.length).to.be.at.least(10);
    const reads = await readOnchain(client, env, addedKeys.map(parseKey));
    for (const [i, read] of reads.entries()) expect(onchainLine(read), addedKeys[i]).to.equal("none");
    for (const key of addedKeys.slice(0, 10)) {
      const { status, body } = await trustCheck(env, parseKey(key));
      expect(status, key).to.equal(200);
      expect(body.score, key).to.equal(env.served.get(parseKey(key).chain, parseKey(key).agentId, parseKey(key).registry)!.score);
    }
  });

  it("serves unchanged agents exactly as the chain has them", async () => {
    const changed = new Set(env.expectations.changedKeys);
    const sample = env.snapshot.agents.filter((a, i) => i % 97 === 0 && !changed.has(agentKey(a)));
    expect(sample.length).to.be.at.least(20);
    const reads = await readOnchain(client, env, sample);
    for (const [i, agent] of sample.entries()) {
      const { status, body } = await trustCheck(env, agent);
      expect(status, agentKey(agent)).to.equal(200);
      const read = reads[i]!;
      if (!read.ok) throw read.error;
      expect([read.score, tierName(read.tier), sybilSeverityName(read.sybilSeverity)], agentKey(agent)).to.deep.equal([
        body.score,
        body.tier,
        body.sybilSeverity ?? "none",
      ]);
    }
  });

  it("has no rate limit by default and no faults when asked for none", async () => {
    expect(env.expectations.faults).to.deep.equal([]);
    const agent = env.snapshot.agents[0]!;
    const statuses = await Promise.all(Array.from({ length: 40 }, () => trustCheck(env, agent).then((r) => r.status)));
    expect(statuses.filter((s) => s !== 200)).to.deep.equal([]);
  });
});

describe("the embedded drift environment's default faults", () => {
  let env: EmbeddedDriftEnvironment;

  beforeAll(async () => {
    env = await startEmbeddedDriftEnvironment({ size: 300, seed: 4 });
  });

  afterAll(async () => {
    await env?.close();
  });

  it("cuts the first trust-check answer's JSON (an error row), tampers with the next signature (invalid), then heals", async () => {
    expect(env.expectations.faults).to.deep.equal(DEFAULT_EMBEDDED_FAULTS);
    const agent = env.snapshot.agents.find((a) => a.chain !== DEFAULT_STALE_CHAIN)!;
    const verify = (body: unknown) => verifyTrustAttestation(body, { issuer: env.issuer, jwks: env.jwksUrl });

    // The JWKS and other paths are not affected.
    expect((await fetch(env.jwksUrl)).status).to.equal(200);
    expect((await fetch(`${env.apiUrl}/api/agents?limit=5`)).status).to.equal(200);

    // One after the other: the first answer is signed with the first tampering and then cut in half (both faults
    // apply to it), so the second carries the other tampered signature.
    const malformed = await trustCheck(env, agent);
    expect(malformed.status).to.equal(200);
    expect(malformed.body, "the body parses").to.equal(undefined);
    expect(malformed.text.length).to.be.above(10);

    const tampered = await trustCheck(env, agent);
    expect(tampered.status).to.equal(200);
    const verdict = await verify(tampered.body);
    expect(verdict.valid).to.equal(false);
    expect(verdict.reason, verdict.message).to.match(/signature/);

    const healed = await trustCheck(env, agent);
    expect(healed.status).to.equal(200);
    const healthy = await verify(healed.body);
    expect(healthy.valid, healthy.message).to.equal(true);
    expect(healed.body.score).to.equal(env.served.get(agent.chain, agent.agentId, agent.registry)!.score);
  });
});

describe("startEmbeddedDriftEnvironment refuses inconsistent options before starting anything", () => {
  it("a stale chain outside the population", async () => {
    const error = await startEmbeddedDriftEnvironment({ chains: ["base", "ethereum"], staleChain: "polygon" }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).shortMessage).to.contain("polygon");
  });

  it("a snapshot that is not before now", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const error = await startEmbeddedDriftEnvironment({ now, snapshotAt: now }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).shortMessage).to.contain("snapshotAt");
  });

  it("a read chunk size the reader would refuse", async () => {
    const error = await startEmbeddedDriftEnvironment({ readChunkSize: 0 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).shortMessage).to.contain("readChunkSize");
  });

  it("a non-EVM chain in the population", async () => {
    const error = await startEmbeddedDriftEnvironment({ chains: ["base", "solana"], staleChain: null }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidArgumentError);
  });
});
