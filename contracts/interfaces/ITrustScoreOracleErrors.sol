// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ITrustScoreOracleErrors
/// @notice Custom errors of the reference oracle's writers (`TrustScoreOracle.publish` and `remove`), declared
///         apart from the contract as OpenZeppelin's `draft-IERC6093` declares token errors, so that integrators and
///         tools can decode them without the implementation. Every error of a batch names the entry's `index`.
interface ITrustScoreOracleErrors {
    /// @notice A batch had no entries.
    error TrustScoreOracleEmptyBatch();
    /// @notice Entry `index` has a score above `MAX_SCORE`.
    /// @param index The entry's position in the batch.
    /// @param score The score given.
    /// @param maxScore The highest score accepted.
    error ScoreOutOfRange(uint256 index, uint8 score, uint8 maxScore);
    /// @notice Entry `index` has a tier code outside the encoding.
    /// @param index The entry's position in the batch.
    /// @param tier The tier code given.
    /// @param maxTier The highest tier code.
    error TierOutOfRange(uint256 index, uint8 tier, uint8 maxTier);
    /// @notice Entry `index` has a sybil severity code outside the encoding.
    /// @param index The entry's position in the batch.
    /// @param sybilSeverity The sybil severity code given.
    /// @param maxSybilSeverity The highest sybil severity code.
    error SybilSeverityOutOfRange(uint256 index, uint8 sybilSeverity, uint8 maxSybilSeverity);
    /// @notice Entry `index` has an empty registry name.
    /// @param index The entry's position in the batch.
    error UpdateEmptyRegistry(uint256 index);
    /// @notice Entry `index` is dated 0.
    /// @param index The entry's position in the batch.
    error UpdateZeroTimestamp(uint256 index);
    /// @notice Entry `index` is dated after the current block.
    /// @param index The entry's position in the batch.
    /// @param updatedAt The entry's date.
    /// @param blockTimestamp The current block's timestamp.
    error UpdateFromFuture(uint256 index, uint40 updatedAt, uint256 blockTimestamp);
    /// @notice Entry `index` is not newer than the stored record (older, or as old but different).
    /// @param index The entry's position in the batch.
    /// @param storedUpdatedAt The stored record's date.
    /// @param updatedAt The entry's date.
    error UpdateNotNewer(uint256 index, uint40 storedUpdatedAt, uint40 updatedAt);
    /// @notice Entry `index` would re-add a removed key with a snapshot that is not newer than the record removed
    ///         (the key's last `updatedAt` survives its removal, so an old snapshot cannot come back).
    /// @param index The entry's position in the batch.
    /// @param removedUpdatedAt The date of the record last removed under this key.
    /// @param updatedAt The entry's date.
    error UpdateNotNewerThanRemoved(uint256 index, uint40 removedUpdatedAt, uint40 updatedAt);
    /// @notice Entry `index` of a removal names a record the oracle does not hold.
    /// @param index The entry's position in the batch.
    /// @param agentId The agent's id given.
    /// @param chainId The chain id given.
    /// @param registry The registry name given.
    error RecordNotFound(uint256 index, uint256 agentId, uint256 chainId, string registry);
}
