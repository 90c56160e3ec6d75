// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The fields of the service's signed trust-check block (v2) that the kit reads, as named in errors.
enum AttestationField {
    AgentId,
    Chain,
    Registry,
    Owner,
    Score,
    Tier,
    SybilSeverity,
    IssuedAt,
    VerifiedAt,
    Expiry
}

/// @title ITrustAttestationErrors
/// @notice Errors of `TrustAttestationLib`: reading the signed block of a trust-check attestation and checking its
///         signature. Contracts that use the library inherit this interface so that the errors are in their ABI.
interface ITrustAttestationErrors {
    /// @notice The signed bytes are not a JSON object as `JSON.stringify` writes it (unexpected byte, or the
    ///         bytes end too early when `offset` equals their length).
    /// @param offset Byte offset of the problem in the signed bytes.
    error AttestationJsonMalformed(uint256 offset);

    /// @notice A nested value is more than 248 levels deep.
    /// @param offset Byte offset of the bracket that went too deep.
    error AttestationJsonTooDeep(uint256 offset);

    /// @notice A field's value is not in the form the service writes it, or is out of range.
    /// @param field The field.
    /// @param offset Byte offset of the value in the signed bytes.
    error AttestationFieldInvalid(AttestationField field, uint256 offset);

    /// @notice A field appears twice at the top level.
    /// @param field The field.
    /// @param offset Byte offset of its second key (the opening quote).
    error AttestationFieldDuplicate(AttestationField field, uint256 offset);

    /// @notice A field the kit needs is absent from the top level (or, for the hint reader, not at its hint).
    /// @param field The first missing field, in `AttestationField` order.
    error AttestationFieldMissing(AttestationField field);

    /// @notice The signature is not 64 bytes (`r‖s`).
    /// @param length Its length.
    error AttestationSignatureLength(uint256 length);

    /// @notice `r` or `s` is 0 or not below the order of the P-256 group.
    /// @param r The signature's `r`.
    /// @param s The signature's `s`.
    error AttestationSignatureOutOfRange(bytes32 r, bytes32 s);
}
