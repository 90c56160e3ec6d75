/**
 * The deployment's plan, without a chain: which contracts a configuration asks for and in which order, and, given
 * what the deployments file records and whether each record holds on the chain, which are kept and which deployed.
 */
import { type Abi, type AbiParameter, type Address, getAddress, type Hash, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { ContractArtifact } from "../../src/deploy/deploy-artifacts.js";
import {
  type ContractStep,
  creationOf,
  deploymentOrder,
  MOCK_IDENTITY_REGISTRY,
  planDeployment,
  REFERENCE_ORACLE,
  type RecordedOnChain,
} from "../../src/deploy/deploy-plan.js";
import type { DeploymentRecord } from "../../src/deploy/deployments-file.js";
import { ATTESTED_ORACLE } from "../../src/deploy/attested-oracle-target.js";
import { attestedTrustOracleAbi, trustGatedAbi, trustScoreOracleAbi } from "../../src/generated/abis.js";
import { shippedNetwork } from "./support.js";

const OWNER = getAddress("0x00000000000000000000000000000000000000a1");
const ADMIN = getAddress("0x00000000000000000000000000000000000000a2");
const parties = { owner: OWNER, attestedAdmin: ADMIN };

/** The gate policy parameter, as the generated gate ABI declares it. */
const POLICY = trustGatedAbi.find((entry) => entry.type === "function" && entry.name === "setTrustPolicy")!.inputs[0] as AbiParameter;

/** The gates' constructor: `(TrustGateConfig config, address initialOwner)`. */
const GATE_CONSTRUCTOR: AbiParameter[] = [
  {
    name: "config",
    type: "tuple",
    components: [
      { name: "oracle", type: "address" },
      { name: "identityRegistry", type: "address" },
      { name: "agentChainId", type: "uint256" },
      { name: "agentRegistry", type: "string" },
      POLICY,
    ],
  },
  { name: "initialOwner", type: "address" },
];
const address = (name: string): AbiParameter => ({ name, type: "address" });
const constructorOf = (abi: Abi): AbiParameter[] => [...(abi.find((entry) => entry.type === "constructor")?.inputs ?? [])];

/** Stand-ins of the compiled contracts: their constructors' parameters, and a distinct bytecode each. */
const CONSTRUCTORS: Record<string, AbiParameter[]> = {
  [REFERENCE_ORACLE]: constructorOf(trustScoreOracleAbi),
  [ATTESTED_ORACLE]: constructorOf(attestedTrustOracleAbi),
  [MOCK_IDENTITY_REGISTRY]: [],
  TrustAdmissionHook: GATE_CONSTRUCTOR,
  AgentTaskBoard: [address("admissionHook"), address("initialOwner")],
  TrustGatedEscrow: GATE_CONSTRUCTOR,
};
const artifacts = new Map<string, ContractArtifact>(
  Object.entries(CONSTRUCTORS).map(([name, inputs], index) => {
    const abi: Abi = [{ type: "constructor", stateMutability: "nonpayable", inputs }];
    const bytecode: Hex = `0x60${(index + 1).toString(16).padStart(2, "0")}00`;
    return [name, { abi, bytecode, deployedBytecode: "0x00" }];
  }),
);
const context = { local: true, chainId: 31337, deploymentsFile: "deployments/31337.json" };

/** The local network of the shipped configuration (reference oracle, mock registry, hook and board) and the escrow. */
const withEscrow = shippedNetwork("hardhat", { contracts: ["TrustAdmissionHook", "AgentTaskBoard", "TrustGatedEscrow"] });

/** Distinct addresses, one per contract, as if each had been deployed. */
function addressOf(index: number): Address {
  return getAddress(`0x${(0xc0 + index).toString(16).padStart(40, "0")}`);
}

/**
 * Records of every step as deployed with the given addresses, each with the fingerprint the plan computes (so a
 * record matches unless a test changes it).
 */
function recordsOf(steps: readonly ContractStep[]): Record<string, DeploymentRecord> {
  const addresses: Record<string, Address> = {};
  const records: Record<string, DeploymentRecord> = {};
  steps.forEach((step, index) => {
    const creation = creationOf(step, artifacts.get(step.name)!, addresses);
    addresses[step.name] = addressOf(index);
    records[step.name] = {
      name: step.name,
      address: addresses[step.name]!,
      transactionHash: `0x${String(index + 1).padStart(64, "0")}` as Hash,
      blockNumber: index + 1,
      constructorArgs: [...creation.constructorArgs],
      fingerprint: creation.fingerprint,
      gitCommit: null,
      deployedAt: "2026-01-01T00:00:00.000Z",
    };
  });
  return records;
}

/** Every record holds on the chain, but those named. */
function onChain(recorded: Record<string, DeploymentRecord>, problems: Record<string, string> = {}): RecordedOnChain {
  return { recorded, problems: new Map(Object.keys(recorded).map((name) => [name, problems[name] ?? null])) };
}

const kinds = (plan: ReturnType<typeof planDeployment>) => plan.map((p) => `${p.step.name}:${p.kind}`);

describe("deploymentOrder", () => {
  it("the reference oracle and the mock registry before the gates that read them, the hook before the board", () => {
    const steps = deploymentOrder(withEscrow, parties);
    expect(steps.map((s) => s.name)).toEqual([
      REFERENCE_ORACLE,
      MOCK_IDENTITY_REGISTRY,
      "TrustAdmissionHook",
      "AgentTaskBoard",
      "TrustGatedEscrow",
    ]);
    expect(steps.find((s) => s.name === "AgentTaskBoard")!.dependsOn).toEqual(["TrustAdmissionHook"]);
    expect(steps.find((s) => s.name === "TrustGatedEscrow")!.dependsOn).toEqual([REFERENCE_ORACLE, MOCK_IDENTITY_REGISTRY]);
    // The owner owns the gates and administers the reference oracle.
    expect(steps[0]!.args({})).toEqual([OWNER]);
    expect(steps.find((s) => s.name === "AgentTaskBoard")!.args({ TrustAdmissionHook: addressOf(7) })).toEqual([addressOf(7), OWNER]);
  });

  it("gates reading the attested oracle depend on it, and the reference oracle is deployed only when something reads it", () => {
    const attested = { upstream: "none" as const, admin: null, jwks: null };
    const steps = deploymentOrder(shippedNetwork("hardhat", { attestedOracle: attested, gateOracle: "attested" }), parties);
    expect(steps.map((s) => s.name)).toEqual([ATTESTED_ORACLE, MOCK_IDENTITY_REGISTRY, "TrustAdmissionHook", "AgentTaskBoard"]);
    expect(steps[0]!.args({})).toEqual([ADMIN, "0x0000000000000000000000000000000000000000"]);
    const hook = steps.find((s) => s.name === "TrustAdmissionHook")!;
    expect(hook.dependsOn).toEqual([ATTESTED_ORACLE, MOCK_IDENTITY_REGISTRY]);
    const [gateConfig] = hook.args({ [ATTESTED_ORACLE]: addressOf(1), [MOCK_IDENTITY_REGISTRY]: addressOf(2) }) as [{ oracle: Address }];
    expect(gateConfig.oracle).toBe(addressOf(1));

    const overReference = deploymentOrder(shippedNetwork("hardhat", { attestedOracle: { ...attested, upstream: "oracle" } }), parties);
    expect(overReference.map((s) => s.name)).toEqual([
      REFERENCE_ORACLE,
      ATTESTED_ORACLE,
      MOCK_IDENTITY_REGISTRY,
      "TrustAdmissionHook",
      "AgentTaskBoard",
    ]);
    expect(overReference[1]!.dependsOn).toEqual([REFERENCE_ORACLE]);
  });

  it("the mock registry is left out when only the board would read it", () => {
    const attested = { upstream: "none" as const, admin: null, jwks: null };
    const names = deploymentOrder(shippedNetwork("hardhat", { contracts: [], attestedOracle: attested }), parties).map((s) => s.name);
    expect(names).toEqual([ATTESTED_ORACLE]);
  });
});

describe("planDeployment", () => {
  const steps = deploymentOrder(withEscrow, parties);
  /** The reference oracle deployed anew, and every contract reading it; the registry kept. */
  const ORACLE_AND_ITS_READERS_DEPLOYED = [
    `${REFERENCE_ORACLE}:deploy`,
    `${MOCK_IDENTITY_REGISTRY}:keep`,
    "TrustAdmissionHook:deploy",
    "AgentTaskBoard:deploy",
    "TrustGatedEscrow:deploy",
  ];

  it("nothing recorded: every contract is deployed", () => {
    expect(kinds(planDeployment(steps, artifacts, onChain({}), context))).toEqual(steps.map((s) => `${s.name}:deploy`));
  });

  it("every record matching and holding on the chain: every contract is kept, with its recorded address", () => {
    const recorded = recordsOf(steps);
    const plan = planDeployment(steps, artifacts, onChain(recorded), context);
    expect(kinds(plan)).toEqual(steps.map((s) => `${s.name}:keep`));
    expect(plan.map((p) => (p.kind === "keep" ? p.record.address : undefined))).toEqual(steps.map((_, i) => addressOf(i)));
  });

  it("a changed policy: the gates built with it are deployed, the board too (its hook is new), the oracle and registry kept", () => {
    const recorded = recordsOf(steps);
    const changed = deploymentOrder(shippedNetwork("hardhat", { ...withEscrow, policy: { ...withEscrow.policy, minScore: 70 } }), parties);
    expect(kinds(planDeployment(changed, artifacts, onChain(recorded), context))).toEqual([
      `${REFERENCE_ORACLE}:keep`,
      `${MOCK_IDENTITY_REGISTRY}:keep`,
      "TrustAdmissionHook:deploy",
      "AgentTaskBoard:deploy",
      "TrustGatedEscrow:deploy",
    ]);
  });

  it("a new owner changes every constructor argument list that names it", () => {
    const recorded = recordsOf(steps);
    const moved = deploymentOrder(withEscrow, { owner: ADMIN, attestedAdmin: ADMIN });
    const plan = planDeployment(moved, artifacts, onChain(recorded), context);
    expect(kinds(plan)).toEqual(ORACLE_AND_ITS_READERS_DEPLOYED);
  });

  it("a record that does not hold: set aside on a local network (with why), refused elsewhere before anything is sent", () => {
    const recorded = recordsOf(steps);
    const problem = "there is no code at that address";
    const plan = planDeployment(steps, artifacts, onChain(recorded, { [REFERENCE_ORACLE]: problem }), context);
    // The oracle is deployed again, and everything reading it with it.
    expect(kinds(plan)).toEqual(ORACLE_AND_ITS_READERS_DEPLOYED);
    expect(plan[0]).toMatchObject({ kind: "deploy", distrusted: { record: recorded[REFERENCE_ORACLE], problem } });
    expect(plan[2]).toMatchObject({ kind: "deploy", distrusted: undefined });

    const remote = { ...context, local: false, chainId: 84532 };
    expect(() => planDeployment(steps, artifacts, onChain(recorded, { TrustGatedEscrow: problem }), remote)).toThrow(
      expect.objectContaining({
        reason: "untrusted-record",
        message: expect.stringContaining(
          `deployments/31337.json records TrustGatedEscrow at ${addressOf(4)}, but on chain 84532 ${problem}`,
        ),
      }),
    );
  });

  it("a record never checked on the chain is not kept", () => {
    const recorded = recordsOf(steps);
    const plan = planDeployment(steps, artifacts, { recorded, problems: new Map() }, context);
    expect(plan[0]).toMatchObject({ kind: "deploy", distrusted: { problem: "it was not checked on this chain" } });
  });
});
