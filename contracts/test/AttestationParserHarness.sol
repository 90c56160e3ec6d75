// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustAttestationLib} from "../attestation/TrustAttestationLib.sol";
import {ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";

/// @title AttestationParserHarness
/// @notice Exposes `TrustAttestationLib` to the kit's tests and benchmark: reading a signed block by full scan or at
///         (unverified) hints, the gas each takes, and the signature check.
contract AttestationParserHarness is ITrustAttestationErrors {
    /// @notice Reads a signed block by full scan.
    /// @param json The signed bytes.
    /// @return The fields.
    function parse(bytes calldata json) external pure returns (TrustAttestationLib.TrustAttestation memory) {
        return TrustAttestationLib.parse(json);
    }

    /// @notice Reads a signed block at caller-given key offsets, without the top-level check (measurement only).
    /// @param json The signed bytes.
    /// @param hints Key offsets, 16 bits per field.
    /// @return The fields.
    function parseAtUnverifiedHints(bytes calldata json, uint256 hints)
        external
        pure
        returns (TrustAttestationLib.TrustAttestation memory)
    {
        return TrustAttestationLib.parseAtUnverifiedHints(json, hints);
    }

    /// @notice Gas of reading a signed block already in memory, by scan and at hints.
    /// @param json The signed bytes.
    /// @param hints Key offsets for the hint reader.
    /// @return scanGas Gas of `parse`.
    /// @return hintsGas Gas of `parseAtUnverifiedHints`.
    function parseGas(bytes calldata json, uint256 hints) external view returns (uint256 scanGas, uint256 hintsGas) {
        bytes memory copy = json;
        uint256 before = gasleft();
        TrustAttestationLib.parse(copy);
        scanGas = before - gasleft();
        before = gasleft();
        TrustAttestationLib.parseAtUnverifiedHints(copy, hints);
        hintsGas = before - gasleft();
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
