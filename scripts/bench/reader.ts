/**
 * Throughput of the oracle reader on the in-process Hardhat network: records read per second through
 * Multicall3 (`readTrustRecords`), against one `eth_call` per record made one after the other on the same node
 * (`readTrustRecord` in a loop), and, for comparison, viem's own `multicall` action over the same calls.
 * Figures, not assertions.
 *
 * On the in-process network a request costs no round trip, so batching saves little there: what a batch saves
 * is the round trips to a remote node. `latencyMs` adds a fixed delay to every request to show that case.
 */
import hre from "hardhat";
import { createPublicClient, custom, defineChain, getAddress, type Address, type PublicClient } from "viem";
import { TrustScoreOracle__factory } from "../../typechain-types";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses";
import { installMulticall3 } from "../../src/devnet/multicall3";
import { trustOracleAbi } from "../../src/oracle/abi";
import { DEFAULT_CHUNK_SIZE, DEFAULT_CONCURRENCY, readTrustRecord, readTrustRecords } from "../../src/oracle/reader";

/** Options of {@link measureReaderThroughput}. */
export interface ReaderThroughputOptions {
  /** Records published and read through Multicall3 (default 2,000). */
  readonly records?: number;
  /** Records read one `eth_call` at a time (default: all of them, at most 2,000); the rate is per record. */
  readonly sequentialRecords?: number;
  /** `chunkSize` of the batch reader (default the reader's). */
  readonly chunkSize?: number;
  /** `concurrency` of the batch reader (default the reader's). */
  readonly concurrency?: number;
  /** Timed repetitions of each measurement; the fastest is kept (default 3). */
  readonly rounds?: number;
  /**
   * Delay added to every JSON-RPC request, in milliseconds (default 0): models the round trip to a remote node,
   * which the in-process network does not have. 0 measures the in-process network as it is.
   */
  readonly latencyMs?: number;
}

/** One measured way of reading. */
export interface ReaderRate {
  /** Records read in one timed run. */
  readonly records: number;
  /** Wall time of the fastest run, in milliseconds. */
  readonly milliseconds: number;
  /** Records per second of the fastest run. */
  readonly recordsPerSecond: number;
  /** JSON-RPC requests made in one run. */
  readonly requests: number;
}

/** Result of {@link measureReaderThroughput}. */
export interface ReaderThroughput {
  /** `readTrustRecords`: chunks of `chunkSize` through Multicall3 `aggregate3`. */
  readonly multicall: ReaderRate;
  /** `readTrustRecord` once per record, sequentially: one `eth_call` each. */
  readonly sequential: ReaderRate;
  /** viem's `multicall` action over the same `getScore` calls (chunked by calldata size to the same chunk size). */
  readonly viemMulticall: ReaderRate;
  /** `multicall.recordsPerSecond / sequential.recordsPerSecond`. */
  readonly ratio: number;
  /** The batch reader's `chunkSize`. */
  readonly chunkSize: number;
  /** The batch reader's `concurrency`. */
  readonly concurrency: number;
  /** The delay added to each request, in milliseconds. */
  readonly latencyMs: number;
}

/**
 * Publishes `records` records into a fresh `TrustScoreOracle` on the in-process Hardhat network, installs
 * Multicall3, and times the three ways of reading them back (each checked to read every record).
 *
 * @param options - Sizes and settings.
 * @returns The rates and the Multicall3 : sequential ratio.
 */
export async function measureReaderThroughput(options: ReaderThroughputOptions = {}): Promise<ReaderThroughput> {
  const records = options.records ?? 2_000;
  const latencyMs = options.latencyMs ?? 0;
  const sequentialRecords = Math.min(options.sequentialRecords ?? (latencyMs > 0 ? 100 : 2_000), records);
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const rounds = options.rounds ?? 3;

  const [deployer] = await hre.ethers.getSigners();
  const oracle = await new TrustScoreOracle__factory(deployer!).deploy(deployer!.address);
  const oracleAddress = getAddress(await oracle.getAddress());
  await installMulticall3(hre.network.provider);
  const now = (await hre.ethers.provider.getBlock("latest"))!.timestamp;
  const published = Array.from({ length: records }, (_, i) => ({
    agentId: BigInt(i + 1),
    chainId: 8453n,
    registry: "erc8004",
    score: i % 96,
    tier: i % 4,
    sybilSeverity: i % 5,
    updatedAt: now - (i % 86_400),
  }));
  for (let i = 0; i < records; i += 500) await oracle.publish(published.slice(i, i + 500));
  const keys = published.map(({ agentId, chainId, registry }) => ({ agentId, chainId, registry }));

  let requests = 0;
  const chain = defineChain({
    id: hre.network.config.chainId ?? 31337,
    name: "Hardhat",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
  const client = createPublicClient({
    chain,
    transport: custom({
      request: async ({ method, params }: { method: string; params?: unknown }) => {
        requests++;
        if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
        return hre.network.provider.request({ method, params: params as unknown[] });
      },
    }),
  }) as PublicClient;

  const time = async (count: number, run: () => Promise<number>): Promise<ReaderRate> => {
    await run(); // warm-up
    let best = Infinity;
    let made = 0;
    for (let r = 0; r < rounds; r++) {
      collectGarbage();
      requests = 0;
      const start = performance.now();
      const ok = await run();
      best = Math.min(best, performance.now() - start);
      made = requests;
      if (ok !== count) throw new Error(`read ${ok} of ${count} records`);
    }
    return { records: count, milliseconds: best, recordsPerSecond: (count / best) * 1000, requests: made };
  };

  const multicall = await time(records, async () => {
    const results = await readTrustRecords(client, { oracle: oracleAddress, keys, chunkSize, concurrency });
    return results.filter((r) => r.ok && r.hasScore).length;
  });
  const sequential = await time(sequentialRecords, async () => {
    let ok = 0;
    for (const key of keys.slice(0, sequentialRecords)) {
      const result = await readTrustRecord(client, { oracle: oracleAddress, ...key });
      if (result.ok && result.hasScore) ok++;
    }
    return ok;
  });
  const getScoreCallBytes = 4 + 5 * 32; // selector, three head words, string length and one data word
  const viemMulticall = await time(records, async () => {
    const results = await client.multicall({
      contracts: keys.map((k) => ({
        address: oracleAddress as Address,
        abi: trustOracleAbi,
        functionName: "getScore" as const,
        args: [k.agentId, k.chainId, k.registry] as const,
      })),
      batchSize: chunkSize * getScoreCallBytes,
    });
    return results.filter((r) => r.status === "success" && r.result[3] !== 0).length;
  });
  return {
    multicall,
    sequential,
    viemMulticall,
    ratio: multicall.recordsPerSecond / sequential.recordsPerSecond,
    chunkSize,
    concurrency,
    latencyMs,
  };
}

/** Runs a full garbage collection before a timed run when Node was started with `--expose-gc` (less noise). */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
