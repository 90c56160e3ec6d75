// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustJsonReader} from "./TrustJsonReader.sol";

/// @title TrustJwsHeaderLib
/// @notice Reads the protected header of the service's JWS (decoded from base64url) on-chain, by the one-pass JSON reader
///         that also reads the signed block (`TrustJsonReader`), so that both documents follow one grammar.
library TrustJwsHeaderLib {
    /// @notice What `readJwsHeader` found in a protected header.
    /// @param kidOffset Byte offset of the `kid` value's contents in the header (0 when absent).
    /// @param kidLength Length of the `kid` value.
    /// @param hasAlg Whether `alg` was present (it is then exactly `"ES256"`).
    /// @param hasKid Whether `kid` was present (it is then a string without escapes).
    struct JwsHeader {
        uint256 kidOffset;
        uint256 kidLength;
        bool hasAlg;
        bool hasKid;
    }

    /// @notice Reads a JWS protected header (decoded): one JSON object, any member order, no escaped and no
    ///         duplicate member name; `alg`, when present, exactly `"ES256"`; `typ`, when present, `"JWT"` or
    ///         `"JOSE"`; `kid`, when present, a string without escapes; `crit`, `jku`, `x5u`, `jwk`, `x5c` and `b64`
    ///         refused; any other member skipped (valid JSON required). Whether `alg` and `kid` are present, and
    ///         which key id the header names, is left to the caller.
    /// @dev Reverts with `JwsHeaderMalformed`, `JwsHeaderMemberRefused`, `JwsHeaderMemberDuplicate` or
    ///      `JwsHeaderMemberInvalid`.
    /// @param header The decoded header bytes.
    /// @return found Where the `kid` is, and which of `alg` and `kid` are present.
    function readJwsHeader(bytes memory header) internal pure returns (JwsHeader memory found) {
        uint256 fields = TrustJsonReader.read(header, true);
        assembly ("memory-safe") {
            found := fields
        }
    }
}
