// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";

/// @title P256Verifier
/// @notice OpenZeppelin's P-256 signature check (`P256.verify`: the precompile at 0x100 where there is one, its
///         Solidity implementation elsewhere) in a contract of its own. `AttestedTrustOracle` deploys one and calls it
///         only when the precompile did not answer "valid" (an invalid signature, or a chain without the precompile),
///         which keeps the Solidity implementation, about 2 KB, out of the oracle's runtime code.
contract P256Verifier {
    /// @notice Whether `(r, s)` is a valid signature of `h` under the public key `(x, y)`.
    /// @dev Low-S only, as `P256.verify` (the caller normalises `s`); false for a key off the curve.
    /// @param h The message digest.
    /// @param r The signature's `r`.
    /// @param s The signature's `s`.
    /// @param x The public key's x coordinate.
    /// @param y The public key's y coordinate.
    /// @return True when the signature verifies.
    function verify(bytes32 h, bytes32 r, bytes32 s, bytes32 x, bytes32 y) external view returns (bool) {
        return P256.verify(h, r, s, x, y);
    }
}
