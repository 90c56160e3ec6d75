/**
 * The watch's chain follower on the devnet (the embedded local Base chain over HTTP on loopback, the reference oracle
 * holding a snapshot, a real `AttestedTrustOracle` over it, the local signing service): changes in log order with
 * their agents, blocks and transactions, confirmations, reorgs made with `evm_snapshot`/`evm_revert`, resuming from a
 * saved position, unknown keys, an RPC that stops answering, a chain that moves under a poll, and the bounded range.
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { type Address, createPublicClient, encodePacked, getAddress, type Hex, http, keccak256, stringToBytes } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentRef } from "../../src/agent/agent-ref";
import { createTrustApiClient } from "../../src/api/client";
import { OracleReadError } from "../../src/errors";
import type { EmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import type { OracleRecordInput } from "../../src/harness/devnet/publish-records";
import { revokeTrustSigningKeys, submitTrustAttestation } from "../../src/oracle/attested-oracle";
import type { AnyClient } from "../../src/oracle/client";
import { type ChainFollower, type ChainFollowerParameters, createChainFollower } from "../../src/watch/follow";
import type { FollowStep, OracleChange } from "../../src/watch/types";
import { type RefreshDevnet, startRefreshDevnet } from "../support/refresh-devnet";
import { type RpcProxy, startRpcProxy } from "../support/rpc-proxy";

let devnet: RefreshDevnet;
let env: EmbeddedDriftEnvironment;
let client: AnyClient;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  devnet = await startRefreshDevnet({ size: 12, chains: ["base", "polygon"] });
  env = devnet.env;
  client = createPublicClient({ transport: http(env.rpcUrl) });
}, 180_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await env?.close();
});

const rpc = (method: string, params: unknown[] = []) =>
  devnet.clients.public.request({ method: method as "eth_chainId", params: params as never });
const head = async () => BigInt(await rpc("eth_blockNumber"));
const mine = async (blocks = 1) => {
  for (let i = 0; i < blocks; i++) await rpc("evm_mine");
};
const keyOf = (agentId: bigint, chainId: number, registry = "erc8004"): Hex =>
  keccak256(encodePacked(["uint256", "uint256", "string"], [agentId, BigInt(chainId), registry]));

/** A record for `base:<agentId>` dated at the latest block, `score` as given. */
async function record(agentId: number, score: number, chainId = 8453): Promise<OracleRecordInput> {
  return {
    agentId,
    chainId,
    registry: "erc8004",
    score,
    tier: score >= 75 ? 3 : 2,
    sybilSeverity: 0,
    updatedAt: await env.simulation.latestTimestamp(),
  };
}

/** An agent of the snapshot (so on-chain since the devnet started) on `chain`. */
function snapshotAgent(chain: string, index = 0): { agentId: number; chainId: number } {
  const agent = env.snapshot.agents.filter((a) => a.chain === chain)[index]!;
  return { agentId: agent.agentId, chainId: chain === "base" ? 8453 : 137 };
}

async function follower(overrides: Partial<ChainFollowerParameters> = {}): Promise<ChainFollower> {
  return createChainFollower({ client, oracle: env.oracle, confirmations: 0, start: { fromBlock: (await head()) + 1n }, ...overrides });
}

/** Polls until caught up; every step's changes, in order. */
async function drain(f: ChainFollower): Promise<{ steps: FollowStep[]; changes: OracleChange[] }> {
  const steps: FollowStep[] = [];
  for (let i = 0; i < 100; i++) {
    const step = await f.poll();
    steps.push(step);
    if (step.caughtUp) break;
  }
  return { steps, changes: steps.flatMap((s) => s.changes) };
}

const summary = (c: OracleChange) => ({ kind: c.kind, agentId: c.agent?.agentId ?? null, block: c.block.number, tx: c.transactionHash });

describe("createChainFollower", () => {
  it("reports each change once a block has `confirmations` on top of it, in log order, with its agent, block and transaction", async () => {
    const known = snapshotAgent("base");
    const f = await follower({ confirmations: 2, keysFromBlock: 0n });
    const published = await env.simulation.publish([await record(known.agentId, 90), await record(900_001, 40)]);
    const block = published.blockNumber!;
    const header = await devnet.clients.public.getBlock({ blockNumber: block });

    // The block is the head: 0 on top of it, then 1: not yet believed.
    for (const onTop of [0, 1]) {
      expect(await head()).toBe(block + BigInt(onTop));
      const early = await f.poll();
      expect(early.changes).toEqual([]);
      expect(early.confirmed === null || early.confirmed.number < block).toBe(true);
      if (onTop === 0) await mine();
    }
    await mine();
    const step = await f.poll();
    expect(step.head).toBe(block + 2n);
    expect(step.confirmed).toEqual({ number: block, hash: header.hash, timestamp: Number(header.timestamp) });
    expect(step.caughtUp).toBe(true);
    expect(step.reorg).toBeNull();
    // An update of a record the replay of RecordAdded named, then a new record, as the publish transaction logged them.
    expect(step.changes.map(summary)).toEqual([
      { kind: "record-updated", agentId: BigInt(known.agentId), block, tx: published.transactions[0] },
      { kind: "record-added", agentId: 900_001n, block, tx: published.transactions[0] },
    ]);
    const [updated, added] = step.changes as [OracleChange, OracleChange];
    expect(updated.logIndex).toBeLessThan(added.logIndex);
    expect(updated.agent).toEqual({ chain: "base", chainId: 8453, agentId: BigInt(known.agentId), registry: "erc8004" });
    expect(updated.key).toBe(keyOf(BigInt(known.agentId), 8453));
    expect(updated.record).not.toBeNull();
    expect(updated.contract).toBe(getAddress(env.oracle));
    expect(updated.block.hash).toBe(header.hash);
    expect(added.key).toBe(keyOf(900_001n, 8453));
    expect(f.agentOf(added.key!)).toEqual(added.agent);
    expect(f.position()!.last).toEqual(step.confirmed);
    // Nothing new: the next poll reports nothing and stays put.
    const again = await f.poll();
    expect(again).toMatchObject({ confirmed: null, changes: [], reorg: null, caughtUp: true });
    expect(f.position()!.last.number).toBe(block);
  });

  it("names no agent for a key no event or listing named, and the agent once learned", async () => {
    const known = snapshotAgent("polygon");
    const f = await follower(); // no replay: the snapshot's keys are unknown
    await env.simulation.publish([await record(known.agentId, 70, known.chainId)]);
    const { changes } = await drain(f);
    expect(changes.map((c) => [c.kind, c.agent])).toEqual([["record-updated", null]]);
    const key = keyOf(BigInt(known.agentId), known.chainId);
    expect(changes[0]!.key).toBe(key);
    expect(f.agentOf(key)).toBeNull();
    const agent: AgentRef = { chain: "polygon", chainId: 137, agentId: BigInt(known.agentId), registry: "erc8004" };
    f.learn(key, agent);
    expect(f.agentOf(key)).toEqual(agent);
    await env.simulation.publish([await record(known.agentId, 71, known.chainId)]);
    expect((await drain(f)).changes.map((c) => c.agent)).toEqual([agent]);
  });

  it("finds a reorg: names the common ancestor, the depth and the dropped change, and reports the new chain's changes only", async () => {
    const f = await follower({ confirmations: 1 });
    const ancestor = await head();
    const snapshot = await rpc("evm_snapshot");
    const dropped = await env.simulation.publish([await record(900_101, 60)]);
    await mine();
    const before = await f.poll();
    expect(before.changes.map((c) => c.agent?.agentId)).toEqual([900_101n]);
    expect(before.confirmed!.number).toBe(dropped.blockNumber);

    expect(await rpc("evm_revert", [snapshot])).toBe(true);
    const kept = await env.simulation.publish([await record(900_102, 61)]);
    await mine(3); // a longer chain than the dropped one
    const step = await f.poll();
    expect(step.reorg).not.toBeNull();
    expect(step.reorg!.commonAncestor).toBe(ancestor);
    expect(step.reorg!.depth).toBe(Number(dropped.blockNumber! - ancestor));
    expect(step.reorg!.dropped.map(summary)).toEqual([
      { kind: "record-added", agentId: 900_101n, block: dropped.blockNumber, tx: dropped.transactions[0] },
    ]);
    expect(step.changes.map(summary)).toEqual([
      { kind: "record-added", agentId: 900_102n, block: kept.blockNumber, tx: kept.transactions[0] },
    ]);
    expect(step.confirmed!.number).toBe((await head()) - 1n);
    // The new chain's block at the dropped block's number is another block.
    expect(step.changes[0]!.block.number).toBe(dropped.blockNumber);
    expect(step.changes[0]!.block.hash).not.toBe(before.changes[0]!.block.hash);
    // Nothing of the dropped block comes back.
    await mine();
    const after = await drain(f);
    expect(after.changes).toEqual([]);
    expect(after.steps.every((s) => s.reorg === null)).toBe(true);
  });

  it("refuses a reorg deeper than the blocks it keeps, naming the depth kept, and stays where it was", async () => {
    const f = await follower({ recentDepth: 2 });
    const snapshot = await rpc("evm_snapshot");
    await mine(4);
    await drain(f);
    const position = f.position()!;
    expect(position.recent.length).toBe(2);
    await rpc("evm_revert", [snapshot]);
    await env.simulation.publish([await record(900_201, 50)]); // another block at the first dropped number
    await mine(5);
    const error = await f.poll().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OracleReadError);
    expect((error as OracleReadError).shortMessage).toMatch(
      /a reorg dropped every block the follower keeps \(the last 2 processed, .*recentDepth 2\)/,
    );
    expect((error as OracleReadError).shortMessage).toContain(env.rpcUrl);
    expect(f.position()).toEqual(position);
  });

  it("resumes from another follower's position with no block reported twice and none missed", async () => {
    const first = await follower({ keysFromBlock: 0n });
    await env.simulation.publish([await record(900_301, 55)]);
    await drain(first);
    const saved = first.position()!;
    // Written after the position was saved: the resumed follower must report them, and nothing before.
    const later = [await env.simulation.publish([await record(900_301, 56)]), await env.simulation.publish([await record(900_302, 57)])];
    await mine(2);
    const resumed = await createChainFollower({ client, oracle: env.oracle, confirmations: 0, start: saved, keysFromBlock: 0n });
    const continued = await drain(first);
    const fromResumed = await drain(resumed);
    expect(fromResumed.changes.map(summary)).toEqual(continued.changes.map(summary));
    expect(fromResumed.changes.map(summary)).toEqual([
      { kind: "record-updated", agentId: 900_301n, block: later[0]!.blockNumber, tx: later[0]!.transactions[0] },
      { kind: "record-added", agentId: 900_302n, block: later[1]!.blockNumber, tx: later[1]!.transactions[0] },
    ]);
    expect(fromResumed.changes.every((c) => c.block.number > saved.last.number)).toBe(true);
    expect(resumed.position()!.last).toEqual(first.position()!.last);
  });

  it("resumed from a saved position, reports a later reorg of the blocks it kept with the changes they carried", async () => {
    const first = await follower();
    const ancestor = await head();
    const snapshot = await rpc("evm_snapshot");
    const dropped = await env.simulation.publish([await record(900_351, 52)]);
    await drain(first);
    const saved = first.position()!;
    expect(saved.last.number).toBe(dropped.blockNumber);
    // A new process: the saved position carries hashes only. Then the reorg.
    const resumed = await createChainFollower({ client, oracle: env.oracle, confirmations: 0, start: saved });
    expect(await rpc("evm_revert", [snapshot])).toBe(true);
    const kept = await env.simulation.publish([await record(900_352, 53)]);
    await mine(2);
    const step = await resumed.poll();
    expect(step.reorg).toEqual({
      commonAncestor: ancestor,
      depth: 1,
      dropped: [
        expect.objectContaining({
          kind: "record-added",
          agent: expect.objectContaining({ agentId: 900_351n }),
          transactionHash: dropped.transactions[0],
        }),
      ],
    });
    expect(step.reorg!.dropped[0]!.block).toEqual(saved.last);
    expect(step.changes.map(summary)).toEqual([
      { kind: "record-added", agentId: 900_352n, block: kept.blockNumber, tx: kept.transactions[0] },
    ]);
  });

  it("processes at most maxBlockRange blocks a poll: caughtUp false while more remain, true after enough polls", async () => {
    const from = (await head()) + 1n;
    const published: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      published.push((await env.simulation.publish([await record(900_401 + i, 62)])).blockNumber!);
      await mine(2);
    }
    const tip = await head();
    const f = await follower({ start: { fromBlock: from }, maxBlockRange: 3n });
    const { steps, changes } = await drain(f);
    const blocks = Number(tip - from + 1n);
    expect(steps.length).toBe(Math.ceil(blocks / 3));
    expect(steps.slice(0, -1).every((s) => !s.caughtUp)).toBe(true);
    expect(steps.at(-1)!.caughtUp).toBe(true);
    expect(steps.map((s) => s.confirmed!.number)).toEqual(
      steps.map((_, i) => (from + 3n * BigInt(i + 1) - 1n < tip ? from + 3n * BigInt(i + 1) - 1n : tip)),
    );
    expect(changes.map((c) => c.block.number)).toEqual(published);
  });

  it("follows the attested oracle's record, attestation and signing-key events, in log order", async () => {
    const attested = await devnet.deployAttestedOracle();
    const f = await follower({ attestedOracle: attested });
    await devnet.installServiceKey(attested);
    // A record of the stale chain no other test wrote: the service's attestation is newer, so the oracle stores it.
    const stale = env.snapshot.agents.filter((a) => a.chain === "polygon")[1]!;
    const response = await createTrustApiClient({ baseUrl: env.apiUrl }).trustCheck({ id: stale.agentId, chain: "polygon" });
    await submitTrustAttestation(devnet.clients, attested, response);
    await revokeTrustSigningKeys(devnet.clients, attested, ["rnwy-trust-v2"]);
    const { changes } = await drain(f);
    const key = keyOf(BigInt(stale.agentId), 137);
    const agent = { chain: "polygon", chainId: 137, agentId: BigInt(stale.agentId), registry: "erc8004" };
    expect(
      changes.map((c) => ({ kind: c.kind, contract: c.contract, key: c.key, agent: c.agent, kid: c.kid, kidHash: c.kidHash })),
    ).toEqual([
      { kind: "signing-key-set", contract: attested, key: null, agent: null, kid: "rnwy-trust-v2", kidHash: null },
      // RecordSignedBy comes first in the transaction, before the RecordAdded that names the agent: the key is not yet known.
      { kind: "record-signed-by", contract: attested, key, agent: null, kid: null, kidHash: keccak256(stringToBytes("rnwy-trust-v2")) },
      { kind: "record-added", contract: attested, key, agent, kid: null, kidHash: null },
      { kind: "signing-key-revoked", contract: attested, key: null, agent: null, kid: "rnwy-trust-v2", kidHash: null },
    ]);
    expect(f.agentOf(key)).toEqual(agent);
  });
});

describe("failures", () => {
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(env.rpcUrl);
    closers.push(() => proxy.close());
  });

  it("rejects a poll naming the endpoint and the cause when the RPC stops answering; the position is unchanged and the next poll misses nothing", async () => {
    const through = createPublicClient({ transport: http(proxy.url, { timeout: 300, retryCount: 0 }) });
    const f = await follower({ client: through });
    await mine();
    await drain(f);
    const position = f.position();
    const published = await env.simulation.publish([await record(900_501, 58)]);
    proxy.hang = true;
    const error = await f.poll().catch((e: unknown) => e);
    proxy.hang = false;
    expect(error).toBeInstanceOf(OracleReadError);
    expect((error as OracleReadError).shortMessage).toMatch(
      new RegExp(`at ${proxy.url}.* failed: eth_blockNumber: .*(timed out|took too long)`, "i"),
    );
    expect(f.position()).toEqual(position);
    const { changes } = await drain(f);
    expect(changes.map(summary)).toEqual([
      { kind: "record-added", agentId: 900_501n, block: published.blockNumber, tx: published.transactions[0] },
    ]);
  });

  it("rejects creation and polls naming a loopback port that never answers", async () => {
    const silent: Server = createServer(() => {}); // accepts connections, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const sockets = new Set<import("node:net").Socket>();
    silent.on("connection", (s) => sockets.add(s));
    closers.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const dead = createPublicClient({ transport: http(url, { timeout: 300, retryCount: 0 }) });
    await expect(
      createChainFollower({ client: dead, oracle: env.oracle, confirmations: 0, start: { fromBlock: 1n }, keysFromBlock: 0n }),
    ).rejects.toThrow(new RegExp(`at ${url} failed: replaying RecordAdded from block 0 to 0: .*(timed out|took too long)`, "i"));
    const f = await createChainFollower({ client: dead, oracle: env.oracle, confirmations: 0, start: { fromBlock: 1n } });
    await expect(f.poll()).rejects.toBeInstanceOf(OracleReadError);
    expect(f.position()).toBeNull();
  });

  it("retries a poll once when the chain moves under it, and reports the new chain's blocks", async () => {
    const through = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
    const f = await follower({ client: through, confirmations: 0 });
    await mine();
    await drain(f);
    const snapshot = await rpc("evm_snapshot");
    const gone = await env.simulation.publish([await record(900_601, 45)]);
    // Between the poll's eth_getLogs and its headers, the block with the log is replaced by another.
    let moved = false;
    proxy.beforeForward = async (body) => {
      if (moved || Array.isArray(body) || (body as { method?: string }).method !== "eth_getBlockByNumber") return;
      const logs = proxy.methods.filter((m) => m === "eth_getLogs").length;
      if (logs === 0) return;
      moved = true;
      await rpc("evm_revert", [snapshot]);
      await env.simulation.publish([await record(900_602, 46)]);
    };
    proxy.methods.length = 0;
    const step = await f.poll();
    proxy.beforeForward = undefined;
    expect(moved).toBe(true);
    expect(step.changes.map((c) => c.agent?.agentId)).toEqual([900_602n]);
    expect(step.changes[0]!.block.number).toBe(gone.blockNumber);
    expect(step.reorg).toBeNull(); // the dropped block was never processed
    // The poll was tried twice: two eth_blockNumber calls.
    expect(proxy.methods.filter((m) => m === "eth_blockNumber").length).toBe(2);
  });

  it("stops a poll when its signal aborts, the position unchanged, and reports the blocks at the next poll", async () => {
    const f = await follower();
    await mine();
    await drain(f);
    const position = f.position();
    const published = await env.simulation.publish([await record(900_701, 47)]);
    const controller = new AbortController();
    controller.abort(new Error("the watch is stopping"));
    await expect(f.poll(controller.signal)).rejects.toThrow("the watch is stopping");
    expect(f.position()).toEqual(position);
    // Aborted between its reads: the header reads never start.
    const late = new AbortController();
    const through = await follower({ client: createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }), start: position! });
    proxy.methods.length = 0;
    proxy.beforeForward = async (body) => {
      if (!Array.isArray(body) && (body as { method?: string }).method === "eth_getLogs") late.abort(new Error("stopped mid-poll"));
    };
    await expect(through.poll(late.signal)).rejects.toThrow("stopped mid-poll");
    proxy.beforeForward = undefined;
    expect(through.position()).toEqual(position);
    expect(proxy.methods.filter((m) => m === "eth_getBlockByNumber").length).toBe(1); // the reorg check only
    expect((await drain(through)).changes.map((c) => c.block.number)).toEqual([published.blockNumber]);
    expect((await drain(f)).changes.map((c) => c.block.number)).toEqual([published.blockNumber]);
  });

  it("refuses a bad confirmation count, block range, depth and record key", async () => {
    const fromBlock = { fromBlock: 0n };
    await expect(createChainFollower({ client, oracle: env.oracle, confirmations: -1, start: fromBlock })).rejects.toThrow(/confirmations/);
    await expect(
      createChainFollower({ client, oracle: env.oracle, confirmations: 0, start: fromBlock, maxBlockRange: 0n }),
    ).rejects.toThrow(/maxBlockRange/);
    await expect(createChainFollower({ client, oracle: env.oracle, confirmations: 0, start: fromBlock, recentDepth: 0 })).rejects.toThrow(
      /recentDepth/,
    );
    const f = await createChainFollower({ client, oracle: env.oracle, confirmations: 0, start: fromBlock });
    expect(() => f.learn("0x12" as Hex, { chain: "base", chainId: 8453, agentId: 1n, registry: "erc8004" })).toThrow(/32 bytes/);
    expect(f.agentOf("0x12" as Address)).toBeNull();
  });
});
