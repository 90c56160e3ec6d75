// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ITrustOracle} from "../interfaces/ITrustOracle.sol";
import {TrustRecord} from "../TrustTypes.sol";

/// @title TrustScoreOracleBase
/// @notice Storage layout, read functions and events shared by the reference oracle (`TrustScoreOracle`)
///         and the test oracle (`MockTrustOracle`), so that tests read records through exactly the code
///         that production reads them through.
/// @dev One storage slot per record. A record exists exactly when its `updatedAt` is non-zero: writers
///      never store a record dated 0. Indexers follow every change through three events: `RecordAdded`
///      (carries the full key once, when a record appears), `RecordUpdated` (compact, on every write,
///      keyed by `recordKey`) and `RecordRemoved`.
abstract contract TrustScoreOracleBase is ITrustOracle {
    /// @notice Emitted when a record appears for a key that had none (first publish, or publish after removal).
    /// @param key The record key, `recordKey(agentId, chainId, registry)`.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    event RecordAdded(bytes32 indexed key, uint256 indexed agentId, uint256 indexed chainId, string registry);

    /// @notice Emitted on every write of a record, new or updated.
    /// @param key The record key; `RecordAdded` maps it to `(agentId, chainId, registry)`.
    event RecordUpdated(bytes32 indexed key, uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt);

    /// @notice Emitted when a record is removed.
    event RecordRemoved(bytes32 indexed key, uint256 indexed agentId, uint256 indexed chainId, string registry);

    mapping(bytes32 key => TrustRecord) private _records;
    uint256 private _recordCount;

    /// @notice The storage key of a record: `keccak256(abi.encodePacked(agentId, chainId, registry))`.
    /// @dev Unambiguous: the two leading fields are fixed-width and the only dynamic field is last.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @return The key used by `RecordAdded`, `RecordUpdated` and `RecordRemoved`.
    function recordKey(uint256 agentId, uint256 chainId, string calldata registry) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(agentId, chainId, registry));
    }

    /// @inheritdoc ITrustOracle
    function getScore(uint256 agentId, uint256 chainId, string calldata registry)
        external
        view
        returns (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt)
    {
        TrustRecord memory r = _readRecord(recordKey(agentId, chainId, registry));
        return (r.score, r.tier, r.sybilSeverity, r.updatedAt);
    }

    /// @inheritdoc ITrustOracle
    function hasScore(uint256 agentId, uint256 chainId, string calldata registry) external view returns (bool) {
        return _readRecord(recordKey(agentId, chainId, registry)).updatedAt != 0;
    }

    /// @inheritdoc ITrustOracle
    function meetsThreshold(uint256 agentId, uint256 chainId, string calldata registry, uint8 threshold)
        external
        view
        returns (bool)
    {
        TrustRecord memory r = _readRecord(recordKey(agentId, chainId, registry));
        return r.updatedAt != 0 && r.score >= threshold;
    }

    /// @inheritdoc ITrustOracle
    function agentCount() external view returns (uint256) {
        _beforeRead();
        return _recordCount;
    }

    /// @dev Hook run before every external read. The mock overrides it to simulate an unavailable oracle.
    function _beforeRead() internal view virtual {}

    /// @dev Reads a record through `_beforeRead`.
    function _readRecord(bytes32 key) internal view returns (TrustRecord memory) {
        _beforeRead();
        return _records[key];
    }

    /// @dev The stored record, without the read hook (for writers).
    function _storedRecord(bytes32 key) internal view returns (TrustRecord memory) {
        return _records[key];
    }

    /// @dev Stores `record` under `key`, keeps the record count and emits the events. A record dated 0
    ///      removes the entry. Returns the change in the number of records (-1, 0 or +1) so that batch
    ///      writers can update the count once.
    function _writeRecord(
        bytes32 key,
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        TrustRecord memory previous,
        TrustRecord memory record
    ) internal returns (int256 countDelta) {
        if (record.updatedAt == 0) {
            if (previous.updatedAt == 0) return 0;
            delete _records[key];
            emit RecordRemoved(key, agentId, chainId, registry);
            return -1;
        }
        _records[key] = record;
        if (previous.updatedAt == 0) {
            emit RecordAdded(key, agentId, chainId, registry);
            countDelta = 1;
        }
        emit RecordUpdated(key, record.score, record.tier, record.sybilSeverity, record.updatedAt);
    }

    /// @dev Applies a net change to the record count.
    function _adjustRecordCount(int256 delta) internal {
        if (delta > 0) _recordCount += uint256(delta);
        else if (delta < 0) _recordCount -= uint256(-delta);
    }
}
