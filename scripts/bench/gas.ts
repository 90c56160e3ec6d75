import hre from "hardhat";
import type { TrustScoreOracle } from "../../typechain-types";
import {
  GatedAction__factory,
  MockIdentityRegistry__factory,
  ThresholdOnlyAction__factory,
  TrustScoreOracle__factory,
} from "../../typechain-types";

const BASE_CHAIN_ID = 8453n;
const REGISTRY = "erc8004";

/** One row of a benchmark table. */
export interface GasRow {
  readonly name: string;
  /** The name forge's gas test (`scripts/bench/foundry/GateGas.t.sol`) logs the same call under, if it measures it. */
  readonly forgeKey?: string;
  readonly gas: number;
  readonly note?: string;
}

async function latestTimestamp(): Promise<number> {
  return (await hre.ethers.provider.getBlock("latest"))!.timestamp;
}

async function gasOf(tx: Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>): Promise<number> {
  const receipt = await (await tx).wait();
  return Number(receipt!.gasUsed);
}

/**
 * Gas of one gated call (a counter increment) through `TrustGated` with every check, with and without the
 * ERC-8004 controller check, against the same call gated by a single `meetsThreshold` call.
 * Measured in steady state: the second call of the same agent (storage of the action already warm-written).
 */
export async function measureGateGas(): Promise<GasRow[]> {
  const [deployer, agentOwner, agentWallet] = await hre.ethers.getSigners();
  const oracle = await new TrustScoreOracle__factory(deployer!).deploy(deployer!.address);
  const identity = await new MockIdentityRegistry__factory(deployer!).deploy();
  await identity.connect(agentOwner!).register();
  await identity.connect(agentOwner!).setAgentWallet(1n, agentWallet!.address);
  const now = await latestTimestamp();
  await oracle.publish([{ agentId: 1n, chainId: BASE_CHAIN_ID, registry: REGISTRY, score: 80, tier: 3, sybilSeverity: 0, updatedAt: now }]);
  const config = (requireController: boolean) => ({
    oracle: oracle.target as string,
    identityRegistry: identity.target as string,
    agentChainId: BASE_CHAIN_ID,
    agentRegistry: REGISTRY,
    policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController },
  });
  const allChecks = await new GatedAction__factory(deployer!).deploy(config(false), deployer!.address);
  const withController = await new GatedAction__factory(deployer!).deploy(config(true), deployer!.address);
  const thresholdOnly = await new ThresholdOnlyAction__factory(deployer!).deploy(oracle.target as string, BASE_CHAIN_ID, REGISTRY, 51);

  const steady = async (call: () => Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>) => {
    await gasOf(call());
    return gasOf(call());
  };
  return [
    { name: "meetsThreshold only (baseline)", forgeKey: "baseline", gas: await steady(() => thresholdOnly.connect(agentOwner!).act(1n)) },
    {
      name: "TrustGated, all checks, no controller check",
      forgeKey: "all",
      gas: await steady(() => allChecks.connect(agentOwner!).act(1n)),
    },
    {
      name: "TrustGated, all checks + controller (owner)",
      forgeKey: "owner",
      gas: await steady(() => withController.connect(agentOwner!).act(1n)),
    },
    {
      name: "TrustGated, all checks + controller (agent wallet)",
      forgeKey: "wallet",
      gas: await steady(() => withController.connect(agentWallet!).act(1n)),
    },
  ];
}

/** Gas per record of `TrustScoreOracle.publish` for one batch size, new records and then updated ones. */
export interface PublishGas {
  readonly batch: number;
  readonly newTotal: number;
  readonly updatedTotal: number;
}

function batchOf(size: number, offset: number, updatedAt: number, score: number): TrustScoreOracle.ScoreUpdateStruct[] {
  return Array.from({ length: size }, (_, i) => ({
    // Realistic ids: ERC-8004 ids on Base are in the tens of thousands.
    agentId: BigInt(20_000 + offset + i),
    chainId: BASE_CHAIN_ID,
    registry: REGISTRY,
    score: (score + i) % 96,
    tier: 2,
    sybilSeverity: i % 5,
    updatedAt,
  }));
}

/** Measures `publish` of new records, then of the same keys updated a day later, for each batch size. */
export async function measurePublishGas(sizes: readonly number[]): Promise<PublishGas[]> {
  const [deployer] = await hre.ethers.getSigners();
  const oracle = await new TrustScoreOracle__factory(deployer!).deploy(deployer!.address);
  const rows: PublishGas[] = [];
  let offset = 0;
  for (const size of sizes) {
    const first = (await latestTimestamp()) - 86_400;
    const newTotal = await gasOf(oracle.publish(batchOf(size, offset, first, 40)));
    const updatedTotal = await gasOf(oracle.publish(batchOf(size, offset, first + 3600, 41)));
    rows.push({ batch: size, newTotal, updatedTotal });
    offset += size;
  }
  return rows;
}
