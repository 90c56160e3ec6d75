// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TrustConstants
/// @notice The numbers every contract of the kit agrees on: the score range, the score boundaries of the
///         service's tiers, and the uint8 codes of tiers and sybil severities. Gates, the policy library and the
///         reference oracle all read them from here.
/// @dev The service publishes the score range (0-95 on the live oracle) and the tier boundaries, but not the
///      on-chain encodings of `tier` and `sybilSeverity`: the codes below are the kit's assumption (see
///      `ITrustOracle`), kept in this one place so that a correction touches one file. The TypeScript side
///      mirrors them in `src/policy.ts` and `src/config/encodings.ts`.
library TrustConstants {
    /// @notice Highest score a record may carry. The live service caps scores at 95; a gate treats a larger
    ///         answer as malformed, and the reference oracle refuses to publish one.
    uint8 internal constant MAX_SCORE = 100;

    /// @notice Lowest score of the `established` tier.
    uint8 internal constant TIER_ESTABLISHED_MIN_SCORE = 75;
    /// @notice Lowest score of the `developing` tier.
    uint8 internal constant TIER_DEVELOPING_MIN_SCORE = 51;
    /// @notice Lowest score of the `limited` tier (below it an agent is `flagged`).
    uint8 internal constant TIER_LIMITED_MIN_SCORE = 30;

    /// @notice Tier code `flagged`.
    uint8 internal constant TIER_FLAGGED = 0;
    /// @notice Tier code `limited`.
    uint8 internal constant TIER_LIMITED = 1;
    /// @notice Tier code `developing`.
    uint8 internal constant TIER_DEVELOPING = 2;
    /// @notice Tier code `established`, the highest tier code.
    uint8 internal constant TIER_ESTABLISHED = 3;
    /// @notice Highest tier code.
    uint8 internal constant MAX_TIER = TIER_ESTABLISHED;

    /// @notice Sybil severity code `none`.
    uint8 internal constant SYBIL_NONE = 0;
    /// @notice Sybil severity code `low`.
    uint8 internal constant SYBIL_LOW = 1;
    /// @notice Sybil severity code `moderate`.
    uint8 internal constant SYBIL_MODERATE = 2;
    /// @notice Sybil severity code `elevated`.
    uint8 internal constant SYBIL_ELEVATED = 3;
    /// @notice Sybil severity code `heavy`, the highest sybil severity code.
    uint8 internal constant SYBIL_HEAVY = 4;
    /// @notice Highest sybil severity code.
    uint8 internal constant MAX_SYBIL_SEVERITY = SYBIL_HEAVY;
}
