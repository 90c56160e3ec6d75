// The batch reader on a chain where the canonical Multicall3 address holds no code (this file's in-process
// Hardhat network: nothing is installed there). The kit's Multicall3 is placed at another address only to give
// the Multicall3 path, for the same records at the same block, as the reference that the deployless and
// eth_call modes must equal record for record: values, missing records, reverts (custom error, empty,
// Error(string)), an address without code and a malformed answer.

import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import hre from "hardhat";
import {
  type Address,
  createPublicClient,
  custom,
  defineChain,
  encodeAbiParameters,
  encodeErrorResult,
  getAddress,
  type Hex,
  numberToHex,
  type PublicClient,
  size,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { installMulticall3 } from "../../src/harness/devnet/multicall3.js";
import { DEPLOYLESS_AGGREGATE3_MAX_BYTES, DEPLOYLESS_MAX_RECORDS, MAX_INIT_CODE_BYTES } from "../../src/oracle/deployless-budget.js";
import {
  detectReaderMode,
  getScoreCallData,
  parseTrustRecordKey,
  readTrustRecords,
  type TrustRecordRequest,
  type TrustRecordResult,
} from "../../src/oracle/index.js";
import { MULTICALL3_CREATION_CODE } from "../../src/oracle/multicall3-creation-code.js";
import { MockTrustOracle__factory, RawResponseOracle__factory, TrustScoreOracle__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, ERC8004, latestTimestamp } from "../support/fixtures";

/** Where the reference Multicall3 is placed: anywhere but the canonical address. */
const ELSEWHERE: Address = getAddress("0x00000000000000000000000000000000000CA113");
/** An address with no code. */
const NO_CODE: Address = getAddress("0x00000000000000000000000000000000DeaDBeef");
const PUBLISHED = 300;

interface RpcRequest {
  method: string;
  params: unknown[];
}

/**
 * A viem client over the in-process Hardhat provider that logs requests, can fail chosen ones, and counts the
 * `eth_call`s in flight. No retries (Hardhat reports reverts as internal errors, which viem would retry).
 */
function makeClient(
  options: { log?: RpcRequest[]; fail?: (request: RpcRequest) => Error | undefined; inFlight?: { now: number; max: number } } = {},
) {
  const chain = defineChain({
    id: hre.network.config.chainId ?? 31337,
    name: "Hardhat",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
  });
  return createPublicClient({
    chain,
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          const entry = { method, params: (params ?? []) as unknown[] };
          options.log?.push(entry);
          const failure = options.fail?.(entry);
          if (failure) throw failure;
          const counter = method === "eth_call" ? options.inFlight : undefined;
          if (counter) counter.max = Math.max(counter.max, ++counter.now);
          try {
            return await hre.network.provider.request({ method, params: entry.params });
          } finally {
            if (counter) counter.now--;
          }
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient;
}

/** A result as plain data (errors by their kind, reason, raw data and message), for comparing modes. */
function comparable(result: TrustRecordResult): unknown {
  if (result.ok) return result;
  const { error, ...rest } = result;
  return { ...rest, failure: error.failure, reason: error.reason, revertData: error.revertData, message: error.shortMessage };
}

let deployer: HardhatEthersSigner;
let client: PublicClient;
let oracle: Address;
let keys: TrustRecordRequest[];
/** What each key is, to check the reference results are what the comparison needs them to be. */
let kinds: string[];
let pinned: bigint;

beforeAll(async () => {
  deployer = (await hre.ethers.getSigners())[0]!;
  client = makeClient();
  expect(await hre.network.provider.request({ method: "eth_getCode", params: [MULTICALL3_ADDRESS, "latest"] })).toBe("0x");
  expect(await installMulticall3(hre.network.provider, { address: ELSEWHERE })).toEqual({ address: ELSEWHERE, installed: true });

  const reference = await new TrustScoreOracle__factory(deployer).deploy(deployer.address);
  oracle = getAddress(await reference.getAddress());
  const now = await latestTimestamp();
  const records = Array.from({ length: PUBLISHED }, (_, i) => ({
    agentId: BigInt(i) * 7919n + 1n,
    chainId: i % 3 === 0 ? 1n : BASE_CHAIN_ID,
    registry: ["erc8004", "olas", "virtuals"][i % 3]!,
    score: i % 96,
    tier: i % 4,
    sybilSeverity: i % 5,
    updatedAt: now - i * 37,
  }));
  await reference.publish(records);

  const customError = await new MockTrustOracle__factory(deployer).deploy();
  await customError.setReadFailure(1);
  const emptyRevert = await new MockTrustOracle__factory(deployer).deploy();
  await emptyRevert.setReadFailure(2);
  const errorString = await new RawResponseOracle__factory(deployer).deploy();
  await errorString.setResponse(
    encodeErrorResult({
      abi: [{ type: "error", name: "Error", inputs: [{ name: "m", type: "string" }] }],
      errorName: "Error",
      args: ["boom"],
    }),
    true,
  );
  const short = await new RawResponseOracle__factory(deployer).deploy();
  await short.setResponse(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }], [80n, 3n, 0n]), false);

  const specials: Array<[string, Address]> = [
    ["custom-error", getAddress(await customError.getAddress())],
    ["empty-revert", getAddress(await emptyRevert.getAddress())],
    ["error-string", getAddress(await errorString.getAddress())],
    ["malformed", getAddress(await short.getAddress())],
    ["no-code", NO_CODE],
  ];
  keys = records.map((r) => ({ agentId: r.agentId, chainId: r.chainId, registry: r.registry }));
  kinds = keys.map(() => "published");
  // The failing reads go into every chunk: before records 250, 150 and 50 (from the end, so that the
  // positions hold).
  for (const at of [250, 150, 50]) {
    keys.splice(at, 0, ...specials.map(([, address]) => ({ oracle: address, agentId: 5n, chainId: BASE_CHAIN_ID, registry: ERC8004 })));
    kinds.splice(at, 0, ...specials.map(([kind]) => kind));
  }
  keys.push({ agentId: 987_654_321n, chainId: BASE_CHAIN_ID, registry: ERC8004 });
  kinds.push("missing");

  pinned = await client.getBlockNumber({ cacheTime: 0 });
  // After the pinned block, the second record changes: every mode must still read the pinned state.
  await reference.publish([{ ...records[1]!, score: 77, updatedAt: now - 1 }]);
});

/** The Multicall3 path at the pinned block: what every other mode must equal. */
async function referenceResults(): Promise<TrustRecordResult[]> {
  return readTrustRecords(client, { oracle, keys, blockNumber: pinned, mode: "multicall3", multicallAddress: ELSEWHERE });
}

describe("the kit's Multicall3 creation code", () => {
  // That it equals the compiled artifact's creation bytecode is test/generated/generated-files.test.ts's job.
  it("fits a deployless call with room for the calls", () => {
    expect(DEPLOYLESS_AGGREGATE3_MAX_BYTES).toBeGreaterThan(40_000);
    expect(DEPLOYLESS_AGGREGATE3_MAX_BYTES + size(MULTICALL3_CREATION_CODE)).toBeLessThan(MAX_INIT_CODE_BYTES);
  });
});

describe("detectReaderMode", () => {
  it("multicall3 where the address holds code, deployless-multicall3 where it does not", async () => {
    expect(await detectReaderMode(client, { multicallAddress: ELSEWHERE, blockNumber: pinned })).toEqual({
      mode: "multicall3",
      multicallAddress: ELSEWHERE,
    });
    const log: RpcRequest[] = [];
    expect(await detectReaderMode(makeClient({ log }), { blockNumber: pinned })).toEqual({
      mode: "deployless-multicall3",
      multicallAddress: MULTICALL3_ADDRESS,
    });
    // One eth_getCode and one deployless eth_call (no `to`), both at the pinned block.
    expect(log.map((r) => r.method)).toEqual(["eth_getCode", "eth_call"]);
    expect(log[0]!.params).toEqual([MULTICALL3_ADDRESS, numberToHex(pinned)]);
    expect((log[1]!.params[0] as { to?: string }).to).toBeUndefined();
    expect(log[1]!.params[1]).toBe(numberToHex(pinned));
  });

  it("eth-call, with the node's reason, where the node refuses a deployless call", async () => {
    const refusing = makeClient({
      fail: ({ method, params }) =>
        method === "eth_call" && !(params[0] as { to?: string }).to ? new Error("contract creation calls are not supported") : undefined,
    });
    const detected = await detectReaderMode(refusing, { blockNumber: pinned });
    expect(detected.mode).toBe("eth-call");
    expect(detected.deploylessFailure).toContain("contract creation calls are not supported");
  });

  it("throws the RPC's error when the code cannot be read", async () => {
    const down = makeClient({ fail: ({ method }) => (method === "eth_getCode" ? new Error("node down") : undefined) });
    await expect(detectReaderMode(down)).rejects.toThrow("node down");
  });
});

describe("readTrustRecords without Multicall3", () => {
  it("the reference (Multicall3 elsewhere) reads what the comparison needs: values, a missing record, and every kind of failure", async () => {
    const results = await referenceResults();
    expect(results).toHaveLength(keys.length);
    const summary = results.map((r, i) =>
      r.ok ? (r.hasScore ? kinds[i]! : "absent") : `${kinds[i]}:${r.error.failure}:${r.error.reason ?? ""}`,
    );
    const counts: Record<string, number> = {};
    for (const s of summary) counts[s] = (counts[s] ?? 0) + 1;
    expect(counts).toEqual({
      published: PUBLISHED,
      absent: 1,
      "custom-error:reverted:MockOracleUnavailable()": 3,
      "empty-revert:reverted:reverted without data": 3,
      'error-string:reverted:Error("boom")': 3,
      "malformed:malformed:": 3,
      "no-code:no-data:": 3,
    });
    const second = results[1]!;
    expect(second.ok && second.score).toBe(1); // the pinned block's value, not the later 77
    const latest = await readTrustRecords(client, { oracle, keys: keys.slice(1, 2), mode: "multicall3", multicallAddress: ELSEWHERE });
    expect(latest[0]!.ok && latest[0]!.score).toBe(77);
    expect(results.every((r) => r.blockNumber === pinned)).toBe(true);
  });

  it("auto mode reads through deployless Multicall3: the same results, in size-bounded chunks, at the pinned block, nothing deployed", async () => {
    const log: RpcRequest[] = [];
    const results = await readTrustRecords(makeClient({ log }), { oracle, keys, blockNumber: pinned });
    expect(results.map(comparable)).toEqual((await referenceResults()).map(comparable));

    // The probe (eth_getCode, then a deployless aggregate3 of no call), then the chunks.
    expect(log.slice(0, 2).map((r) => r.method)).toEqual(["eth_getCode", "eth_call"]);
    const calls = log.slice(2);
    expect(calls.every((r) => r.method === "eth_call")).toBe(true);
    // 316 records: chunks of 250 would not fit a deployless call (its answer becomes code, at most 24,576
    // bytes), so they are cut at 95 records; each chunk's calldata (352 bytes per record) stays in its budget.
    expect(DEPLOYLESS_MAX_RECORDS).toBe(95);
    expect(calls.length).toBe(Math.ceil(keys.length / DEPLOYLESS_MAX_RECORDS));
    expect(calls.length).toBeGreaterThan(Math.ceil(keys.length / 250));
    for (const { params } of calls) {
      const [request, block] = params as [{ to?: string; data: Hex }, string];
      expect(request.to).toBeUndefined();
      expect(size(request.data)).toBeLessThanOrEqual(MAX_INIT_CODE_BYTES);
      expect(block).toBe(numberToHex(pinned));
    }
    expect(await client.getCode({ address: MULTICALL3_ADDRESS })).toBeUndefined();
  });

  it("eth-call mode gives the same results, one eth_call per record to its oracle, at most `concurrency` in flight", async () => {
    const log: RpcRequest[] = [];
    const inFlight = { now: 0, max: 0 };
    const results = await readTrustRecords(makeClient({ log, inFlight }), {
      oracle,
      keys,
      blockNumber: pinned,
      mode: "eth-call",
      concurrency: 3,
    });
    expect(results.map(comparable)).toEqual((await referenceResults()).map(comparable));
    const calls = log.filter((r) => r.method === "eth_call").map(({ params }) => params as [{ to: string; data: Hex }, string]);
    expect(calls.map(([request]) => `${getAddress(request.to)} ${request.data}`).sort()).toEqual(
      keys.map((k) => `${k.oracle ?? oracle} ${getScoreCallData(parseTrustRecordKey(k))}`).sort(),
    );
    expect(calls.every(([, block]) => block === numberToHex(pinned))).toBe(true);
    expect(inFlight.max).toBeLessThanOrEqual(3);
    expect(inFlight.max).toBeGreaterThan(1);
  });

  it("auto mode falls back to eth_call where the node refuses deployless calls, with the same results", async () => {
    const refusing = makeClient({
      fail: ({ method, params }) =>
        method === "eth_call" && !(params[0] as { to?: string }).to ? new Error("creation refused") : undefined,
    });
    const results = await readTrustRecords(refusing, { oracle, keys, blockNumber: pinned });
    expect(results.map(comparable)).toEqual((await referenceResults()).map(comparable));
  });

  it("a deployless chunk whose request fails gives errors for its records only; the other chunks are kept", async () => {
    const rpcError = new Error("upstream RPC timed out");
    const marker = numberToHex(7919n * 150n + 1n, { size: 32 }).slice(2); // a published record in the second chunk
    const flaky = makeClient({
      fail: ({ method, params }) => (method === "eth_call" && JSON.stringify(params).includes(marker) ? rpcError : undefined),
    });
    const results = await readTrustRecords(flaky, { oracle, keys, blockNumber: pinned, mode: "deployless-multicall3" });
    const reference = (await referenceResults()).map(comparable);
    const failed = results.flatMap((r, i) => (!r.ok && r.error.failure === "request-failed" ? [i] : []));
    expect(failed).toHaveLength(DEPLOYLESS_MAX_RECORDS);
    for (const [i, result] of results.entries()) {
      if (!failed.includes(i)) {
        expect(comparable(result)).toEqual(reference[i]);
        continue;
      }
      if (result.ok) throw new Error("expected a failure");
      expect(result.error.failure).toBe("request-failed");
      expect(result.error.shortMessage).toMatch(/Deployless Multicall3 aggregate3 call 2 of 4 \(95 records\) failed/);
      let cause: unknown = result.error.cause;
      while (cause instanceof Error && cause !== rpcError) cause = cause.cause;
      expect(cause).toBe(rpcError);
    }
    // The failed records are exactly one contiguous chunk.
    expect(failed[failed.length - 1]! - failed[0]! + 1).toBe(failed.length);
  });

  it("a forced multicall3 mode without Multicall3 fails every record and says so; a probe that fails does too", async () => {
    const forced = await readTrustRecords(client, { oracle, keys: keys.slice(0, 5), blockNumber: pinned, mode: "multicall3" });
    for (const result of forced) {
      if (result.ok) throw new Error("expected a failure");
      expect(result.error.shortMessage).toContain(`No Multicall3 at ${MULTICALL3_ADDRESS}`);
    }
    const nodeDown = new Error("node down");
    const noCode = makeClient({ fail: ({ method }) => (method === "eth_getCode" ? nodeDown : undefined) });
    const probed = await readTrustRecords(noCode, { oracle, keys: keys.slice(0, 5), blockNumber: pinned });
    expect(probed).toHaveLength(5);
    for (const result of probed) {
      if (result.ok) throw new Error("expected a failure");
      expect(result.error.failure).toBe("request-failed");
      expect(result.error.shortMessage).toContain(`Probing the code at the Multicall3 address ${MULTICALL3_ADDRESS} failed`);
      let cause: unknown = result.error.cause;
      while (cause instanceof Error && cause !== nodeDown) cause = cause.cause;
      expect(cause).toBe(nodeDown);
    }
  });

  it("refuses an unknown mode before sending anything", async () => {
    const log: RpcRequest[] = [];
    await expect(readTrustRecords(makeClient({ log }), { oracle, keys, mode: "batched" as never })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(log).toEqual([]);
  });
});
