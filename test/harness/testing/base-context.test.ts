// The Base test context: a fork of Base when BASE_RPC_URL is set, the local simulation otherwise (CI runs the
// simulation; base-context.fork.test.ts runs fork mode against a loopback Base; real Base only when a user sets
// BASE_RPC_URL to it). Its helpers
// change single oracle records (through TrustOracleOverride) without touching any other record, and the gates
// and examples, driven through the contracts that really call the oracle, decide accordingly.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  type Abi,
  type Address,
  decodeErrorResult,
  encodeAbiParameters,
  getAddress,
  type Hex,
  keccak256,
  parseAbi,
  toFunctionSelector,
  toHex,
} from "viem";
import { base } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BASE_TRUST_ORACLE_ADDRESS, ERC8004_IDENTITY_REGISTRY_ADDRESS } from "../../../src/config/addresses.js";
import { DEFAULT_TRUST_ENCODING, tierForScore } from "../../../src/config/encodings.js";
import { DevnetError, InvalidArgumentError } from "../../../src/errors.js";
import { TRUST_SCORE_ORACLE_RUNTIME_BYTECODE } from "../../../src/generated/runtime-bytecode.js";
import {
  type BaseContext,
  baseForkBlockFromEnv,
  DEFAULT_BASE_FORK_BLOCK,
  describeContractError,
  ORACLE_OVERRIDE_STORAGE_LOCATION,
  type OracleRecordValue,
  overrideWord,
  startBaseContext,
  type TestRecordKey,
  TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE,
} from "../../../src/harness/testing/index.js";
import { trustOracleAbi, trustScoreOracleAbi } from "../../../src/oracle/abi.js";
import { GatedAction__factory, MintableTestToken__factory, TrustGatedEscrow__factory } from "../../../typechain-types";

const ROOT = resolve(__dirname, "../../..");
const FORK = Boolean(process.env.BASE_RPC_URL?.trim());
const MODE = FORK ? "fork" : "simulation";
const HOUR = 3600;
const MAX_AGE = 36 * HOUR;
const UNAVAILABLE = toFunctionSelector("TrustOracleOverrideUnavailable()");
const accessControlErrors = parseAbi(["error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)"]);

let ctx: BaseContext;

beforeAll(async () => {
  ctx = await startBaseContext();
});

afterEach(async () => {
  // A failed test must not leave the oracle reverting or a record overridden for the next one.
  await ctx?.restoreOracle();
});

afterAll(async () => {
  await ctx?.close();
});

/** Every record of `keys`, read through the oracle. */
async function readAll(keys: readonly TestRecordKey[]): Promise<OracleRecordValue[]> {
  return Promise.all(keys.map((k) => ctx.readRecord(k)));
}

/** Keys beyond the Base `erc8004` sample: other chains and registries (seeded in simulation). */
const OTHER_KEYS: readonly TestRecordKey[] = [
  { agentId: 7n, chainId: 1 },
  { agentId: 1001n, registry: "olas" },
  { agentId: 42n, registry: "virtuals" },
];

/** The first hex `data` string on an error or its causes: the revert data the node returned. */
function revertDataOf(error: unknown): Hex | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    const data = (e as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x")) return data as Hex;
  }
  return undefined;
}

/** The custom error a call reverted with, decoded with `abi` (`raw` with the data when `abi` does not know it). */
async function revertOf(run: () => Promise<unknown>, abi?: Abi): Promise<{ errorName: string; args: readonly unknown[] }> {
  try {
    await run();
  } catch (error) {
    const data = revertDataOf(error);
    if (data === undefined) throw error;
    if (abi) {
      try {
        const decoded = decodeErrorResult({ abi, data });
        return { errorName: decoded.errorName, args: decoded.args ?? [] };
      } catch {
        // not an error of this ABI
      }
    }
    return { errorName: "raw", args: [data] };
  }
  throw new Error("expected a revert, the call succeeded");
}

async function deploy(abi: Abi, bytecode: Hex, args: readonly unknown[], from: Address): Promise<Address> {
  const hash = await ctx.walletClient(from).deployContract({ abi, bytecode, args, account: from, chain: base });
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress || receipt.status !== "success") throw new Error("deployment failed");
  return receipt.contractAddress;
}

async function send(from: Address, address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<void> {
  const hash = await ctx.walletClient(from).writeContract({ address, abi, functionName, args, account: from, chain: base });
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).to.equal("success");
}

describe(`Base context (${MODE} mode)`, () => {
  it("agrees with the override's ERC-7201 storage location", () => {
    const namespace = BigInt(keccak256(toHex("trustgate.storage.TrustOracleOverride"))) - 1n;
    const expected = BigInt(keccak256(encodeAbiParameters([{ type: "uint256" }], [namespace]))) & ~0xffn;
    expect(ORACLE_OVERRIDE_STORAGE_LOCATION).to.equal(expected);
    const source = readFileSync(resolve(ROOT, "contracts/testing/TrustOracleOverride.sol"), "utf8");
    expect(source).to.contain(`STORAGE_LOCATION = 0x${expected.toString(16).padStart(64, "0")};`);
  });

  it("reads the fork block from BASE_FORK_BLOCK, else the pinned default, and refuses a bad value", () => {
    expect(baseForkBlockFromEnv({})).to.equal(DEFAULT_BASE_FORK_BLOCK);
    expect(baseForkBlockFromEnv({ BASE_FORK_BLOCK: " 123456 " })).to.equal(123_456);
    expect(() => baseForkBlockFromEnv({ BASE_FORK_BLOCK: "12abc" })).to.throw(/BASE_FORK_BLOCK/);
    expect(() => baseForkBlockFromEnv({ BASE_FORK_BLOCK: "0" })).to.throw(/BASE_FORK_BLOCK/);
  });

  it("refuses fork mode without an RPC URL, and bad options", async () => {
    const saved = process.env.BASE_RPC_URL;
    delete process.env.BASE_RPC_URL;
    try {
      await expect(startBaseContext({ mode: "fork" })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(startBaseContext({ mode: "simulation", agents: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    } finally {
      if (saved !== undefined) process.env.BASE_RPC_URL = saved;
    }
  });

  it("runs on chain 8453 with the override at the oracle address and the original code at the side address", async () => {
    expect(ctx.mode).to.equal(MODE);
    expect(ctx.chainId).to.equal(8453);
    expect(await ctx.publicClient.getChainId()).to.equal(8453);
    expect(ctx.oracle).to.equal(getAddress(BASE_TRUST_ORACLE_ADDRESS));
    expect(ctx.identityRegistry).to.equal(getAddress(ERC8004_IDENTITY_REGISTRY_ADDRESS));
    expect((await ctx.publicClient.getCode({ address: ctx.oracle }))?.toLowerCase()).to.equal(
      TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE.toLowerCase(),
    );
    const original = await ctx.publicClient.getCode({ address: ctx.originalOracleCode });
    expect(original?.length ?? 0).to.be.greaterThan(2);
    if (!FORK) expect(original?.toLowerCase()).to.equal(TRUST_SCORE_ORACLE_RUNTIME_BYTECODE.toLowerCase());
    expect(await ctx.publicClient.getCode({ address: ctx.multicall3 })).to.not.equal(undefined);
    // The override's state sits at its namespaced slot of the oracle address: the side address, nothing else.
    const stored = await ctx.publicClient.getStorageAt({
      address: ctx.oracle,
      slot: toHex(ORACLE_OVERRIDE_STORAGE_LOCATION, { size: 32 }),
    });
    expect(getAddress(`0x${stored!.slice(-40)}`)).to.equal(ctx.originalOracleCode);
  });

  it("serves the seeded population through the override, as published", async () => {
    expect(ctx.sampleKeys.length).to.be.greaterThan(0);
    if (!FORK) expect(ctx.sampleKeys.length).to.equal(24);
    const records = await readAll(ctx.sampleKeys);
    const now = await ctx.latestTimestamp();
    for (const r of records) {
      expect(r.updatedAt).to.be.greaterThan(0);
      expect(r.updatedAt).to.be.at.most(now);
    }
    if (!FORK) {
      // Seeded scores follow (17 + 37 i) mod 96 with the tier of the score, sybil i mod 5.
      records.forEach((r, i) => {
        expect(r.score).to.equal((17 + i * 37) % 96);
        expect(r.tier).to.equal(DEFAULT_TRUST_ENCODING.tiers.indexOf(tierForScore(r.score)));
        expect(r.sybilSeverity).to.equal(i % 5);
      });
      const count = await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "agentCount" });
      expect(count).to.equal(BigInt(24 + OTHER_KEYS.length));
      for (const key of OTHER_KEYS) expect((await ctx.readRecord(key)).updatedAt).to.be.greaterThan(0);
    }
  });

  it("setRecord answers the new record for its key only; hasScore and meetsThreshold agree", async () => {
    const [target, ...rest] = ctx.sampleKeys;
    const others = [...rest, ...OTHER_KEYS];
    const before = await readAll(others);
    const original = await ctx.readRecord(target!);
    const written = await ctx.setRecord(target!, { score: 88, sybilSeverity: 3, updatedAt: 1_700_000_000 });
    expect(written).to.deep.equal({ score: 88, tier: 3, sybilSeverity: 3, updatedAt: 1_700_000_000 });
    expect(await ctx.readRecord(target!)).to.deep.equal(written);
    const args = [target!.agentId, target!.chainId, target!.registry] as const;
    expect(await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "hasScore", args })).to.equal(
      true,
    );
    expect(
      await ctx.publicClient.readContract({
        address: ctx.oracle,
        abi: trustOracleAbi,
        functionName: "meetsThreshold",
        args: [...args, 88],
      }),
    ).to.equal(true);
    expect(
      await ctx.publicClient.readContract({
        address: ctx.oracle,
        abi: trustOracleAbi,
        functionName: "meetsThreshold",
        args: [...args, 89],
      }),
    ).to.equal(false);
    expect(await readAll(others)).to.deep.equal(before);
    // Same agent on another chain or registry is a different key: untouched.
    expect(await ctx.readRecord({ ...target!, registry: "olas" })).to.deep.equal(
      FORK ? await ctx.readRecord({ ...target!, registry: "olas" }) : { score: 0, tier: 0, sybilSeverity: 0, updatedAt: 0 },
    );
    await ctx.restoreRecord(target!);
    expect(await ctx.readRecord(target!)).to.deep.equal(original);
  });

  it("setRecord fills the tier from the score and the date from the latest block, and refuses bad fields", async () => {
    const key = ctx.sampleKeys[0]!;
    const now = await ctx.latestTimestamp();
    expect(await ctx.setRecord(key, { score: 40 })).to.deep.equal({ score: 40, tier: 1, sybilSeverity: 0, updatedAt: now });
    await expect(ctx.setRecord(key, { score: 256 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(ctx.setRecord(key, { score: 50, updatedAt: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(() => overrideWord({ score: 1, tier: 1, sybilSeverity: 1, updatedAt: 2 ** 40 })).to.throw(InvalidArgumentError);
    await ctx.restoreOracle();
  });

  it("clearRecord makes the key read as absent and leaves the others", async () => {
    const [target, ...rest] = ctx.sampleKeys;
    const others = [...rest, ...OTHER_KEYS];
    const before = await readAll(others);
    const original = await ctx.readRecord(target!);
    await ctx.clearRecord(target!);
    expect(await ctx.readRecord(target!)).to.deep.equal({ score: 0, tier: 0, sybilSeverity: 0, updatedAt: 0 });
    const args = [target!.agentId, target!.chainId, target!.registry] as const;
    expect(await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "hasScore", args })).to.equal(
      false,
    );
    expect(
      await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "meetsThreshold", args: [...args, 0] }),
    ).to.equal(false);
    expect(await readAll(others)).to.deep.equal(before);
    await expect(ctx.makeStale(target!, 60)).rejects.toBeInstanceOf(DevnetError);
    await ctx.restoreOracle();
    expect(await ctx.readRecord(target!)).to.deep.equal(original);
  });

  it("makeStale backdates the current record, keeping its score and codes", async () => {
    const target = ctx.sampleKeys[0]!;
    const original = await ctx.readRecord(target);
    const now = await ctx.latestTimestamp();
    const stale = await ctx.makeStale(target, 5 * 86_400);
    expect(stale).to.deep.equal({ ...original, updatedAt: now - 5 * 86_400 });
    expect(await ctx.readRecord(target)).to.deep.equal(stale);
    // Backdating an overridden record keeps the overridden values.
    await ctx.setRecord(target, { score: 77, tier: 3, sybilSeverity: 2 });
    const again = await ctx.makeStale(target, 10);
    expect(again).to.include({ score: 77, tier: 3, sybilSeverity: 2 });
    expect(again.updatedAt).to.equal((await ctx.latestTimestamp()) - 10);
    await expect(ctx.makeStale(target, -1)).rejects.toBeInstanceOf(InvalidArgumentError);
    await ctx.restoreOracle();
    expect(await ctx.readRecord(target)).to.deep.equal(original);
  });

  it("makeOracleRevert makes every oracle call revert; restoreOracle brings back every original answer", async () => {
    const keys = [...ctx.sampleKeys, ...OTHER_KEYS];
    const before = await readAll(keys);
    const count = await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "agentCount" });
    await ctx.setRecord(ctx.sampleKeys[0]!, { score: 11 });
    await ctx.clearRecord(ctx.sampleKeys.at(-1)!);
    await ctx.makeOracleRevert();
    const raw = async (data: Hex) => ctx.provider.request({ method: "eth_call", params: [{ to: ctx.oracle, data }, "latest"] });
    for (const key of [ctx.sampleKeys[0]!, ctx.sampleKeys.at(-1)!, OTHER_KEYS[0]!]) {
      const failure = await revertOf(() => ctx.readRecord(key));
      expect(failure.errorName).to.equal("raw");
      expect(failure.args[0]).to.equal(UNAVAILABLE);
    }
    await expect(raw(toFunctionSelector("agentCount()"))).rejects.toThrow();
    await ctx.restoreOracle();
    expect(await readAll(keys)).to.deep.equal(before);
    expect(await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "agentCount" })).to.equal(count);
  });

  it.skipIf(FORK)(
    "publishing still runs the original code against the original storage (simulation only: the kit's publisher)",
    async () => {
      const publisher = ctx.accounts[0]!;
      const now = await ctx.latestTimestamp();
      const count = await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "agentCount" });
      await send(publisher, ctx.oracle, trustScoreOracleAbi as Abi, "publish", [
        [{ agentId: 5000n, chainId: 8453n, registry: "erc8004", score: 60, tier: 2, sybilSeverity: 0, updatedAt: now }],
      ]);
      expect(await ctx.readRecord({ agentId: 5000n })).to.deep.equal({ score: 60, tier: 2, sybilSeverity: 0, updatedAt: now });
      expect(await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "agentCount" })).to.equal(
        count + 1n,
      );
      // Roles are still checked against the original storage: a stranger cannot publish.
      const stranger = await ctx.impersonate("0x000000000000000000000000000000000000dEaD");
      const failure = await revertOf(
        () =>
          ctx.publicClient.simulateContract({
            account: stranger,
            address: ctx.oracle,
            abi: trustScoreOracleAbi,
            functionName: "publish",
            args: [[{ agentId: 5001n, chainId: 8453n, registry: "erc8004", score: 60, tier: 2, sybilSeverity: 0, updatedAt: now }]],
          }),
        accessControlErrors,
      );
      expect(failure.errorName).to.equal("AccessControlUnauthorizedAccount");
      // The context's own clients decode the revert: viem names the custom error and its values.
      const thrown = await ctx.publicClient
        .simulateContract({
          account: stranger,
          address: ctx.oracle,
          abi: trustScoreOracleAbi,
          functionName: "publish",
          args: [[{ agentId: 5001n, chainId: 8453n, registry: "erc8004", score: 60, tier: 2, sybilSeverity: 0, updatedAt: now }]],
        })
        .catch((error: unknown) => error);
      expect(describeContractError(thrown)).to.match(
        /^AccessControlUnauthorizedAccount\("0x000000000000000000000000000000000000dEaD", "0x[0-9a-f]{64}"\)$/,
      );
      expect((thrown as Error).message).not.to.match(/unknown RPC error/);
    },
  );

  it("impersonate lets the node send from any address and funds it", async () => {
    const someone = await ctx.impersonate("0x1234567890123456789012345678901234567890");
    expect(await ctx.publicClient.getBalance({ address: someone })).to.be.at.least(10n ** 20n);
    const before = await ctx.publicClient.getBalance({ address: ctx.accounts[5]! });
    const hash = await ctx.walletClient(someone).sendTransaction({ account: someone, chain: base, to: ctx.accounts[5]!, value: 12345n });
    await ctx.publicClient.waitForTransactionReceipt({ hash });
    expect(await ctx.publicClient.getBalance({ address: ctx.accounts[5]! })).to.equal(before + 12345n);
  });

  it("controllerOf names the agent's owner in the identity registry and refuses an unknown agent", async () => {
    const agentId = ctx.sampleKeys[0]!.agentId;
    const owner = await ctx.controllerOf(agentId);
    if (!FORK) {
      expect(owner).to.equal(ctx.accounts[1]);
      expect(await ctx.controllerOf(2n)).to.equal(ctx.accounts[2]);
    }
    const registryAbi = parseAbi(["function ownerOf(uint256) view returns (address)"]);
    expect(
      await ctx.publicClient.readContract({ address: ctx.identityRegistry, abi: registryAbi, functionName: "ownerOf", args: [agentId] }),
    ).to.equal(owner);
    await expect(ctx.controllerOf(10n ** 30n)).rejects.toBeInstanceOf(DevnetError);
  });

  it("increaseTime moves the chain's clock", async () => {
    const before = await ctx.latestTimestamp();
    await ctx.increaseTime(HOUR);
    expect(await ctx.latestTimestamp()).to.be.at.least(before + HOUR);
    await expect(ctx.increaseTime(0)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  describe("gates against the Base context", () => {
    let agentId: bigint;
    let key: TestRecordKey;
    let controller: Address;
    let stranger: Address;
    let deployer: Address;
    const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: MAX_AGE, requireController: true };
    const config = () => ({
      oracle: ctx.oracle,
      identityRegistry: ctx.identityRegistry,
      agentChainId: 8453n,
      agentRegistry: "erc8004",
      policy,
    });

    beforeAll(async () => {
      key = ctx.sampleKeys[0]!;
      agentId = BigInt(key.agentId);
      deployer = ctx.accounts[0]!;
      controller = await ctx.impersonate(await ctx.controllerOf(agentId));
      stranger = await ctx.impersonate("0x5757575757575757575757575757575757575757");
    });

    it("GatedAction: admits a fresh record, refuses stale, unavailable, missing and a stranger", async () => {
      const gate = await deploy(GatedAction__factory.abi as Abi, GatedAction__factory.bytecode as Hex, [config(), deployer], deployer);
      const abi = GatedAction__factory.abi;
      const act = (account: Address) =>
        ctx.publicClient.simulateContract({ account, address: gate, abi, functionName: "act", args: [agentId] });

      await ctx.setRecord(key, { score: 80, sybilSeverity: 1 });
      await send(controller, gate, abi as Abi, "act", [agentId]);
      expect(await ctx.publicClient.readContract({ address: gate, abi, functionName: "actions", args: [agentId] })).to.equal(1n);

      const stranger_ = await revertOf(() => act(stranger), abi);
      expect(stranger_).to.deep.equal({ errorName: "NotAgentController", args: [agentId, stranger] });

      const stale = await ctx.makeStale(key, MAX_AGE + 60);
      const staleRefusal = await revertOf(() => act(controller), abi);
      expect(staleRefusal.errorName).to.equal("TrustRecordStale");
      expect(staleRefusal.args.slice(0, 3)).to.deep.equal([agentId, stale.updatedAt, MAX_AGE]);

      await ctx.setRecord(key, { score: 80 });
      await ctx.makeOracleRevert();
      expect(await revertOf(() => act(controller), abi)).to.deep.equal({
        errorName: "TrustOracleUnavailable",
        args: [ctx.oracle, UNAVAILABLE],
      });
      await ctx.restoreOracle();

      await ctx.clearRecord(key);
      expect(await revertOf(() => act(controller), abi)).to.deep.equal({
        errorName: "TrustRecordMissing",
        args: [agentId, 8453n, "erc8004"],
      });

      await ctx.setRecord(key, { score: 50 });
      expect(await revertOf(() => act(controller), abi)).to.deep.equal({ errorName: "TrustScoreTooLow", args: [agentId, 50, 51] });

      await ctx.setRecord(key, { score: 90 });
      await send(controller, gate, abi as Abi, "actWithModifier", [agentId]);
      expect(await ctx.publicClient.readContract({ address: gate, abi, functionName: "actions", args: [agentId] })).to.equal(2n);
      await ctx.restoreOracle();
    });

    it("TrustGatedEscrow: pays the impersonated controller only while the agent is trusted", async () => {
      const escrow = await deploy(
        TrustGatedEscrow__factory.abi as Abi,
        TrustGatedEscrow__factory.bytecode as Hex,
        [config(), deployer],
        deployer,
      );
      const token = await deploy(
        MintableTestToken__factory.abi as Abi,
        MintableTestToken__factory.bytecode as Hex,
        ["Test USD", "TUSD"],
        deployer,
      );
      const tokenAbi = MintableTestToken__factory.abi;
      const escrowAbi = TrustGatedEscrow__factory.abi;
      const client = ctx.accounts[6]!;
      const amount = 1_000n * 10n ** 18n;
      await send(client, token, tokenAbi as Abi, "mint", [client, amount]);
      await send(client, token, tokenAbi as Abi, "approve", [escrow, amount]);
      const deadline = BigInt((await ctx.latestTimestamp()) + 7 * 86_400);
      await send(client, escrow, escrowAbi as Abi, "createEscrow", [token, agentId, amount, deadline]);
      const claim = (account: Address) =>
        ctx.publicClient.simulateContract({ account, address: escrow, abi: escrowAbi, functionName: "claim", args: [1n] });

      await ctx.setRecord(key, { score: 80 });
      expect(await revertOf(() => claim(stranger), escrowAbi)).to.deep.equal({
        errorName: "NotAgentController",
        args: [agentId, stranger],
      });
      await ctx.makeStale(key, MAX_AGE + 1);
      expect((await revertOf(() => claim(controller), escrowAbi)).errorName).to.equal("TrustRecordStale");
      await ctx.makeOracleRevert();
      expect((await revertOf(() => claim(controller), escrowAbi)).errorName).to.equal("TrustOracleUnavailable");
      await ctx.restoreOracle();

      await ctx.setRecord(key, { score: 80 });
      const before = await ctx.publicClient.readContract({ address: token, abi: tokenAbi, functionName: "balanceOf", args: [controller] });
      await send(controller, escrow, escrowAbi as Abi, "claim", [1n]);
      expect(
        await ctx.publicClient.readContract({ address: token, abi: tokenAbi, functionName: "balanceOf", args: [controller] }),
      ).to.equal(before + amount);
      await ctx.restoreOracle();
    });
  });

  it.skipIf(!FORK)("forked records satisfy the service's invariants (needs BASE_RPC_URL; real Base never in CI)", async () => {
    const records = await readAll(ctx.sampleKeys);
    const now = await ctx.latestTimestamp();
    const tiers = new Map<string, number[]>();
    const sybils = new Set<number>();
    const contradictions: string[] = [];
    records.forEach((r, i) => {
      expect(r.score, `agent ${ctx.sampleKeys[i]!.agentId}`).to.be.at.most(95);
      expect(r.updatedAt, `agent ${ctx.sampleKeys[i]!.agentId}`).to.be.at.most(now);
      const expectedTier = tierForScore(r.score);
      tiers.set(`${r.tier}`, [...(tiers.get(`${r.tier}`) ?? []), r.score]);
      sybils.add(r.sybilSeverity);
      if (DEFAULT_TRUST_ENCODING.tiers[r.tier] !== expectedTier) {
        contradictions.push(`agent ${ctx.sampleKeys[i]!.agentId}: score ${r.score}, tier code ${r.tier}`);
      }
    });
    console.log(`fork block ${ctx.forkBlock}: ${records.length} records among agent ids probed`);
    for (const [tier, scores] of [...tiers].sort()) {
      console.log(`  tier code ${tier}: scores ${Math.min(...scores)}–${Math.max(...scores)} (${scores.length} records)`);
    }
    console.log(`  sybil codes seen: ${[...sybils].sort((a, b) => a - b).join(", ")}`);
    if (contradictions.length > 0) console.log(`  tier codes contradicting the kit's encoding:\n    ${contradictions.join("\n    ")}`);
    // Tier codes are consistent with scores under *some* monotone encoding: a higher code never has a lower score range.
    const ranges = [...tiers].map(([tier, scores]) => ({ tier: Number(tier), min: Math.min(...scores), max: Math.max(...scores) }));
    for (const a of ranges)
      for (const b of ranges)
        if (a.tier !== b.tier && a.max >= b.min && a.min <= b.max) {
          expect.fail(`tier codes ${a.tier} and ${b.tier} have overlapping score ranges`);
        }
    expect(contradictions, "tier codes under the kit's encoding").to.deep.equal([]);
  });
});
