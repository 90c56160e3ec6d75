// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITrustGated} from "trustgate/interfaces/ITrustGated.sol";
import {ITrustOracle} from "trustgate/interfaces/ITrustOracle.sol";
import {GatedAction} from "trustgate/fixtures/GatedAction.sol";
import {
    BASE_CHAIN_ID,
    BASE_TRUST_ORACLE_ADDRESS,
    BaseContext,
    ERC8004_IDENTITY_REGISTRY_ADDRESS
} from "trustgate/testing/BaseContext.sol";
import {TestRecordKey} from "trustgate/testing/OracleOverride.sol";
import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {TrustGated} from "trustgate/TrustGated.sol";
import {TrustPolicy, TrustRecord} from "trustgate/TrustTypes.sol";
import {Assertions} from "./support/Assertions.sol";

/// @title The gate and the overlay against the real Base oracle
/// @notice Runs only on a fork of Base: with `BASE_RPC_URL` set (`BASE_FORK_BLOCK` picks the block), or under
///         `forge test --fork-url ...`. Without either, every test is skipped with the reason "fork test: no BASE_RPC_URL"
///         (`npm run test:forge` sets `BASE_RPC_URL` to a loopback Base it serves when it is not set, so this runs
///         there against the kit's simulation; real Base only when the user sets `BASE_RPC_URL` to a Base node).
///         On the fork it checks the real records' encodings, and that the overlay changes one key while every real
///         record reads as before.
contract BaseForkTest is BaseContext, Assertions {
    function setUp() public {
        skipUnlessBaseFork();
        startBaseContext(BaseContextMode.Fork);
    }

    /// @notice The real records among agents 1 to 64 are in the encodings the kit assumes.
    function test_realRecordsAreInTheAssumedEncodings() public view {
        TestRecordKey[] memory keys = sampleKeys(DEFAULT_FORK_PROBE);
        assertTrue(keys.length != 0, "the forked oracle holds records among agents 1 to 64");
        for (uint256 i; i < keys.length; ++i) {
            TrustRecord memory r = readRecord(keys[i]);
            assertTrue(r.score <= 100, "score at most 100");
            assertTrue(r.tier <= 3, "tier code at most 3");
            assertTrue(r.sybilSeverity <= 4, "sybil code at most 4");
            assertTrue(r.updatedAt != 0 && r.updatedAt <= block.timestamp, "dated, not in the future");
        }
    }

    /// @notice Overriding one agent leaves every other real record as it was, and restoring brings the real one back.
    function test_overlayChangesOneKeyOnly() public {
        TestRecordKey[] memory keys = sampleKeys(DEFAULT_FORK_PROBE);
        TrustRecord[] memory before = new TrustRecord[](keys.length);
        for (uint256 i; i < keys.length; ++i) {
            before[i] = readRecord(keys[i]);
        }
        uint256 count = ITrustOracle(BASE_TRUST_ORACLE_ADDRESS).agentCount();
        uint256 agentId = keys.length == 0 ? 1 : keys[0].agentId;
        setRecord(agentId, 99);
        assertEq(readRecord(agentId).score, 99, "overridden");
        for (uint256 i = 1; i < keys.length; ++i) {
            assertEq(readRecord(keys[i]).updatedAt, before[i].updatedAt, "other records untouched");
        }
        assertEq(ITrustOracle(BASE_TRUST_ORACLE_ADDRESS).agentCount(), count, "agentCount from the real storage");
        restoreRecord(agentId);
        if (keys.length != 0) assertEq(readRecord(agentId).updatedAt, before[0].updatedAt, "restored");
    }

    /// @notice A gate deployed on the fork passes an agent given a fresh record and refuses it once it is stale.
    function test_gateOnTheFork() public {
        uint256 agentId = 1;
        GatedAction action = new GatedAction(
            TrustGated.TrustGateConfig(
                BASE_TRUST_ORACLE_ADDRESS,
                ERC8004_IDENTITY_REGISTRY_ADDRESS,
                BASE_CHAIN_ID,
                "erc8004",
                TrustPolicy(51, 2, 36 hours, false)
            ),
            address(this)
        );
        setRecord(agentId, 80);
        action.act(agentId);
        TrustRecord memory stale = makeStale(agentId, 36 hours + 1);
        TRUST_VM.expectRevert(
            abi.encodeWithSelector(
                ITrustGated.TrustRecordStale.selector, agentId, stale.updatedAt, uint32(36 hours), block.timestamp
            )
        );
        action.act(agentId);
    }
}
