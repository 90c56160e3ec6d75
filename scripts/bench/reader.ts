/**
 * Throughput of the oracle reader on the in-process Hardhat network: records read per second through
 * Multicall3 (`readTrustRecords`), against one `eth_call` per record made one after the other on the same node
 * (`readTrustRecord` in a loop), and, for comparison, viem's own `multicall` action over the same calls.
 * Figures, not assertions.
 *
 * On the in-process network a request costs no round trip, so batching saves little there: what a batch saves
 * is the round trips to a remote node. `latencyMs` adds a fixed delay to every request to show that case.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses";
import { startLocalChain } from "../../src/harness/devnet/local-chain";
import { installMulticall3 } from "../../src/harness/devnet/multicall3";
import { trustOracleAbi, trustScoreOracleAbi } from "../../src/oracle/abi";
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
  /**
   * How the reader reaches the node: `"http"` (default) serves the in-process network as a JSON-RPC node on
   * loopback (127.0.0.1, as `hardhat node` does) and reads it through viem's `http` transport, like `--rpc`;
   * `"in-process"` calls the provider directly, with no HTTP at all.
   */
  readonly transport?: "http" | "in-process";
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
  /** How the node was reached. */
  readonly transport: "http" | "in-process";
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

  const transportKind = options.transport ?? "http";
  const local = await startLocalChain({ chainId: 8453, http: transportKind === "http" });
  const chain = defineChain({
    id: local.chainId,
    name: "Local Base",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [local.rpcUrl ?? "http://127.0.0.1"] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
  const [deployer] = (await local.provider.request({ method: "eth_accounts" })) as Address[];
  const wallet = createWalletClient({ account: deployer!, chain, transport: custom(local.provider) });
  const setup = createPublicClient({ chain, transport: custom(local.provider) });
  const artifact = JSON.parse(
    readFileSync(resolve(__dirname, "../../artifacts/contracts/oracle/TrustScoreOracle.sol/TrustScoreOracle.json"), "utf8"),
  ) as { abi: Abi; bytecode: Hex };
  const deployed = await setup.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [deployer!] }),
  });
  const oracleAddress = getAddress(deployed.contractAddress!);
  await installMulticall3(local.provider);
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
      address: oracleAddress,
      abi: trustScoreOracleAbi,
      functionName: "publish",
      args: [published.slice(i, i + 500)],
    });
    await setup.waitForTransactionReceipt({ hash });
  }
  const keys = published.map(({ agentId, chainId, registry }) => ({ agentId, chainId, registry }));

  let requests = 0;
  const client = createPublicClient({
    chain,
    transport: local.rpcUrl
      ? http(local.rpcUrl, {
          retryCount: 0,
          onFetchRequest: async () => {
            requests++;
            if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
          },
        })
      : custom({
          request: async ({ method, params }: { method: string; params?: unknown }) => {
            requests++;
            if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
            return local.provider.request({ method, params: params as unknown[] });
          },
        }),
  }) as PublicClient;
  try {
    return await measureAll();
  } finally {
    await local.close();
  }

  async function measureAll(): Promise<ReaderThroughput> {
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
      transport: transportKind,
    };
  }
}

/** Runs a full garbage collection before a timed run when Node was started with `--expose-gc` (less noise). */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
