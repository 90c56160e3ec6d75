// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITrustScoreOracleErrors} from "trustgate/interfaces/ITrustScoreOracleErrors.sol";
import {TrustScoreOracle} from "trustgate/oracle/TrustScoreOracle.sol";
import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {TrustRecord} from "trustgate/TrustTypes.sol";
import {Assertions} from "./support/Assertions.sol";

/// @title The publisher the invariant fuzzer drives
/// @notice Publishes (alone or in all-or-nothing batches), removes and lets time pass, over a few keys, with dates
///         newer than, equal to and older than what each key last held; keeps a model of what the oracle must hold
///         and counts every outcome (accepted or refused, and the error) that differs from the model's.
contract OracleHandler {
    uint256 internal constant BASE = 8453;
    string internal constant REGISTRY = "erc8004";
    /// @notice Number of keys (agents 1 to KEYS) the fuzzer writes.
    uint256 public constant KEYS = 6;

    /// @notice The oracle under test; this handler holds its publisher role.
    TrustScoreOracle public immutable oracle;

    /// @notice The newest `updatedAt` each key ever held (kept after a removal: the tombstone).
    uint40[KEYS] public latest;
    /// @notice The record each key must hold now (`updatedAt == 0`: none).
    TrustRecord[KEYS] internal _expected;
    /// @notice How many keys hold a record, by the model.
    uint256 public heldCount;
    /// @notice Outcomes that differed from the model's (must stay 0).
    uint256 public violations;
    /// @notice Counts of what the run exercised, for the summary test.
    uint256 public accepted;
    /// @notice Publishes refused as not newer (with the key held, or with a tombstone).
    uint256 public refusedNotNewer;
    /// @notice Removals made.
    uint256 public removals;

    constructor() {
        oracle = new TrustScoreOracle(address(this));
        TRUST_VM.warp(1_800_000_000);
    }

    /// @notice The record key `k` must hold.
    /// @param k The key's index (agent `k + 1`).
    /// @return The record.
    function expected(uint256 k) external view returns (TrustRecord memory) {
        return _expected[k];
    }

    /// @notice Publishes one record for a key, dated relative to the clock or to what the key last held.
    /// @param keySeed Which key.
    /// @param score Score (taken modulo 101).
    /// @param sybilSeverity Sybil code (modulo 5).
    /// @param offset How far back the date is.
    /// @param dateKind 0: behind the clock; 1: the key's latest date again; 2: before the key's latest date.
    function publish(uint8 keySeed, uint8 score, uint8 sybilSeverity, uint32 offset, uint8 dateKind) external {
        uint256 k = keySeed % KEYS;
        TrustScoreOracle.ScoreUpdate[] memory updates = new TrustScoreOracle.ScoreUpdate[](1);
        updates[0] = _update(k, score, sybilSeverity, _date(k, offset, dateKind));
        _publishAndCheck(updates, k);
    }

    /// @notice Publishes a two-entry batch: a valid first entry for one key and a second for another key that may be
    ///         refused; a refused entry must leave the whole batch unwritten.
    /// @param firstKey The first entry's key.
    /// @param secondKey The second entry's key.
    /// @param score The scores (modulo 101).
    /// @param offset How far back the second entry's date is.
    /// @param dateKind The second entry's date kind (as in `publish`).
    function publishBatch(uint8 firstKey, uint8 secondKey, uint8 score, uint32 offset, uint8 dateKind) external {
        uint256 a = firstKey % KEYS;
        uint256 b = secondKey % KEYS;
        if (a == b) b = (b + 1) % KEYS;
        TrustScoreOracle.ScoreUpdate[] memory updates = new TrustScoreOracle.ScoreUpdate[](2);
        updates[0] = _update(a, score, 0, uint40(block.timestamp));
        updates[1] = _update(b, score / 2, 1, _date(b, offset, dateKind));
        // Entries are checked in order: the first refused one names the batch's error.
        bytes memory refusal = _refusal(a, updates[0], 0);
        if (refusal.length == 0) refusal = _refusal(b, updates[1], 1);
        try oracle.publish(updates) {
            if (refusal.length != 0) {
                ++violations;
            } else {
                _accept(a, updates[0]);
                _accept(b, updates[1]);
            }
        } catch (bytes memory err) {
            if (keccak256(err) != keccak256(refusal)) ++violations;
            else ++refusedNotNewer;
        }
    }

    /// @notice Removes a key's record; must be refused with `RecordNotFound` when the key holds none.
    /// @param keySeed Which key.
    function remove(uint8 keySeed) external {
        uint256 k = keySeed % KEYS;
        TrustScoreOracle.RecordKey[] memory keys = new TrustScoreOracle.RecordKey[](1);
        keys[0] = TrustScoreOracle.RecordKey(k + 1, BASE, REGISTRY);
        bool held = _expected[k].updatedAt != 0;
        try oracle.remove(keys) {
            if (!held) ++violations;
            delete _expected[k];
            --heldCount;
            ++removals;
        } catch (bytes memory err) {
            bytes memory notFound =
                abi.encodeWithSelector(ITrustScoreOracleErrors.RecordNotFound.selector, 0, k + 1, BASE, REGISTRY);
            if (held || keccak256(err) != keccak256(notFound)) ++violations;
        }
    }

    /// @notice Lets up to two days pass.
    /// @param seconds_ How long (modulo two days).
    function advanceTime(uint32 seconds_) external {
        TRUST_VM.warp(block.timestamp + (seconds_ % 2 days));
    }

    function _publishAndCheck(TrustScoreOracle.ScoreUpdate[] memory updates, uint256 k) private {
        bytes memory refusal = _refusal(k, updates[0], 0);
        try oracle.publish(updates) {
            if (refusal.length != 0) ++violations;
            else _accept(k, updates[0]);
        } catch (bytes memory err) {
            if (refusal.length == 0 || keccak256(err) != keccak256(refusal)) ++violations;
            else ++refusedNotNewer;
        }
    }

    /// @dev The model: the revert data the oracle must give for entry `index` (empty when it must accept it).
    function _refusal(uint256 k, TrustScoreOracle.ScoreUpdate memory u, uint256 index)
        private
        view
        returns (bytes memory)
    {
        TrustRecord memory held = _expected[k];
        if (u.updatedAt > latest[k]) return "";
        if (held.updatedAt != 0) {
            bool same = held.score == u.score && held.tier == u.tier && held.sybilSeverity == u.sybilSeverity
                && held.updatedAt == u.updatedAt;
            if (same) return "";
            return
                abi.encodeWithSelector(ITrustScoreOracleErrors.UpdateNotNewer.selector, index, latest[k], u.updatedAt);
        }
        return abi.encodeWithSelector(
            ITrustScoreOracleErrors.UpdateNotNewerThanRemoved.selector, index, latest[k], u.updatedAt
        );
    }

    function _accept(uint256 k, TrustScoreOracle.ScoreUpdate memory u) private {
        if (_expected[k].updatedAt == 0) ++heldCount;
        _expected[k] = TrustRecord(u.score, u.tier, u.sybilSeverity, u.updatedAt);
        if (u.updatedAt > latest[k]) latest[k] = u.updatedAt;
        ++accepted;
    }

    function _date(uint256 k, uint32 offset, uint8 dateKind) private view returns (uint40) {
        uint256 kind = dateKind % 3;
        uint256 date;
        if (kind == 0 || latest[k] == 0) date = block.timestamp - (offset % 3 days);
        else if (kind == 1) date = latest[k];
        else date = latest[k] - (offset % latest[k]);
        return uint40(date == 0 ? 1 : date);
    }

    function _update(uint256 k, uint8 score, uint8 sybilSeverity, uint40 updatedAt)
        private
        pure
        returns (TrustScoreOracle.ScoreUpdate memory)
    {
        score %= 101;
        uint8 tier = score >= 75 ? 3 : score >= 51 ? 2 : score >= 30 ? 1 : 0;
        return TrustScoreOracle.ScoreUpdate(k + 1, BASE, REGISTRY, score, tier, sybilSeverity % 5, updatedAt);
    }
}

/// @title Invariants of the reference oracle
/// @notice forge invariant tests (`[invariant]` in foundry.toml): whatever sequence of publishes, batches, removals and
///         clock moves the fuzzer makes, `agentCount` equals the records held, every key holds exactly what the model
///         says, no key ever holds a record older than one it held before (removal included), and every outcome was the
///         one the publishing rules give.
contract TrustScoreOracleInvariantTest is Assertions {
    OracleHandler internal handler;

    function setUp() public {
        handler = new OracleHandler();
    }

    /// @notice The only contract the invariant fuzzer calls.
    /// @return targets The handler.
    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// @notice `agentCount` is the number of keys holding a record, by the model and by `hasScore`.
    function invariant_agentCountEqualsRecordsHeld() public view {
        TrustScoreOracle oracle = handler.oracle();
        uint256 held;
        for (uint256 k; k < handler.KEYS(); ++k) {
            if (oracle.hasScore(k + 1, 8453, "erc8004")) ++held;
        }
        assertEq(oracle.agentCount(), held, "agentCount against hasScore");
        assertEq(oracle.agentCount(), handler.heldCount(), "agentCount against the model");
    }

    /// @notice Every key holds exactly the model's record, and a held record is the newest its key ever had.
    function invariant_recordsAreTheNewestEverPublished() public view {
        TrustScoreOracle oracle = handler.oracle();
        for (uint256 k; k < handler.KEYS(); ++k) {
            (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt) = oracle.getScore(k + 1, 8453, "erc8004");
            TrustRecord memory want = handler.expected(k);
            assertEq(score, want.score, "score");
            assertEq(tier, want.tier, "tier");
            assertEq(sybilSeverity, want.sybilSeverity, "sybil severity");
            assertEq(updatedAt, want.updatedAt, "updatedAt");
            if (updatedAt != 0) {
                assertEq(updatedAt, handler.latest(k), "a held record is the newest the key ever held");
            }
        }
    }

    /// @notice Every publish and removal was accepted or refused (with the exact error) as the rules say: in
    ///         particular, nothing not newer than a key's latest record, or than its removed record, was ever written.
    function invariant_everyOutcomeFollowsThePublishingRules() public view {
        assertEq(handler.violations(), 0, "outcomes that differ from the rules");
    }
}
