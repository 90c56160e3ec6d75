// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustScoreOracleBase} from "../oracle/TrustScoreOracleBase.sol";

/// @title MockTrustOracle
/// @notice Test oracle for the kit's and its users' test suites. It reads through the same code as the
///         reference oracle (`TrustScoreOracleBase`) but lets anyone write any record without validation
///         (backdated, future-dated, out-of-range codes), clear records, and make every read fail.
/// @dev Not for deployment to a live network: writes are unrestricted.
contract MockTrustOracle is TrustScoreOracleBase {
    /// @notice How reads fail while the oracle is made unavailable.
    enum ReadFailure {
        None,
        CustomError,
        EmptyRevert
    }

    /// @notice Raised by every read while `readFailure` is `CustomError`.
    error MockOracleUnavailable();

    /// @notice Current failure mode of reads.
    ReadFailure public readFailure;

    /// @notice Emitted when the failure mode changes.
    /// @param mode The failure mode now in force.
    event ReadFailureSet(ReadFailure mode);

    /// @notice Writes a record as given, with no validation.
    /// @dev `updatedAt == 0` removes the record: the oracle treats a record dated 0 as absent.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @param score Score to store (any uint8).
    /// @param tier Tier code to store (any uint8).
    /// @param sybilSeverity Sybil code to store (any uint8).
    /// @param updatedAt Record date (any value: past, future, or 0 to remove).
    function setRecord(
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        uint8 score,
        uint8 tier,
        uint8 sybilSeverity,
        uint40 updatedAt
    ) external {
        _write(agentId, chainId, registry, _packRecord(score, tier, sybilSeverity, updatedAt));
    }

    /// @notice Changes only the date of an existing record (to make it stale, or future-dated).
    /// @dev Reverts with `RecordMissing` when there is no record; `updatedAt == 0` removes it.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @param updatedAt The new date.
    function setUpdatedAt(uint256 agentId, uint256 chainId, string calldata registry, uint40 updatedAt) external {
        (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 storedAt) =
            _unpackRecord(_storedRecord(recordKey(agentId, chainId, registry)));
        if (storedAt == 0) revert RecordMissing(agentId, chainId, registry);
        _write(agentId, chainId, registry, _packRecord(score, tier, sybilSeverity, updatedAt));
    }

    /// @notice Removes a record if there is one.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    function clearRecord(uint256 agentId, uint256 chainId, string calldata registry) external {
        _write(agentId, chainId, registry, 0);
    }

    /// @notice Makes every read fail in the given way (`None` restores normal reads).
    /// @param mode The failure mode.
    function setReadFailure(ReadFailure mode) external {
        readFailure = mode;
        emit ReadFailureSet(mode);
    }

    /// @notice Raised by `setUpdatedAt` for a record that does not exist.
    error RecordMissing(uint256 agentId, uint256 chainId, string registry);

    /// @dev Writes a packed record (deleting the entry when it is dated 0) and keeps the count.
    function _write(uint256 agentId, uint256 chainId, string calldata registry, uint256 record) private {
        bytes32 key = recordKey(agentId, chainId, registry);
        uint256 stored = _storedRecord(key);
        if (_updatedAtOf(record) == 0) {
            if (stored == 0) return;
            _deleteRecord(key, agentId, chainId, registry, 0);
            _adjustRecordCount(0, 1);
        } else if (_putRecord(key, agentId, chainId, registry, stored, record)) {
            _adjustRecordCount(1, 0);
        }
    }

    function _beforeRead() internal view override {
        ReadFailure mode = readFailure;
        if (mode == ReadFailure.CustomError) revert MockOracleUnavailable();
        if (mode == ReadFailure.EmptyRevert) {
            assembly ("memory-safe") {
                revert(0, 0)
            }
        }
    }
}
