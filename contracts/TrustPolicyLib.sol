// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustPolicy, TrustRecord, TrustRefusal} from "./TrustTypes.sol";

/// @title TrustPolicyLib
/// @notice The pure part of a trust decision: a record against a policy at a given time.
/// @dev Gates decide tiers from the score, whose boundaries the service publishes
///      (`TrustConstants.TIER_*_MIN_SCORE`), rather than from the on-chain tier code, whose encoding it does not
///      publish.
library TrustPolicyLib {
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
