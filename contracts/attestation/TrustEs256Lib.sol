// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";
import {P256Verifier} from "./P256Verifier.sol";

/// @title TrustEs256Lib
/// @notice Checks the service's ES256 signatures on-chain: 64 bytes `r‖s` (ECDSA P-256 over SHA-256), low-S or high-S.
/// @dev `r` and `s` must be in [1, n-1] and the key on the curve; a high-S signature (`s > n/2`, which the service does
///      not avoid) is normalised to `n - s`; the RIP-7212 / EIP-7951 precompile at `0x100` is asked first, and when it
///      does not answer "valid", OpenZeppelin's `P256.verify` decides (the precompile where present, its Solidity
///      implementation elsewhere), in the caller's code or, with the overload that takes one, in a `P256Verifier`
///      contract (what `AttestedTrustOracle` does, to keep its code small).
library TrustEs256Lib {
    /// @dev Order of the P-256 group and half of it.
    uint256 private constant _N = P256.N;
    uint256 private constant _HALF_N = 0x7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8;

    /// @notice Checks an ES256 signature (64 bytes `r‖s`, low-S or high-S) over `sha256(json)`.
    /// @dev Reverts with `AttestationSignatureLength` or `AttestationSignatureOutOfRange`; returns false for a
    ///      signature that does not verify or a key that is not on the curve.
    /// @param json The signed bytes.
    /// @param signature `r‖s`, 64 bytes.
    /// @param x The public key's x coordinate.
    /// @param y The public key's y coordinate.
    /// @return True when the signature verifies.
    function verifySignature(bytes memory json, bytes memory signature, bytes32 x, bytes32 y)
        internal
        view
        returns (bool)
    {
        return verifyDigest(sha256(json), signature, x, y);
    }

    /// @notice Checks an ES256 signature (64 bytes `r‖s`, low-S or high-S) over a SHA-256 digest.
    /// @param digest The SHA-256 digest of the signed bytes.
    /// @param signature `r‖s`, 64 bytes.
    /// @param x The public key's x coordinate.
    /// @param y The public key's y coordinate.
    /// @return True when the signature verifies.
    function verifyDigest(bytes32 digest, bytes memory signature, bytes32 x, bytes32 y) internal view returns (bool) {
        (bool valid, bytes32 r, bytes32 s) = _verifyByPrecompile(digest, signature, x, y);
        return valid || P256.verify(digest, r, s, x, y);
    }

    /// @notice `verifyDigest`, with OpenZeppelin's `P256.verify` called in a contract of its own (`fallbackVerifier`)
    ///         when the precompile does not answer "valid", so that the caller's runtime code does not hold the
    ///         Solidity implementation.
    /// @param digest The SHA-256 digest of the signed bytes.
    /// @param signature `r‖s`, 64 bytes.
    /// @param x The public key's x coordinate.
    /// @param y The public key's y coordinate.
    /// @param fallbackVerifier Where `P256.verify` runs.
    /// @return True when the signature verifies.
    function verifyDigest(bytes32 digest, bytes memory signature, bytes32 x, bytes32 y, P256Verifier fallbackVerifier)
        internal
        view
        returns (bool)
    {
        (bool valid, bytes32 r, bytes32 s) = _verifyByPrecompile(digest, signature, x, y);
        return valid || fallbackVerifier.verify(digest, r, s, x, y);
    }

    /// @dev Refuses a signature that is not 64 bytes or whose `r` or `s` is out of range, normalises a high `s`, and
    ///      asks the P-256 precompile (EIP-7951 / RIP-7212, at 0x100), which answers the word 1 for a valid signature
    ///      and nothing otherwise: a valid signature costs the precompile alone. Any other answer (an invalid
    ///      signature, or no precompile on this chain) is left to OpenZeppelin's `P256.verify`, which tells the two
    ///      apart and falls back on its Solidity implementation.
    function _verifyByPrecompile(bytes32 digest, bytes memory signature, bytes32 x, bytes32 y)
        private
        view
        returns (bool valid, bytes32 r, bytes32 s)
    {
        if (signature.length != 64) revert ITrustAttestationErrors.AttestationSignatureLength(signature.length);
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
        }
        if (uint256(r) == 0 || uint256(r) >= _N || uint256(s) == 0 || uint256(s) >= _N) {
            revert ITrustAttestationErrors.AttestationSignatureOutOfRange(r, s);
        }
        if (uint256(s) > _HALF_N) s = bytes32(_N - uint256(s));
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            mstore(ptr, digest)
            mstore(add(ptr, 0x20), r)
            mstore(add(ptr, 0x40), s)
            mstore(add(ptr, 0x60), x)
            mstore(add(ptr, 0x80), y)
            mstore(0x00, 0)
            let ok := staticcall(gas(), 0x100, ptr, 0xa0, 0x00, 0x20)
            valid := and(ok, and(eq(returndatasize(), 0x20), eq(mload(0x00), 1)))
        }
    }
}
