// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice One trust record as the oracle returns it from `getScore`.
/// @dev Packs into one storage slot. `updatedAt == 0` means "no record".
struct TrustRecord {
    uint8 score;
    uint8 tier;
    uint8 sybilSeverity;
    uint40 updatedAt;
}

/// @notice What a gate requires of an agent.
/// @param minScore Lowest accepted score (use the `TrustConstants.TIER_*_MIN_SCORE` constants to gate by tier).
/// @param maxSybilSeverity Highest accepted sybil severity code (`TrustConstants.SYBIL_*`: 0 none ... 4 heavy).
/// @param maxAge Oldest accepted record, in seconds before the current block.
/// @param requireController Whether the caller must control the agent in the ERC-8004 identity registry.
struct TrustPolicy {
    uint8 minScore;
    uint8 maxSybilSeverity;
    uint32 maxAge;
    bool requireController;
}

/// @notice Why a gate refuses an agent; `None` means the agent passes.
enum TrustRefusal {
    None,
    OracleUnavailable,
    OracleMalformedResponse,
    RecordMissing,
    RecordFromFuture,
    RecordStale,
    ScoreTooLow,
    SybilSeverityTooHigh,
    AgentIdentityUnavailable,
    NotAgentController
}
