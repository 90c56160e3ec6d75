// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {TrustConstants} from "../TrustConstants.sol";
import {ITrustScoreOracleErrors} from "../interfaces/ITrustScoreOracleErrors.sol";
import {TrustScoreOracleBase} from "./TrustScoreOracleBase.sol";

/// @title TrustScoreOracle
/// @notice Reference trust-score oracle with the Base oracle's read ABI, for local development, testnets,
///         chains without an oracle and the kit's local Base simulation. Records are written in batches
///         by accounts holding `PUBLISHER_ROLE`; a batch is all-or-nothing.
/// @dev Publishing rules, checked for every entry (the whole batch reverts with an error naming the
///      entry's index when one fails): score at most `MAX_SCORE`; tier and sybil codes inside the
///      encoding (`MAX_TIER`, `MAX_SYBIL_SEVERITY`); registry name not empty; `updatedAt` non-zero and
///      not in the future; `updatedAt` not older than the stored record. Republishing a stored record
///      unchanged is a no-op; a different record with the same `updatedAt` is refused, so an old snapshot
///      can never overwrite a newer one.
///
///      Monotonicity survives removal: `remove` leaves a tombstone in the key's storage word (the removed
///      record's `updatedAt` in bits 64-103, bits 0-63 zero, so every read sees no record), and a publish that
///      re-adds the key must be strictly newer than it (`UpdateNotNewerThanRemoved`). Without it, a late or
///      replayed batch could bring back a snapshot older than the one the publisher removed. The tombstone
///      costs nothing extra: the slot is read by `publish` anyway, and re-adding a key overwrites it.
contract TrustScoreOracle is TrustScoreOracleBase, AccessControl, ITrustScoreOracleErrors {
    /// @notice Role allowed to publish and remove records.
    bytes32 public constant PUBLISHER_ROLE = keccak256("PUBLISHER_ROLE");

    /// @notice Highest score accepted (the live service caps scores at 95): `TrustConstants.MAX_SCORE`.
    uint8 public constant MAX_SCORE = TrustConstants.MAX_SCORE;
    /// @notice Highest tier code (0 flagged, 1 limited, 2 developing, 3 established): `TrustConstants.MAX_TIER`.
    uint8 public constant MAX_TIER = TrustConstants.MAX_TIER;
    /// @notice Highest sybil severity code (0 none, 1 low, 2 moderate, 3 elevated, 4 heavy):
    ///         `TrustConstants.MAX_SYBIL_SEVERITY`.
    uint8 public constant MAX_SYBIL_SEVERITY = TrustConstants.MAX_SYBIL_SEVERITY;

    /// @dev Bit offset of the tombstone (the removed record's `updatedAt`) in a key's storage word.
    uint256 private constant _TOMBSTONE_SHIFT = 64;

    /// @notice One record to publish.
    struct ScoreUpdate {
        uint256 agentId;
        uint256 chainId;
        string registry;
        uint8 score;
        uint8 tier;
        uint8 sybilSeverity;
        uint40 updatedAt;
    }

    /// @notice The key of a record to remove.
    struct RecordKey {
        uint256 agentId;
        uint256 chainId;
        string registry;
    }

    /// @notice Deploys the oracle.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` (manages roles) and `PUBLISHER_ROLE`.
    constructor(address admin) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PUBLISHER_ROLE, admin);
    }

    /// @notice Publishes a batch of records, all or nothing.
    /// @dev Emits `RecordAdded` for each new key and `RecordUpdated` for each record written; an entry
    ///      identical to the stored record emits nothing.
    /// @param updates The records to write.
    function publish(ScoreUpdate[] calldata updates) external onlyRole(PUBLISHER_ROLE) {
        uint256 length = updates.length;
        if (length == 0) revert TrustScoreOracleEmptyBatch();
        uint256 added;
        for (uint256 i; i < length; ++i) {
            ScoreUpdate calldata u = updates[i];
            string calldata registry = u.registry;
            uint40 updatedAt = u.updatedAt;
            uint256 record = _validatedRecord(i, u.score, u.tier, u.sybilSeverity, updatedAt, registry);
            bytes32 key = recordKey(u.agentId, u.chainId, registry);
            uint256 stored = _storedRecord(key);
            // The date to beat: the stored record's, or, when the key holds none, its tombstone's (0 if it never
            // held one). A word holds one or the other, never both, so one OR reads whichever is there.
            uint40 floor = uint40((stored >> 24) | (stored >> _TOMBSTONE_SHIFT));
            if (updatedAt <= floor) {
                if (record == stored) continue; // the same record again: nothing to do
                if (_updatedAtOf(stored) == 0) revert UpdateNotNewerThanRemoved(i, floor, updatedAt);
                revert UpdateNotNewer(i, floor, updatedAt);
            }
            if (_putRecord(key, u.agentId, u.chainId, registry, stored, record)) ++added;
        }
        _adjustRecordCount(added, 0);
    }

    /// @notice Removes records, all or nothing; reverts with `RecordNotFound` if one is not held. Each key keeps
    ///         the removed record's `updatedAt` as a tombstone: re-adding it later needs a newer snapshot.
    /// @dev Emits `RecordRemoved` for each key.
    /// @param keys The records to remove.
    function remove(RecordKey[] calldata keys) external onlyRole(PUBLISHER_ROLE) {
        uint256 length = keys.length;
        if (length == 0) revert TrustScoreOracleEmptyBatch();
        for (uint256 i; i < length; ++i) {
            RecordKey calldata k = keys[i];
            bytes32 key = recordKey(k.agentId, k.chainId, k.registry);
            uint40 storedAt = _updatedAtOf(_storedRecord(key));
            if (storedAt == 0) revert RecordNotFound(i, k.agentId, k.chainId, k.registry);
            _deleteRecord(key, k.agentId, k.chainId, k.registry, uint256(storedAt) << _TOMBSTONE_SHIFT);
        }
        _adjustRecordCount(0, length);
    }

    /// @dev Checks entry `i` against the publishing rules and returns its packed record word.
    function _validatedRecord(
        uint256 i,
        uint8 score,
        uint8 tier,
        uint8 sybilSeverity,
        uint40 updatedAt,
        string calldata registry
    ) private view returns (uint256) {
        if (score > MAX_SCORE) revert ScoreOutOfRange(i, score, MAX_SCORE);
        if (tier > MAX_TIER) revert TierOutOfRange(i, tier, MAX_TIER);
        if (sybilSeverity > MAX_SYBIL_SEVERITY) revert SybilSeverityOutOfRange(i, sybilSeverity, MAX_SYBIL_SEVERITY);
        if (bytes(registry).length == 0) revert UpdateEmptyRegistry(i);
        if (updatedAt == 0) revert UpdateZeroTimestamp(i);
        if (updatedAt > block.timestamp) revert UpdateFromFuture(i, updatedAt, block.timestamp);
        return _packRecord(score, tier, sybilSeverity, updatedAt);
    }
}
