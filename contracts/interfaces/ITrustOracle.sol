// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ITrustOracle
/// @notice Read interface of the trust-score oracle published on Base mainnet
///         (`0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4`): the read functions of RNWY's published
///         `IRNWYTrustOracle` (its newest hook names the interface `ITrustOracle`), with the same selectors and
///         return types. Nothing else of the deployed contract's ABI (writes, events) is published.
/// @dev A record is keyed by `(agentId, chainId, registry)`: the agent's id in its registry, the numeric
///      id of the chain the agent is registered on, and the registry name (`erc8004`, `olas`, `virtuals`).
///      Scores range 0-95 on the live oracle. The uint8 encodings of `tier` and `sybilSeverity` are not
///      published by the service; this kit assumes tier `0 flagged, 1 limited, 2 developing,
///      3 established` and sybil severity `0 none, 1 low, 2 moderate, 3 elevated, 4 heavy`.
interface ITrustOracle {
    /// @notice Returns the stored record of an agent.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The numeric id of the chain the agent is registered on.
    /// @param registry The registry name, for example `erc8004`.
    /// @return score Trust score (0-95 on the live oracle).
    /// @return tier Tier code (see the interface notes for the encoding assumed by this kit).
    /// @return sybilSeverity Sybil severity code.
    /// @return updatedAt Unix time at which the record was written; 0 when there is no record.
    function getScore(uint256 agentId, uint256 chainId, string calldata registry)
        external
        view
        returns (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt);

    /// @notice Tells whether the oracle holds a record for an agent.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The numeric id of the chain the agent is registered on.
    /// @param registry The registry name.
    /// @return True when a record exists.
    function hasScore(uint256 agentId, uint256 chainId, string calldata registry) external view returns (bool);

    /// @notice Tells whether an agent's score is at least `threshold`.
    /// @dev Says nothing about the record's age, tier or sybil severity; see `TrustGated` for a full check.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The numeric id of the chain the agent is registered on.
    /// @param registry The registry name.
    /// @param threshold The minimum score.
    /// @return True when a record exists and its score is at least `threshold`.
    function meetsThreshold(uint256 agentId, uint256 chainId, string calldata registry, uint8 threshold)
        external
        view
        returns (bool);

    /// @notice Number of records currently held by the oracle.
    /// @return The record count.
    function agentCount() external view returns (uint256);
}
