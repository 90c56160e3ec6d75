// SPDX-License-Identifier: MIT
// A user's forge test of a gated contract, with the kit's Solidity helpers (run by test/package/foundry-project.test.ts).
pragma solidity ^0.8.24;

import {ITrustGated} from "trustgate/contracts/interfaces/ITrustGated.sol";
import {ITrustOracle} from "trustgate/contracts/interfaces/ITrustOracle.sol";
import {AttestedTrustOracle} from "trustgate/contracts/oracle/AttestedTrustOracle.sol";
import {TrustGated} from "trustgate/contracts/TrustGated.sol";
import {TrustConstants} from "trustgate/contracts/TrustConstants.sol";
import {TrustPolicy, TrustRecord} from "trustgate/contracts/TrustTypes.sol";
import {
    BASE_CHAIN_ID,
    BASE_TRUST_ORACLE_ADDRESS,
    BaseContext,
    ERC8004_IDENTITY_REGISTRY_ADDRESS
} from "trustgate/contracts/testing/BaseContext.sol";
import {MockTrustOracle} from "trustgate/contracts/testing/MockTrustOracle.sol";
import {TestRecordKey} from "trustgate/contracts/testing/OracleOverride.sol";
import {TrustOracleOverride} from "trustgate/contracts/testing/TrustOracleOverride.sol";
import {SignedTrustAttestation} from "trustgate/contracts/testing/TrustTestAttestations.sol";
import {TRUST_VM} from "trustgate/contracts/testing/TrustVm.sol";
import {AgentVault} from "../src/AgentVault.sol";

contract AgentVaultTest is BaseContext {
    uint256 internal constant AGENT = 3;
    uint256 internal constant OTHER_AGENT = 4;

    AgentVault internal vault;
    address internal agentOwner;

    function setUp() public {
        startBaseContext();
        agentOwner = controllerOf(AGENT);
        vault = new AgentVault(
            TrustGated.TrustGateConfig({
                oracle: BASE_TRUST_ORACLE_ADDRESS,
                identityRegistry: ERC8004_IDENTITY_REGISTRY_ADDRESS,
                agentChainId: BASE_CHAIN_ID,
                agentRegistry: "erc8004",
                policy: TrustPolicy({minScore: 51, maxSybilSeverity: 2, maxAge: 36 hours, requireController: true})
            }),
            address(this)
        );
    }

    function _withdrawAsOwner() internal {
        TRUST_VM.prank(agentOwner);
        vault.withdrawFor(AGENT, 1 ether);
    }

    function test_simulationIsBase() public view {
        require(baseContextMode == BaseContextMode.Simulation, "simulation expected without BASE_RPC_URL");
        require(block.chainid == 8453, "chain id");
        require(agentOwner == account(1 + ((AGENT - 1) % 4)), "agents owned by the test accounts in turn");
        require(readRecord(OTHER_AGENT).updatedAt != 0, "seeded record");
    }

    function test_trustedAgentPasses() public {
        setRecord(AGENT, 80);
        TRUST_VM.expectEmit(address(vault));
        emit AgentVault.Withdrawn(AGENT, agentOwner, 1 ether);
        _withdrawAsOwner();
    }

    function test_scoreTooLow() public {
        setRecord(AGENT, 40);
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(40), uint8(51)));
        _withdrawAsOwner();
    }

    function test_tierBelowEstablished() public {
        TrustPolicy memory policy = vault.trustPolicy();
        policy.minScore = TrustConstants.TIER_ESTABLISHED_MIN_SCORE;
        vault.setTrustPolicy(policy);
        setRecord(AGENT, 74); // developing
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(74), uint8(75)));
        _withdrawAsOwner();
        setRecord(AGENT, 75); // established
        _withdrawAsOwner();
    }

    function test_sybilTooHigh() public {
        setRecord(AGENT, 80, TrustConstants.SYBIL_ELEVATED);
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.SybilSeverityTooHigh.selector, AGENT, uint8(3), uint8(2)));
        _withdrawAsOwner();
    }

    function test_stale() public {
        setRecord(AGENT, 80);
        TrustRecord memory record = makeStale(AGENT, 3 days);
        require(record.score == 80 && record.updatedAt == block.timestamp - 3 days, "backdated, score kept");
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(
                ITrustGated.TrustRecordStale.selector, AGENT, uint40(block.timestamp - 3 days), uint32(36 hours), block.timestamp
            )
        );
        _withdrawAsOwner();
    }

    function test_staleWhenTheClockMoves() public {
        setRecord(AGENT, 80);
        _withdrawAsOwner();
        uint40 updatedAt = uint40(block.timestamp);
        increaseTime(36 hours + 1);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustRecordStale.selector, AGENT, updatedAt, uint32(36 hours), block.timestamp)
        );
        _withdrawAsOwner();
    }

    function test_fromFuture() public {
        setRecord(resolveRecordKey(AGENT), TrustRecord(80, 3, 0, uint40(block.timestamp + 60)));
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustRecordFromFuture.selector, AGENT, uint40(block.timestamp + 60), block.timestamp)
        );
        _withdrawAsOwner();
    }

    function test_missing() public {
        clearRecord(AGENT);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustRecordMissing.selector, AGENT, BASE_CHAIN_ID, "erc8004")
        );
        _withdrawAsOwner();
    }

    function test_oracleReverts() public {
        TrustRecord memory original = readRecord(AGENT);
        setRecord(AGENT, 80);
        makeOracleRevert();
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(
                ITrustGated.TrustOracleUnavailable.selector,
                BASE_TRUST_ORACLE_ADDRESS,
                abi.encodeWithSelector(TrustOracleOverride.TrustOracleOverrideUnavailable.selector)
            )
        );
        _withdrawAsOwner();
        restoreOracle();
        require(keccak256(abi.encode(readRecord(AGENT))) == keccak256(abi.encode(original)), "original answers again");
    }

    // makeOracleRevert() reverts in the override's code, not through mockCallRevert: a direct read's revert is then
    // seen by expectRevert under forge and under Hardhat 3's EDR alike (a mocked revert is, on a direct call, only
    // under forge).
    function test_oracleRevertSeenOnADirectRead() public {
        makeOracleRevert();
        TRUST_VM.expectRevert(TrustOracleOverride.TrustOracleOverrideUnavailable.selector);
        ITrustOracle(BASE_TRUST_ORACLE_ADDRESS).getScore(AGENT, BASE_CHAIN_ID, "erc8004");
    }

    function test_oracleRevertsWithGivenData() public {
        setRecord(AGENT, 80);
        makeOracleRevert("");
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustOracleUnavailable.selector, BASE_TRUST_ORACLE_ADDRESS, bytes(""))
        );
        _withdrawAsOwner();
        bytes memory panic = abi.encodeWithSignature("Panic(uint256)", uint256(0x11));
        makeOracleRevert(panic);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustOracleUnavailable.selector, BASE_TRUST_ORACLE_ADDRESS, panic)
        );
        _withdrawAsOwner();
        restoreOracle();
        setRecord(AGENT, 80);
        _withdrawAsOwner();
    }

    function test_notController() public {
        setRecord(AGENT, 80);
        address stranger = account(0);
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.NotAgentController.selector, AGENT, stranger));
        TRUST_VM.prank(stranger);
        vault.withdrawFor(AGENT, 1 ether);
    }

    function test_otherRecordsSurvive() public {
        TrustRecord memory before = readRecord(OTHER_AGENT);
        TrustRecord memory mine = readRecord(AGENT);
        setRecord(AGENT, 90, 1);
        makeStale(AGENT, 1 days);
        TrustRecord memory otherNow = readRecord(OTHER_AGENT);
        require(keccak256(abi.encode(otherNow)) == keccak256(abi.encode(before)), "other record untouched");
        restoreRecord(AGENT);
        require(keccak256(abi.encode(readRecord(AGENT))) == keccak256(abi.encode(mine)), "original record back");
        clearRecord(AGENT);
        restoreOracle();
        require(keccak256(abi.encode(readRecord(AGENT))) == keccak256(abi.encode(mine)), "restoreOracle drops overrides");
    }

    function test_attestationRefreshesAStaleOracle() public {
        AttestedTrustOracle attested = new AttestedTrustOracle(address(this), BASE_TRUST_ORACLE_ADDRESS);
        installTestSigningKey(attested);
        vault.setTrustOracle(address(attested));
        setRecord(AGENT, 80);
        makeStale(AGENT, 30 days); // the nightly oracle stopped being written
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(
                ITrustGated.TrustRecordStale.selector, AGENT, uint40(block.timestamp - 30 days), uint32(36 hours), block.timestamp
            )
        );
        _withdrawAsOwner();

        SignedTrustAttestation memory att = signTrustAttestation(AGENT, 82, 0, 2 hours);
        TRUST_VM.prank(agentOwner);
        vault.withdrawWithAttestation(AGENT, att.kid, att.signedJson, att.signature);
        TrustRecord memory stored = attested.attestedRecord(AGENT, BASE_CHAIN_ID, "erc8004");
        require(stored.score == 82 && stored.tier == 3 && stored.updatedAt == block.timestamp - 2 hours, "stored");

        // A low score signed by the service is refused all the same.
        att = signTrustAttestation(AGENT, 45, 0, 1 hours);
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(45), uint8(51)));
        TRUST_VM.prank(agentOwner);
        vault.withdrawWithAttestation(AGENT, att.kid, att.signedJson, att.signature);
    }
}

contract MockOraclePlacementTest is BaseContext {
    function test_mockAtTheBaseAddress() public {
        TRUST_VM.chainId(BASE_CHAIN_ID);
        TRUST_VM.warp(SIMULATION_START);
        MockTrustOracle mock = placeMockTrustOracle();
        placeMockIdentityRegistry();
        AgentVault vault = new AgentVault(
            TrustGated.TrustGateConfig({
                oracle: BASE_TRUST_ORACLE_ADDRESS,
                identityRegistry: address(0),
                agentChainId: BASE_CHAIN_ID,
                agentRegistry: "erc8004",
                policy: TrustPolicy({minScore: 51, maxSybilSeverity: 2, maxAge: 1 days, requireController: false})
            }),
            address(this)
        );
        mock.setRecord(9, BASE_CHAIN_ID, "erc8004", 70, 2, 0, uint40(block.timestamp));
        vault.withdrawFor(9, 1);
        mock.setReadFailure(MockTrustOracle.ReadFailure.CustomError);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(
                ITrustGated.TrustOracleUnavailable.selector,
                BASE_TRUST_ORACLE_ADDRESS,
                abi.encodeWithSelector(MockTrustOracle.MockOracleUnavailable.selector)
            )
        );
        vault.withdrawFor(9, 1);
    }
}

contract ContextMisuseTest is BaseContext {
    function startFork() external {
        startBaseContext(BaseContextMode.Fork);
    }

    function setRecordBeforeStart() external {
        setRecord(1, 80);
    }

    function test_forkModeNeedsAnRpcUrl() public {
        TRUST_VM.expectRevert(BaseContext.BaseRpcUrlMissing.selector);
        this.startFork();
    }

    function test_helpersNeedTheContext() public {
        TRUST_VM.expectRevert(BaseContext.BaseContextNotStarted.selector);
        this.setRecordBeforeStart();
    }

    function test_makeStaleNeedsARecord() public {
        startBaseContext();
        clearRecord(7);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(BaseContext.NoRecordToBackdate.selector, uint256(7), BASE_CHAIN_ID, "erc8004")
        );
        this.makeStaleExternal(7, 1 days);
    }

    function makeStaleExternal(uint256 agentId, uint256 age) external {
        makeStale(agentId, age);
    }
}

contract OverrideFuzzTest is BaseContext {
    function setUp() public {
        startBaseContext();
    }

    function testFuzz_setRecordReadsBackAndKeepsTheOthers(
        uint256 agentId,
        uint256 chainId,
        uint8 score,
        uint8 tier,
        uint8 sybilSeverity,
        uint40 updatedAt
    ) public {
        TRUST_VM.assume(agentId != 5 || chainId != BASE_CHAIN_ID);
        TrustRecord memory seeded = readRecord(5);
        TestRecordKey memory key = TestRecordKey(agentId, chainId, "erc8004");
        TrustRecord memory record = TrustRecord(score, tier, sybilSeverity, updatedAt);
        setRecord(key, record);
        TrustRecord memory read = readRecord(key);
        if (updatedAt == 0) {
            require(read.score == 0 && read.tier == 0 && read.sybilSeverity == 0 && read.updatedAt == 0, "cleared");
        } else {
            require(keccak256(abi.encode(read)) == keccak256(abi.encode(record)), "read back");
        }
        require(keccak256(abi.encode(readRecord(5))) == keccak256(abi.encode(seeded)), "seeded record kept");
        restoreOracle();
        require(keccak256(abi.encode(readRecord(5))) == keccak256(abi.encode(seeded)), "still kept");
    }
}
