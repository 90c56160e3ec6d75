/**
 * The reader benchmark's JSON-RPC proxy (`scripts/bench/latency-proxy.ts`): requests within the batch limit
 * reach the node unchanged and its answers come back unchanged; a larger batch is answered with geth's
 * "batch too large" error without reaching the node; the configured delay is asked for once per HTTP request
 * (recorded through an injected sleep, never timed). Against a scripted server and a Hardhat node on loopback.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { measureReaderThroughput } from "../../scripts/bench/reader.js";
import { BATCH_TOO_LARGE_CODE, BATCH_TOO_LARGE_MESSAGE, type LatencyProxy, startLatencyProxy } from "../../scripts/bench/latency-proxy.js";
import { startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function proxyTo(upstream: string, options: { latencyMs?: number; maxBatchSize?: number } = {}) {
  const sleeps: number[] = [];
  const proxy = await startLatencyProxy({
    upstream,
    ...options,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  cleanup.push(() => proxy.close());
  return { proxy, sleeps };
}

async function scripted(
  answer: (body: string) => { status?: number; headers?: Record<string, string>; text: string },
): Promise<ScriptedServer> {
  const server = await startScriptedServer((req) => answer(req.body));
  cleanup.push(() => server.close());
  return server;
}

const post = (proxy: LatencyProxy, body: string) =>
  fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body });

describe("latency proxy: pass-through", () => {
  it("forwards the request body byte for byte and returns the node's status, content type and body unchanged", async () => {
    const reply = '{"jsonrpc":"2.0","id":7,"result":"0x2105"}  \n';
    const node = await scripted(() => ({ status: 200, headers: { "content-type": "application/json; charset=utf-8" }, text: reply }));
    const { proxy, sleeps } = await proxyTo(node.url, { latencyMs: 40, maxBatchSize: 3 });
    // Odd spacing and key order: the proxy must not re-serialise.
    const body = '{ "id": 7, "jsonrpc":"2.0",  "method":"eth_chainId", "params":[] }';
    const res = await post(proxy, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe(reply);
    expect(node.requests).toHaveLength(1);
    expect(node.requests[0]!.body).toBe(body);
    expect(node.requests[0]!.method).toBe("POST");
    expect(node.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(sleeps).toEqual([40]);
    expect(proxy.stats()).toEqual({ httpRequests: 1, calls: 1, refusedBatches: 0, largestBatch: 0 });
  });

  it("passes a node's error status and a batch at the limit through unchanged", async () => {
    const node = await scripted((body) => (body.startsWith("[") ? { text: `echo:${body}` } : { status: 503, text: "node busy" }));
    const { proxy, sleeps } = await proxyTo(node.url, { latencyMs: 5, maxBatchSize: 3 });
    const busy = await post(proxy, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}');
    expect(busy.status).toBe(503);
    expect(await busy.text()).toBe("node busy");
    const batch = JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] })));
    expect(await (await post(proxy, batch)).text()).toBe(`echo:${batch}`);
    expect(node.requests.map((r) => r.body)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}', batch]);
    // One delay per HTTP request, whatever it carries.
    expect(sleeps).toEqual([5, 5]);
    expect(proxy.stats()).toEqual({ httpRequests: 2, calls: 4, refusedBatches: 0, largestBatch: 3 });
  });

  it("no delay asked for at 0 ms; no limit without maxBatchSize", async () => {
    const node = await scripted(() => ({ text: "[]" }));
    const { proxy, sleeps } = await proxyTo(node.url);
    const big = JSON.stringify(Array.from({ length: 1_500 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_chainId" })));
    expect(await (await post(proxy, big)).text()).toBe("[]");
    expect(sleeps).toEqual([]);
    expect(node.requests).toHaveLength(1);
  });
});

describe("latency proxy: the provider's batch limit", () => {
  it("answers a batch over the limit with geth's error, id of the first call, without reaching the node", async () => {
    const node = await scripted(() => ({ text: "should not be reached" }));
    const { proxy, sleeps } = await proxyTo(node.url, { latencyMs: 40, maxBatchSize: 2 });
    const batch = [
      { jsonrpc: "2.0", method: "eth_subscription", params: [] }, // a notification: no id
      { jsonrpc: "2.0", id: "first-call", method: "eth_chainId", params: [] },
      { jsonrpc: "2.0", id: 9, method: "eth_blockNumber", params: [] },
    ];
    const res = await post(proxy, JSON.stringify(batch));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { jsonrpc: "2.0", id: "first-call", error: { code: BATCH_TOO_LARGE_CODE, message: BATCH_TOO_LARGE_MESSAGE } },
    ]);
    expect(BATCH_TOO_LARGE_CODE).toBe(-32600);
    expect(BATCH_TOO_LARGE_MESSAGE).toBe("batch too large");
    expect(node.requests).toHaveLength(0);
    expect(sleeps).toEqual([40]); // the refusal still costs its round trip
    expect(proxy.stats()).toMatchObject({ httpRequests: 1, calls: 3, refusedBatches: 1, largestBatch: 3 });
  });

  it("refuses an upstream that is not on loopback, and bad settings", async () => {
    await expect(startLatencyProxy({ upstream: "http://203.0.113.5:8545" })).rejects.toThrow(/loopback/);
    await expect(startLatencyProxy({ upstream: "https://127.0.0.1:8545" })).rejects.toThrow(/loopback/);
    await expect(startLatencyProxy({ upstream: "http://127.0.0.1:8545", latencyMs: -1 })).rejects.toThrow(/latencyMs/);
    await expect(startLatencyProxy({ upstream: "http://127.0.0.1:8545", maxBatchSize: 0 })).rejects.toThrow(/maxBatchSize/);
  });
});

describe("latency proxy in front of a Hardhat node", () => {
  it("answers like the node itself; viem's JSON-RPC batching within the limit works, past it fails with the provider's error", async () => {
    const local = await startLocalChain({ chainId: 8453, http: true });
    cleanup.push(() => local.close());
    const { proxy, sleeps } = await proxyTo(local.rpcUrl!, { latencyMs: 40, maxBatchSize: 10 });

    const direct = createPublicClient({ transport: http(local.rpcUrl!, { retryCount: 0 }) }) as PublicClient;
    const viaProxy = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }) as PublicClient;
    expect(await viaProxy.getChainId()).toBe(await direct.getChainId());
    expect(await viaProxy.getBlockNumber({ cacheTime: 0 })).toBe(await direct.getBlockNumber({ cacheTime: 0 }));
    const [account] = (await local.provider.request({ method: "eth_accounts" })) as Address[];
    expect(await viaProxy.getBalance({ address: account! })).toBe(await direct.getBalance({ address: account! }));

    // Distinct calls (viem would merge identical ones): balances of 10 and of 11 addresses.
    const addresses = Array.from({ length: 11 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}` as Address);
    const within = createPublicClient({ transport: http(proxy.url, { retryCount: 0, batch: { batchSize: 10, wait: 0 } }) }) as PublicClient;
    proxy.resetStats();
    const balances = await Promise.all(addresses.slice(0, 10).map((address) => within.getBalance({ address })));
    expect(balances).toEqual(Array(10).fill(0n));
    expect(proxy.stats()).toMatchObject({ httpRequests: 1, calls: 10, largestBatch: 10, refusedBatches: 0 });

    const past = createPublicClient({ transport: http(proxy.url, { retryCount: 0, batch: { batchSize: 11, wait: 0 } }) }) as PublicClient;
    const outcomes = await Promise.allSettled(addresses.map((address) => past.getBalance({ address })));
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
    expect(outcomes.map((o) => String((o as PromiseRejectedResult).reason)).some((reason) => /batch too large/.test(reason))).toBe(true);
    expect(proxy.stats()).toMatchObject({ httpRequests: 2, refusedBatches: 1, largestBatch: 11 });
    // One delay per HTTP request: three single calls, then two batches.
    expect(sleeps).toEqual([40, 40, 40, 40, 40]);
  });
});

describe("reader benchmark (figures are printed by npm run bench, not asserted)", () => {
  it("reads every record every way through the proxy, keeping to the provider's batch limit", async () => {
    const result = await measureReaderThroughput({
      records: 30,
      perRecordSample: 10,
      chunkSize: 10,
      rounds: 1,
      scenarios: [{ label: "0 ms", latencyMs: 0, maxBatchSize: 5, tuning: [{ chunkSize: 15, concurrency: 2 }] }],
    });
    const [only] = result.scenarios;
    expect(result).toMatchObject({ records: 30, chunkSize: 10, concurrency: 4 });
    // Block number, Multicall3 probe, then 3 chunks of 10; the per-record reads at a pinned block, one request each.
    expect(only!.multicall).toMatchObject({ records: 30, httpRequests: 5, calls: 5 });
    expect(only!.perRecord).toMatchObject({ records: 10, httpRequests: 11, calls: 11 });
    expect(only!.jsonRpcBatch).toMatchObject({ records: 10, httpRequests: 2, calls: 10 });
    expect(only!.viemMulticall).toMatchObject({ records: 30, httpRequests: 3 });
    expect(only!.tuning).toHaveLength(1);
    expect(only!.tuning[0]!.rate).toMatchObject({ records: 30, httpRequests: 4 });
    expect(only!.refusedBatches).toBe(0);
    expect(only!.ratio).toBeCloseTo(only!.multicall.recordsPerSecond / only!.perRecord.recordsPerSecond, 9);
  });
});
