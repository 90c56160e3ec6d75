// The watch's checker on the devnet: the embedded local Base chain over HTTP on loopback (the reference oracle holding
// last night's snapshot, Polygon's records stale) and the kit's local signing service, connected with connectWatch
// (the drift preflight, one client, one JWKS resolver). A record written with a score that flips the gate's decision
// is the problem, with the write's transaction and the attestation's kid and signed times as evidence; an agent in
// sync raises nothing; the service failing for an agent neither raises nor clears.
import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentRef, agentKey } from "../../src/agent/agent-ref";
import { DEFAULT_TRUST_ENCODING, tierCode } from "../../src/config/encodings";
import { DEFAULT_MAX_AGE_SECONDS } from "../../src/drift/config";
import { ConfigurationError } from "../../src/errors";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot";
import { conditionsOfCheck, createAgentChecker } from "../../src/watch/check";
import { connectWatch, type WatchConnection } from "../../src/watch/connect";
import type { OracleChange } from "../../src/watch/types";
import { type RefreshDevnet, startRefreshDevnet } from "../support/refresh-devnet";

let devnet: RefreshDevnet;
let connection: WatchConnection;

const config = () => ({
  rpcUrl: devnet.env.rpcUrl,
  oracle: devnet.env.oracle,
  apiUrl: devnet.env.apiUrl,
  apiKey: "watch-test-key",
  issuer: devnet.env.issuer,
  jwks: devnet.env.jwksUrl,
  maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS,
  encoding: DEFAULT_TRUST_ENCODING,
  ratePerMinute: 300,
  readChunkSize: devnet.env.readChunkSize,
});

beforeAll(async () => {
  devnet = await startRefreshDevnet();
  connection = await connectWatch(config());
}, 180_000);
afterAll(async () => devnet?.env.close());

/** The chain's head now (viem caches a block number for a few seconds unless told not to). */
const head = () => devnet.clients.public.getBlockNumber({ cacheTime: 0 });

/** A Base agent of last night's snapshot the gate admits (score 60 or more under the default threshold 51). */
function admittedBaseAgent(): { agent: AgentRef; snapshot: (typeof devnet.env.snapshot.agents)[number] } {
  const snapshot = devnet.env.snapshot.agents.find((a) => a.chain === "base" && a.score >= 60)!;
  return { agent: { chain: "base", chainId: 8453, agentId: BigInt(snapshot.agentId), registry: snapshot.registry }, snapshot };
}

describe("connectWatch", () => {
  it("connects with the drift preflight: the chain, the rule, one client at the configured rate, the resolver holding the service's keys", () => {
    expect(connection.chainId).toBe(8453);
    expect(connection.blockNumber).toBeGreaterThan(0n);
    expect(connection.rule).toEqual({ kind: "threshold", threshold: 51 });
    expect(connection.attested).toBeUndefined();
    expect(connection.api.transport.rateLimiter?.rate().perMinute).toBe(300);
    expect(connection.scan.api).toBe(connection.api);
    expect(connection.scan.attestations.jwks).toBe(connection.jwks);
    expect(connection.jwks.jwks()?.keys.map((k) => k.kid)).toContain("rnwy-trust-v2");
  });

  it("refuses to start against an RPC that does not answer (a loopback port nobody listens on): a ConfigurationError", async () => {
    await expect(connectWatch({ ...config(), rpcUrl: "http://127.0.0.1:1", timeoutMs: 500 })).rejects.toThrow(ConfigurationError);
  });
});

describe("createAgentChecker on the devnet", () => {
  it("an agent in sync: the drift row in-sync, no problem, nothing raised, its problems and record-stale cleared", async () => {
    const { agent } = admittedBaseAgent();
    const block = await head();
    const [check] = await createAgentChecker(connection).check([agent], { kind: "audit" }, block);
    expect(check).toMatchObject({ agent, problem: null, blockNumber: block, trigger: { kind: "audit" } });
    expect(check!.row.status).toBe("in-sync");
    expect(check!.attestationExpiresAt).toEqual(expect.any(String));
    const { raise, clear } = conditionsOfCheck(check!, { maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS });
    expect(raise).toEqual([]);
    expect(clear).toHaveLength(4);
  });

  it("a stale record (Polygon's, days old) raises record-stale", async () => {
    const stale = devnet.env.snapshot.agents.find((a) => a.chain === "polygon")!;
    const agent: AgentRef = { chain: "polygon", chainId: 137, agentId: BigInt(stale.agentId), registry: stale.registry };
    const [check] = await createAgentChecker(connection).check([agent, agent], { kind: "audit" }, await head());
    expect(check!.row.status).toBe("stale-onchain");
    expect(conditionsOfCheck(check!, { maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS }).raise.map((c) => c.id)).toContain(
      `record-stale:${agentKey(agent)}`,
    );
  });

  it("a record written with a score under the threshold while the service admits the agent: fail-to-pass, with the write's transaction, block and the attestation's kid and times", async () => {
    const { agent, snapshot } = admittedBaseAgent();
    const [record] = snapshotRecords([snapshot]);
    const updatedAt = (await devnet.env.simulation.latestTimestamp()) - 5;
    const written = await devnet.env.simulation.publish([{ ...record!, score: 30, tier: tierCode("limited"), updatedAt }]);
    const block = written.blockNumber!;
    const blockInfo = await devnet.clients.public.getBlock({ blockNumber: block });
    const change: OracleChange = {
      kind: "record-updated",
      contract: devnet.env.oracle,
      key: null,
      agent,
      kid: null,
      kidHash: null,
      record: null,
      block: { number: block, hash: blockInfo.hash, timestamp: Number(blockInfo.timestamp) },
      transactionHash: written.transactions[0]! as Hex,
      logIndex: 0,
    };
    // an injected monotonic clock: each reading one second after the last, so each signed fetch takes one second
    let tick = 0;
    const latencies: (number | undefined)[] = [];
    const checker = createAgentChecker(connection, {
      clock: () => (tick += 1000),
      onCheck: (_, latency) => latencies.push(latency.apiSeconds),
    });
    const [check] = await checker.check([agent], { kind: "change", change }, block);
    expect(latencies).toEqual([1]);
    expect(check!.problem).toBe("fail-to-pass");
    expect(check!.row.onchain!.score).toBe(30);
    const { raise, clear } = conditionsOfCheck(check!, { maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS });
    expect(raise).toHaveLength(1);
    const condition = raise[0]!;
    expect(condition).toMatchObject({
      kind: "fail-to-pass",
      id: `fail-to-pass:${agentKey(agent)}`,
      before: { score: 30, tier: "limited", updatedAt: new Date(updatedAt * 1000).toISOString() },
      after: { score: check!.row.attested!.score, kid: "rnwy-trust-v2" },
      decision: { onchain: false, attested: true },
      evidence: {
        blockNumber: block.toString(),
        transactionHash: written.transactions[0],
        kid: "rnwy-trust-v2",
        recordUpdatedAt: new Date(updatedAt * 1000).toISOString(),
      },
    });
    expect(check!.row.attested!.score).toBeGreaterThanOrEqual(51);
    const { issuedAt, expiresAt } = condition.evidence;
    expect(issuedAt).toEqual(expect.any(String));
    expect(Date.parse(expiresAt!)).toBeGreaterThan(Date.parse(issuedAt!));
    expect(clear).toEqual([`pass-to-fail:${agentKey(agent)}`, `invalid-attestation:${agentKey(agent)}`, `record-stale:${agentKey(agent)}`]);

    // read at the block before the write: the record was the snapshot's, in sync
    const [before] = await createAgentChecker(connection).check([agent], { kind: "audit" }, block - 1n);
    expect(before!.row.status).toBe("in-sync");
  });

  it("the service failing for the agent: an error row that neither raises nor clears (the flip stays known)", async () => {
    const { agent } = admittedBaseAgent();
    // the client tries four times (three retries); every one answered 500
    devnet.env.service.injectFault({ kind: "status-500", path: "/api/trust-check", times: 4 });
    try {
      const failures: unknown[] = [];
      const checker = createAgentChecker(connection, { onCheck: (_, observed) => failures.push(observed.failure) });
      const [check] = await checker.check([agent], { kind: "audit" }, await head());
      expect(failures).toEqual(["service"]);
      expect(check!.row.status).toBe("error");
      expect(check!.row.reason).toMatch(/500/);
      expect(check!.attestationExpiresAt).toBeUndefined();
      expect(conditionsOfCheck(check!, { maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS })).toEqual({ raise: [], clear: [] });
    } finally {
      devnet.env.service.clearFaults();
    }
    const [after] = await createAgentChecker(connection).check([agent], { kind: "audit" }, await head());
    expect(after!.problem).toBe("fail-to-pass");
  });

  it("spends one signed fetch per distinct agent, through the connection's one client", async () => {
    const agents = devnet.env.snapshot.agents
      .filter((a) => a.chain === "base")
      .slice(0, 3)
      .map((a): AgentRef => ({ chain: "base", chainId: 8453, agentId: BigInt(a.agentId), registry: a.registry }));
    const before = devnet.env.service.stats().byPath["/api/trust-check"] ?? 0;
    const checks = await createAgentChecker(connection).check([...agents, agents[0]!], { kind: "audit" }, await head());
    expect(checks.map((c) => c.agent)).toEqual(agents);
    expect((devnet.env.service.stats().byPath["/api/trust-check"] ?? 0) - before).toBe(3);
  });

  it("with an attested oracle: connects to it, and checks read the records through it", async () => {
    const attestedOracle = await devnet.deployAttestedOracle();
    const attested = await connectWatch({ ...config(), attestedOracle });
    expect(attested.attested).toEqual({ address: attestedOracle, upstream: devnet.env.oracle, upstreamIsOracle: true });
    const { agent } = admittedBaseAgent();
    const [check] = await createAgentChecker(attested).check([agent], { kind: "audit" }, await head());
    // the attested oracle holds nothing of its own: it answers its upstream's record, the one written above
    expect(check!.row.onchain!.score).toBe(30);
    expect(check!.problem).toBe("fail-to-pass");
  });

  it("names why a check could not verify: the RPC (a chain client on a loopback port nobody listens on), or a chain with no records", async () => {
    const { agent } = admittedBaseAgent();
    const deadChain = createPublicClient({ transport: http("http://127.0.0.1:1", { retryCount: 0, timeout: 500 }) });
    const failures: unknown[] = [];
    const checker = createAgentChecker(
      { scan: { ...connection.scan, chain: deadChain } },
      { onCheck: (_, observed) => failures.push(observed.failure) },
    );
    const solana: AgentRef = { chain: "solana", chainId: null, agentId: 5n, registry: "sati" };
    const checks = await checker.check([agent, solana], { kind: "audit" }, await head());
    expect(checks.map((c) => c.row.status)).toEqual(["error", "error"]);
    expect(checks[0]!.row.reason).toMatch(/^on-chain read failed/);
    expect(failures).toEqual(["rpc", "not-evm"]);
    for (const check of checks)
      expect(conditionsOfCheck(check, { maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS })).toEqual({ raise: [], clear: [] });
  });

  it("checks nothing for no agents, and stops with the signal's reason when aborted", async () => {
    const checker = createAgentChecker(connection);
    const block = await head();
    expect(await checker.check([], { kind: "audit" }, block)).toEqual([]);
    const controller = new AbortController();
    controller.abort(new Error("draining"));
    await expect(checker.check([admittedBaseAgent().agent], { kind: "audit" }, block, controller.signal)).rejects.toThrow("draining");
  });
});
