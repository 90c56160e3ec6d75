// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITrustGated} from "trustgate/interfaces/ITrustGated.sol";
import {GatedAction} from "trustgate/fixtures/GatedAction.sol";
import {MockIdentityRegistry} from "trustgate/testing/MockIdentityRegistry.sol";
import {MockTrustOracle} from "trustgate/testing/MockTrustOracle.sol";
import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {TrustGated} from "trustgate/TrustGated.sol";
import {TrustPolicy, TrustRecord} from "trustgate/TrustTypes.sol";
import {Assertions} from "./support/Assertions.sol";

/// @title The gate equals a model of its policy, for any record, policy, clock and caller
/// @notice A forge fuzz test (runs: `[fuzz] runs` in foundry.toml): random records (any uint8 codes, dates from 0 to
///         the far future, clustered around the freshness edge), random valid policies and callers go through
///         `GatedAction.act`; the outcome (success, or the exact revert data) must equal what a model of the documented
///         policy, written here independently of `TrustPolicyLib`, predicts; `trustVerdict` must agree.
contract TrustGatedFuzzTest is Assertions {
    uint256 internal constant BASE = 8453;
    string internal constant REGISTRY = "erc8004";
    uint256 internal constant AGENT = 1;
    uint256 internal constant UNREGISTERED_AGENT = 2;

    MockTrustOracle internal oracle;
    MockIdentityRegistry internal identity;
    address internal agentOwner = address(0xA11CE);
    address internal wallet = address(0xB0B);

    function setUp() public {
        oracle = new MockTrustOracle();
        identity = new MockIdentityRegistry();
        TRUST_VM.prank(agentOwner);
        identity.register();
        TRUST_VM.prank(agentOwner);
        identity.setAgentWallet(AGENT, wallet);
    }

    /// @dev What the documented policy (docs/contracts.md) says about a record, as revert data; empty when
    ///      the agent passes. Deliberately not `TrustPolicyLib`: the test would otherwise compare the code with itself.
    function modelRefusal(
        uint256 agentId,
        address caller,
        bool registered,
        TrustRecord memory r,
        TrustPolicy memory p,
        uint256 time
    ) internal view returns (bytes memory) {
        // A record dated 0 is no record: the oracle answers all zeros.
        if (r.updatedAt == 0) {
            return abi.encodeWithSelector(ITrustGated.TrustRecordMissing.selector, agentId, BASE, REGISTRY);
        }
        // A score above 100 is not a score: the answer is malformed, whatever else it says.
        if (r.score > 100) {
            return abi.encodeWithSelector(
                ITrustGated.TrustOracleMalformedResponse.selector,
                address(oracle),
                abi.encode(r.score, r.tier, r.sybilSeverity, r.updatedAt)
            );
        }
        if (r.updatedAt > time) {
            return abi.encodeWithSelector(ITrustGated.TrustRecordFromFuture.selector, agentId, r.updatedAt, time);
        }
        if (time - r.updatedAt > p.maxAge) {
            return abi.encodeWithSelector(ITrustGated.TrustRecordStale.selector, agentId, r.updatedAt, p.maxAge, time);
        }
        if (r.score < p.minScore) {
            return abi.encodeWithSelector(ITrustGated.TrustScoreTooLow.selector, agentId, r.score, p.minScore);
        }
        if (r.sybilSeverity > p.maxSybilSeverity) {
            return abi.encodeWithSelector(
                ITrustGated.SybilSeverityTooHigh.selector, agentId, r.sybilSeverity, p.maxSybilSeverity
            );
        }
        if (!p.requireController) return "";
        if (!registered) {
            return abi.encodeWithSelector(ITrustGated.AgentIdentityUnavailable.selector, address(identity), agentId);
        }
        if (caller == agentOwner || caller == wallet) return "";
        return abi.encodeWithSelector(ITrustGated.NotAgentController.selector, agentId, caller);
    }

    /// @notice Any record, any valid policy, any clock, any of four callers: the gate does what the model says.
    function testFuzz_gateMatchesPolicyModel(
        TrustRecord memory record,
        uint8 dateShape,
        uint32 time,
        TrustPolicy memory policy,
        uint8 callerChoice,
        bool unregisteredAgent
    ) public {
        time = uint32(_bound(time, 1, type(uint32).max));
        policy.minScore %= 101;
        policy.maxSybilSeverity %= 5;
        policy.maxAge = uint32(_bound(policy.maxAge, 1, type(uint32).max));
        record.updatedAt = _shapeDate(record.updatedAt, dateShape, time, policy.maxAge);
        uint256 agentId = unregisteredAgent ? UNREGISTERED_AGENT : AGENT;
        address caller = [agentOwner, wallet, address(0xBAD), address(this)][callerChoice % 4];

        TRUST_VM.warp(time);
        oracle.setRecord(agentId, BASE, REGISTRY, record.score, record.tier, record.sybilSeverity, record.updatedAt);
        GatedAction action = new GatedAction(
            TrustGated.TrustGateConfig(address(oracle), address(identity), BASE, REGISTRY, policy), address(this)
        );

        bytes memory expected = modelRefusal(agentId, caller, !unregisteredAgent, record, policy, time);
        TRUST_VM.prank(caller);
        (bool ok, bytes memory revertData) = address(action).call(abi.encodeCall(GatedAction.act, (agentId)));

        assertEq(ok ? 1 : 0, expected.length == 0 ? 1 : 0, "gate passed where the model refuses, or the reverse");
        if (!ok) assertEq(revertData, expected, "refusal and its values");
        (bool allowed,,) = action.trustVerdict(agentId, caller);
        assertEq(allowed ? 1 : 0, ok ? 1 : 0, "trustVerdict agrees with the enforcing path");
    }

    /// @notice Any caller, with any mix of the registry's four ways of controlling an agent, against a record that
    ///         passes: the controller check lets through exactly the owner, the agent wallet, the approved account and
    ///         the owner's operators, and refuses an agent the registry does not know.
    function testFuzz_controllerCheckMatchesModel(
        uint8 callerChoice,
        bool setWallet,
        bool setApproved,
        bool setOperator,
        bool registered
    ) public {
        address approved = address(0xA99);
        address operator = address(0x0FE);
        address stranger = address(0xBAD);
        uint256 agentId = registered ? AGENT : UNREGISTERED_AGENT;
        TRUST_VM.startPrank(agentOwner);
        identity.setAgentWallet(AGENT, setWallet ? wallet : address(0));
        identity.approve(setApproved ? approved : address(0), AGENT);
        identity.setApprovalForAll(operator, setOperator);
        TRUST_VM.stopPrank();
        address caller = [agentOwner, wallet, approved, operator, stranger][callerChoice % 5];
        oracle.setRecord(agentId, BASE, REGISTRY, 90, 3, 0, uint40(block.timestamp));
        GatedAction action = new GatedAction(
            TrustGated.TrustGateConfig(
                address(oracle), address(identity), BASE, REGISTRY, TrustPolicy(51, 2, 1 days, true)
            ),
            address(this)
        );

        bool controls = caller == agentOwner || (setWallet && caller == wallet) || (setApproved && caller == approved)
            || (setOperator && caller == operator);
        bytes memory expected;
        if (!registered) {
            expected = abi.encodeWithSelector(ITrustGated.AgentIdentityUnavailable.selector, address(identity), agentId);
        } else if (!controls) {
            expected = abi.encodeWithSelector(ITrustGated.NotAgentController.selector, agentId, caller);
        }
        TRUST_VM.prank(caller);
        (bool ok, bytes memory revertData) = address(action).call(abi.encodeCall(GatedAction.act, (agentId)));
        assertEq(
            ok ? 1 : 0, expected.length == 0 ? 1 : 0, "controller check passed where the model refuses, or the reverse"
        );
        if (!ok) assertEq(revertData, expected, "refusal and its values");
    }

    /// @dev Spreads fuzzed dates over the cases that matter: raw (mostly far past or future), around the staleness edge,
    ///      just after the clock, and 0.
    function _shapeDate(uint40 raw, uint8 shape, uint32 time, uint32 maxAge) private pure returns (uint40) {
        uint256 pick = shape % 4;
        if (pick == 0) return raw;
        if (pick == 1) {
            // time - maxAge - 2 ... time: both sides of the freshness edge, clamped at 1.
            uint256 back = uint256(raw) % (uint256(maxAge) + 3);
            return back >= time ? 1 : uint40(time - back);
        }
        if (pick == 2) return uint40(uint256(time) + 1 + (uint256(raw) % 3600));
        return 0;
    }

    /// @dev `x` mapped into [min, max] (inclusive), keeping it when already inside.
    function _bound(uint256 x, uint256 min, uint256 max) private pure returns (uint256) {
        if (x >= min && x <= max) return x;
        return min + (x % (max - min + 1));
    }
}
