/**
 * Throughput of the oracle reader against a node that looks hosted: the in-process Hardhat network served as
 * a JSON-RPC node on loopback, reached through {@link startLatencyProxy}, which adds a fixed delay to every
 * HTTP request (the round trip to a hosted Base endpoint) and refuses JSON-RPC batches larger than a
 * provider's limit. Side by side, over the same records and the same proxy:
 *
 * - `readTrustRecords`: Multicall3 `aggregate3` chunks (`chunkSize` reads each, `concurrency` in flight), the
 *   kit's batch reader;
 * - one `eth_call` per record, as the reader sends them on a chain without Multicall3 (`mode: "eth-call"`,
 *   `concurrency` in flight);
 * - one `eth_call` per record sent as JSON-RPC batches of the provider's limit (viem's `http` batching);
 * - viem's `multicall` action, and viem's client-side `batch.multicall` aggregation of concurrent `eth_call`s,
 *   both chunked to the same number of reads per `aggregate3`.
 *
 * Figures, not assertions. Every way is checked to read every record.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { readContract } from "viem/actions";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses";
import { startLocalChain } from "../../src/harness/devnet/local-chain";
import { installMulticall3 } from "../../src/harness/devnet/multicall3";
import { trustOracleAbi, trustScoreOracleAbi } from "../../src/oracle/abi";
import { DEFAULT_CHUNK_SIZE, DEFAULT_CONCURRENCY, readTrustRecords } from "../../src/oracle/reader";
import { startLatencyProxy } from "./latency-proxy";

/** One network condition to measure under. */
export interface ReaderScenario {
  /** Name in the printed table. */
  readonly label: string;
  /** Delay added to every HTTP request, in milliseconds (0: the loopback node as it is, through the proxy). */
  readonly latencyMs: number;
  /** Most JSON-RPC calls per HTTP batch the "provider" accepts (default: no limit). */
  readonly maxBatchSize?: number;
  /** Other `readTrustRecords` settings to time under this scenario (default none). */
  readonly tuning?: readonly ReaderTuning[];
}

/** A chunk size and in-flight count of `readTrustRecords` to try besides the measured one. */
export interface ReaderTuning {
  readonly chunkSize: number;
  readonly concurrency: number;
}

/** Options of {@link measureReaderThroughput}. */
export interface ReaderThroughputOptions {
  /** Records published and read by the batch readers (default 2,000). */
  readonly records?: number;
  /**
   * Records read one `eth_call` each, the first of them; the rate is per record (default: all at 0 ms, 200
   * with a delay, where each takes a round trip).
   */
  readonly perRecordSample?: number;
  /** `chunkSize` of `readTrustRecords`, and reads per `aggregate3` of viem's multicalls (default the reader's). */
  readonly chunkSize?: number;
  /** Requests in flight of `readTrustRecords`, in both of its modes (default the reader's). */
  readonly concurrency?: number;
  /** Timed rounds; each round runs every way once, and the fastest run of each way is kept (default 3). */
  readonly rounds?: number;
  /** The network conditions (default: 0 ms and 40 ms, no batch limit). */
  readonly scenarios?: readonly ReaderScenario[];
}

/** One measured way of reading. */
export interface ReaderRate {
  /** Records read in one timed run. */
  readonly records: number;
  /** Wall time of the fastest run, in milliseconds. */
  readonly milliseconds: number;
  /** Records per second of the fastest run. */
  readonly recordsPerSecond: number;
  /** HTTP requests one run made. */
  readonly httpRequests: number;
  /** JSON-RPC calls one run made (a batch counts its members). */
  readonly calls: number;
}

/** The figures of one scenario. */
export interface ReaderScenarioResult {
  /** The scenario. */
  readonly scenario: ReaderScenario;
  /** `readTrustRecords` (Multicall3 `aggregate3` chunks). */
  readonly multicall: ReaderRate;
  /** One `eth_call` per record, `concurrency` in flight (`readTrustRecords` in `eth-call` mode). */
  readonly perRecord: ReaderRate;
  /** One `eth_call` per record, all issued at once, sent as JSON-RPC batches of `maxBatchSize` (viem `http` batching). */
  readonly jsonRpcBatch: ReaderRate;
  /** viem's `multicall` action (all chunks at once). */
  readonly viemMulticall: ReaderRate;
  /** viem's `batch.multicall`: concurrent `readContract` calls aggregated into `aggregate3` by the client. */
  readonly viemBatchMulticall: ReaderRate;
  /** `multicall.recordsPerSecond / perRecord.recordsPerSecond`. */
  readonly ratio: number;
  /** `readTrustRecords` with the other settings asked for. */
  readonly tuning: ReadonlyArray<ReaderTuning & { readonly rate: ReaderRate }>;
  /** Batches the proxy refused over the whole scenario (0 when every reader kept to the limit). */
  readonly refusedBatches: number;
}

/** Result of {@link measureReaderThroughput}. */
export interface ReaderThroughput {
  /** The batch reader's `chunkSize`. */
  readonly chunkSize: number;
  /** The batch reader's `concurrency`. */
  readonly concurrency: number;
  /** Records published. */
  readonly records: number;
  /** One result per scenario, in order. */
  readonly scenarios: readonly ReaderScenarioResult[];
}

/** The default scenarios: the loopback node as it is, and 40 ms per request (a hosted Base endpoint). */
export const DEFAULT_READER_SCENARIOS: readonly ReaderScenario[] = [
  { label: "loopback node, 0 ms", latencyMs: 0 },
  { label: "hosted-like, 40 ms per request", latencyMs: 40 },
];

/** Calldata bytes of one `getScore` call as viem counts them for `batchSize`: selector, three head words, string length and one data word. */
const GET_SCORE_CALL_BYTES = 4 + 5 * 32;

/**
 * Publishes `records` records into a fresh `TrustScoreOracle` on the in-process Hardhat network served on
 * loopback, installs Multicall3, and times each way of reading them back under each scenario.
 *
 * @param options - Sizes, settings and scenarios.
 * @returns The rates per scenario.
 */
export async function measureReaderThroughput(options: ReaderThroughputOptions = {}): Promise<ReaderThroughput> {
  const records = options.records ?? 2_000;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const rounds = options.rounds ?? 3;
  const scenarios = options.scenarios ?? DEFAULT_READER_SCENARIOS;

  const local = await startLocalChain({ chainId: 8453, http: true });
  try {
    const chain = defineChain({
      id: local.chainId,
      name: "Local Base",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [local.rpcUrl!] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    });
    const { oracle, keys } = await publishRecords(local.provider, chain, records);

    const results: ReaderScenarioResult[] = [];
    for (const scenario of scenarios) {
      const proxy = await startLatencyProxy({
        upstream: local.rpcUrl!,
        latencyMs: scenario.latencyMs,
        ...(scenario.maxBatchSize === undefined ? {} : { maxBatchSize: scenario.maxBatchSize }),
      });
      try {
        const plain = createPublicClient({ chain, transport: http(proxy.url, { retryCount: 0 }) }) as PublicClient;
        const batchSize = scenario.maxBatchSize ?? 1_000;
        const jsonRpcBatching = createPublicClient({
          chain,
          transport: http(proxy.url, { retryCount: 0, batch: { batchSize, wait: 0 } }),
        }) as PublicClient;
        const multicallBatching = createPublicClient({
          chain,
          transport: http(proxy.url, { retryCount: 0 }),
          batch: { multicall: { batchSize: chunkSize * GET_SCORE_CALL_BYTES, wait: 0 } },
        }) as PublicClient;
        const sample = Math.min(options.perRecordSample ?? (scenario.latencyMs > 0 ? 200 : records), records);

        /** One timed run of a way of reading: the records it read, its wall time and the proxy's counts. */
        const timeOnce = async (count: number, run: () => Promise<number>): Promise<ReaderRate> => {
          collectGarbage();
          const before = proxy.stats();
          const start = performance.now();
          const ok = await run();
          const milliseconds = performance.now() - start;
          if (ok !== count) throw new Error(`read ${ok} of ${count} records`);
          const after = proxy.stats();
          return {
            records: count,
            milliseconds,
            recordsPerSecond: (count / milliseconds) * 1000,
            httpRequests: after.httpRequests - before.httpRequests,
            calls: after.calls - before.calls,
          };
        };
        const batchReader = (settings: ReaderTuning) => async () => {
          const read = await readTrustRecords(plain, { oracle, keys, chunkSize: settings.chunkSize, concurrency: settings.concurrency });
          return read.filter((r) => r.ok && r.hasScore).length;
        };
        const sampleKeys = keys.slice(0, sample);
        const contracts = (list: typeof keys) =>
          list.map((k) => ({
            address: oracle,
            abi: trustOracleAbi,
            functionName: "getScore" as const,
            args: [k.agentId, k.chainId, k.registry] as const,
          }));

        const ways: Array<{ count: number; run: () => Promise<number> }> = [
          { count: records, run: batchReader({ chunkSize, concurrency }) },
          {
            count: sample,
            run: async () => {
              const read = await readTrustRecords(plain, { oracle, keys: sampleKeys, concurrency, mode: "eth-call" });
              return read.filter((r) => r.ok && r.hasScore).length;
            },
          },
          {
            count: sample,
            run: async () => {
              const read = await Promise.all(contracts(sampleKeys).map((c) => readContract(jsonRpcBatching, c)));
              return read.filter((r) => r[3] !== 0).length;
            },
          },
          {
            count: records,
            run: async () => {
              const read = await plain.multicall({ contracts: contracts(keys), batchSize: chunkSize * GET_SCORE_CALL_BYTES });
              return read.filter((r) => r.status === "success" && r.result[3] !== 0).length;
            },
          },
          {
            count: records,
            run: async () => {
              const read = await Promise.all(contracts(keys).map((c) => readContract(multicallBatching, c)));
              return read.filter((r) => r[3] !== 0).length;
            },
          },
          ...(scenario.tuning ?? []).map((settings) => ({ count: records, run: batchReader(settings) })),
        ];
        // A warm-up run of each, then the rounds interleaved (each round runs every way once), so that a change
        // in the machine's load during the run falls on every way alike; the fastest run of each is kept.
        for (const way of ways) await way.run();
        const best: ReaderRate[] = [];
        for (let r = 0; r < rounds; r++) {
          for (const [i, way] of ways.entries()) {
            const rate = await timeOnce(way.count, way.run);
            if (best[i] === undefined || rate.milliseconds < best[i]!.milliseconds) best[i] = rate;
          }
        }
        const [multicall, perRecord, jsonRpcBatch, viemMulticall, viemBatchMulticall, ...tuned] = best as [
          ReaderRate,
          ReaderRate,
          ReaderRate,
          ReaderRate,
          ReaderRate,
          ...ReaderRate[],
        ];
        const tuning = (scenario.tuning ?? []).map((settings, i) => ({ ...settings, rate: tuned[i]! }));
        results.push({
          scenario,
          multicall,
          perRecord,
          jsonRpcBatch,
          viemMulticall,
          viemBatchMulticall,
          ratio: multicall.recordsPerSecond / perRecord.recordsPerSecond,
          tuning,
          refusedBatches: proxy.stats().refusedBatches,
        });
      } finally {
        await proxy.close();
      }
    }
    return { chunkSize, concurrency, records, scenarios: results };
  } finally {
    await local.close();
  }
}

/** Deploys a `TrustScoreOracle`, installs Multicall3 and publishes `records` records (500 per transaction). */
async function publishRecords(
  provider: Parameters<typeof custom>[0],
  chain: Chain,
  records: number,
): Promise<{ oracle: Address; keys: Array<{ agentId: bigint; chainId: bigint; registry: string }> }> {
  const [deployer] = (await provider.request({ method: "eth_accounts" })) as Address[];
  const wallet = createWalletClient({ account: deployer!, chain, transport: custom(provider) });
  const setup = createPublicClient({ chain, transport: custom(provider) });
  const artifact = JSON.parse(
    readFileSync(resolve(__dirname, "../../artifacts/contracts/oracle/TrustScoreOracle.sol/TrustScoreOracle.json"), "utf8"),
  ) as { abi: Abi; bytecode: Hex };
  const deployed = await setup.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [deployer!] }),
  });
  const oracle = getAddress(deployed.contractAddress!);
  await installMulticall3(provider as Parameters<typeof installMulticall3>[0]);
  const now = Number((await setup.getBlock()).timestamp);
  const published = Array.from({ length: records }, (_, i) => ({
    agentId: BigInt(i + 1),
    chainId: 8453n,
    registry: "erc8004",
    score: i % 96,
    tier: i % 4,
    sybilSeverity: i % 5,
    updatedAt: now - (i % 86_400),
  }));
  for (let i = 0; i < records; i += 500) {
    const hash = await wallet.writeContract({
      address: oracle,
      abi: trustScoreOracleAbi,
      functionName: "publish",
      args: [published.slice(i, i + 500)],
    });
    await setup.waitForTransactionReceipt({ hash });
  }
  return { oracle, keys: published.map(({ agentId, chainId, registry }) => ({ agentId, chainId, registry })) };
}

/** Runs a full garbage collection before a timed run when Node was started with `--expose-gc` (less noise). */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
