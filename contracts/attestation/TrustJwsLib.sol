// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IJwsHeaderReader} from "../interfaces/IJwsHeaderReader.sol";
import {ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";
import {TrustJwsHeaderLib} from "./TrustJwsHeaderLib.sol";

/// @title TrustJwsLib
/// @notice Reads the compact JWS (RFC 7515) the service issues with a trust-check attestation, from calldata and as
///         issued: three canonical base64url parts `header.payload.signature`, an ES256 signature over the ASCII
///         bytes `header.payload` themselves (never a re-serialisation).
/// @dev What it accepts:
///      - exactly three parts; the signature part is 86 characters (64 bytes `r‖s` once decoded);
///      - base64url without padding, canonical: a byte outside `A-Z a-z 0-9 - _`, a part whose length is 1 modulo
///        4, or a last character whose unused low bits are not zero is refused (`JwsMalformed(offset)`), so that
///        one JWS has one spelling;
///      - the protected header as `TrustJwsHeaderLib.readJwsHeader` reads it, with `alg` and `kid` required and
///        `kid` equal to the key id the attestation is submitted under.
///      Decoding is done in assembly a word at a time: 32 characters are classified (letters, digits, `-`, `_`:
///      the parity of four byte-wise flags) and mapped to their 6-bit values with a few word operations, then packed
///      into 24 bytes by five mask-multiply-add steps; the flags of bytes outside the alphabet are gathered over the
///      whole text, and only a text that has one is read again a byte at a time to name the first.
library TrustJwsLib {
    /// @dev Characters of a 64-byte signature in unpadded base64url.
    uint256 private constant _SIGNATURE_CHARS = 86;

    /// @dev The header jose writes starts with the 21 bytes `{"alg":"ES256","kid":`, whose base64url is the 28
    ///      characters `eyJhbGciOiJFUzI1NiIsImtpZCI6` (21 is a multiple of 3, so the text that follows is encoded on its
    ///      own), here as the number they make.
    uint256 private constant _JOSE_HEADER_START_WORD = 0x65794a68624763694f694a46557a49314e694973496d74705a434936;
    uint256 private constant _JOSE_HEADER_START_CHARS = 28;

    /// @notice Finds the parts of a compact JWS and decodes its payload (the signed block), without reading the
    ///         header or the signature.
    /// @dev Reverts with `JwsMalformed` (missing dot, not canonical base64url) or `AttestationSignatureLength` (a
    ///      third part that does not decode to 64 bytes).
    /// @param jws The compact serialization, as ASCII bytes.
    /// @return payload The decoded payload.
    /// @return headerLength Length of the header part (the first dot's offset).
    /// @return signedLength Length of `header.payload`, the bytes the signature covers (the second dot's offset).
    function payloadOf(bytes calldata jws)
        internal
        pure
        returns (bytes memory payload, uint256 headerLength, uint256 signedLength)
    {
        (headerLength, signedLength) = _split(jws);
        payload = decode(jws, headerLength + 1, signedLength);
    }

    /// @notice Decodes and reads the protected header: `alg` `"ES256"` and `kid` required, `kid` equal to `kid`,
    ///         otherwise as `TrustJwsHeaderLib.readJwsHeader` accepts it.
    /// @dev Reverts with `JwsMalformed`, `JwsHeaderMalformed`, `JwsHeaderMemberRefused`, `JwsHeaderMemberDuplicate`,
    ///      `JwsHeaderMemberInvalid`, `JwsHeaderMemberMissing` or `JwsKidMismatch`.
    /// @param jws The compact serialization.
    /// @param headerLength Length of the header part (from `payloadOf`).
    /// @param kid The key id the attestation is submitted under.
    function requireHeader(bytes calldata jws, uint256 headerLength, string calldata kid) internal pure {
        if (_isSignerHeader(jws, headerLength, kid)) return;
        bytes memory header = decode(jws, 0, headerLength);
        _requireKid(TrustJwsHeaderLib.readJwsHeader(header), header, kid);
    }

    /// @notice `requireHeader`, with any header other than the one the service's signer writes checked in a contract
    ///         of its own (`reader`), so that the caller's runtime code does not hold the general reader.
    /// @param jws The compact serialization.
    /// @param headerLength Length of the header part (from `payloadOf`).
    /// @param kid The key id the attestation is submitted under.
    /// @param reader Where the general check runs.
    function requireHeader(bytes calldata jws, uint256 headerLength, string calldata kid, IJwsHeaderReader reader)
        internal
        pure
    {
        if (!_isSignerHeader(jws, headerLength, kid)) reader.requireHeader(jws[:headerLength], kid);
    }

    /// @notice The SHA-256 digest of `header.payload`, the bytes the signature covers, hashed from calldata.
    /// @param jws The compact serialization.
    /// @param signedLength Length of `header.payload` (from `payloadOf`).
    /// @return digest `sha256(jws[:signedLength])`.
    function signedDigest(bytes calldata jws, uint256 signedLength) internal view returns (bytes32 digest) {
        assembly ("memory-safe") {
            // The bytes copied past the free memory pointer (not kept) and hashed by the SHA-256 precompile (0x02).
            let ptr := mload(0x40)
            calldatacopy(ptr, jws.offset, signedLength)
            if iszero(staticcall(gas(), 0x02, ptr, signedLength, 0x00, 0x20)) { revert(0x00, 0x00) }
            digest := mload(0x00)
        }
    }

    /// @notice The decoded signature (64 bytes `r‖s`).
    /// @param jws The compact serialization.
    /// @param signedLength Length of `header.payload` (from `payloadOf`).
    /// @return The signature.
    function signatureOf(bytes calldata jws, uint256 signedLength) internal pure returns (bytes memory) {
        return decode(jws, signedLength + 1, jws.length);
    }

    /// @notice Decodes `data[from:to]` from canonical unpadded base64url.
    /// @dev Reverts with `JwsMalformed(offset)`, `offset` in `data`: the first byte outside the alphabet, or the
    ///      part's last character when the length is 1 modulo 4 or its unused bits are not zero.
    /// @param data The bytes holding the text.
    /// @param from Start of the text.
    /// @param to End of the text.
    /// @return out The decoded bytes (`(to - from) * 3 / 4`, rounded down).
    // solhint-disable-next-line function-max-lines
    function decode(bytes calldata data, uint256 from, uint256 to) internal pure returns (bytes memory out) {
        bytes4 malformed = ITrustAttestationErrors.JwsMalformed.selector;
        assembly ("memory-safe") {
            function fail(selector, offset) {
                mstore(0x00, selector)
                mstore(0x04, offset)
                revert(0x00, 0x24)
            }
            // The 32 characters of `w` decoded to 24 bytes (bits 62-253 of `v`); bit 7 of a byte of `bad` is set
            // for some byte outside the alphabet (which one is found again by the caller, a byte at a time; the other
            // bits of `bad` are left for the caller to mask off, once for the whole text).
            function word(w) -> v, bad {
                // Classes, on bit 7 of each byte, exact while every byte is below 0x80 (a byte >= 0x80 is flagged
                // through `or(w, ...)`): letters (`w | 0x20` in `a-z`) and digits are ranges, the xor of two bounds
                // (`b + (0x80 - lo)` has bit 7 set when `b >= lo`); `-` and `_` are equalities, whose bit 7 is
                // clear on the character itself. Exactly one of the four flags is "in the class" for an alphabet
                // byte, so the parity of the four (letters, digits, not `-`, not `_`) is 1 for it and 0 for any
                // other byte.
                let m80 := 0x8080808080808080808080808080808080808080808080808080808080808080
                let y := or(w, 0x2020202020202020202020202020202020202020202020202020202020202020)
                let letter := and(xor(add(y, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f),
                    add(y, 0x0505050505050505050505050505050505050505050505050505050505050505)), m80)
                let digit := xor(add(w, 0x5050505050505050505050505050505050505050505050505050505050505050),
                    add(w, 0x4646464646464646464646464646464646464646464646464646464646464646))
                let notDash := add(xor(w, 0x2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d),
                    0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f)
                let notUnderscore := add(xor(w, 0x5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f),
                    0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f)
                bad := or(w, not(xor(xor(letter, digit), xor(notDash, notUnderscore))))
                // Values: `A-Z` b - 65, `a-z` b - 71 (a letter with bit 5 set), `0-9` b + 4, `-` b + 17, `_` b - 32,
                // i.e. b + 4 digit + 32 notUnderscore - 15 - (17 notDash + 65 letter + 6 lowercase). The flags are
                // on bit 7 (0x80): shifted right by 5 and 2 they are 4 and 32; the others are taken down to 0 or 1
                // and multiplied (at most 88 a byte). Every intermediate byte stays in 0-255 for an alphabet byte, so
                // word arithmetic is exact; any other byte is refused through `bad`.
                letter := shr(7, letter)
                v := sub(add(add(w, shr(5, and(digit, m80))), shr(2, and(notUnderscore, m80))),
                    add(add(0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f, mul(shr(7, and(notDash, m80)), 17)),
                        add(mul(letter, 65), mul(and(letter, shr(5, w)), 6))))
                // Pack the 32 values into 192 bits, moving the lower half of each lane up against the upper one: pairs
                // of bytes into 12 bits (the lower byte moved up 2 bits), pairs of those into 24 (4 more bits), 48 (8),
                // 96 (16), 192 (32). `x + (x & low) * (2^k - 1)` moves the low half up by `k` bits; the halves never
                // overlap, so no carry crosses them. The result ends at bit 62 (2 + 4 + 8 + 16 + 32).
                v := add(v, mul(and(v, 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff), 3))
                v := add(v, mul(and(v, 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff), 15))
                v := add(v, mul(and(v, 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff), 0xff))
                v := add(v, mul(and(v, 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff), 0xffff))
                v := add(v, mul(and(v, 0x00000000000000000000000000000000ffffffffffffffffffffffffffffffff), 0xffffffff))
            }
            let n := sub(to, from)
            if eq(and(n, 3), 1) { fail(malformed, sub(to, 1)) }
            let length := shr(2, mul(n, 3))
            out := mload(0x40)
            mstore(out, length)
            // The text is copied where the result goes, followed by a word of "A" (zero bits), and decoded there in
            // place, 32 characters at a time (each word is read before the 24 bytes decoded from it, or from any
            // later word, are written over it); at least one word, so an empty text decodes to zeros. The flags of
            // bytes outside the alphabet are gathered and looked at once.
            let src := add(out, 0x20)
            let textEnd := add(src, n)
            calldatacopy(src, add(data.offset, from), n)
            mstore(textEnd, 0x4141414141414141414141414141414141414141414141414141414141414141)
            let dst := src
            let bad := 0
            for {} 1 {} {
                let v, b := word(mload(src))
                bad := or(bad, b)
                mstore(dst, shl(2, v))
                dst := add(dst, 24)
                src := add(src, 32)
                if iszero(lt(src, textEnd)) { break }
            }
            if and(bad, 0x8080808080808080808080808080808080808080808080808080808080808080) {
                // The first byte outside the alphabet, a byte at a time.
                for { let i := from } lt(i, to) { i := add(i, 1) } {
                    let c := byte(0, calldataload(add(data.offset, i)))
                    let lower := or(c, 0x20)
                    if iszero(or(or(and(gt(lower, 0x60), lt(lower, 0x7b)), and(gt(c, 0x2f), lt(c, 0x3a))),
                        or(eq(c, 0x2d), eq(c, 0x5f)))) { fail(malformed, i) }
                }
            }
            // The bits of the last character past the last whole byte decode into the byte after the result.
            let end := add(add(out, 0x20), length)
            if byte(0, mload(end)) { fail(malformed, sub(to, 1)) }
            mstore(end, 0)
            mstore(0x40, and(add(end, 0x3f), not(31)))
        }
    }

    /// @dev Whether the header part is the one jose writes for the service, `{"alg":"ES256","kid":"<kid>"}` byte for
    ///      byte, with a key id of plain printable ASCII (no `"`, `\`, control byte or UTF-8): exactly the headers the
    ///      general reader accepts with that key id in that layout, so that they need not be read. Compared as base64url
    ///      text, without decoding: the constant start (21 bytes, a multiple of 3, so the rest is encoded on its own),
    ///      then the rest, `"<kid>"}` (`_isEncodedKid`). A text that differs (another header, or the same one spelt
    ///      otherwise) is left to the general check, which says what is wrong.
    function _isSignerHeader(bytes calldata jws, uint256 headerLength, string calldata kid) private pure returns (bool) {
        bool shaped;
        assembly ("memory-safe") {
            // `"<kid>"}` is kid.length + 3 bytes, ceil(4 n / 3) characters after the constant start; the start itself is
            // compared as text, its 28 characters in the top of a word.
            shaped := and(
                eq(headerLength, add(_JOSE_HEADER_START_CHARS, div(add(mul(add(kid.length, 3), 4), 2), 3))),
                eq(shr(32, calldataload(jws.offset)), _JOSE_HEADER_START_WORD)
            )
        }
        return shaped && _isPlainAscii(bytes(kid)) && _isEncodedKid(jws[_JOSE_HEADER_START_CHARS:headerLength], kid);
    }

    /// @dev Whether `text` is the unpadded base64url of `"<kid>"}`: the bytes encoded here 24 at a time (32 values of
    ///      6 bits, one a byte, then mapped to their characters) and compared with the text 32 characters at a time.
    function _isEncodedKid(bytes calldata text, string calldata kid) private pure returns (bool same) {
        assembly ("memory-safe") {
            // The 32 characters of the 24 bytes in the low 192 bits of `v`. The upper half of each lane is moved down,
            // 96, 48, 24, 12 then 6 bits at a time (`x + (x & high) * (2^k - 1)` moves the high part up by k bits);
            // then `A-Z` is 65 + c, `a-z` 71 + c (c >= 26), `0-9` c - 4 (c >= 52), `-` c - 17 (62), `_` c + 32 (63),
            // each threshold's flag bit 7 of c + (128 - threshold), exact (c < 64, no carry leaves a byte).
            function chars(v) -> c {
                v := add(v, mul(and(v, 0xffffffffffffffffffffffff000000000000000000000000), 0xffffffff))
                v := add(v, mul(and(v, 0xffffffffffff00000000000000000000ffffffffffff000000000000), 0xffff))
                v := add(v, mul(and(v, 0xffffff0000000000ffffff0000000000ffffff0000000000ffffff000000), 0xff))
                v := add(v, mul(and(v, 0xfff00000fff00000fff00000fff00000fff00000fff00000fff00000fff000), 0x0f))
                v := add(v, mul(and(v, 0x0fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc0), 0x03))
                let m80 := 0x8080808080808080808080808080808080808080808080808080808080808080
                c := sub(
                    add(add(v, 0x4141414141414141414141414141414141414141414141414141414141414141),
                        add(mul(shr(7, and(add(v, 0x6666666666666666666666666666666666666666666666666666666666666666), m80)), 6),
                            mul(shr(7, and(add(v, 0x4141414141414141414141414141414141414141414141414141414141414141), m80)), 49))),
                    add(mul(shr(7, and(add(v, 0x4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c), m80)), 75),
                        mul(shr(7, and(add(v, 0x4242424242424242424242424242424242424242424242424242424242424242), m80)), 13)))
            }
            // `"<kid>"}` in scratch memory past the free memory pointer (not kept).
            let restBytes := add(kid.length, 3)
            let rest := mload(0x40)
            mstore8(rest, 0x22)
            calldatacopy(add(rest, 1), kid.offset, kid.length)
            mstore(add(add(rest, 1), kid.length), shl(240, 0x227d))
            mstore(add(rest, restBytes), 0)
            same := 1
            let at := text.offset
            let left := text.length
            for { let i := 0 } lt(i, restBytes) {
                i := add(i, 24)
                at := add(at, 32)
                left := sub(left, 32)
            } {
                // The text's next 32 characters (fewer at its end).
                let keep := not(0)
                if lt(left, 32) { keep := not(shr(shl(3, left), not(0))) }
                if iszero(eq(and(chars(shr(64, mload(add(rest, i)))), keep), and(calldataload(at), keep))) {
                    same := 0
                    break
                }
            }
        }
    }

    /// @dev Refuses a header without `alg` or `kid`, or whose `kid` is not `kid`.
    function _requireKid(TrustJwsHeaderLib.JwsHeader memory found, bytes memory header, string calldata kid) private pure {
        if (!found.hasAlg) revert ITrustAttestationErrors.JwsHeaderMemberMissing("alg");
        if (!found.hasKid) revert ITrustAttestationErrors.JwsHeaderMemberMissing("kid");
        bytes32 headerKidHash;
        uint256 kidOffset = found.kidOffset;
        uint256 kidLength = found.kidLength;
        assembly ("memory-safe") {
            headerKidHash := keccak256(add(add(header, 0x20), kidOffset), kidLength)
        }
        if (headerKidHash != keccak256(bytes(kid))) {
            bytes memory headerKid = new bytes(kidLength);
            assembly ("memory-safe") {
                mcopy(add(headerKid, 0x20), add(add(header, 0x20), kidOffset), kidLength)
            }
            revert ITrustAttestationErrors.JwsKidMismatch(kid, string(headerKid));
        }
    }

    /// @dev Whether no byte is `"`, `\\`, a control byte (< 0x20) or >= 0x80: a word at a time (bit 7 of each byte
    ///      of `m` is set for a byte outside those; exact, no carry crosses a byte).
    function _isPlainAscii(bytes calldata text) private pure returns (bool plain) {
        assembly ("memory-safe") {
            plain := 1
            let m7f := 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f
            for { let i := 0 } lt(i, text.length) { i := add(i, 32) } {
                let w := calldataload(add(text.offset, i))
                let rest := sub(text.length, i)
                if lt(rest, 32) {
                    let keep := not(shr(shl(3, rest), not(0)))
                    w := or(and(w, keep), and(not(keep), 0x4141414141414141414141414141414141414141414141414141414141414141))
                }
                let a := xor(w, 0x2222222222222222222222222222222222222222222222222222222222222222)
                let b := xor(w, 0x5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c)
                let m := and(
                    and(or(add(and(a, m7f), m7f), a), or(add(and(b, m7f), m7f), b)),
                    and(add(and(w, m7f), 0x6060606060606060606060606060606060606060606060606060606060606060), not(w))
                )
                if iszero(eq(and(m, 0x8080808080808080808080808080808080808080808080808080808080808080),
                    0x8080808080808080808080808080808080808080808080808080808080808080)) {
                    plain := 0
                    break
                }
            }
        }
    }

    /// @dev The offsets of the two dots. The second must leave 86 characters for the signature; otherwise the
    ///      error says what is wrong.
    function _split(bytes calldata jws) private pure returns (uint256 firstDot, uint256 secondDot) {
        uint256 length = jws.length;
        firstDot = _dotAfter(jws, 0);
        if (length >= _SIGNATURE_CHARS + 1) secondDot = length - _SIGNATURE_CHARS - 1;
        if (firstDot >= length || secondDot <= firstDot || jws[secondDot] != ".") {
            // Not the shape of an ES256 JWS: say which part is wrong.
            if (firstDot >= length) revert ITrustAttestationErrors.JwsMalformed(length);
            secondDot = _dotAfter(jws, firstDot + 1);
            if (secondDot >= length) revert ITrustAttestationErrors.JwsMalformed(length);
            uint256 chars = length - secondDot - 1;
            if (chars % 4 == 1) revert ITrustAttestationErrors.JwsMalformed(length - 1);
            revert ITrustAttestationErrors.AttestationSignatureLength(chars * 3 / 4);
        }
    }

    /// @dev The offset of the first `.` at or after `from` (the length when there is none).
    function _dotAfter(bytes calldata jws, uint256 from) private pure returns (uint256 at) {
        uint256 length = jws.length;
        assembly ("memory-safe") {
            at := length
            for { let i := from } lt(i, length) { i := add(i, 32) } {
                let x := xor(calldataload(add(jws.offset, i)), 0x2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e)
                let m7f := 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f
                let zero := and(not(or(or(add(and(x, m7f), m7f), x), m7f)), not(m7f))
                if zero {
                    // Bytes before the first flagged one: spread the flags to every later byte, count them.
                    zero := or(zero, shr(8, zero))
                    zero := or(zero, shr(16, zero))
                    zero := or(zero, shr(32, zero))
                    zero := or(zero, shr(64, zero))
                    zero := or(zero, shr(128, zero))
                    let j := add(i, sub(32, byte(0, mul(shr(7, zero), 0x0101010101010101010101010101010101010101010101010101010101010101))))
                    if lt(j, length) { at := j }
                    break
                }
            }
        }
    }
}
