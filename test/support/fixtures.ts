import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import hre from "hardhat";
import { TIER_MIN_SCORE } from "../../src/policy";
import {
  type GatedAction,
  GatedAction__factory,
  type MockIdentityRegistry,
  MockIdentityRegistry__factory,
  type MockTrustOracle,
  MockTrustOracle__factory,
} from "../../typechain-types";
import type { TrustPolicyStruct } from "../../typechain-types/contracts/fixtures/GatedAction";

/** Chain id of Base mainnet: the default agent chain in the kit's tests. */
export const BASE_CHAIN_ID = 8453n;
/** Default registry name of the oracle. */
export const ERC8004 = "erc8004";
/** Seconds in an hour / a day. */
export const HOUR = 3600;
export const DAY = 24 * HOUR;

/** Sybil severity codes assumed by the kit. */
export const SYBIL = { none: 0, low: 1, moderate: 2, elevated: 3, heavy: 4 } as const;

/** Tier boundaries by score, and the refusal reasons of `TrustGated.trustVerdict` in enum order. */
export { TIER_MIN_SCORE, TRUST_REFUSALS as REFUSAL } from "../../src/policy";

/** A policy with sensible defaults: developing tier or better, at most moderate sybil, 36 h old at most. */
export function makePolicy(overrides: Partial<TrustPolicyStruct> = {}): TrustPolicyStruct {
  return {
    minScore: TIER_MIN_SCORE.developing,
    maxSybilSeverity: SYBIL.moderate,
    maxAge: 36 * HOUR,
    requireController: false,
    ...overrides,
  };
}

/** Timestamp of the latest block. */
export async function latestTimestamp(): Promise<number> {
  const block = await hre.ethers.provider.getBlock("latest");
  if (!block) throw new Error("no latest block");
  return block.timestamp;
}

/** Everything a gate test needs: signers, a mock oracle, a mock ERC-8004 registry and a `GatedAction` gate. */
export interface TrustStack {
  deployer: HardhatEthersSigner;
  /** Owner of agent 1 in the identity registry. */
  agentOwner: HardhatEthersSigner;
  /** Another account, controlling nothing. */
  stranger: HardhatEthersSigner;
  others: HardhatEthersSigner[];
  oracle: MockTrustOracle;
  identity: MockIdentityRegistry;
  gate: GatedAction;
  /** Agent registered to `agentOwner` (id 1). */
  agentId: bigint;
  /** Writes a record for `agentId` on the default domain with sane defaults. */
  setRecord(
    agentId: bigint | number,
    record?: Partial<{ score: number; tier: number; sybilSeverity: number; updatedAt: number }>,
  ): Promise<void>;
}

/** Deploys a fresh `TrustStack` with the given gate policy. */
export async function deployTrustStack(policy: Partial<TrustPolicyStruct> = {}): Promise<TrustStack> {
  const [deployer, agentOwner, stranger, ...others] = await hre.ethers.getSigners();
  if (!deployer || !agentOwner || !stranger) throw new Error("Hardhat network has too few accounts");
  const oracle = await new MockTrustOracle__factory(deployer).deploy();
  const identity = await new MockIdentityRegistry__factory(deployer).deploy();
  await identity.connect(agentOwner).register();
  const gate = await new GatedAction__factory(deployer).deploy(
    {
      oracle: await oracle.getAddress(),
      identityRegistry: await identity.getAddress(),
      agentChainId: BASE_CHAIN_ID,
      agentRegistry: ERC8004,
      policy: makePolicy(policy),
    },
    deployer.address,
  );
  const setRecord = recordSetter(oracle);
  return { deployer, agentOwner, stranger, others, oracle, identity, gate, agentId: 1n, setRecord };
}

/** A record to write with {@link recordSetter}; omitted fields get defaults (score 80, tier 3, sybil none, now). */
export type RecordPatch = Partial<{ score: number; tier: number; sybilSeverity: number; updatedAt: number }>;

/**
 * Writes records for agents of the default domain (Base, `erc8004`) into a mock oracle.
 *
 * @param oracle - The mock oracle.
 * @returns `setRecord(agentId, patch)`.
 */
export function recordSetter(oracle: MockTrustOracle): (agentId: bigint | number, record?: RecordPatch) => Promise<void> {
  return async (agentId, record = {}) => {
    const updatedAt = record.updatedAt ?? (await latestTimestamp());
    await oracle.setRecord(
      agentId,
      BASE_CHAIN_ID,
      ERC8004,
      record.score ?? 80,
      record.tier ?? 3,
      record.sybilSeverity ?? SYBIL.none,
      updatedAt,
    );
  };
}
