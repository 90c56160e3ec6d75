// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustPolicy, TrustRecord, TrustRefusal} from "./TrustTypes.sol";

/// @title TrustPolicyLib
/// @notice The pure part of a trust decision: a record against a policy at a given time, and the
///         named score boundaries of the service's tiers.
/// @dev Gates decide tiers from the score, whose boundaries the service publishes, rather than from the
///      on-chain tier code, whose encoding it does not publish.
library TrustPolicyLib {
    /// @notice Lowest score of the `established` tier.
    uint8 internal constant TIER_ESTABLISHED_MIN_SCORE = 75;
    /// @notice Lowest score of the `developing` tier.
    uint8 internal constant TIER_DEVELOPING_MIN_SCORE = 51;
    /// @notice Lowest score of the `limited` tier (below it an agent is `flagged`).
    uint8 internal constant TIER_LIMITED_MIN_SCORE = 30;

    /// @notice Sybil severity code `none`.
    uint8 internal constant SYBIL_NONE = 0;
    /// @notice Sybil severity code `low`.
    uint8 internal constant SYBIL_LOW = 1;
    /// @notice Sybil severity code `moderate`.
    uint8 internal constant SYBIL_MODERATE = 2;
    /// @notice Sybil severity code `elevated`.
    uint8 internal constant SYBIL_ELEVATED = 3;
    /// @notice Sybil severity code `heavy`.
    uint8 internal constant SYBIL_HEAVY = 4;

    /// @notice Highest meaningful score; a larger value from an oracle is treated as a malformed answer.
    uint8 internal constant MAX_SCORE = 100;

    /// @notice Evaluates the record-only checks, in order: record present, not from the future, not older
    ///         than `maxAge`, score at least `minScore`, sybil severity at most `maxSybilSeverity`.
    /// @param record The oracle record.
    /// @param policy The policy.
    /// @param timestamp The current time.
    /// @return The first refusal that applies, or `None`.
    function evaluate(TrustRecord memory record, TrustPolicy memory policy, uint256 timestamp)
        internal
        pure
        returns (TrustRefusal)
    {
        if (record.updatedAt == 0) return TrustRefusal.RecordMissing;
        if (record.updatedAt > timestamp) return TrustRefusal.RecordFromFuture;
        if (timestamp - record.updatedAt > policy.maxAge) return TrustRefusal.RecordStale;
        if (record.score < policy.minScore) return TrustRefusal.ScoreTooLow;
        if (record.sybilSeverity > policy.maxSybilSeverity) return TrustRefusal.SybilSeverityTooHigh;
        return TrustRefusal.None;
    }
}
