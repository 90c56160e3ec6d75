// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ITrustGated} from "trustgate/interfaces/ITrustGated.sol";
import {GatedAction} from "trustgate/fixtures/GatedAction.sol";
import {MockIdentityRegistry} from "trustgate/testing/MockIdentityRegistry.sol";
import {MockTrustOracle} from "trustgate/testing/MockTrustOracle.sol";
import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {TrustGated} from "trustgate/TrustGated.sol";
import {TrustPolicy, TrustRecord, TrustRefusal} from "trustgate/TrustTypes.sol";
import {Assertions} from "./support/Assertions.sol";

/// @title The gate's refusals, driven through a consumer contract
/// @notice Every refusal of `TrustGated` reached through `GatedAction.act` (and the modifier path), each with its custom
///         error and the exact values it carries; the passing cases at their boundaries; the policy's owner and
///         validation rules.
contract TrustGatedTest is Assertions {
    uint256 internal constant BASE = 8453;
    string internal constant REGISTRY = "erc8004";
    uint256 internal constant NOW = 1_800_000_000;
    uint32 internal constant MAX_AGE = 36 hours;
    uint256 internal constant AGENT = 1;

    MockTrustOracle internal oracle;
    MockIdentityRegistry internal identity;
    GatedAction internal action;
    GatedAction internal controlled;

    address internal agentOwner = address(0xA11CE);
    address internal wallet = address(0xB0B);
    address internal approved = address(0xA99);
    address internal operator = address(0x0FE);
    address internal stranger = address(0xBAD);

    function setUp() public {
        TRUST_VM.warp(NOW);
        oracle = new MockTrustOracle();
        identity = new MockIdentityRegistry();
        TRUST_VM.startPrank(agentOwner);
        identity.register(); // agent 1
        identity.setAgentWallet(AGENT, wallet);
        identity.approve(approved, AGENT);
        identity.setApprovalForAll(operator, true);
        TRUST_VM.stopPrank();
        action = new GatedAction(config(false), address(this));
        controlled = new GatedAction(config(true), address(this));
        record(80, 0, uint40(NOW - 1 hours));
    }

    function config(bool requireController) internal view returns (TrustGated.TrustGateConfig memory) {
        return TrustGated.TrustGateConfig(
            address(oracle), address(identity), BASE, REGISTRY, TrustPolicy(51, 2, MAX_AGE, requireController)
        );
    }

    function record(uint8 score, uint8 sybilSeverity, uint40 updatedAt) internal {
        oracle.setRecord(AGENT, BASE, REGISTRY, score, 3, sybilSeverity, updatedAt);
    }

    function expectRefusal(bytes memory revertData) internal {
        TRUST_VM.expectRevert(revertData);
        action.act(AGENT);
    }

    // ---- passing ----

    function test_trustedAgentActs() public {
        TRUST_VM.expectEmit(address(action));
        emit GatedAction.Acted(AGENT, address(this), 80);
        action.act(AGENT);
        assertEq(action.actions(AGENT), 1, "actions counted");
    }

    function test_boundariesPass() public {
        record(51, 2, uint40(NOW - MAX_AGE)); // minScore, maxSybilSeverity and maxAge exactly
        action.act(AGENT);
        record(51, 2, uint40(NOW)); // dated this block
        action.act(AGENT);
        assertEq(action.actions(AGENT), 2, "both boundary calls acted");
    }

    function test_everyControllerPasses() public {
        address[4] memory controllers = [agentOwner, wallet, approved, operator];
        for (uint256 i; i < controllers.length; ++i) {
            TRUST_VM.prank(controllers[i]);
            controlled.act(AGENT);
        }
        assertEq(controlled.actions(AGENT), 4, "owner, agent wallet, approved account and operator acted");
    }

    // ---- each refusal, with its values ----

    function test_refusesOracleRevertingWithAnError() public {
        oracle.setReadFailure(MockTrustOracle.ReadFailure.CustomError);
        expectRefusal(
            abi.encodeWithSelector(
                ITrustGated.TrustOracleUnavailable.selector,
                address(oracle),
                abi.encodeWithSelector(MockTrustOracle.MockOracleUnavailable.selector)
            )
        );
    }

    function test_refusesOracleRevertingEmpty() public {
        oracle.setReadFailure(MockTrustOracle.ReadFailure.EmptyRevert);
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustOracleUnavailable.selector, address(oracle), bytes("")));
    }

    function test_refusesScoreAboveRangeAsMalformed() public {
        record(101, 0, uint40(NOW));
        expectRefusal(
            abi.encodeWithSelector(
                ITrustGated.TrustOracleMalformedResponse.selector, address(oracle), abi.encode(101, 3, 0, NOW)
            )
        );
    }

    function test_refusesShortAnswerAsMalformed() public {
        TRUST_VM.mockCall(address(oracle), abi.encodeWithSelector(oracle.getScore.selector), hex"0102");
        expectRefusal(
            abi.encodeWithSelector(ITrustGated.TrustOracleMalformedResponse.selector, address(oracle), hex"0102")
        );
    }

    function test_refusesOracleWithoutCodeAsMalformed() public {
        TRUST_VM.etch(address(oracle), "");
        expectRefusal(
            abi.encodeWithSelector(ITrustGated.TrustOracleMalformedResponse.selector, address(oracle), bytes(""))
        );
    }

    function test_keepsAtMost256BytesOfTheOracleAnswer() public {
        bytes memory huge = new bytes(1000);
        huge[300] = 0x01;
        TRUST_VM.mockCallRevert(address(oracle), abi.encodeWithSelector(oracle.getScore.selector), huge);
        bytes memory kept = new bytes(256);
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustOracleUnavailable.selector, address(oracle), kept));
    }

    function test_refusesMissingRecord() public {
        oracle.clearRecord(AGENT, BASE, REGISTRY);
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustRecordMissing.selector, AGENT, BASE, REGISTRY));
    }

    function test_refusesRecordOfAnotherDomain() public {
        oracle.clearRecord(AGENT, BASE, REGISTRY);
        oracle.setRecord(AGENT, 84_532, REGISTRY, 90, 3, 0, uint40(NOW)); // Base Sepolia's agent 1, not Base's
        oracle.setRecord(AGENT, BASE, "other", 90, 3, 0, uint40(NOW));
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustRecordMissing.selector, AGENT, BASE, REGISTRY));
    }

    function test_refusesFutureRecord() public {
        record(80, 0, uint40(NOW + 1));
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustRecordFromFuture.selector, AGENT, uint40(NOW + 1), NOW));
    }

    function test_refusesStaleRecord() public {
        uint40 updatedAt = uint40(NOW - MAX_AGE - 1);
        record(80, 0, updatedAt);
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustRecordStale.selector, AGENT, updatedAt, MAX_AGE, NOW));
    }

    function test_recordGoesStaleAsTimePasses() public {
        action.act(AGENT);
        TRUST_VM.warp(NOW + MAX_AGE);
        expectRefusal(
            abi.encodeWithSelector(
                ITrustGated.TrustRecordStale.selector, AGENT, uint40(NOW - 1 hours), MAX_AGE, NOW + MAX_AGE
            )
        );
    }

    function test_refusesLowScore() public {
        record(50, 0, uint40(NOW));
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(50), uint8(51)));
    }

    function test_refusesHighSybilSeverity() public {
        record(80, 3, uint40(NOW));
        expectRefusal(abi.encodeWithSelector(ITrustGated.SybilSeverityTooHigh.selector, AGENT, uint8(3), uint8(2)));
    }

    function test_refusesStrangerWhenControllerRequired() public {
        TRUST_VM.prank(stranger);
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.NotAgentController.selector, AGENT, stranger));
        controlled.act(AGENT);
    }

    function test_refusesUnregisteredAgentWhenControllerRequired() public {
        oracle.setRecord(7, BASE, REGISTRY, 90, 3, 0, uint40(NOW));
        TRUST_VM.prank(agentOwner);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.AgentIdentityUnavailable.selector, address(identity), 7)
        );
        controlled.act(7);
    }

    function test_refusesWhenRegistryReverts() public {
        TRUST_VM.mockCallRevert(address(identity), abi.encodeWithSelector(identity.ownerOf.selector), "down");
        TRUST_VM.prank(agentOwner);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.AgentIdentityUnavailable.selector, address(identity), AGENT)
        );
        controlled.act(AGENT);
    }

    function test_recordChecksComeBeforeTheControllerCheck() public {
        record(10, 0, uint40(NOW));
        TRUST_VM.prank(stranger);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(10), uint8(51))
        );
        controlled.act(AGENT);
    }

    function test_modifierRefusesAsTheFunctionDoes() public {
        record(50, 0, uint40(NOW));
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(50), uint8(51))
        );
        action.actWithModifier(AGENT);
        record(80, 0, uint40(NOW));
        TRUST_VM.prank(stranger);
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.NotAgentController.selector, AGENT, stranger));
        controlled.actWithModifier(AGENT);
    }

    function test_verdictNamesTheRefusalWithoutReverting() public {
        record(50, 0, uint40(NOW));
        (bool allowed, TrustRefusal refusal, TrustRecord memory seen) = action.trustVerdict(AGENT, address(this));
        assertTrue(!allowed, "not allowed");
        assertEq(uint8(refusal), uint8(TrustRefusal.ScoreTooLow), "refusal");
        assertEq(seen.score, 50, "record returned");
    }

    // ---- the policy ----

    function test_onlyTheOwnerChangesThePolicyOrTheOracle() public {
        TRUST_VM.prank(stranger);
        TRUST_VM.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, stranger));
        action.setTrustPolicy(TrustPolicy(0, 4, 1, false));
        TRUST_VM.prank(stranger);
        TRUST_VM.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, stranger));
        action.setTrustOracle(address(identity));
    }

    function test_ownerLowersTheBarAndTheGateFollows() public {
        record(40, 0, uint40(NOW));
        expectRefusal(abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, uint8(40), uint8(51)));
        TRUST_VM.expectEmit(address(action));
        emit ITrustGated.TrustPolicyChanged(TrustPolicy(51, 2, MAX_AGE, false), TrustPolicy(30, 2, MAX_AGE, false));
        action.setTrustPolicy(TrustPolicy(30, 2, MAX_AGE, false));
        action.act(AGENT);
    }

    function test_refusesInvalidPolicies() public {
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.MinScoreOutOfRange.selector, uint8(101), uint8(100)));
        action.setTrustPolicy(TrustPolicy(101, 2, MAX_AGE, false));
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(ITrustGated.MaxSybilSeverityOutOfRange.selector, uint8(5), uint8(4))
        );
        action.setTrustPolicy(TrustPolicy(51, 5, MAX_AGE, false));
        TRUST_VM.expectRevert(ITrustGated.ZeroMaxAge.selector);
        action.setTrustPolicy(TrustPolicy(51, 2, 0, false));
        TrustGated.TrustGateConfig memory noRegistry = config(true);
        noRegistry.identityRegistry = address(0);
        TRUST_VM.expectRevert(ITrustGated.IdentityRegistryNotSet.selector);
        new GatedAction(noRegistry, address(this));
    }

    function test_refusesAnOracleWithoutCode() public {
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.InvalidTrustOracle.selector, stranger));
        action.setTrustOracle(stranger);
    }
}
