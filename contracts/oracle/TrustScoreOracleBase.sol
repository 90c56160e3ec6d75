// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ITrustOracle} from "../interfaces/ITrustOracle.sol";

/// @title TrustScoreOracleBase
/// @notice Storage layout, read functions and events shared by the reference oracle (`TrustScoreOracle`)
///         and the test oracle (`MockTrustOracle`), so that tests read records through exactly the code
///         that production reads them through.
/// @dev One storage slot per record, holding the packed record word: bits 0-7 score, 8-15 tier,
///      16-23 sybil severity, 24-63 `updatedAt` (the layout of a `TrustRecord` struct in storage). A record
///      exists exactly when its `updatedAt` is non-zero: writers never store a record dated 0. Bits 64-255 belong
///      to the writer (`TrustScoreOracle` keeps a removed record's date there as a tombstone) and are ignored by
///      every read: a word whose bits 0-63 are zero holds no record.
///
///      Events, designed for an indexer that follows every change at the lowest gas per nightly record:
///      `RecordAdded` once when a key gets a record (full key: agent id, chain id, registry name, and the
///      record word), `RecordUpdated` on each later write (the key hash and the record word only: two
///      words of log instead of five), `RecordRemoved` when a record goes. `recordKey` maps a key to its hash.
abstract contract TrustScoreOracleBase is ITrustOracle {
    /// @notice A key got a record (first publish, or publish after removal).
    /// @param key The record key, `recordKey(agentId, chainId, registry)`.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @param record The packed record word (see the contract notes for the layout).
    event RecordAdded(
        bytes32 indexed key, uint256 indexed agentId, uint256 indexed chainId, string registry, uint256 record
    );

    /// @notice An existing record was replaced by a newer one.
    /// @param key The record key; `RecordAdded` maps it to `(agentId, chainId, registry)`.
    /// @param record The packed record word.
    event RecordUpdated(bytes32 indexed key, uint256 record);

    /// @notice A record was removed.
    /// @param key The record key.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    event RecordRemoved(bytes32 indexed key, uint256 indexed agentId, uint256 indexed chainId, string registry);

    mapping(bytes32 key => uint256 record) private _records;
    uint256 private _recordCount;

    /// @notice The storage key of a record: `keccak256(abi.encodePacked(agentId, chainId, registry))`.
    /// @dev Unambiguous: the two leading fields are fixed-width and the only dynamic field is last.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @return key The key used by `RecordAdded`, `RecordUpdated` and `RecordRemoved`.
    function recordKey(uint256 agentId, uint256 chainId, string calldata registry) public pure returns (bytes32 key) {
        // Hashes in memory past the free-memory pointer without claiming it, so that a batch of keys does
        // not grow memory.
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            mstore(ptr, agentId)
            mstore(add(ptr, 0x20), chainId)
            calldatacopy(add(ptr, 0x40), registry.offset, registry.length)
            key := keccak256(ptr, add(0x40, registry.length))
        }
    }

    /// @inheritdoc ITrustOracle
    function getScore(uint256 agentId, uint256 chainId, string calldata registry)
        external
        view
        returns (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt)
    {
        return _unpackRecord(_readRecord(recordKey(agentId, chainId, registry)));
    }

    /// @inheritdoc ITrustOracle
    function hasScore(uint256 agentId, uint256 chainId, string calldata registry) external view returns (bool) {
        return _updatedAtOf(_readRecord(recordKey(agentId, chainId, registry))) != 0;
    }

    /// @inheritdoc ITrustOracle
    function meetsThreshold(uint256 agentId, uint256 chainId, string calldata registry, uint8 threshold)
        external
        view
        returns (bool)
    {
        (uint8 score,,, uint40 updatedAt) = _unpackRecord(_readRecord(recordKey(agentId, chainId, registry)));
        return updatedAt != 0 && score >= threshold;
    }

    /// @inheritdoc ITrustOracle
    function agentCount() external view returns (uint256) {
        _beforeRead();
        return _recordCount;
    }

    /// @dev Hook run before every external read, empty here. The mock overrides it to simulate an unavailable
    ///      oracle.
    function _beforeRead() internal view virtual {} // solhint-disable-line no-empty-blocks

    /// @dev The packed record under `key`, through the read hook (for external reads).
    function _readRecord(bytes32 key) private view returns (uint256) {
        _beforeRead();
        return _records[key];
    }

    /// @dev The storage word under `key`, without the read hook (for writers): 0 when the key never held a
    ///      record; bits 0-63 zero when it holds none now.
    function _storedRecord(bytes32 key) internal view returns (uint256) {
        return _records[key];
    }

    /// @dev Stores a packed record dated non-zero and emits its event; `stored` is the word it replaces
    ///      (without a record in bits 0-63 when the key held none). Returns whether the key is new; the caller
    ///      adjusts the count.
    function _putRecord(
        bytes32 key,
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        uint256 stored,
        uint256 record
    ) internal returns (bool added) {
        _records[key] = record;
        if (_updatedAtOf(stored) == 0) {
            emit RecordAdded(key, agentId, chainId, registry, record);
            return true;
        }
        emit RecordUpdated(key, record);
    }

    /// @dev Deletes a record that exists, leaving `tombstone` in its word (0 for none; bits 0-63 must be zero),
    ///      and emits `RecordRemoved`; the caller adjusts the count.
    function _deleteRecord(bytes32 key, uint256 agentId, uint256 chainId, string calldata registry, uint256 tombstone)
        internal
    {
        _records[key] = tombstone;
        emit RecordRemoved(key, agentId, chainId, registry);
    }

    /// @dev Adds `added` and subtracts `removed` from the record count.
    function _adjustRecordCount(uint256 added, uint256 removed) internal {
        if (added != removed) _recordCount = _recordCount + added - removed;
    }

    /// @dev Packs a record into its storage word.
    function _packRecord(uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt)
        internal
        pure
        returns (uint256)
    {
        return uint256(score) | (uint256(tier) << 8) | (uint256(sybilSeverity) << 16) | (uint256(updatedAt) << 24);
    }

    /// @dev Unpacks a storage word.
    function _unpackRecord(uint256 record)
        internal
        pure
        returns (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt)
    {
        return (uint8(record), uint8(record >> 8), uint8(record >> 16), uint40(record >> 24));
    }

    /// @dev The `updatedAt` of a packed record (0 when there is none).
    function _updatedAtOf(uint256 record) internal pure returns (uint40) {
        return uint40(record >> 24);
    }
}
