// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITrustGated} from "trustgate/interfaces/ITrustGated.sol";
import {IAttestedTrustOracle} from "trustgate/interfaces/IAttestedTrustOracle.sol";
import {ITrustOracle} from "trustgate/interfaces/ITrustOracle.sol";
import {GatedAction} from "trustgate/fixtures/GatedAction.sol";
import {MockTrustOracle} from "trustgate/testing/MockTrustOracle.sol";
import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {SignedTrustAttestation, TrustTestAttestations} from "trustgate/testing/TrustTestAttestations.sol";
import {TrustGated} from "trustgate/TrustGated.sol";
import {TrustPolicy} from "trustgate/TrustTypes.sol";
import {Assertions} from "./support/Assertions.sol";

/// @dev The cheatcodes this file needs beyond `TrustVm`: deploying the oracles from their artifacts (they are built
///      through the IR pipeline, which this test is not) and counting the calls to the upstream.
interface OracleVm {
    function deployCode(string calldata artifactPath, bytes calldata constructorArgs) external returns (address deployed);
    function expectCall(address callee, bytes calldata data, uint64 count) external;
}

/// @title The held-first read policy, through a gate
/// @notice `HeldFirstAttestedTrustOracle` answers a record it holds in force and at most its max age old without
///         calling the upstream; it falls back on the upstream (the fresher of the two) when nothing is held here, the
///         record's key id is revoked or the record is older than the max age; `AttestedTrustOracle` keeps answering
///         the fresher. Each read is a gate's (`GatedAction.act`).
contract HeldFirstAttestedTrustOracleTest is Assertions {
    OracleVm internal constant ORACLE_VM = OracleVm(address(uint160(uint256(keccak256("hevm cheat code")))));
    uint256 internal constant BASE = 8453;
    string internal constant REGISTRY = "erc8004";
    uint256 internal constant NOW = 1_800_000_000;
    uint256 internal constant AGENT = 1;
    uint256 internal constant MAX_AGE = 12 hours;

    MockTrustOracle internal upstream;
    IAttestedTrustOracle internal heldFirst;
    IAttestedTrustOracle internal fresher;
    GatedAction internal heldFirstGate;
    GatedAction internal fresherGate;

    function setUp() public {
        TRUST_VM.warp(NOW);
        upstream = new MockTrustOracle();
        heldFirst = IAttestedTrustOracle(
            ORACLE_VM.deployCode(
                "HeldFirstAttestedTrustOracle.sol:HeldFirstAttestedTrustOracle",
                abi.encode(address(this), address(upstream), MAX_AGE)
            )
        );
        fresher = IAttestedTrustOracle(
            ORACLE_VM.deployCode("AttestedTrustOracle.sol:AttestedTrustOracle", abi.encode(address(this), address(upstream)))
        );
        for (uint256 i; i < 2; ++i) {
            (i == 0 ? heldFirst : fresher).setSigningKey(
                TrustTestAttestations.TEST_ATTESTATION_KID,
                TrustTestAttestations.TEST_ATTESTATION_KEY_X,
                TrustTestAttestations.TEST_ATTESTATION_KEY_Y
            );
        }
        heldFirstGate = new GatedAction(config(address(heldFirst)), address(this));
        fresherGate = new GatedAction(config(address(fresher)), address(this));
    }

    function config(address oracle) internal pure returns (TrustGated.TrustGateConfig memory) {
        return TrustGated.TrustGateConfig(oracle, address(0), BASE, REGISTRY, TrustPolicy(51, 2, 36 hours, false));
    }

    /// @dev Pushes the same signed record, computed `age` seconds ago, to both oracles (what a keeper does).
    function push(uint8 score, uint256 age) internal {
        SignedTrustAttestation memory att = TrustTestAttestations.signTrustAttestation(
            TrustTestAttestations.trustSignedV2(AGENT, address(0xA11CE), score, 0, uint40(block.timestamp - age), uint40(block.timestamp))
        );
        heldFirst.submitAttestation(att.kid, att.signedJson, att.signature);
        fresher.submitAttestation(att.kid, att.signedJson, att.signature);
    }

    function expectUpstreamCalls(uint64 count) internal {
        ORACLE_VM.expectCall(address(upstream), abi.encodeWithSelector(ITrustOracle.getScore.selector), count);
    }

    function expectTooLow(GatedAction gate, uint8 score) internal {
        TRUST_VM.expectRevert(abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, AGENT, score, uint8(51)));
        gate.act(AGENT);
    }

    function test_heldRecordAnswersWithoutCallingTheUpstream() public {
        push(70, 1 hours);
        // The Base oracle then writes a fresher, failing score.
        upstream.setRecord(AGENT, BASE, REGISTRY, 10, 0, 0, uint40(NOW - 10 minutes));
        // The default answers the fresher, the upstream's.
        expectTooLow(fresherGate, 10);
        // Held first: the held record, and no call to the upstream from here to the end of the test.
        expectUpstreamCalls(0);
        heldFirstGate.act(AGENT);
        assertEq(heldFirstGate.actions(AGENT), 1, "admitted on the held record");
    }

    function test_theDefaultAsksTheUpstream() public {
        push(70, 1 hours);
        expectUpstreamCalls(1);
        fresherGate.act(AGENT);
    }

    function test_fallsBackOnTheUpstreamWhenNothingIsHeld() public {
        upstream.setRecord(AGENT, BASE, REGISTRY, 66, 2, 0, uint40(NOW - 1 hours));
        expectUpstreamCalls(1);
        heldFirstGate.act(AGENT);
        assertEq(heldFirstGate.actions(AGENT), 1, "admitted on the upstream's record");
    }

    function test_fallsBackOnTheUpstreamWhenTheKeyIdIsRevoked() public {
        push(70, 1 hours);
        upstream.setRecord(AGENT, BASE, REGISTRY, 20, 0, 0, uint40(NOW - 1 days));
        heldFirst.revokeSigningKey(TrustTestAttestations.TEST_ATTESTATION_KID);
        expectTooLow(heldFirstGate, 20);
    }

    function test_answersTheFresherPastTheMaxAge() public {
        push(70, 0);
        upstream.setRecord(AGENT, BASE, REGISTRY, 15, 0, 0, uint40(NOW + 60));
        TRUST_VM.warp(NOW + MAX_AGE);
        heldFirstGate.act(AGENT);
        TRUST_VM.warp(NOW + MAX_AGE + 1);
        expectTooLow(heldFirstGate, 15);
    }

    function test_tellsItsReadPolicy() public view {
        assertEq(heldFirst.heldFirstRecordMaxAge(), MAX_AGE, "held first: its max age");
        assertEq(fresher.heldFirstRecordMaxAge(), 0, "the default: 0");
    }
}
