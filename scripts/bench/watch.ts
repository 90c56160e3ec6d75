/**
 * Benchmark of `trustgate watch`, three figures:
 *
 * - **Alert latency** on the devnet (the embedded local Base chain over HTTP with the reference oracle, and the local
 *   signing service): `runWatch` with the webhook sender posting to a receiver on loopback; records that flip the
 *   gate's decision are written one by one, each followed by `confirmations` mined blocks; per alert, the blocks and
 *   the milliseconds from the write's block to the signed alert's arrival at the receiver.
 * - **Memory over blocks**: the chain follower (`createChainFollower`) driven through 100,000 synthetic blocks by an
 *   in-memory EIP-1193 stand-in (viem's `custom` transport answering `eth_blockNumber`, `eth_getBlockByNumber` and
 *   `eth_getLogs`), each block carrying `RecordUpdated` events of a 150,000-key population, with each change raised in
 *   or cleared from the alert book over a bounded set of conditions; the heap after a full GC every 10,000 blocks.
 * - **The audit's requests per hour**: the slow audit's walk driven over one simulated hour with an injected clock, at
 *   the default share of the service's limit, without a key (30 a minute) and with one (300), against the limit.
 *
 * Figures, not assertions: `npm run bench` prints them beside the bound each is read against.
 *
 * @packageDocumentation
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import {
  type Address,
  createPublicClient,
  custom,
  encodeAbiParameters,
  encodeEventTopics,
  encodePacked,
  type Hex,
  keccak256,
  numberToHex,
  toHex,
} from "viem";
import { type AgentRef, agentKey } from "../../src/agent/agent-ref.js";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings.js";
import { trustScoreOracleAbi } from "../../src/oracle/abi.js";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift.js";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot.js";
import { publishTrustRecords } from "../../src/harness/devnet/publish-records.js";
import { createAlertBook } from "../../src/watch/alert-book.js";
import { auditRequestsPerHour, createAuditWalk, DEFAULT_AUDIT_SHARE } from "../../src/watch/audit-walk.js";
import { createChainFollower } from "../../src/watch/follow.js";
import type { Condition } from "../../src/watch/types.js";
import { runWatch } from "../../src/watch/watch.js";
import { createWebhookSender } from "../../src/watch/webhook.js";

/** The service's limits, requests a minute: without a key, and with one. */
export const SERVICE_LIMITS_PER_MINUTE = { anonymous: 30, withKey: 300 } as const;

// ---------------------------------------------------------------------------------------------------------------
// Alert latency on the devnet

/** Options of {@link measureAlertLatency}. */
export interface AlertLatencyOptions {
  /** Records written, one alert each (default 20). */
  readonly records?: number;
  /** `--confirmations` (default 2). */
  readonly confirmations?: number;
  /** `--poll-interval`, ms (default 500). */
  readonly pollIntervalMs?: number;
}

/** One alert's latency. */
export interface AlertLatencySample {
  /** Blocks from the write's block to the head when the alert arrived. */
  readonly blocks: number;
  /** Milliseconds from the write's block being mined to the alert's arrival. */
  readonly ms: number;
}

/** What {@link measureAlertLatency} found. */
export interface AlertLatencyResult {
  readonly samples: readonly AlertLatencySample[];
  readonly confirmations: number;
  readonly pollIntervalMs: number;
  /** Alerts that arrived with a signature header. */
  readonly signed: number;
}

/** The `q` quantile (0..1) of numbers, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Runs the watch on the devnet and writes records that flip the gate's decision, one at a time, each followed by the
 * confirmation depth in mined blocks; measures each alert's arrival at a loopback receiver.
 *
 * @param options - How many records, the confirmations and the poll interval.
 * @returns The samples, in the order written.
 */
export async function measureAlertLatency(options: AlertLatencyOptions = {}): Promise<AlertLatencyResult> {
  const records = options.records ?? 20;
  const confirmations = options.confirmations ?? 2;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const env = await startEmbeddedDriftEnvironment({ seed: 34, size: 400, faults: false, hardhatConfig: "standalone" });
  const dir = mkdtempSync(join(tmpdir(), "bench-watch-"));
  const arrivals = new Map<string, { readonly at: number; readonly signed: boolean }>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: string; state?: string };
      if (body.state === "firing" && typeof body.id === "string" && !arrivals.has(body.id)) {
        arrivals.set(body.id, { at, signed: typeof request.headers["x-trustgate-signature"] === "string" });
      }
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const controller = new AbortController();
  const sender = createWebhookSender({ url, format: "json", secret: "bench-hmac-key", deadLetter: join(dir, "dead-letter.jsonl") });
  const provider = env.simulation.provider;
  const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params } as never) as Promise<unknown>;
  let running: Promise<unknown> | undefined;
  try {
    // Follow from the next block: the snapshot's records are the history, the records written here the news; the
    // snapshot's RecordAdded events are replayed to name each key's agent (--events-from 0).
    const fromBlock = BigInt((await rpc("eth_blockNumber")) as Hex) + 1n;
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    running = runWatch(
      {
        rpcUrl: env.rpcUrl,
        oracle: env.oracle,
        apiUrl: env.apiUrl,
        issuer: env.issuer,
        jwks: env.jwksUrl,
        maxAgeSeconds: 36 * 3600,
        encoding: DEFAULT_TRUST_ENCODING,
        ratePerMinute: 60_000,
        readChunkSize: env.readChunkSize,
        confirmations,
        pollIntervalMs,
        fromBlock,
        keysFromBlock: 0n,
        cadence: { kind: "max-silence", seconds: 7 * 86_400 },
        auditShare: 0,
        reminderIntervalSeconds: 0,
      },
      { deliver: (message, signal) => sender.send(message, signal), signal: controller.signal, onReady: () => ready() },
    );
    await Promise.race([started, running]);
    const changed = new Set([...env.expectations.changedKeys, ...env.expectations.staleKeys]);
    const agents = env.served.agents
      .filter((agent) => agent.chain === "base" && !changed.has(`${agent.chain}:${agent.registry}:${agent.agentId}`))
      .slice(0, records);
    if (agents.length < records) throw new Error(`the devnet has ${agents.length} unchanged Base agents, fewer than ${records}`);
    const samples: AlertLatencySample[] = [];
    let signed = 0;
    for (const agent of agents) {
      const [record] = snapshotRecords([agent]);
      const moved = agent.score >= 51 ? { score: 20, tier: 1 } : { score: 90, tier: 3 };
      const timestamp = BigInt(((await rpc("eth_getBlockByNumber", ["latest", false])) as { timestamp: Hex }).timestamp);
      const written = await publishTrustRecords(provider, {
        oracle: env.oracle,
        publisher: env.simulation.publisher,
        records: [{ ...record!, ...moved, updatedAt: Number(timestamp) }],
      });
      const wroteAt = performance.now();
      for (let i = 0; i < confirmations; i++) await rpc("evm_mine");
      // The record now fails where the service's score passes (fail-to-pass), or the other way round.
      const id = `${agent.score >= 51 ? "fail-to-pass" : "pass-to-fail"}:${agentKey({ chain: agent.chain, registry: agent.registry, agentId: BigInt(agent.agentId) })}`;
      const deadline = wroteAt + 120_000;
      let arrival: { readonly at: number; readonly signed: boolean } | undefined;
      while (!arrival) {
        arrival = arrivals.get(id);
        if (!arrival && performance.now() > deadline) throw new Error(`no alert for ${agent.chain}:${agent.agentId} within 120 s`);
        if (!arrival) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const head = BigInt((await rpc("eth_blockNumber")) as Hex);
      samples.push({ blocks: Number(head - written.blockNumber!), ms: arrival.at - wroteAt });
      if (arrival.signed) signed++;
    }
    return { samples, confirmations, pollIntervalMs, signed };
  } finally {
    controller.abort();
    await running?.catch(() => undefined);
    await sender.idle();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Memory over blocks

/** Options of {@link measureFollowerMemory}. */
export interface FollowerMemoryOptions {
  /** Blocks of simulated history (default 100,000). */
  readonly blocks?: number;
  /** Keys of the population (default 150,000). */
  readonly population?: number;
  /** `RecordUpdated` events per block (default 2). */
  readonly eventsPerBlock?: number;
  /** Blocks between heap samples (default 10,000): a multiple of `blocksPerPoll`, so that each sample falls on a poll. */
  readonly sampleEvery?: number;
  /** The follower's `maxBlockRange`: blocks a poll processes at most (default 2,000, the follower's own). */
  readonly blocksPerPoll?: number;
  /** Conditions the alert book may hold at once: the changes of agents `i % conditions === 0`… (default 1,000). */
  readonly conditions?: number;
}

/** One heap sample. */
export interface HeapSample {
  /** The last block processed when sampled. */
  readonly block: number;
  /** `heapUsed` after a full GC, bytes. */
  readonly heapUsed: number;
}

/** What {@link measureFollowerMemory} found. */
export interface FollowerMemoryResult {
  /** Heap after the follower was created with the population's keys, before the first block. */
  readonly start: HeapSample;
  /** Samples every `sampleEvery` blocks. */
  readonly samples: readonly HeapSample[];
  readonly blocks: number;
  readonly population: number;
  readonly changes: number;
  readonly polls: number;
  /** Alerts outstanding at the end. */
  readonly outstanding: number;
  readonly ms: number;
}

/** A full GC, through the flag the process may not have been started with. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}

/** A block's synthetic hash: its number, so that the chain never reorgs under the follower. */
const blockHash = (number: number): Hex => toHex(BigInt(number) + 0xb10c_0000_0000n, { size: 32 });

/**
 * Drives the follower through synthetic history (see the module notes) and samples the heap after a full GC.
 *
 * @param options - The history's size, the population and the sampling.
 * @returns The samples.
 */
export async function measureFollowerMemory(options: FollowerMemoryOptions = {}): Promise<FollowerMemoryResult> {
  const blocks = options.blocks ?? 100_000;
  const population = options.population ?? 150_000;
  const perBlock = options.eventsPerBlock ?? 2;
  const sampleEvery = options.sampleEvery ?? 10_000;
  const conditions = options.conditions ?? 1_000;
  const blocksPerPoll = options.blocksPerPoll ?? 2_000;
  const oracle: Address = "0x00000000000000000000000000000000000b3e0c";
  const agents: AgentRef[] = [];
  const keys: Hex[] = [];
  for (let i = 0; i < population; i++) {
    const agent: AgentRef = { chain: "base", chainId: 8453, agentId: BigInt(i + 1), registry: "erc8004" } as AgentRef;
    agents.push(agent);
    keys.push(keccak256(encodePacked(["uint256", "uint256", "string"], [BigInt(i + 1), 8453n, "erc8004"])));
  }
  const [updatedTopic] = encodeEventTopics({ abi: trustScoreOracleAbi, eventName: "RecordUpdated" }) as [Hex];
  const genesisTime = 1_790_000_000;
  const head = blocks; // blocks 1..head; with confirmations 0 every one is processed
  const keyIndex = (block: number, j: number) => ((block * perBlock + j) * 7_919) % population;
  const header = (number: number) => ({
    number: numberToHex(number),
    hash: blockHash(number),
    parentHash: blockHash(number - 1),
    timestamp: numberToHex(genesisTime + 2 * number),
    nonce: "0x0000000000000000",
    difficulty: "0x0",
    totalDifficulty: "0x0",
    gasLimit: "0x1c9c380",
    gasUsed: "0x0",
    baseFeePerGas: "0x1",
    miner: "0x0000000000000000000000000000000000000000",
    extraData: "0x",
    logsBloom: `0x${"0".repeat(512)}`,
    mixHash: blockHash(0),
    sha3Uncles: blockHash(0),
    stateRoot: blockHash(0),
    receiptsRoot: blockHash(0),
    transactionsRoot: blockHash(0),
    size: "0x200",
    transactions: [],
    uncles: [],
  });
  const logsOf = (from: number, to: number, addresses: readonly string[]) => {
    if (!addresses.some((address) => address.toLowerCase() === oracle.toLowerCase())) return [];
    const logs = [];
    for (let number = Math.max(1, from); number <= Math.min(to, head); number++) {
      for (let j = 0; j < perBlock; j++) {
        const index = keyIndex(number, j);
        logs.push({
          address: oracle,
          topics: [updatedTopic, keys[index]!],
          data: encodeAbiParameters([{ type: "uint256" }], [BigInt(genesisTime + 2 * number) << 64n]),
          blockNumber: numberToHex(number),
          blockHash: blockHash(number),
          transactionHash: toHex(BigInt(number) * 16n + BigInt(j), { size: 32 }),
          transactionIndex: numberToHex(j),
          logIndex: numberToHex(j),
          removed: false,
        });
      }
    }
    return logs;
  };
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    const args = (params ?? []) as unknown[];
    switch (method) {
      case "eth_chainId":
        return numberToHex(8453);
      case "eth_blockNumber":
        return numberToHex(head);
      case "eth_getBlockByNumber": {
        const tag = args[0] as string;
        const number = tag === "latest" || tag === "safe" || tag === "finalized" ? head : Number(BigInt(tag));
        return number > head ? null : header(number);
      }
      case "eth_getBlockByHash":
        return header(Number(BigInt(args[0] as Hex) - 0xb10c_0000_0000n));
      case "eth_getLogs": {
        const filter = args[0] as { address?: string | string[]; fromBlock: Hex; toBlock: Hex; blockHash?: Hex };
        const addresses = filter.address === undefined ? [oracle] : Array.isArray(filter.address) ? filter.address : [filter.address];
        if (filter.blockHash) {
          const number = Number(BigInt(filter.blockHash) - 0xb10c_0000_0000n);
          return logsOf(number, number, addresses);
        }
        return logsOf(Number(BigInt(filter.fromBlock)), Number(BigInt(filter.toBlock)), addresses);
      }
      default:
        throw new Error(`the stand-in does not answer ${method}`);
    }
  };
  const client = createPublicClient({ transport: custom({ request }) });
  const started = performance.now();
  const follower = await createChainFollower({
    client,
    oracle,
    confirmations: 0,
    start: { fromBlock: 1n },
    maxBlockRange: BigInt(blocksPerPoll),
    keys: keys.map((key, i) => [key, agents[i]!] as const),
  });
  const now = new Date(genesisTime * 1000);
  const book = createAlertBook({ reminderIntervalSeconds: 0, now: () => now });
  const condition = (index: number): Condition => ({
    kind: "pass-to-fail",
    id: `pass-to-fail:base:${index + 1}:erc8004`,
    agent: `base:${index + 1}`,
    summary: `base:${index + 1} would be refused on its attestation`,
    before: null,
    after: null,
    decision: { onchain: true, attested: false },
    evidence: {
      blockNumber: null,
      transactionHash: null,
      kid: null,
      issuedAt: null,
      expiresAt: null,
      recordUpdatedAt: null,
      details: [],
    },
  });
  collectGarbage();
  const start: HeapSample = { block: 0, heapUsed: process.memoryUsage().heapUsed };
  const samples: HeapSample[] = [];
  let changes = 0;
  let polls = 0;
  let nextSample = sampleEvery;
  for (;;) {
    const step = await follower.poll();
    polls++;
    for (const change of step.changes) {
      changes++;
      if (change.agent === null) continue;
      const index = Number(change.agent.agentId) - 1;
      // A bounded set of conditions: half the residues raise one of `conditions` problems, the other half clear one.
      const slot = index % (2 * conditions);
      if (slot < conditions) book.raise(condition(slot));
      else book.clear(condition(slot - conditions).id);
    }
    const processed = Number(follower.position()?.last.number ?? 0n);
    if (processed >= nextSample) {
      collectGarbage();
      samples.push({ block: processed, heapUsed: process.memoryUsage().heapUsed });
      nextSample = (Math.floor(processed / sampleEvery) + 1) * sampleEvery;
    }
    if (processed >= head) break;
    if (polls > blocks) throw new Error("the follower made no progress");
  }
  return {
    start,
    samples,
    blocks,
    population,
    changes,
    polls,
    outstanding: book.outstanding().length,
    ms: performance.now() - started,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The audit's requests per hour

/** What {@link measureAuditRate} found at one limit. */
export interface AuditRateResult {
  /** The service's limit, requests a minute. */
  readonly ratePerMinute: number;
  readonly share: number;
  /** `auditRequestsPerHour`: what the audit may spend an hour. */
  readonly computedPerHour: number;
  /** Agents the walk handed out over the simulated hour (one request each). */
  readonly measuredPerHour: number;
  /** The limit, requests an hour. */
  readonly limitPerHour: number;
  /** Hours for one pass over the population at the measured rate. */
  readonly passHours: number;
}

/**
 * Drives the audit walk over one simulated hour with an injected clock, asked every `tickMs` (the loop's poll).
 *
 * @param ratePerMinute - The limiter's rate.
 * @param options - The population's size, the share, and how often the loop asks.
 * @returns The computed and measured requests an hour against the limit.
 */
export function measureAuditRate(
  ratePerMinute: number,
  options: { readonly population?: number; readonly share?: number; readonly tickMs?: number } = {},
): AuditRateResult {
  const size = options.population ?? 150_000;
  const share = options.share ?? DEFAULT_AUDIT_SHARE;
  const tickMs = options.tickMs ?? 4_000;
  const population: AgentRef[] = Array.from(
    { length: size },
    (_, i) => ({ chain: "base", chainId: 8453, agentId: BigInt(i + 1), registry: "erc8004" }) as AgentRef,
  );
  const t0 = Date.UTC(2026, 10, 29, 3, 0, 0);
  const walk = createAuditWalk(population, { ratePerMinute, share, now: new Date(t0) });
  let measured = 0;
  for (let t = t0 + tickMs; t <= t0 + 3_600_000; t += tickMs) measured += walk.next(new Date(t)).length;
  return {
    ratePerMinute,
    share,
    computedPerHour: auditRequestsPerHour(ratePerMinute, share),
    measuredPerHour: measured,
    limitPerHour: ratePerMinute * 60,
    passHours: size / measured,
  };
}
