// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The top-level members of the service's signed trust-check block (v2) that the reader knows, as named in
///         errors: the ten fields it reads, the two it validates and skips (a duplicate of either is refused), then
///         `found`, which it checks: absent or `true` (a signed `found: false` is a wallet's proof of absence, never
///         an agent's record).
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
    Expiry,
    Badges,
    SybilSignals,
    Found
}

/// @title ITrustAttestationErrors
/// @notice Errors of the attestation readers: `TrustAttestationLib` (the signed JSON block), `TrustEs256Lib` (the ES256
///         signature), `TrustJwsLib` and `TrustJwsHeaderLib` (the compact JWS around them and its protected header). Contracts that use the libraries inherit this interface so that
///         the errors are in their ABI. Offsets count bytes from the start of the document they name: the signed
///         block (the JWS payload, decoded), the decoded JWS protected header, or the compact JWS itself.
interface ITrustAttestationErrors {
    /// @notice The signed bytes are not one JSON object (RFC 8259, valid UTF-8), or a top-level member name holds a
    ///         backslash escape. `offset` equal to the length means the bytes end too early.
    /// @param offset Byte offset of the problem in the signed bytes.
    error AttestationJsonMalformed(uint256 offset);

    /// @notice A value nests arrays or objects more than 248 levels below the top-level object.
    /// @param offset Byte offset of the bracket that went too deep.
    error AttestationJsonTooDeep(uint256 offset);

    /// @notice A field's value is valid JSON but not in the form the service writes it, or is out of range.
    /// @param field The field.
    /// @param offset Byte offset of the value in the signed bytes.
    error AttestationFieldInvalid(AttestationField field, uint256 offset);

    /// @notice A known top-level member appears twice.
    /// @param field The member.
    /// @param offset Byte offset of its second name (the opening quote).
    error AttestationFieldDuplicate(AttestationField field, uint256 offset);

    /// @notice A field the kit needs is absent from the top level.
    /// @param field The first missing field, in `AttestationField` order.
    error AttestationFieldMissing(AttestationField field);

    /// @notice The signature is not 64 bytes (`r‖s`); for a JWS, its third part does not decode to 64 bytes.
    /// @param length Its length in bytes.
    error AttestationSignatureLength(uint256 length);

    /// @notice `r` or `s` is 0 or not below the order of the P-256 group.
    /// @param r The signature's `r`.
    /// @param s The signature's `s`.
    error AttestationSignatureOutOfRange(bytes32 r, bytes32 s);

    /// @notice The bytes are not a compact JWS in canonical base64url: not three parts separated by dots, a byte
    ///         outside `A-Z a-z 0-9 - _` (padding `=` included), a part whose length is 1 modulo 4, or a last
    ///         character whose unused low bits are not zero.
    /// @param offset Byte offset of the problem in the compact JWS.
    error JwsMalformed(uint256 offset);

    /// @notice The decoded protected header is not one JSON object (RFC 8259, valid UTF-8, nesting at most 248 levels
    ///         deep), or a member name holds a backslash escape.
    /// @param offset Byte offset of the problem in the decoded header.
    error JwsHeaderMalformed(uint256 offset);

    /// @notice The header carries a member the kit refuses: `crit`, `jku`, `x5u`, `jwk`, `x5c` or `b64` (each would
    ///         change how the signature must be checked, or where its key comes from).
    /// @param member The member's name.
    /// @param offset Byte offset of the member's name in the decoded header.
    error JwsHeaderMemberRefused(string member, uint256 offset);

    /// @notice A header member appears twice.
    /// @param member The member's name.
    /// @param offset Byte offset of its second name in the decoded header.
    error JwsHeaderMemberDuplicate(string member, uint256 offset);

    /// @notice A header member's value is not accepted: `alg` other than the string `"ES256"`, `typ` other than
    ///         `"JWT"` or `"JOSE"`, or `kid` not a string without escapes.
    /// @param member The member's name.
    /// @param offset Byte offset of the value in the decoded header.
    error JwsHeaderMemberInvalid(string member, uint256 offset);

    /// @notice A required header member (`alg` or `kid`) is absent.
    /// @param member The member's name.
    error JwsHeaderMemberMissing(string member);

    /// @notice The header's `kid` is not the key id the attestation was submitted under.
    /// @param kid The key id given.
    /// @param headerKid The header's `kid`.
    error JwsKidMismatch(string kid, string headerKid);
}
