// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AttestedTrustOracle} from "./AttestedTrustOracle.sol";

/// @title HeldFirstAttestedTrustOracle
/// @notice `AttestedTrustOracle` whose reads answer a record held here without asking the upstream while that record
///         is in force and at most `heldFirstRecordMaxAge` seconds old: the read a gate pays once a pusher
///         (`trustgate refresh`) keeps the records fresh, at the price of "the fresher decides".
/// @dev The trade, opt-in per deployment: a record held here shadows a fresher upstream record (the Base oracle
///      lowering an agent's score after the attestation was pushed) until the next push, and in any case until it is
///      older than `heldFirstRecordMaxAge`, when reads answer the fresher of the two again. With the pusher running,
///      the nightly drift job sees the attested oracle's answer differ from the service's signed attestation (the
///      service signs what the upstream holds) and the row becomes due, so the lag is at most the pusher's interval.
///      A deployment without a pusher keeps `AttestedTrustOracle`.
///
///      Everything else is `AttestedTrustOracle`'s: a record stored under a revoked key id reads as absent (the
///      upstream's answers), a record dated after the block never answers alone, the submissions and their checks are
///      the same, and the no-op rule compares an attestation with what reads answer (the record held here alone while
///      it answers alone).
contract HeldFirstAttestedTrustOracle is AttestedTrustOracle {
    uint256 private immutable _maxAge;

    /// @notice The held-first max age given to the constructor is 0 (that is the default policy: deploy
    ///         `AttestedTrustOracle`) or above 2^40 - 1 seconds.
    /// @param maxAge The value refused.
    error HeldFirstRecordMaxAgeInvalid(uint256 maxAge);

    /// @notice Deploys the oracle.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` (signing keys, chain slugs, roles).
    /// @param upstream_ The oracle to fall back on (the Base oracle), or zero for none.
    /// @param maxAge The age, in seconds, up to which a record held here answers reads alone (1 to 2^40 - 1; the
    ///        bound on how long it may shadow a fresher upstream record).
    constructor(address admin, address upstream_, uint256 maxAge) AttestedTrustOracle(admin, upstream_) {
        if (maxAge == 0 || maxAge > type(uint40).max) revert HeldFirstRecordMaxAgeInvalid(maxAge);
        _maxAge = maxAge;
    }

    /// @notice The age, in seconds, up to which a record held here answers reads alone, without asking the upstream
    ///         (never 0: that is `AttestedTrustOracle`'s policy).
    /// @return The max age given to the constructor.
    function heldFirstRecordMaxAge() public view override returns (uint256) {
        return _maxAge;
    }

    /// @dev Held first: a record held here in force answers alone when it is dated from 1 up to the block and at most
    ///      `_maxAge` seconds before it. (`ownAt - 1` wraps for 0; `ownAt + _maxAge` cannot, both being below 2^41.)
    function _answersAlone(uint256 own) internal view override returns (bool alone) {
        uint256 maxAge = _maxAge;
        assembly ("memory-safe") {
            let ownAt := shr(24, own)
            alone := and(lt(sub(ownAt, 1), timestamp()), iszero(gt(timestamp(), add(ownAt, maxAge))))
        }
    }
}
