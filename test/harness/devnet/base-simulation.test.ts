// The local Base simulation, reached as a remote node is: through its loopback RPC URL.
import { expect } from "chai";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  http,
  type PublicClient,
  parseAbi,
} from "viem";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, it } from "vitest";
import { BASE_TRUST_ORACLE_ADDRESS, ERC8004_IDENTITY_REGISTRY_ADDRESS, MULTICALL3_ADDRESS } from "../../../src/config/addresses.js";
import { DevnetError, InvalidArgumentError } from "../../../src/errors.js";
import {
  MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE,
  MULTICALL3_RUNTIME_BYTECODE,
  TRUST_SCORE_ORACLE_RUNTIME_BYTECODE,
} from "../../../src/generated/runtime-bytecode.js";
import { type BaseSimulation, startBaseSimulation } from "../../../src/harness/devnet/base-simulation.js";
import { startLocalChain } from "../../../src/harness/devnet/local-chain.js";
import { IDENTITY_REGISTRY_NAME, IDENTITY_REGISTRY_SYMBOL } from "../../../src/harness/devnet/identity-registry.js";
import { DEFAULT_PUBLISH_BATCH, MAX_PUBLISH_BATCH, type OracleRecordInput } from "../../../src/harness/devnet/publish-records.js";
import { DEFAULT_ADMIN_ROLE, PUBLISHER_ROLE } from "../../../src/harness/devnet/storage-layout.js";
import { trustOracleAbi, trustScoreOracleAbi } from "../../../src/oracle/abi.js";
import { readTrustRecords } from "../../../src/oracle/reader.js";

const accessControlAbi = parseAbi([
  "function hasRole(bytes32 role, address account) view returns (bool)",
  "function grantRole(bytes32 role, address account)",
]);
const registryAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function register() returns (uint256)",
  "function registerWithId(address owner, uint256 agentId)",
  "function ownerOf(uint256 agentId) view returns (address)",
  "function balanceOf(address owner) view returns (uint256)",
  "function setAgentWallet(uint256 agentId, address wallet)",
  "function getAgentWallet(uint256 agentId) view returns (address)",
  "function transferFrom(address from, address to, uint256 tokenId)",
  "error ERC721NonexistentToken(uint256 tokenId)",
  "error ERC721InvalidSender(address sender)",
]);

let sim: BaseSimulation;
let client: PublicClient;
let stranger: Address;
let now: number;

/** A wallet client over the simulation's RPC URL for one of its unlocked accounts. */
function walletOf(account: Address) {
  return createWalletClient({ account, chain: base, transport: http(sim.rpcUrl, { retryCount: 0 }) });
}

/** The custom error a failed write reverted with (via viem's decoded error), or undefined. */
function revertOf(error: unknown): { errorName: string; args: readonly unknown[] } | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  return reverted?.data ? { errorName: reverted.data.errorName, args: reverted.data.args ?? [] } : undefined;
}

function record(i: number, updatedAt: number): OracleRecordInput {
  return {
    agentId: BigInt(i + 1) * 13n,
    chainId: [8453, 1, 137][i % 3]!,
    registry: i % 4 === 0 ? "olas" : "erc8004",
    score: i % 96,
    tier: i % 4,
    sybilSeverity: i % 5,
    updatedAt: updatedAt - (i % 7_200),
  };
}

beforeAll(async () => {
  sim = await startBaseSimulation({ http: true });
  client = createPublicClient({ chain: base, transport: http(sim.rpcUrl, { retryCount: 0 }) }) as PublicClient;
  stranger = sim.accounts[3]!;
  now = await sim.latestTimestamp();
});

afterAll(async () => {
  await sim?.close();
});

describe("startBaseSimulation: the chain", () => {
  it("is served on loopback with chain id 8453, and reports the Base addresses", async () => {
    expect(sim.rpcUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await client.getChainId()).to.equal(8453);
    expect(sim.chainId).to.equal(8453);
    expect(sim.oracle).to.equal(BASE_TRUST_ORACLE_ADDRESS);
    expect(sim.identityRegistry).to.equal(ERC8004_IDENTITY_REGISTRY_ADDRESS);
    expect(sim.multicall3).to.equal(MULTICALL3_ADDRESS);
    expect(sim.publisher).to.equal(sim.accounts[0]);
    const nodeAccounts = (await sim.provider.request({ method: "eth_accounts" })) as string[];
    expect(sim.publisher).to.equal(getAddress(nodeAccounts[0]!));
  });

  it("holds the embedded code at the three addresses", async () => {
    expect(await client.getCode({ address: BASE_TRUST_ORACLE_ADDRESS })).to.equal(TRUST_SCORE_ORACLE_RUNTIME_BYTECODE);
    expect(await client.getCode({ address: ERC8004_IDENTITY_REGISTRY_ADDRESS })).to.equal(MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE);
    expect(await client.getCode({ address: MULTICALL3_ADDRESS })).to.equal(MULTICALL3_RUNTIME_BYTECODE);
  });
});

describe("the oracle at the Base address", () => {
  it("gives the publisher DEFAULT_ADMIN_ROLE and PUBLISHER_ROLE, and nobody else", async () => {
    const hasRole = (role: `0x${string}`, account: Address) =>
      client.readContract({ address: sim.oracle, abi: accessControlAbi, functionName: "hasRole", args: [role, account] });
    expect(await hasRole(DEFAULT_ADMIN_ROLE, sim.publisher)).to.equal(true);
    expect(await hasRole(PUBLISHER_ROLE, sim.publisher)).to.equal(true);
    expect(await hasRole(PUBLISHER_ROLE, stranger)).to.equal(false);
    expect(await hasRole(DEFAULT_ADMIN_ROLE, stranger)).to.equal(false);
    expect(await client.readContract({ address: sim.oracle, abi: trustScoreOracleAbi, functionName: "PUBLISHER_ROLE" })).to.equal(
      PUBLISHER_ROLE,
    );
  });

  it("publishes through publish() and answers getScore, hasScore, meetsThreshold and agentCount", async () => {
    const before = await client.readContract({ address: sim.oracle, abi: trustOracleAbi, functionName: "agentCount" });
    const result = await sim.publish([
      { agentId: 42n, chainId: 8453, registry: "erc8004", score: 82, tier: 3, sybilSeverity: 1, updatedAt: now - 60 },
      { agentId: 7n, chainId: 1, registry: "olas", score: 40, tier: 1, sybilSeverity: 4, updatedAt: new Date((now - 120) * 1000) },
    ]);
    expect(result.records).to.equal(2);
    expect(result.transactions).to.have.length(1);
    const receipt = await client.getTransactionReceipt({ hash: result.transactions[0]! });
    expect(receipt.status).to.equal("success");
    expect(getAddress(receipt.from)).to.equal(sim.publisher);
    expect(getAddress(receipt.to!)).to.equal(BASE_TRUST_ORACLE_ADDRESS);

    const read = <F extends "getScore" | "hasScore">(functionName: F, args: readonly [bigint, bigint, string]) =>
      client.readContract({ address: BASE_TRUST_ORACLE_ADDRESS, abi: trustOracleAbi, functionName, args } as never);
    expect(await read("getScore", [42n, 8453n, "erc8004"])).to.deep.equal([82, 3, 1, now - 60]);
    expect(await read("getScore", [7n, 1n, "olas"])).to.deep.equal([40, 1, 4, now - 120]);
    expect(await read("hasScore", [42n, 8453n, "erc8004"])).to.equal(true);
    expect(await read("hasScore", [42n, 8453n, "olas"])).to.equal(false);
    expect(await read("getScore", [43n, 8453n, "erc8004"])).to.deep.equal([0, 0, 0, 0]);
    const meets = (threshold: number) =>
      client.readContract({
        address: sim.oracle,
        abi: trustOracleAbi,
        functionName: "meetsThreshold",
        args: [42n, 8453n, "erc8004", threshold],
      });
    expect(await meets(82)).to.equal(true);
    expect(await meets(83)).to.equal(false);
    expect(await client.readContract({ address: sim.oracle, abi: trustOracleAbi, functionName: "agentCount" })).to.equal(before + 2n);
  });

  it("refuses publish from a stranger with AccessControlUnauthorizedAccount(stranger, PUBLISHER_ROLE)", async () => {
    const error = await walletOf(stranger)
      .writeContract({
        address: sim.oracle,
        abi: trustScoreOracleAbi,
        functionName: "publish",
        args: [[{ agentId: 1n, chainId: 8453n, registry: "erc8004", score: 90, tier: 3, sybilSeverity: 0, updatedAt: now }]],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(revertOf(error)).to.deep.equal({ errorName: "AccessControlUnauthorizedAccount", args: [stranger, PUBLISHER_ROLE] });
    const read = await client.readContract({
      address: sim.oracle,
      abi: trustOracleAbi,
      functionName: "hasScore",
      args: [1n, 8453n, "erc8004"],
    });
    expect(read).to.equal(false);
  });

  it("lets the admin grant PUBLISHER_ROLE (the admin role works, not only the flags)", async () => {
    const extra = sim.accounts[5]!;
    const hash = await walletOf(sim.publisher).writeContract({
      address: sim.oracle,
      abi: accessControlAbi,
      functionName: "grantRole",
      args: [PUBLISHER_ROLE, extra],
    });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).to.equal("success");
    const published = await walletOf(extra).writeContract({
      address: sim.oracle,
      abi: trustScoreOracleAbi,
      functionName: "publish",
      args: [[{ agentId: 555n, chainId: 8453n, registry: "erc8004", score: 61, tier: 2, sybilSeverity: 0, updatedAt: now }]],
    });
    expect((await client.waitForTransactionReceipt({ hash: published, pollingInterval: 20 })).status).to.equal("success");
    expect(
      await client.readContract({ address: sim.oracle, abi: trustOracleAbi, functionName: "getScore", args: [555n, 8453n, "erc8004"] }),
    ).to.deep.equal([61, 2, 0, now]);
  });

  it("publishes 5,000 records in batches of 200 and reads them all back through Multicall3 over HTTP", async () => {
    const records = Array.from({ length: 5_000 }, (_, i) => record(i, now));
    const before = await client.readContract({ address: sim.oracle, abi: trustOracleAbi, functionName: "agentCount" });
    const result = await sim.publish(records);
    expect(result.records).to.equal(5_000);
    expect(result.transactions).to.have.length(5_000 / DEFAULT_PUBLISH_BATCH);
    expect(await client.readContract({ address: sim.oracle, abi: trustOracleAbi, functionName: "agentCount" })).to.equal(before + 5_000n);

    const reads = await readTrustRecords(client, {
      keys: records.map((r) => ({ agentId: r.agentId, chainId: r.chainId, registry: r.registry })),
    });
    expect(reads).to.have.length(5_000);
    // Compared as lines of text: chai's deep equality over 5,000 tuples would take seconds.
    const got = reads.map((read, i) =>
      read.ok
        ? `${i} ${read.oracle} ${read.hasScore} ${read.score} ${read.tier} ${read.sybilSeverity} ${read.updatedAt}`
        : `${i} ${read.error.message}`,
    );
    const want = records.map((r, i) => `${i} ${BASE_TRUST_ORACLE_ADDRESS} true ${r.score} ${r.tier} ${r.sybilSeverity} ${r.updatedAt}`);
    const firstDifference = got.findIndex((line, i) => line !== want[i]);
    expect(firstDifference, `first difference: got "${got[firstDifference]}", want "${want[firstDifference]}"`).to.equal(-1);
  });

  it("honours batchSize up to 500 (a full batch of new records fits a transaction) and refuses one above", async () => {
    const records = Array.from({ length: 7 }, (_, i) => ({ ...record(i, now), agentId: 900_000n + BigInt(i) }));
    expect((await sim.publish(records, { batchSize: 3 })).transactions).to.have.length(3);
    const full = Array.from({ length: 1_000 }, (_, i) => ({ ...record(i, now), agentId: 800_000n + BigInt(i) }));
    const { transactions } = await sim.publish(full, { batchSize: MAX_PUBLISH_BATCH });
    expect(transactions).to.have.length(2);
    const receipt = await client.getTransactionReceipt({ hash: transactions[0]! });
    expect(receipt.gasUsed).to.be.above(10_000_000n).and.below(16_777_216n);
    const error = await sim.publish(records, { batchSize: 501 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).shortMessage).to.contain("batchSize");
  });

  it("a refused batch throws DevnetError naming the batch and the oracle's error", async () => {
    const future = { agentId: 1n, chainId: 8453, registry: "erc8004", score: 50, tier: 1, sybilSeverity: 0, updatedAt: now + 86_400 };
    const error = await sim.publish([{ ...record(0, now), agentId: 77_777n }, future]).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DevnetError);
    expect((error as DevnetError).code).to.equal("DEVNET_SETUP_FAILED");
    expect((error as DevnetError).shortMessage)
      .to.contain("batch 1 of 1")
      .and.to.contain(`UpdateFromFuture(1, ${now + 86_400}, `);
    expect(revertOf((error as DevnetError).cause)?.errorName).to.equal("UpdateFromFuture");
    // All or nothing: the valid first entry was not written either.
    expect(
      await client.readContract({ address: sim.oracle, abi: trustOracleAbi, functionName: "hasScore", args: [77_777n, 8453n, "erc8004"] }),
    ).to.equal(false);
  });
});

describe("the ERC-8004 identity registry at its Base address", () => {
  const owner = () => sim.accounts[1]!;
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: ERC8004_IDENTITY_REGISTRY_ADDRESS, abi: registryAbi, functionName, args } as never) as Promise<T>;
  const write = async (from: Address, functionName: string, args: readonly unknown[]) => {
    const hash = await walletOf(from).writeContract({
      address: ERC8004_IDENTITY_REGISTRY_ADDRESS,
      abi: registryAbi,
      functionName,
      args,
    } as never);
    return client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  };

  it("has the constructor's name and symbol, and no agents", async () => {
    expect(await read<string>("name")).to.equal(IDENTITY_REGISTRY_NAME);
    expect(await read<string>("symbol")).to.equal(IDENTITY_REGISTRY_SYMBOL);
    const error = await read("ownerOf", [1n]).catch((e: unknown) => e);
    expect(revertOf(error)).to.deep.equal({ errorName: "ERC721NonexistentToken", args: [1n] });
  });

  it("register() hands out ids from 1; registerWithId mints a chosen id; ownerOf and balanceOf follow", async () => {
    const { status } = await write(owner(), "register", []);
    expect(status).to.equal("success");
    expect(await read<Address>("ownerOf", [1n])).to.equal(owner());
    await write(owner(), "register", []);
    expect(await read<Address>("ownerOf", [2n])).to.equal(owner());
    await write(sim.publisher, "registerWithId", [stranger, 31_337n]);
    expect(await read<Address>("ownerOf", [31_337n])).to.equal(stranger);
    expect(await read<bigint>("balanceOf", [owner()])).to.equal(2n);
    expect(await read<bigint>("balanceOf", [stranger])).to.equal(1n);
  });

  it("getAgentWallet returns the wallet the owner set, and is cleared on transfer", async () => {
    const wallet = sim.accounts[7]!;
    expect(await read<Address>("getAgentWallet", [1n])).to.equal("0x0000000000000000000000000000000000000000");
    await write(owner(), "setAgentWallet", [1n, wallet]);
    expect(await read<Address>("getAgentWallet", [1n])).to.equal(wallet);
    await write(owner(), "transferFrom", [owner(), stranger, 1n]);
    expect(await read<Address>("ownerOf", [1n])).to.equal(stranger);
    expect(await read<Address>("getAgentWallet", [1n])).to.equal("0x0000000000000000000000000000000000000000");
  });
});

describe("the clock helpers", () => {
  it("setTime mines a block at the time given; increaseTime moves it on; mine adds blocks", async () => {
    const latest = await sim.latestTimestamp();
    await sim.setTime(latest + 1_000);
    expect(await sim.latestTimestamp()).to.equal(latest + 1_000);
    await sim.setTime(new Date((latest + 2_000) * 1000));
    expect(await sim.latestTimestamp()).to.equal(latest + 2_000);
    await sim.increaseTime(3_600);
    expect(await sim.latestTimestamp()).to.be.at.least(latest + 5_600);
    const block = await client.getBlockNumber({ cacheTime: 0 });
    await sim.mine(5);
    expect(await client.getBlockNumber({ cacheTime: 0 })).to.equal(block + 5n);
  });

  it("setTime into the past is a DevnetError", async () => {
    const error = await sim.setTime(1_000).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DevnetError);
    expect((error as DevnetError).shortMessage).to.contain("evm_setNextBlockTimestamp");
  });
});

describe("startBaseSimulation with a publisher the node has no key for", () => {
  it("impersonates and funds it, and it holds the roles and publishes", async () => {
    const outsider = getAddress("0x00000000000000000000000000000000000b0b01");
    const other = await startBaseSimulation({ publisher: outsider.toLowerCase() });
    try {
      expect(other.rpcUrl).to.equal(undefined);
      expect(other.publisher).to.equal(outsider);
      expect(other.accounts[0]).to.equal(outsider);
      const local = createPublicClient({ chain: base, transport: custom(other.provider) });
      expect(
        await local.readContract({
          address: other.oracle,
          abi: accessControlAbi,
          functionName: "hasRole",
          args: [PUBLISHER_ROLE, outsider],
        }),
      ).to.equal(true);
      expect(await local.getBalance({ address: outsider })).to.be.greaterThan(0n);
      const t = await other.latestTimestamp();
      const { transactions } = await other.publish([
        { agentId: 9n, chainId: 8453, registry: "erc8004", score: 70, tier: 2, sybilSeverity: 0, updatedAt: t },
      ]);
      const receipt = await local.getTransactionReceipt({ hash: transactions[0]! });
      expect(getAddress(receipt.from)).to.equal(outsider);
      expect(receipt.status).to.equal("success");
      expect(
        await local.readContract({ address: other.oracle, abi: trustOracleAbi, functionName: "getScore", args: [9n, 8453n, "erc8004"] }),
      ).to.deep.equal([70, 2, 0, t]);
    } finally {
      await other.close();
    }
  });

  it("refuses a malformed publisher address before starting anything", async () => {
    const error = await startBaseSimulation({ publisher: "0x1234" }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidArgumentError);
  });
});

describe("startBaseSimulation on a caller's provider", () => {
  it("refuses a chain whose id is not 8453, naming the setting that fixes it under Hardhat 3 and under Hardhat 2", async () => {
    const chain = await startLocalChain({ chainId: 31_337 });
    try {
      const error = await startBaseSimulation({ provider: chain.provider }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(InvalidArgumentError);
      const message = (error as InvalidArgumentError).message;
      expect(message).to.contain("The provider's chain id is 31337, not Base's 8453");
      expect(message).to.contain("Hardhat 3: network.create({ override: { chainId: 8453 } })");
      expect(message).to.contain("Hardhat 2: networks: { hardhat: { chainId: 8453 } } in hardhat.config.ts");
    } finally {
      await chain.close();
    }
  });
});
