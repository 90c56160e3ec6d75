// The kit from a Foundry user's side: a fresh Foundry project in the system's temporary folder installs it by the
// route that needs only the npm registry (the kit and OpenZeppelin in `node_modules`, remapped; the kit's solc-js shim
// as forge's compiler: test/support/foundry-project.ts), compiles a contract that inherits `TrustGated`
// (foundry-project/src/AgentVault.sol) and runs a forge test that uses the Solidity helpers of
// `contracts/testing/` (foundry-project/test/AgentVault.t.sol): the gated call passes, each refusal reverts with
// its custom error and values, the override keeps the other records, an attestation signed in the test refreshes
// a stale oracle. A second test file, written here, checks the helpers against the TypeScript side: the JSON the
// Solidity signer writes equals the local service's `JSON.stringify` of the same agent, its dates equal
// `Date.toISOString`, and the fixed test key's public coordinates equal node:crypto's. Then the gate is broken on
// purpose (its modifier removed) to show that the refusal tests fail. A third checks that the Solidity helpers mirror
// the TypeScript ones (override slots and words, addresses, defaults, the test accounts); TrustVm.t.sol calls every
// cheatcode TrustVm.sol declares (forking a local chain served here for `createSelectFork`). Last, the `forge install`
// route (the kit and OpenZeppelin in `lib/`) runs the same gate tests with the same import paths.
import { createECDH } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAddress } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { BASE_TRUST_ORACLE_ADDRESS, ERC8004_IDENTITY_REGISTRY_ADDRESS } from "../../src/config/addresses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBaseSimulation } from "../../src/harness/devnet/base-simulation";
import type { PopulationAgent } from "../../src/harness/service/agent";
import { trustSignedV2 } from "../../src/harness/service/endpoints/trust-check";
import { DEFAULT_FORK_PROBE, DEFAULT_SIMULATED_AGENTS } from "../../src/harness/testing/base-context";
import { DEFAULT_BASE_FORK_BLOCK } from "../../src/harness/testing/fork-block";
import {
  ORACLE_ORIGINAL_CODE_ADDRESS,
  ORACLE_OVERRIDE_STORAGE_LOCATION,
  overrideRecordSlot,
  overrideWord,
} from "../../src/harness/testing/oracle-override";
import {
  createFoundryProject,
  declaredForgeTests,
  type FoundryProject,
  type ForgeTestResult,
  forgeBinary,
  forgeUnavailableReason,
  forgeTestResults,
  REPO_ROOT,
} from "../support/foundry-project";

const FORGE = forgeBinary();
const FIXTURE = join(REPO_ROOT, "test/package/foundry-project");
const fixture = (path: string) => readFileSync(join(FIXTURE, path), "utf8");

/** The fixed test key of `TrustTestAttestations` (its private scalar, as the contract declares it). */
const TEST_KEY = "5ef3bd815460ee3b5cea4e6564a15e84a8800990c3313871ee790f55abc91712";

/** An agent of the local service's population, with the fields `trustSignedV2` reads. */
function agent(fields: Partial<PopulationAgent>): PopulationAgent {
  return {
    agentId: 1234,
    chain: "base",
    registry: "erc8004",
    name: "fixture",
    owner: "0x7a16ff8270133f063aab6c9977183d9e72835428",
    isOriginalOwner: true,
    ownerVerified: false,
    score: 59,
    tier: "developing",
    sybilSeverity: "none",
    sybilSignals: [],
    badges: { earned: [], warnings: [] },
    feedbackCount: 0,
    ageDays: 10,
    registeredAt: new Date("2026-01-01T00:00:00Z"),
    updatedAt: new Date("2026-03-26T22:00:00Z"),
    ...fields,
  };
}

const solString = (text: string) => JSON.stringify(text); // the texts here are ASCII without escapes
const seconds = (date: Date | string) => Math.floor(new Date(date).getTime() / 1000);

/** The Solidity test comparing the helpers with the TypeScript side, with the expected values computed here. */
function serviceShapeTest(): string {
  const plainVerifiedAt = new Date("2026-03-27T00:00:00Z");
  const plain = agent({});
  const busyVerifiedAt = new Date("2028-02-29T23:59:59Z");
  const busy = agent({
    agentId: 987_654_321,
    score: 95,
    tier: "established",
    sybilSeverity: "heavy",
    sybilSignals: ["common_funder", "sweep_pattern"],
    badges: { earned: ["original_owner"], warnings: ["sybil_heavy"] },
    updatedAt: new Date("2028-02-28T12:34:56Z"),
  });
  // The Solidity helper writes every time in the Z form of toISOString; the local service writes issuedAt as the
  // service's sample does (+00:00), the same instant: the blocks are compared with issuedAt in the helper's form.
  const zForm = (signed: ReturnType<typeof trustSignedV2>, at: Date) => ({ ...signed, issuedAt: at.toISOString() });
  const plainJson = JSON.stringify(zForm(trustSignedV2(plain, plainVerifiedAt), plain.updatedAt));
  const busyJson = JSON.stringify(zForm(trustSignedV2(busy, busyVerifiedAt), busy.updatedAt));
  const nullOwnerJson = JSON.stringify({ ...zForm(trustSignedV2(plain, plainVerifiedAt), plain.updatedAt), owner: null });
  const times = [0, 951_782_400, 1_709_251_199, 4_107_542_399, 253_402_300_799];
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(TEST_KEY, "hex"));
  const publicKey = ecdh.getPublicKey();
  const x = `0x${publicKey.subarray(1, 33).toString("hex")}`;
  const y = `0x${publicKey.subarray(33).toString("hex")}`;
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustEs256Lib} from "trustgate/contracts/attestation/TrustEs256Lib.sol";
import {TrustSignedV2, TrustTestAttestations} from "trustgate/contracts/testing/TrustTestAttestations.sol";
import {TRUST_VM} from "trustgate/contracts/testing/TrustVm.sol";

contract ServiceShapeTest {
    function _same(bytes memory actual, string memory expected) internal pure {
        require(keccak256(actual) == keccak256(bytes(expected)), string(abi.encodePacked("got ", actual)));
    }

    function test_jsonEqualsTheServiceBlock() public pure {
        TrustSignedV2 memory signed = TrustTestAttestations.trustSignedV2(
            ${plain.agentId}, ${getAddress(plain.owner)}, ${plain.score}, 0, ${seconds(plain.updatedAt)}, ${seconds(plainVerifiedAt)}
        );
        _same(TrustTestAttestations.toJson(signed), ${solString(plainJson)});
        signed.owner = address(0);
        _same(TrustTestAttestations.toJson(signed), ${solString(nullOwnerJson)});
    }

    function test_jsonWithBadgesSignalsAndSybil() public pure {
        TrustSignedV2 memory signed = TrustTestAttestations.trustSignedV2(
            ${busy.agentId}, ${getAddress(busy.owner)}, ${busy.score}, 4, ${seconds(busy.updatedAt)}, ${seconds(busyVerifiedAt)}
        );
        signed.badges = new string[](2);
        signed.badges[0] = "original_owner";
        signed.badges[1] = "sybil_heavy";
        signed.sybilSignals = new string[](2);
        signed.sybilSignals[0] = "common_funder";
        signed.sybilSignals[1] = "sweep_pattern";
        _same(TrustTestAttestations.toJson(signed), ${solString(busyJson)});
    }

    function test_isoTimeEqualsToISOString() public pure {
${times.map((t) => `        _same(bytes(TrustTestAttestations.isoTime(${t})), ${solString(new Date(t * 1000).toISOString())});`).join("\n")}
    }

    function test_testKeyIsNodesKey() public pure {
        require(TrustTestAttestations.TEST_ATTESTATION_KEY_X == ${x}, "x");
        require(TrustTestAttestations.TEST_ATTESTATION_KEY_Y == ${y}, "y");
        (uint256 vmX, uint256 vmY) = TRUST_VM.publicKeyP256(TrustTestAttestations.TEST_ATTESTATION_PRIVATE_KEY);
        require(bytes32(vmX) == ${x} && bytes32(vmY) == ${y}, "vm.publicKeyP256");
    }

    function test_signatureVerifies() public view {
        bytes memory json = bytes(${solString(plainJson)});
        bytes memory signature = TrustTestAttestations.signPayload(json, TrustTestAttestations.TEST_ATTESTATION_PRIVATE_KEY);
        require(signature.length == 64, "r||s");
        require(TrustEs256Lib.verifySignature(json, signature, ${x}, ${y}), "verifies");
        json[10] = "9";
        require(!TrustEs256Lib.verifySignature(json, signature, ${x}, ${y}), "a changed byte does not verify");
    }
}
`;
}

/** The Solidity test checking that the Solidity helpers mirror the TypeScript ones: constants, slots, words, accounts. */
function typeScriptTwinTest(): string {
  const hex32 = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;
  const accounts = Array.from({ length: 5 }, (_, i) =>
    mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: i }),
  );
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustRecord} from "trustgate/contracts/TrustTypes.sol";
import {
    BASE_TRUST_ORACLE_ADDRESS,
    BaseContext,
    DEFAULT_BASE_FORK_BLOCK,
    ERC8004_IDENTITY_REGISTRY_ADDRESS
} from "trustgate/contracts/testing/BaseContext.sol";
import {OracleOverride, TestRecordKey} from "trustgate/contracts/testing/OracleOverride.sol";

contract TypeScriptTwinTest is BaseContext {
    function test_constantsEqualTheTypeScriptOnes() public pure {
        require(OracleOverride.ORACLE_OVERRIDE_STORAGE_LOCATION == ${hex32(ORACLE_OVERRIDE_STORAGE_LOCATION)}, "storage location");
        require(OracleOverride.ORACLE_ORIGINAL_CODE_ADDRESS == ${getAddress(ORACLE_ORIGINAL_CODE_ADDRESS)}, "side address");
        require(BASE_TRUST_ORACLE_ADDRESS == ${getAddress(BASE_TRUST_ORACLE_ADDRESS)}, "oracle");
        require(ERC8004_IDENTITY_REGISTRY_ADDRESS == ${getAddress(ERC8004_IDENTITY_REGISTRY_ADDRESS)}, "registry");
        require(DEFAULT_BASE_FORK_BLOCK == ${DEFAULT_BASE_FORK_BLOCK}, "fork block");
        require(DEFAULT_SIMULATED_AGENTS == ${DEFAULT_SIMULATED_AGENTS} && DEFAULT_FORK_PROBE == ${DEFAULT_FORK_PROBE}, "agents");
    }

    function test_overrideSlotsAndWordsEqualTheTypeScriptOnes() public pure {
        require(OracleOverride.overrideRecordSlot(TestRecordKey(7, 8453, "erc8004")) == ${overrideRecordSlot({ agentId: 7 })}, "slot");
        require(
            OracleOverride.overrideRecordSlot(TestRecordKey(123456789, 1, "olas")) == ${overrideRecordSlot({ agentId: 123456789, chainId: 1, registry: "olas" })},
            "slot"
        );
        require(
            OracleOverride.overrideWord(TrustRecord(80, 3, 2, 1774569600)) == ${overrideWord({ score: 80, tier: 3, sybilSeverity: 2, updatedAt: 1774569600 })},
            "word"
        );
        require(OracleOverride.overrideWord(TrustRecord(0, 0, 0, 0)) == ${overrideWord(null)}, "cleared word");
    }

    function test_accountsAreHardhatsAndAnvils() public pure {
${accounts.map((a, i) => `        require(account(${i}) == ${a.address}, "account ${i}");`).join("\n")}
    }
}
`;
}

const skipped = FORGE ? "" : ` (skipped: ${forgeUnavailableReason()})`;

describe.skipIf(!FORGE)(`a fresh Foundry project with the kit and OpenZeppelin from npm, in node_modules${skipped}`, () => {
  const files = {
    "src/AgentVault.sol": fixture("src/AgentVault.sol"),
    "test/AgentVault.t.sol": fixture("test/AgentVault.t.sol"),
    "test/TrustVm.t.sol": fixture("test/TrustVm.t.sol"),
    "test/ServiceShape.t.sol": serviceShapeTest(),
    "test/TypeScriptTwin.t.sol": typeScriptTwinTest(),
  };
  let project: FoundryProject;
  let results: Record<string, Record<string, ForgeTestResult>>;
  let chain: Awaited<ReturnType<typeof startBaseSimulation>>;
  const env = { BASE_RPC_URL: "" }; // BaseContext's simulation; TrustVm.t.sol forks LOCAL_RPC_URL

  beforeAll(async () => {
    chain = await startBaseSimulation({ http: true });
    project = createFoundryProject(files, FORGE!);
    const run = await project.forge(["test", "--json", "--no-storage-caching"], { ...env, LOCAL_RPC_URL: chain.rpcUrl! });
    results = forgeTestResults(run.stdout);
    expect(run.code, `forge test failed:\n${run.stderr}\n${run.stdout.slice(0, 4000)}`).toBe(0);
  }, 600_000);
  afterAll(async () => {
    project?.remove();
    await chain?.close();
  });

  const declared = declaredForgeTests(files);
  it("runs every test the project declares, and only those", () => {
    const ran = Object.fromEntries(Object.entries(results).map(([suite, tests]) => [suite, Object.keys(tests).sort()]));
    expect(ran).toEqual(Object.fromEntries(Object.entries(declared).map(([suite, tests]) => [suite, [...tests].sort()])));
    expect(Object.values(declared).flat().length).toBeGreaterThanOrEqual(20);
  });

  for (const [suite, tests] of Object.entries(declared)) {
    for (const test of tests) {
      it(`${suite} ${test} passes`, () => {
        const result = results[suite]?.[test];
        expect(result?.status, `${suite} ${test}: ${result?.reason ?? "not run"}`).toBe("Success");
      });
    }
  }

  it("compiles the gate and BaseContext without the optimizer; P-256 verification needs it (why foundry.toml sets it)", async () => {
    const unoptimized = ["--out", "out-unoptimized", "--cache-path", "cache-unoptimized"];
    const env = { FOUNDRY_OPTIMIZER: "false" };
    const helpers = await project.forge(["build", ...unoptimized, "--skip", "*/AgentVault.t.sol", "*/ServiceShape.t.sol"], env);
    expect(helpers.code, helpers.stderr + helpers.stdout).toBe(0);
    const attested = await project.forge(["build", ...unoptimized], env);
    expect(attested.code).not.toBe(0);
    expect(attested.stderr + attested.stdout).toContain("Stack too deep");
  }, 600_000);

  it("fails the refusal tests when the gate's modifier is removed, and forge (the platform binary) exits non-zero", async () => {
    const vault = files["src/AgentVault.sol"];
    const broken = vault.replace(
      "function withdrawFor(uint256 agentId, uint256 amount) external onlyTrustedAgent(agentId) {",
      "function withdrawFor(uint256 agentId, uint256 amount) external {",
    );
    expect(broken).not.toBe(vault);
    project.write("src/AgentVault.sol", broken);
    try {
      const run = await project.forge(["test", "--json", "--match-contract", "^AgentVaultTest$"], env);
      expect(run.code).not.toBe(0);
      const tests = forgeTestResults(run.stdout)["test/AgentVault.t.sol:AgentVaultTest"]!;
      for (const refusal of [
        "test_scoreTooLow()",
        "test_tierBelowEstablished()",
        "test_sybilTooHigh()",
        "test_stale()",
        "test_fromFuture()",
        "test_missing()",
        "test_oracleReverts()",
        "test_oracleRevertsWithGivenData()",
        "test_notController()",
      ]) {
        expect(tests[refusal]?.status, refusal).toBe("Failure");
      }
      expect(tests["test_trustedAgentPasses()"]?.status).toBe("Success");
    } finally {
      project.write("src/AgentVault.sol", vault);
    }
  }, 600_000);
});

describe.skipIf(!FORGE)(`a fresh Foundry project with the kit and OpenZeppelin in lib/, as forge install puts them${skipped}`, () => {
  it("runs the same gate tests with the same import paths (trustgate/contracts/…)", async () => {
    const files = { "src/AgentVault.sol": fixture("src/AgentVault.sol"), "test/AgentVault.t.sol": fixture("test/AgentVault.t.sol") };
    const project = createFoundryProject(files, FORGE!, "git");
    try {
      const run = await project.forge(["test", "--json"], { BASE_RPC_URL: "" });
      expect(run.code, `${run.stderr}\n${run.stdout.slice(0, 4000)}`).toBe(0);
      const results = forgeTestResults(run.stdout);
      const [suite, tests] = Object.entries(declaredForgeTests(files))[0]!;
      expect(Object.keys(results[suite] ?? {}).sort()).toEqual([...tests].sort());
      for (const test of tests) expect(results[suite]![test]!.status, test).toBe("Success");
    } finally {
      project.remove();
    }
  }, 600_000);
});
