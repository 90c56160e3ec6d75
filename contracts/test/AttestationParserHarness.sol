// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustAttestationLib} from "../attestation/TrustAttestationLib.sol";
import {TrustJwsLib} from "../attestation/TrustJwsLib.sol";
import {ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";

/// @title AttestationParserHarness
/// @notice Exposes the attestation readers to the kit's tests and benchmark: the signed block's reader, the JWS
///         protected header's reader, base64url decoding, the gas each takes, and the signature check.
contract AttestationParserHarness is ITrustAttestationErrors {
    /// @notice Reads a signed block.
    /// @param json The signed bytes.
    /// @return The fields.
    function parse(bytes calldata json) external pure returns (TrustAttestationLib.TrustAttestation memory) {
        return TrustAttestationLib.parse(json);
    }

    /// @notice Reads a decoded JWS protected header.
    /// @param header The header bytes.
    /// @return What the header holds.
    function readJwsHeader(bytes calldata header) external pure returns (TrustAttestationLib.JwsHeader memory) {
        return TrustAttestationLib.readJwsHeader(header);
    }

    /// @notice Decodes canonical unpadded base64url.
    /// @param text The text.
    /// @return The bytes.
    function decodeBase64Url(bytes calldata text) external pure returns (bytes memory) {
        return TrustJwsLib.decode(text, 0, text.length);
    }

    /// @notice Gas of reading a signed block already in memory.
    /// @param json The signed bytes.
    /// @return gasUsed Gas of `parse`.
    function parseGas(bytes calldata json) external view returns (uint256 gasUsed) {
        bytes memory copy = json;
        uint256 before = gasleft();
        TrustAttestationLib.parse(copy);
        gasUsed = before - gasleft();
    }

    /// @notice Gas of the steps of reading a compact JWS: decoding its payload, and checking its header.
    /// @param jws The compact serialization.
    /// @param kid The key id the header must name.
    /// @return decodeGas Gas of finding the parts and decoding the payload.
    /// @return headerGas Gas of decoding and reading the header.
    function jwsGas(bytes calldata jws, string calldata kid) external view returns (uint256 decodeGas, uint256 headerGas) {
        uint256 before = gasleft();
        (, uint256 headerLength,) = TrustJwsLib.payloadOf(jws);
        decodeGas = before - gasleft();
        before = gasleft();
        TrustJwsLib.requireHeader(jws, headerLength, kid);
        headerGas = before - gasleft();
    }

    /// @notice Checks a signature over `sha256(json)`.
    /// @param json The signed bytes.
    /// @param signature `r‖s`.
    /// @param x Public key x.
    /// @param y Public key y.
    /// @return valid Whether it verifies.
    /// @return gasUsed Gas of the check (hash included).
    function verify(bytes calldata json, bytes calldata signature, bytes32 x, bytes32 y)
        external
        view
        returns (bool valid, uint256 gasUsed)
    {
        uint256 before = gasleft();
        valid = TrustAttestationLib.verifySignature(json, signature, x, y);
        gasUsed = before - gasleft();
    }
}
