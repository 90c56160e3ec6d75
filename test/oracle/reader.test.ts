import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { expect } from "chai";
import hre from "hardhat";
import {
  type Abi,
  type AbiFunction,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionReturnType,
  createPublicClient,
  custom,
  decodeFunctionResult,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  numberToHex,
  type PublicClient,
  toFunctionSelector,
  multicall3Abi as viemMulticall3Abi,
} from "viem";
import { readContract } from "viem/actions";
import { beforeAll, describe, it } from "vitest";
import { MULTICALL3_ADDRESS } from "../../src/config/addresses.js";
import { createTrustEncoding, sybilSeverityName, tierName } from "../../src/config/encodings.js";
import { updatedAtDate } from "../../src/trust-record.js";
import { GateReadError, InvalidArgumentError, OracleReadError, TrustgateError, UnknownChainError } from "../../src/errors.js";
import { MULTICALL3_RUNTIME_BYTECODE } from "../../src/generated/runtime-bytecode.js";
import { installMulticall3 } from "../../src/harness/devnet/multicall3.js";
import { trustOracleAbi } from "../../src/oracle/abi.js";
import {
  readGatePolicy,
  readTrustRecord,
  readTrustRecords,
  type TrustRecordRead,
  type TrustRecordReadFailure,
  type TrustRecordResult,
} from "../../src/oracle/index.js";
import { multicall3Abi } from "../../src/oracle/multicall3-abi.js";
import {
  GatedAction__factory,
  type MockTrustOracle,
  MockTrustOracle__factory,
  RawResponseOracle__factory,
  type TrustScoreOracle,
  TrustScoreOracle__factory,
} from "../../typechain-types";
import { BASE_CHAIN_ID, ERC8004, latestTimestamp, makePolicy } from "../support/fixtures";

const BASE = Number(BASE_CHAIN_ID);
/** An address with no code on the test network. */
const NO_CODE: Address = "0x00000000000000000000000000000000DeaDBeef";

/** An ABI item without `internalType` (which viem does not use), with its keys in a fixed order. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "internalType")
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalize(v)]),
    );
  }
  return value;
}

interface RequestLog {
  method: string;
  params: unknown;
}

/**
 * A viem client over the Hardhat provider that logs every request and can fail chosen ones. No retries: Hardhat
 * reports a revert as an internal error (-32603), which viem would otherwise retry three times with back-off.
 */
function makeClient(options: { log?: RequestLog[]; fail?: (request: RequestLog, index: number) => Error | undefined } = {}) {
  const chain = defineChain({
    id: hre.network.config.chainId ?? 31337,
    name: "Hardhat",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
  });
  let count = 0;
  return createPublicClient({
    chain,
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          const entry = { method, params };
          options.log?.push(entry);
          const failure = options.fail?.(entry, count++);
          if (failure) throw failure;
          return hre.network.provider.request({ method, params: params as unknown[] });
        },
      },
      { retryCount: 0 },
    ),
  });
}

function expectOk(result: TrustRecordResult | undefined): TrustRecordRead {
  expect(result, "missing result").to.not.equal(undefined);
  if (!result!.ok) throw new Error(`expected ok, got ${result!.error.message}`);
  return result!;
}

function expectFailed(result: TrustRecordResult | undefined): TrustRecordReadFailure {
  expect(result, "missing result").to.not.equal(undefined);
  expect(result!.ok, "expected a failed read").to.equal(false);
  const failed = result as TrustRecordReadFailure;
  expect(failed.error).to.be.instanceOf(OracleReadError);
  expect(failed.error).to.be.instanceOf(TrustgateError);
  expect(failed.error.code).to.equal("ORACLE_READ_FAILED");
  return failed;
}

/** The record the 1,000-record test publishes for agent `i`: every field varies with `i`. */
function recordFor(i: number, now: number) {
  return {
    agentId: BigInt(i) * 7919n + 1n,
    chainId: i % 3 === 0 ? 1n : BASE_CHAIN_ID,
    registry: ["erc8004", "olas", "virtuals"][i % 3]!,
    score: i % 101,
    tier: i % 4,
    sybilSeverity: i % 5,
    updatedAt: now - i * 37,
  };
}

/** Calls a (payable, so not `readContract`-able) Multicall3 batch function with `eth_call` and decodes the answer. */
async function callMulticall3<const name extends "aggregate" | "aggregate3" | "tryAggregate">(
  functionName: name,
  args: ContractFunctionArgs<typeof multicall3Abi, "payable", name>,
) {
  const { data } = await client.call({
    to: MULTICALL3_ADDRESS,
    data: encodeFunctionData({ abi: multicall3Abi, functionName, args } as never),
  });
  return decodeFunctionResult({ abi: multicall3Abi, functionName, data: data! } as never) as ContractFunctionReturnType<
    typeof multicall3Abi,
    "payable",
    name
  >;
}

let deployer: HardhatEthersSigner;
let client: PublicClient;
let oracle: TrustScoreOracle;
let oracleAddress: Address;
let now: number;

beforeAll(async () => {
  deployer = (await hre.ethers.getSigners())[0]!;
  client = makeClient() as PublicClient;
  const installed = await installMulticall3(hre.network.provider);
  expect(installed).to.deep.equal({ address: MULTICALL3_ADDRESS, installed: true });
  oracle = await new TrustScoreOracle__factory(deployer).deploy(deployer.address);
  oracleAddress = getAddress(await oracle.getAddress());
  now = await latestTimestamp();
});

// The generated ABIs equal the compiled contracts' (test/generated/generated-files.test.ts); these check what the
// kit's Multicall3 must be to stand in for the canonical deployment.
describe("the generated Multicall3 ABI", () => {
  it("has exactly the canonical Multicall3 selectors", () => {
    // The selectors of the Multicall3 deployed at 0xcA11…CA11 (github.com/mds1/multicall README).
    const canonical: Record<string, string> = {
      aggregate: "0x252dba42",
      aggregate3: "0x82ad56cb",
      aggregate3Value: "0x174dea71",
      blockAndAggregate: "0xc3077fa9",
      getBasefee: "0x3e64a696",
      getBlockHash: "0xee82ac5e",
      getBlockNumber: "0x42cbb15c",
      getChainId: "0x3408e470",
      getCurrentBlockCoinbase: "0xa8b0574e",
      getCurrentBlockDifficulty: "0x72425d9d",
      getCurrentBlockGasLimit: "0x86d516e8",
      getCurrentBlockTimestamp: "0x0f28c97d",
      getEthBalance: "0x4d2301cc",
      getLastBlockHash: "0x27e86d6e",
      tryAggregate: "0xbce38bd7",
      tryBlockAndAggregate: "0x399542e9",
    };
    const functions = (multicall3Abi as Abi).filter((item): item is AbiFunction => item.type === "function");
    expect(functions.length).to.equal(multicall3Abi.length);
    expect(Object.fromEntries(functions.map((f) => [f.name, toFunctionSelector(f)]))).to.deep.equal(canonical);
  });

  it("contains viem's own (partial) Multicall3 ABI, which viem's multicall action encodes with", () => {
    // viem declares the batch functions `view` so that they can be read; that does not change their encoding.
    for (const item of viemMulticall3Abi) {
      const ours = (multicall3Abi as Abi).find((f) => f.type === "function" && f.name === item.name) as AbiFunction;
      expect(ours, item.name).to.not.equal(undefined);
      expect(normalize({ ...item, stateMutability: ours.stateMutability }), item.name).to.deep.equal(normalize(ours));
    }
  });
});

describe("Multicall3 on the local network", () => {
  it("the embedded runtime code sits at the canonical address", async () => {
    expect(await client.getCode({ address: MULTICALL3_ADDRESS })).to.equal(MULTICALL3_RUNTIME_BYTECODE);
  });

  it("installing again, or over other code, leaves the address alone unless asked to overwrite", async () => {
    expect(await installMulticall3(client)).to.deep.equal({ address: MULTICALL3_ADDRESS, installed: false });
    const elsewhere = "0x000000000000000000000000000000000000cafe";
    await hre.network.provider.request({ method: "hardhat_setCode", params: [elsewhere, "0x00"] });
    expect(await installMulticall3(client, { address: elsewhere })).to.deep.equal({
      address: getAddress(elsewhere),
      installed: false,
    });
    expect(await client.getCode({ address: elsewhere })).to.equal("0x00");
    expect(await installMulticall3(client, { address: elsewhere, overwrite: true })).to.deep.equal({
      address: getAddress(elsewhere),
      installed: true,
    });
    expect(await client.getCode({ address: elsewhere })).to.equal(MULTICALL3_RUNTIME_BYTECODE);
  });

  it("a node without hardhat_setCode gets a typed error", async () => {
    const refusing = {
      async request({ method }: { method: string }) {
        if (method === "eth_getCode") return "0x";
        throw new Error(`method ${method} not supported`);
      },
    };
    const error = await installMulticall3(refusing, { address: NO_CODE }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TrustgateError);
    expect((error as TrustgateError).shortMessage).to.contain("hardhat_setCode failed");
  });

  it("behaves as Multicall3: aggregate3 with and without allowed failures, aggregate, tryAggregate, getters", async () => {
    const mock = await new MockTrustOracle__factory(deployer).deploy();
    await mock.setReadFailure(1);
    const mockAddress = getAddress(await mock.getAddress());
    const countCall = encodeFunctionData({ abi: trustOracleAbi, functionName: "agentCount" });
    await oracle.publish([{ ...recordFor(0, now), agentId: 424242n }]);
    const count = await oracle.agentCount();

    const results = await callMulticall3("aggregate3", [
      [
        { target: oracleAddress, allowFailure: false, callData: countCall },
        { target: mockAddress, allowFailure: true, callData: countCall },
      ],
    ]);
    expect(results[0]!.success).to.equal(true);
    expect(BigInt(results[0]!.returnData)).to.equal(count);
    expect(results[1]!.success).to.equal(false);
    expect(results[1]!.returnData).to.equal(toFunctionSelector("MockOracleUnavailable()"));

    const strict = await callMulticall3("aggregate3", [[{ target: mockAddress, allowFailure: false, callData: countCall }]]).catch(
      (e: unknown) => e,
    );
    expect(String((strict as Error).message)).to.contain("Multicall3: call failed");

    const [blockNumber, returnData] = await callMulticall3("aggregate", [[{ target: oracleAddress, callData: countCall }]]);
    expect(blockNumber).to.equal(await client.getBlockNumber({ cacheTime: 0 }));
    expect(BigInt(returnData[0]!)).to.equal(count);

    const tried = await callMulticall3("tryAggregate", [false, [{ target: mockAddress, callData: countCall }]]);
    expect(tried.map((r) => r.success)).to.deep.equal([false]);

    const read = (functionName: "getChainId" | "getCurrentBlockTimestamp" | "getBlockNumber") =>
      readContract(client, { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName });
    const latest = await client.getBlock({ blockTag: "latest" });
    expect(await read("getChainId")).to.equal(BigInt(hre.network.config.chainId ?? 31337));
    expect(await read("getBlockNumber")).to.equal(latest.number);
    expect(await read("getCurrentBlockTimestamp")).to.equal(latest.timestamp);

    const valueMismatch = await client
      .call({
        to: MULTICALL3_ADDRESS,
        value: 1n,
        account: deployer.address as Address,
        data: encodeFunctionData({
          abi: multicall3Abi,
          functionName: "aggregate3Value",
          args: [[{ target: oracleAddress, allowFailure: true, value: 0n, callData: countCall }]],
        }),
      })
      .catch((e: unknown) => e);
    expect(String((valueMismatch as Error).message)).to.contain("Multicall3: value mismatch");
  });

  it("serves viem's own multicall action", async () => {
    const [count, missing] = await client.multicall({
      multicallAddress: MULTICALL3_ADDRESS,
      contracts: [
        { address: oracleAddress, abi: trustOracleAbi, functionName: "agentCount" },
        { address: oracleAddress, abi: trustOracleAbi, functionName: "hasScore", args: [999_999n, 1n, "erc8004"] },
      ],
    });
    expect(count).to.deep.equal({ status: "success", result: await oracle.agentCount() });
    expect(missing).to.deep.equal({ status: "success", result: false });
  });
});

describe("readTrustRecord", () => {
  it("reads one record, codes and time as stored, by chain id or by chain slug", async () => {
    const updatedAt = now - 3600;
    await oracle.publish([{ agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004, score: 82, tier: 3, sybilSeverity: 2, updatedAt }]);
    const expected = {
      ok: true,
      key: { agentId: 1n, chainId: BASE, registry: "erc8004" },
      oracle: oracleAddress,
      hasScore: true,
      score: 82,
      tier: 3,
      sybilSeverity: 2,
      updatedAt,
    };
    const byId = await readTrustRecord(client, { oracle: oracleAddress, agentId: 1n, chainId: BASE });
    expect({ ...byId, blockNumber: undefined }).to.deep.equal({ ...expected, blockNumber: undefined });
    const bySlug = await readTrustRecord(client, { oracle: oracleAddress, agentId: "1", chain: "base", registry: "erc8004" });
    expect({ ...bySlug, blockNumber: undefined }).to.deep.equal({ ...expected, blockNumber: undefined });
    // The record is keyed by chain and registry: the same agent elsewhere has no record.
    expect(expectOk(await readTrustRecord(client, { oracle: oracleAddress, agentId: 1, chain: "ethereum" })).hasScore).to.equal(false);
    expect(
      expectOk(await readTrustRecord(client, { oracle: oracleAddress, agentId: 1, chainId: BASE, registry: "olas" })).hasScore,
    ).to.equal(false);
  });

  it("a record that does not exist: hasScore false, every value 0, no date", async () => {
    const result = expectOk(await readTrustRecord(client, { oracle: oracleAddress, agentId: 123_456_789n, chainId: BASE }));
    expect(result).to.include({ hasScore: false, score: 0, tier: 0, sybilSeverity: 0, updatedAt: 0 });
    expect(updatedAtDate(result)).to.equal(null);
  });

  it("reads at a given block (before a record was published it is absent), or at a tag without pinning", async () => {
    const before = await client.getBlockNumber({ cacheTime: 0 });
    await oracle.publish([
      { agentId: 77n, chainId: BASE_CHAIN_ID, registry: ERC8004, score: 60, tier: 2, sybilSeverity: 0, updatedAt: now },
    ]);
    const then = expectOk(await readTrustRecord(client, { oracle: oracleAddress, agentId: 77n, chainId: BASE, blockNumber: before }));
    expect([then.hasScore, then.blockNumber]).to.deep.equal([false, before]);
    expect(expectOk(await readTrustRecord(client, { oracle: oracleAddress, agentId: 77n, chainId: BASE })).score).to.equal(60);
    const [pinned, tagged] = await Promise.all([
      readTrustRecords(client, { oracle: oracleAddress, keys: [{ agentId: 77n, chainId: BASE }], blockNumber: before }),
      readTrustRecords(client, { oracle: oracleAddress, keys: [{ agentId: 77n, chainId: BASE }], blockTag: "latest" }),
    ]);
    expect([expectOk(pinned[0]).hasScore, pinned[0]!.blockNumber]).to.deep.equal([false, before]);
    expect([expectOk(tagged[0]).score, tagged[0]!.blockNumber]).to.deep.equal([60, undefined]);
  });

  it("a reverting oracle, an address without code and a garbage answer become errors, not exceptions", async () => {
    const mock = await new MockTrustOracle__factory(deployer).deploy();
    const mockAddress = await mock.getAddress();
    await mock.setReadFailure(1);
    const custom = expectFailed(await readTrustRecord(client, { oracle: mockAddress, agentId: 1n, chainId: BASE }));
    expect(custom.error).to.include({ failure: "reverted", reason: "MockOracleUnavailable()" });
    expect(custom.error.revertData).to.equal(toFunctionSelector("MockOracleUnavailable()"));
    expect(custom.error.shortMessage).to.contain("MockOracleUnavailable()");
    await mock.setReadFailure(2);
    const empty = expectFailed(await readTrustRecord(client, { oracle: mockAddress, agentId: 1n, chainId: BASE }));
    expect(empty.error).to.include({ failure: "reverted", reason: "reverted without data", revertData: "0x" });

    const noCode = expectFailed(await readTrustRecord(client, { oracle: NO_CODE, agentId: 1n, chainId: BASE }));
    expect(noCode.error.failure).to.equal("no-data");
    expect(noCode.oracle).to.equal(getAddress(NO_CODE));

    const raw = await new RawResponseOracle__factory(deployer).deploy();
    await raw.setResponse(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }], [80n, 3n, 0n]), false);
    const short = expectFailed(await readTrustRecord(client, { oracle: await raw.getAddress(), agentId: 1n, chainId: BASE }));
    expect(short.error.failure).to.equal("malformed");
    expect(short.error.shortMessage).to.contain("96 bytes");
  });
});

describe("readTrustRecords through Multicall3", () => {
  const RECORDS = 1_000;
  let published: ReturnType<typeof recordFor>[];

  beforeAll(async () => {
    published = Array.from({ length: RECORDS }, (_, i) => recordFor(i, now));
    for (let i = 0; i < RECORDS; i += 500) await oracle.publish(published.slice(i, i + 500));
  });

  it("reads 1,000 records in 4 aggregate3 calls at one block, every value right", async () => {
    const log: RequestLog[] = [];
    const logged = makeClient({ log });
    const results = await readTrustRecords(logged, {
      oracle: oracleAddress,
      chunkSize: 250,
      keys: published.map((r) => ({ agentId: r.agentId, chainId: r.chainId, registry: r.registry })),
    });
    expect(results).to.have.length(RECORDS);
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    results.forEach((result, i) => {
      const r = published[i]!;
      expect(expectOk(result)).to.deep.equal({
        ok: true,
        key: { agentId: r.agentId, chainId: Number(r.chainId), registry: r.registry },
        oracle: oracleAddress,
        blockNumber,
        hasScore: true,
        score: r.score,
        tier: r.tier,
        sybilSeverity: r.sybilSeverity,
        updatedAt: r.updatedAt,
      });
    });
    const calls = log.filter((l) => l.method === "eth_call");
    expect(calls).to.have.length(4);
    const blockHex = `0x${blockNumber.toString(16)}`;
    for (const { params } of calls) {
      const [request, block] = params as [{ to: string; data: Hex }, string];
      expect(getAddress(request.to)).to.equal(MULTICALL3_ADDRESS);
      expect(request.data.slice(0, 10)).to.equal(toFunctionSelector("aggregate3((address,bool,bytes)[])"));
      expect(block).to.equal(blockHex);
    }
  });

  it("missing records, a reverting oracle and an address without code fail per record, never the batch", async () => {
    const mock: MockTrustOracle = await new MockTrustOracle__factory(deployer).deploy();
    const mockAddress = getAddress(await mock.getAddress());
    await mock.setRecord(5n, BASE_CHAIN_ID, ERC8004, 40, 1, 1, now);
    const keys = Array.from({ length: 30 }, (_, i) => {
      const r = published[i]!;
      const oracleOf = [oracleAddress, NO_CODE, mockAddress][i % 3]!;
      return { oracle: oracleOf, agentId: r.agentId, chainId: r.chainId, registry: r.registry };
    });
    keys.push({ oracle: oracleAddress, agentId: 987_654_321n, chainId: BASE_CHAIN_ID, registry: ERC8004 });

    const healthy = await readTrustRecords(client, { oracle: oracleAddress, keys, chunkSize: 7 });
    healthy.slice(0, 30).forEach((result, i) => {
      if (i % 3 === 0) expect(expectOk(result).score).to.equal(published[i]!.score);
      if (i % 3 === 1) expect(expectFailed(result).error.failure).to.equal("no-data");
      if (i % 3 === 2) expect(expectOk(result).hasScore).to.equal(false); // the mock holds none of these keys
    });
    const missing = expectOk(healthy[30]);
    expect([missing.hasScore, missing.updatedAt, missing.tier]).to.deep.equal([false, 0, 0]);

    await mock.setReadFailure(1);
    const broken = await readTrustRecords(client, { oracle: mockAddress, keys: keys.map(({ oracle: _, ...k }) => k) });
    expect(broken).to.have.length(keys.length);
    for (const result of broken) {
      const failed = expectFailed(result);
      expect(failed.error).to.include({ failure: "reverted", reason: "MockOracleUnavailable()" });
      expect(failed.oracle).to.equal(mockAddress);
    }
    const mixed = await readTrustRecords(client, { oracle: oracleAddress, keys });
    mixed.slice(0, 30).forEach((result, i) => {
      if (i % 3 === 0) expectOk(result);
      else expect(expectFailed(result).error.failure).to.equal(i % 3 === 1 ? "no-data" : "reverted");
    });
  });

  it("a chunk whose request fails gives errors for its records only, with the cause; the other chunks are kept", async () => {
    const rpcError = new Error("upstream RPC timed out");
    // Fails every request carrying record 25 (the second chunk of 25), however often it is retried.
    const marker = numberToHex(published[25]!.agentId, { size: 32 }).slice(2);
    const flaky = makeClient({
      fail: ({ method, params }) => (method === "eth_call" && JSON.stringify(params).includes(marker) ? rpcError : undefined),
    });
    const keys = published.slice(0, 100).map((r) => ({ agentId: r.agentId, chainId: r.chainId, registry: r.registry }));
    const results = await readTrustRecords(flaky, { oracle: oracleAddress, keys, chunkSize: 25 });
    expect(results).to.have.length(100);
    results.forEach((result, i) => {
      if (i >= 25 && i < 50) {
        const failed = expectFailed(result);
        expect(failed.error.failure).to.equal("request-failed");
        expect(failed.error.shortMessage).to.contain("aggregate3 call 2 of 4 (25 records)");
        let cause: unknown = failed.error.cause;
        while (cause instanceof Error && cause !== rpcError) cause = cause.cause;
        expect(cause, "the RPC error is in the cause chain").to.equal(rpcError);
      } else {
        expect(expectOk(result).score).to.equal(published[i]!.score);
      }
    });
  });

  it("mode multicall3 forced with no Multicall3 at the address: every record fails with a message that says so", async () => {
    // (The default mode, "auto", would read through deployless Multicall3 here: see oracle-reader-without-multicall3.test.ts.)
    const keys = published.slice(0, 10).map((r) => ({ agentId: r.agentId, chainId: r.chainId, registry: r.registry }));
    const results = await readTrustRecords(client, {
      oracle: oracleAddress,
      keys,
      multicallAddress: NO_CODE,
      chunkSize: 4,
      mode: "multicall3",
    });
    expect(results).to.have.length(10);
    for (const result of results) {
      const failed = expectFailed(result);
      expect(failed.error.failure).to.equal("request-failed");
      expect(failed.error.shortMessage).to.contain(`No Multicall3 at ${getAddress(NO_CODE)}`);
    }
  });

  it("failing to fetch the block number gives an error per record, not an exception", async () => {
    const noBlock = makeClient({ fail: ({ method }) => (method === "eth_blockNumber" ? new Error("node down") : undefined) });
    const results = await readTrustRecords(noBlock, { oracle: oracleAddress, keys: [{ agentId: 1n, chainId: BASE }] });
    expect(expectFailed(results[0]).error.shortMessage).to.contain("Fetching the latest block number failed");
  });

  it("returns the codes as stored, which the named converters name under any encoding (a code outside it stays unnamed)", async () => {
    const mock = await new MockTrustOracle__factory(deployer).deploy();
    await mock.setRecord(1n, BASE_CHAIN_ID, ERC8004, 90, 0, 4, now);
    await mock.setRecord(2n, BASE_CHAIN_ID, ERC8004, 90, 9, 200, now);
    const encoding = createTrustEncoding({
      tiers: ["established", "developing", "limited", "flagged"],
      sybilSeverities: ["heavy", "elevated", "moderate", "low", "none"],
    });
    const [first, second] = await readTrustRecords(client, {
      oracle: await mock.getAddress(),
      keys: [
        { agentId: 1n, chainId: BASE },
        { agentId: 2n, chainId: BASE },
      ],
    });
    const one = expectOk(first);
    const two = expectOk(second);
    expect(one).to.include({ tier: 0, sybilSeverity: 4, updatedAt: now });
    expect([tierName(one.tier, encoding), sybilSeverityName(one.sybilSeverity, encoding)]).to.deep.equal(["established", "none"]);
    expect(updatedAtDate(one)?.getTime()).to.equal(now * 1000);
    expect(two).to.include({ tier: 9, sybilSeverity: 200 });
    expect([tierName(two.tier, encoding), sybilSeverityName(two.sybilSeverity, encoding)]).to.deep.equal([undefined, undefined]);
  });

  it("rejects an answer whose words do not fit their types, as the gate does", async () => {
    const raw = await new RawResponseOracle__factory(deployer).deploy();
    const words = (tier: bigint) =>
      encodeAbiParameters(
        [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
        [80n, tier, 0n, BigInt(now)],
      );
    await raw.setResponse(words(256n), false);
    const [result] = await readTrustRecords(client, { oracle: await raw.getAddress(), keys: [{ agentId: 1n, chainId: BASE }] });
    const failed = expectFailed(result);
    expect(failed.error.failure).to.equal("malformed");
    expect(failed.error.shortMessage).to.contain("tier 0x100 does not fit uint8");
    await raw.setResponse(words(255n), false);
    const [fits] = await readTrustRecords(client, { oracle: await raw.getAddress(), keys: [{ agentId: 1n, chainId: BASE }] });
    expect(expectOk(fits).tier).to.equal(255);
  });

  it("an empty list reads nothing", async () => {
    const log: RequestLog[] = [];
    expect(await readTrustRecords(makeClient({ log }), { keys: [] })).to.deep.equal([]);
    expect(log).to.deep.equal([]);
  });
});

describe("readGatePolicy", () => {
  it("reads a deployed GatedAction's oracle, policy and agent domain", async () => {
    const mock = await new MockTrustOracle__factory(deployer).deploy();
    const identity = "0x8004A169FB4a3325136EB29fA0ceB6D2e539a432";
    const gate = await new GatedAction__factory(deployer).deploy(
      {
        oracle: await mock.getAddress(),
        identityRegistry: identity,
        agentChainId: BASE_CHAIN_ID,
        agentRegistry: "olas",
        policy: makePolicy({ minScore: 75, maxSybilSeverity: 1, maxAge: 7200, requireController: true }),
      },
      deployer.address,
    );
    const gateAddress = getAddress(await gate.getAddress());
    const read = await readGatePolicy(client, { gate: gateAddress.toLowerCase() });
    expect(read).to.deep.equal({
      gate: gateAddress,
      oracle: getAddress(await mock.getAddress()),
      policy: { minScore: 75, maxSybilSeverity: 1, maxAge: 7200, requireController: true },
      agentChainId: BASE,
      agentRegistry: "olas",
      identityRegistry: identity,
      blockNumber: await client.getBlockNumber({ cacheTime: 0 }),
    });

    await gate.setTrustPolicy(makePolicy({ minScore: 30, maxSybilSeverity: 4, maxAge: 60, requireController: false }));
    expect((await readGatePolicy(client, { gate: gateAddress })).policy).to.deep.equal({
      minScore: 30,
      maxSybilSeverity: 4,
      maxAge: 60,
      requireController: false,
    });
    // At an earlier block, the earlier policy.
    expect((await readGatePolicy(client, { gate: gateAddress, blockNumber: read.blockNumber })).policy.minScore).to.equal(75);
  });

  it("an address that is not a gate gives GateReadError", async () => {
    for (const address of [NO_CODE, oracleAddress]) {
      const error = await readGatePolicy(client, { gate: address }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(GateReadError);
      expect((error as GateReadError).code).to.equal("GATE_READ_FAILED");
      expect((error as GateReadError).gate).to.equal(getAddress(address));
    }
  });
});

describe("bad inputs are refused with InvalidArgumentError before anything is sent", () => {
  const key = { agentId: 1n, chainId: BASE };
  const cases: Array<[string, () => Promise<unknown>]> = [
    ["negative agent id", () => readTrustRecord(clientUnderTest, { ...key, agentId: -1n })],
    ["negative agent id (number)", () => readTrustRecord(clientUnderTest, { ...key, agentId: -1 })],
    ["fractional agent id", () => readTrustRecord(clientUnderTest, { ...key, agentId: 1.5 })],
    ["unsafe agent id number", () => readTrustRecord(clientUnderTest, { ...key, agentId: 2 ** 60 })],
    ["non-numeric agent id", () => readTrustRecord(clientUnderTest, { ...key, agentId: "12abc" })],
    ["agent id above uint256", () => readTrustRecord(clientUnderTest, { ...key, agentId: 1n << 256n })],
    ["short oracle address", () => readTrustRecord(clientUnderTest, { ...key, oracle: "0x1234" })],
    [
      "oracle address with a wrong checksum",
      () => readTrustRecord(clientUnderTest, { ...key, oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276F4" }),
    ],
    ["no chain", () => readTrustRecord(clientUnderTest, { agentId: 1n })],
    ["non-EVM chain", () => readTrustRecord(clientUnderTest, { agentId: 1n, chain: "solana" })],
    ["chain and chainId disagree", () => readTrustRecord(clientUnderTest, { agentId: 1n, chain: "base", chainId: 1 })],
    ["zero chain id", () => readTrustRecord(clientUnderTest, { agentId: 1n, chainId: 0 })],
    ["empty registry", () => readTrustRecord(clientUnderTest, { ...key, registry: "" })],
    ["registry with spaces", () => readTrustRecord(clientUnderTest, { ...key, registry: " erc8004" })],
    ["keys not an array", () => readTrustRecords(clientUnderTest, { keys: "1" as unknown as [] })],
    ["one bad key in a batch", () => readTrustRecords(clientUnderTest, { keys: [key, { ...key, agentId: "x" }] })],
    ["a bad per-key oracle", () => readTrustRecords(clientUnderTest, { keys: [{ ...key, oracle: "0xnope" }] })],
    ["chunkSize 0", () => readTrustRecords(clientUnderTest, { keys: [key], chunkSize: 0 })],
    ["concurrency 1.5", () => readTrustRecords(clientUnderTest, { keys: [key], concurrency: 1.5 })],
    ["bad multicall address", () => readTrustRecords(clientUnderTest, { keys: [key], multicallAddress: "multicall" })],
    ["bad gate address", () => readGatePolicy(clientUnderTest, { gate: "0xZZ" })],
  ];
  let log: RequestLog[];
  let clientUnderTest: ReturnType<typeof makeClient>;

  for (const [name, run] of cases) {
    it(name, async () => {
      log = [];
      clientUnderTest = makeClient({ log });
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, "no error was thrown").to.be.instanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).code).to.equal("INVALID_ARGUMENT");
      expect(log, "requests were sent").to.deep.equal([]);
    });
  }

  it("an unknown chain slug gives UnknownChainError with a suggestion", async () => {
    const error = await readTrustRecord(makeClient(), { agentId: 1n, chain: "basee" }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(UnknownChainError);
    expect((error as UnknownChainError).suggestion).to.equal("base");
  });

  it("the error names the offending key of a batch", async () => {
    const error = (await readTrustRecords(makeClient(), {
      keys: [key, key, { ...key, agentId: -5 }],
    }).catch((e: unknown) => e)) as InvalidArgumentError;
    expect(error.shortMessage).to.contain("keys[2].agentId");
  });
});
