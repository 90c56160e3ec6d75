// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IJwsHeaderReader
/// @notice The general check of a JWS protected header, run in a contract of its own (see `JwsHeaderReader`).
interface IJwsHeaderReader {
    /// @notice Checks a JWS protected header: `alg` `"ES256"` and `kid` required, `kid` equal to `kid`.
    /// @dev Reverts with `JwsMalformed`, `JwsHeaderMalformed`, `JwsHeaderMemberRefused`, `JwsHeaderMemberDuplicate`,
    ///      `JwsHeaderMemberInvalid`, `JwsHeaderMemberMissing` or `JwsKidMismatch` (`ITrustAttestationErrors`), with
    ///      offsets in `header`.
    /// @param header The JWS's header part (base64url, before the first dot).
    /// @param kid The key id the attestation is submitted under.
    function requireHeader(bytes calldata header, string calldata kid) external pure;
}
