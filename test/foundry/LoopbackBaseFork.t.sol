// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITrustOracle} from "trustgate/interfaces/ITrustOracle.sol";
import {BASE_CHAIN_ID, BASE_TRUST_ORACLE_ADDRESS, BaseContext, DEFAULT_BASE_FORK_BLOCK} from "trustgate/testing/BaseContext.sol";
import {TestRecordKey} from "trustgate/testing/OracleOverride.sol";
import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {TrustRecord} from "trustgate/TrustTypes.sol";
import {Assertions} from "./support/Assertions.sol";

/// @title The fork path against the loopback Base
/// @notice `npm run test:forge` serves a Base to fork on 127.0.0.1 (the kit's simulation with its seeded agents,
///         mined up to the pinned block; `startForkableBase`) and sets `BASE_RPC_URL` and
///         `BASE_FORK_LOOPBACK_AGENTS` for forge. This test then forks it with `createSelectFork` and reads values
///         that only that chain holds: the seeded scores (17 + 37 i) mod 96, sybil codes i mod 5, owners the test
///         accounts 1 to 4 in turn. Skipped without `BASE_FORK_LOOPBACK_AGENTS` (a fork of real Base holds other data).
contract LoopbackBaseForkTest is BaseContext, Assertions {
    /// @dev The seeded agents of the loopback Base (ids 1 to `agents`).
    uint256 private agents;

    function setUp() public {
        agents = TRUST_VM.envOr("BASE_FORK_LOOPBACK_AGENTS", uint256(0));
        TRUST_VM.skip(agents == 0, "loopback fork test: no BASE_FORK_LOOPBACK_AGENTS (npm run test:forge sets it)");
        startBaseContext(BaseContextMode.Fork);
    }

    /// @notice The fork is of chain 8453 at the pinned block (or `BASE_FORK_BLOCK`).
    function test_forksThePinnedBlock() public view {
        assertEq(block.chainid, BASE_CHAIN_ID, "chain id");
        assertEq(block.number, TRUST_VM.envOr("BASE_FORK_BLOCK", DEFAULT_BASE_FORK_BLOCK), "fork block");
    }

    /// @notice Every seeded record and owner reads through the fork as the loopback chain holds it.
    function test_readsTheLoopbackRecordsAndOwners() public view {
        TestRecordKey[] memory keys = sampleKeys(DEFAULT_FORK_PROBE);
        assertEq(keys.length, agents, "sample keys: the seeded agents");
        for (uint256 i; i < agents; ++i) {
            _assertSeeded(i);
            assertEq(uint256(uint160(controllerOf(i + 1))), uint256(uint160(account(1 + (i % 4)))), "owner");
        }
        assertEq(_score(7, 1, "erc8004"), 66, "record on another chain");
        assertEq(_score(1001, BASE_CHAIN_ID, "olas"), 81, "record of another registry");
        assertEq(_score(42, BASE_CHAIN_ID, "virtuals"), 28, "record of a third registry");
        assertEq(ITrustOracle(BASE_TRUST_ORACLE_ADDRESS).agentCount(), agents + 3, "agentCount from the forked storage");
    }

    /// @notice The overlay changes the keys it is asked to and no other; restoring brings back the forked records.
    function test_overlayChangesItsKeysOnly() public {
        setRecord(1, 3);
        clearRecord(2);
        assertEq(readRecord(1).score, 3, "overridden");
        assertEq(readRecord(2).updatedAt, 0, "cleared");
        for (uint256 i = 2; i < agents; ++i) {
            _assertSeeded(i);
        }
        assertEq(_score(1001, BASE_CHAIN_ID, "olas"), 81, "other registry untouched");
        restoreOracle();
        _assertSeeded(0);
        _assertSeeded(1);
    }

    /// @dev Agent `i + 1` reads as the loopback chain seeded it.
    function _assertSeeded(uint256 i) private view {
        TrustRecord memory r = readRecord(i + 1);
        uint8 score = uint8((17 + i * 37) % 96);
        assertEq(r.score, score, "seeded score");
        assertEq(r.tier, tierCode(score), "seeded tier");
        assertEq(r.sybilSeverity, i % 5, "seeded sybil code");
        assertTrue(r.updatedAt != 0 && r.updatedAt <= block.timestamp, "dated, not in the future");
    }

    function _score(uint256 agentId, uint256 chainId, string memory registry) private view returns (uint256) {
        return readRecord(TestRecordKey(agentId, chainId, registry)).score;
    }
}
