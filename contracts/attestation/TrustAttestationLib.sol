// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";

/// @title TrustAttestationLib
/// @notice Reads and verifies the service's `/api/trust-check` attestation (v2, kid `rnwy-trust-v2`) on-chain: the
///         signed JSON block as the issuer wrote it (a JWS payload, or the bytes a raw `sig` covers), the JSON
///         protected header of a JWS, and the 64-byte `r‖s` ES256 signature (ECDSA P-256 over SHA-256).
/// @dev Reading is one pass over the bytes, in assembly, that validates the whole document as JSON (RFC 8259) while it
///      reads, so that it accepts exactly what the kit's TypeScript verifier accepts and reads the same values:
///      - UTF-8 is valid in every string (no overlong form, no surrogate, nothing above U+10FFFF); a word of 32 bytes
///        below 0x80 needs no further check, so ASCII costs nothing extra;
///      - one object, with whitespace (space, tab, LF, CR) allowed between tokens and around it, nothing after it;
///      - every value is valid JSON, skipped ones too: strings with only the RFC 8259 escapes and no raw control
///        byte, numbers in the RFC 8259 grammar, `true` `false` `null`, arrays and objects well formed and nested at
///        most 248 levels below the top-level object;
///      - a top-level member name holding a backslash is refused (`\u0073core` would be `score` to `JSON.parse` and
///        an unknown name to a byte reader); names are matched exactly (a perfect hash over the known names, then
///        one word comparison), in any member order;
///      - each known member appears at most once (`badges` and `sybilSignals` included: `JSON.parse` keeps the last
///        of two, a reader that stops at the first keeps another);
///      - the fields are read in the form the service writes them: `agentId` a decimal string (no sign, no leading
///        zero, at most 2^256 - 1) or a number of plain digits at most 2^53 - 1 (above it `JSON.parse` rounds),
///        `chain` a string of 1 to 32 bytes without escapes (the oracle looks it up in its table of `a-z 0-9 _ -`
///        slugs), `registry` a non-empty string without escapes, `owner` `"0x"` + 40 hex digits or `null`, `score`
///        plain digits 0-`TrustConstants.MAX_SCORE`, `tier` and `sybilSeverity` one of the names below, `issuedAt` /
///        `verifiedAt` / `expiry` ISO 8601 `YYYY-MM-DDTHH:MM:SS(.fff)?Z` (UTC, after 1970-01-01T00:00:00Z, year at
///        most 9999; the milliseconds are dropped).
///      A document that is not valid JSON reverts at once (`AttestationJsonMalformed`, `AttestationJsonTooDeep`); a
///      field error (`AttestationFieldInvalid`, `AttestationFieldDuplicate`) is reported after the whole document
///      has been checked, the first one in document order, so that a document both malformed and wrong in a field
///      is refused as malformed, as `JSON.parse` would; `AttestationFieldMissing` comes last.
///
///      Codes (`TrustConstants`): tier `flagged` 0, `limited` 1, `developing` 2, `established` 3; sybil severity
///      `null` or `none` 0, `low` 1, `moderate` 2, `elevated` 3, `heavy` 4.
///
///      Signature (`verifyDigest`): `r` and `s` must be in [1, n-1] and the key on the curve; a high-S signature
///      (`s > n/2`, which the service does not avoid) is normalised to `n - s` before OpenZeppelin's `P256.verify`
///      (the RIP-7212 / EIP-7951 precompile at `0x100` where present, its Solidity implementation elsewhere).
library TrustAttestationLib {
    /// @notice The fields read from a signed block.
    /// @param agentId The agent's id in its registry.
    /// @param chain The chain slug (`base`, `ethereum`, ...), left-aligned in the word, zero-padded.
    /// @param registry The registry name (`erc8004`, `olas`, `virtuals`).
    /// @param owner The agent's owner (zero when the block says `null`).
    /// @param score The trust score.
    /// @param tier The tier code.
    /// @param sybilSeverity The sybil severity code.
    /// @param issuedAt When the score was computed (Unix seconds).
    /// @param verifiedAt When the attestation was signed (Unix seconds).
    /// @param expiry When the attestation expires (Unix seconds).
    struct TrustAttestation {
        uint256 agentId;
        bytes32 chain;
        string registry;
        address owner;
        uint8 score;
        uint8 tier;
        uint8 sybilSeverity;
        uint40 issuedAt;
        uint40 verifiedAt;
        uint40 expiry;
    }

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

    /// @dev Order of the P-256 group and half of it.
    uint256 private constant _N = P256.N;
    uint256 private constant _HALF_N = 0x7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8;

    /// @notice Reads the fields of a v2 signed block (see the library notes for what it accepts).
    /// @dev Reverts with `AttestationJsonMalformed`, `AttestationJsonTooDeep`, `AttestationFieldInvalid`,
    ///      `AttestationFieldDuplicate` or `AttestationFieldMissing`.
    /// @param json The exact signed bytes.
    /// @return att The fields.
    function parse(bytes memory json) internal pure returns (TrustAttestation memory att) {
        (att,) = _read(json, false);
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
        (, found) = _read(header, true);
    }

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
        if (signature.length != 64) revert ITrustAttestationErrors.AttestationSignatureLength(signature.length);
        bytes32 r;
        bytes32 s;
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
        }
        if (uint256(r) == 0 || uint256(r) >= _N || uint256(s) == 0 || uint256(s) >= _N) {
            revert ITrustAttestationErrors.AttestationSignatureOutOfRange(r, s);
        }
        if (uint256(s) > _HALF_N) s = bytes32(_N - uint256(s));
        return P256.verify(digest, r, s, x, y);
    }

    /// @notice The word `parse` returns as `chain` for a slug, or zero when the slug is not 1-32 bytes of
    ///         `a-z 0-9 _ -`.
    /// @param slug The chain slug.
    /// @return word The slug left-aligned in a word.
    function chainSlugWord(string memory slug) internal pure returns (bytes32 word) {
        bytes memory b = bytes(slug);
        uint256 length = b.length;
        if (length == 0 || length > 32) return 0;
        for (uint256 i; i < length; ++i) {
            bytes1 c = b[i];
            if (!((c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "_" || c == "-")) return 0;
        }
        assembly ("memory-safe") {
            word := mload(add(b, 0x20))
            if lt(length, 32) { word := and(word, not(shr(shl(3, length), not(0)))) }
        }
    }

    /// @notice The slug in a word returned by `parse` (as `chain`), as a string.
    /// @param word The slug, left-aligned, zero-padded.
    /// @return slug The slug.
    function chainSlugString(bytes32 word) internal pure returns (string memory slug) {
        uint256 length;
        while (length < 32 && word[length] != 0) ++length;
        slug = new string(length);
        assembly ("memory-safe") {
            mstore(add(slug, 0x20), word)
        }
    }

    /// @dev The one-pass reader of both documents: the signed block (`header == false`, into `att`) and a JWS
    ///      protected header (`header == true`, into `found`). While it runs, scratch word 0x00 holds the document's
    ///      start (for error offsets) and 0x20 the selectors of its malformed and too-deep errors; the word after
    ///      the document is zeroed (a zero byte is never valid JSON, so it ends every scan without bounds checks)
    ///      and restored at the end.
    // solhint-disable-next-line code-complexity, function-max-lines
    function _read(bytes memory doc, bool header)
        private
        pure
        returns (TrustAttestation memory att, JwsHeader memory found)
    {
        assembly ("memory-safe") {
            // ---- errors ----
            // AttestationJsonMalformed(uint256) 0xf424751b; AttestationJsonTooDeep(uint256) 0x693262e6;
            // AttestationFieldInvalid(uint8,uint256) 0xa11accad; AttestationFieldDuplicate(uint8,uint256) 0x2ec92177;
            // AttestationFieldMissing(uint8) 0xbd88a3b6; JwsHeaderMalformed(uint256) 0x4d3515b2;
            // JwsHeaderMemberRefused(string,uint256) 0x04b9bea8; JwsHeaderMemberDuplicate(string,uint256) 0xafb403be;
            // JwsHeaderMemberInvalid(string,uint256) 0xab4bb61a.
            function revertWith(selector, a, b, words) {
                mstore(0x00, shl(224, selector))
                mstore(0x04, a)
                mstore(0x24, b)
                revert(0x00, add(4, shl(5, words)))
            }
            // The document is not valid JSON at `p`.
            function malformed(p) {
                revertWith(shr(32, mload(0x20)), sub(p, mload(0x00)), 0, 1)
            }
            // Nesting too deep at `p`.
            function tooDeep(p) {
                revertWith(and(mload(0x20), 0xffffffff), sub(p, mload(0x00)), 0, 1)
            }
            // `selector(string member, uint256 offset)` with the member's name copied from memory.
            function failMember(selector, name, nameLength, p) {
                let ptr := mload(0x40)
                let at := sub(p, mload(0x00))
                mstore(ptr, shl(224, selector))
                mstore(add(ptr, 0x04), 0x40)
                mstore(add(ptr, 0x24), at)
                mstore(add(ptr, 0x44), nameLength)
                mcopy(add(ptr, 0x64), name, nameLength)
                mstore(add(add(ptr, 0x64), nameLength), 0)
                revert(ptr, add(0x64, and(add(nameLength, 31), not(31))))
            }
            // Records the first field error of the signed block (kept in the context, reported after the scan):
            // kind (1 invalid, 2 duplicate) << 248 | field << 240 | offset.
            function fieldError(ctx, kind, id, p) {
                if iszero(mload(add(ctx, 0x1a0))) {
                    mstore(add(ctx, 0x1a0), or(or(shl(248, kind), shl(240, id)), sub(p, mload(0x00))))
                }
            }

            // ---- strings, word at a time ----
            // The first byte at or after `p` that stops a run of plain string bytes: `"`, `\`, a control byte
            // (< 0x20, the zero after the document included) or a byte >= 0x80 (UTF-8 to check). Per word, bit 7 of
            // each byte is set when it is none of these (`(b & 0x7f) + 0x7f` has bit 7 set unless `b & 0x7f` is
            // zero: exact, no carry crosses a byte), then the first clear byte is found by spreading the stop bits
            // to every later byte and counting them with one multiplication.
            function firstStop(p) -> q {
                let m7f := 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f
                for {} 1 {} {
                    let w := mload(p)
                    let a := xor(w, 0x2222222222222222222222222222222222222222222222222222222222222222)
                    let b := xor(w, 0x5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c)
                    let m := and(
                        and(or(add(and(a, m7f), m7f), a), or(add(and(b, m7f), m7f), b)),
                        and(add(and(w, m7f), 0x6060606060606060606060606060606060606060606060606060606060606060), not(w))
                    )
                    m := and(not(m), 0x8080808080808080808080808080808080808080808080808080808080808080)
                    if m {
                        m := or(m, shr(8, m))
                        m := or(m, shr(16, m))
                        m := or(m, shr(32, m))
                        m := or(m, shr(64, m))
                        m := or(m, shr(128, m))
                        q := sub(add(p, 32), byte(0, mul(shr(7, m), 0x0101010101010101010101010101010101010101010101010101010101010101)))
                        leave
                    }
                    p := add(p, 0x20)
                }
            }
            // 32 ASCII hex digits (either case) as 16 bytes in the low half of `v`; `ok` is 0 when a byte is not a
            // hex digit. Digits are classified on the byte itself, letters on the byte with 0x20 set (so that only
            // `A-F` and `a-f` qualify).
            function hexWord(x) -> v, ok {
                let m80 := 0x8080808080808080808080808080808080808080808080808080808080808080
                let lower := or(x, 0x2020202020202020202020202020202020202020202020202020202020202020)
                let digit := and(and(add(x, 0x5050505050505050505050505050505050505050505050505050505050505050),
                    not(add(x, 0x4646464646464646464646464646464646464646464646464646464646464646))), m80)
                let letter := and(and(add(lower, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f),
                    not(add(lower, 0x1919191919191919191919191919191919191919191919191919191919191919))), m80)
                ok := and(iszero(and(x, m80)), eq(or(digit, letter), m80))
                v := add(and(x, 0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f), mul(shr(7, letter), 9))
                v := and(or(shr(4, v), v), 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff)
                v := and(or(shr(8, v), v), 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff)
                v := and(or(shr(16, v), v), 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff)
                v := and(or(shr(32, v), v), 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff)
                v := and(or(shr(64, v), v), 0xffffffffffffffffffffffffffffffff)
            }
            // After the lead byte at `p` (>= 0x80, first byte of `w`): the position after a valid UTF-8 sequence.
            function utf8(p, w) -> q {
                let b0 := byte(0, w)
                let b1 := byte(1, w)
                let n := 0
                let lo := 0x80
                let hi := 0xbf
                if and(gt(b0, 0xc1), lt(b0, 0xe0)) { n := 2 }
                if and(gt(b0, 0xdf), lt(b0, 0xf0)) {
                    n := 3
                    if eq(b0, 0xe0) { lo := 0xa0 } // no overlong form
                    if eq(b0, 0xed) { hi := 0x9f } // no surrogate (U+D800-DFFF)
                }
                if and(gt(b0, 0xef), lt(b0, 0xf5)) {
                    n := 4
                    if eq(b0, 0xf0) { lo := 0x90 } // no overlong form
                    if eq(b0, 0xf4) { hi := 0x8f } // nothing above U+10FFFF
                }
                if iszero(n) { malformed(p) }
                if or(lt(b1, lo), gt(b1, hi)) { malformed(add(p, 1)) }
                for { let i := 2 } lt(i, n) { i := add(i, 1) } {
                    if iszero(eq(and(byte(i, w), 0xc0), 0x80)) { malformed(add(p, i)) }
                }
                q := add(p, n)
            }
            // The closing quote of a string, from a stop byte at `p` inside it; `escaped` is 1 when an escape was
            // met. Refuses a raw control byte, an escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`, and invalid
            // UTF-8.
            function stringEnd(p) -> q, escaped {
                for {} 1 {} {
                    let w := mload(p)
                    let c := byte(0, w)
                    if eq(c, 0x22) {
                        q := p
                        leave
                    }
                    switch c
                    case 0x5c {
                        escaped := 1
                        let e := byte(1, w)
                        switch e
                        case 0x75 {
                            // \uXXXX: four hex digits (padded with "0"s to a word for hexWord).
                            let v, ok := hexWord(or(and(shl(16, w), shl(224, 0xffffffff)),
                                0x30303030303030303030303030303030303030303030303030303030))
                            if iszero(ok) { malformed(p) }
                            p := add(p, 6)
                        }
                        default {
                            // `"` `/` `\` `b` `f` `n` `r` `t`.
                            if iszero(and(shr(e, 0x144044100000000000800400000000), 1)) { malformed(p) }
                            p := add(p, 2)
                        }
                    }
                    default {
                        if lt(c, 0x80) { malformed(p) } // a control byte, or the end
                        p := utf8(p, w)
                    }
                    p := firstStop(p)
                }
            }
            // A string at `p` (its opening quote), validated: contents start, length, position after, and whether
            // it holds an escape. `q` is 0 when the value at `p` is not a string.
            function stringAt(p) -> s, len, q, escaped {
                if eq(byte(0, mload(p)), 0x22) {
                    s := add(p, 1)
                    let e := firstStop(s)
                    if iszero(eq(byte(0, mload(e)), 0x22)) { e, escaped := stringEnd(e) }
                    len := sub(e, s)
                    q := add(e, 1)
                }
            }

            // ---- other JSON tokens ----
            // The first byte at or after `p` that is not JSON whitespace (space, tab, LF, CR).
            function ws(p) -> q {
                q := p
                for {} and(shr(byte(0, mload(q)), 0x100002600), 1) {} { q := add(q, 1) }
            }
            // Position after the digits at `p`.
            function digitsEnd(p) -> q {
                q := p
                for {} lt(sub(byte(0, mload(q)), 0x30), 10) {} { q := add(q, 1) }
            }
            // A JSON number at `p`: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; the position after it.
            function numberEnd(p) -> q {
                q := p
                if eq(byte(0, mload(q)), 0x2d) { q := add(q, 1) }
                let c := byte(0, mload(q))
                switch c
                case 0x30 { q := add(q, 1) }
                default {
                    if gt(sub(c, 0x31), 8) { malformed(q) }
                    q := digitsEnd(add(q, 1))
                }
                if eq(byte(0, mload(q)), 0x2e) {
                    let r := digitsEnd(add(q, 1))
                    if eq(r, add(q, 1)) { malformed(r) }
                    q := r
                }
                if eq(or(byte(0, mload(q)), 0x20), 0x65) {
                    q := add(q, 1)
                    c := byte(0, mload(q))
                    if or(eq(c, 0x2b), eq(c, 0x2d)) { q := add(q, 1) }
                    let r := digitsEnd(q)
                    if eq(r, q) { malformed(r) }
                    q := r
                }
            }
            // A member name (a string), whitespace, `:` and whitespace, at `p`; the position of the value.
            function memberName(p) -> q {
                let s, len, e, escaped := stringAt(p)
                if iszero(e) { malformed(p) }
                q := ws(e)
                if iszero(eq(byte(0, mload(q)), 0x3a)) { malformed(q) }
                q := ws(add(q, 1))
            }
            // Validates and skips one JSON value at `p`; the position after it. Arrays and objects are walked
            // iteratively with a bit stack of the open brackets (1 `{`, 0 `[`) above a sentinel 1.
            function skipValue(p) -> q {
                let stack := 1
                q := p
                for {} 1 {} {
                    let c := byte(0, mload(q))
                    let opened := 0
                    switch c
                    case 0x22 {
                        let s, len, e, escaped := stringAt(q)
                        q := e
                    }
                    case 0x7b {
                        if shr(248, stack) { tooDeep(q) }
                        stack := or(shl(1, stack), 1)
                        q := ws(add(q, 1))
                        switch byte(0, mload(q))
                        case 0x7d {
                            q := add(q, 1)
                            stack := shr(1, stack)
                        }
                        default {
                            q := memberName(q)
                            opened := 1
                        }
                    }
                    case 0x5b {
                        if shr(248, stack) { tooDeep(q) }
                        stack := shl(1, stack)
                        q := ws(add(q, 1))
                        switch byte(0, mload(q))
                        case 0x5d {
                            q := add(q, 1)
                            stack := shr(1, stack)
                        }
                        default { opened := 1 }
                    }
                    case 0x74 {
                        if iszero(eq(shr(224, mload(q)), 0x74727565)) { malformed(q) } // true
                        q := add(q, 4)
                    }
                    case 0x66 {
                        if iszero(eq(shr(216, mload(q)), 0x66616c7365)) { malformed(q) } // false
                        q := add(q, 5)
                    }
                    case 0x6e {
                        if iszero(eq(shr(224, mload(q)), 0x6e756c6c)) { malformed(q) } // null
                        q := add(q, 4)
                    }
                    default { q := numberEnd(q) }
                    if iszero(opened) {
                        // After a value: close brackets until a comma leads to the next value.
                        for {} 1 {} {
                            if eq(stack, 1) { leave }
                            q := ws(q)
                            let d := byte(0, mload(q))
                            if eq(d, 0x2c) {
                                q := ws(add(q, 1))
                                if and(stack, 1) { q := memberName(q) }
                                break
                            }
                            // `]`, or `}` in an object.
                            if iszero(eq(d, add(0x5d, shl(5, and(stack, 1))))) { malformed(q) }
                            q := add(q, 1)
                            stack := shr(1, stack)
                        }
                    }
                }
            }
            // The name of a member at `p` (its opening quote), looked up among the known names: its id (12 when it
            // is not one), its length, and the position after its closing quote. Refuses an escaped name. Perfect
            // hash: `byte(mul(name, magic) >> 251, table)` is 1 + the index of the only known name the name (right-
            // aligned) can be, or 0; one word comparison with the name at `ctx + 32 (index + 1)` settles it.
            function knownName(p, ctx, magic, table) -> id, nameLength, q {
                if iszero(eq(byte(0, mload(p)), 0x22)) { malformed(p) }
                id := 12
                q := firstStop(add(p, 1))
                switch byte(0, mload(q))
                case 0x22 {
                    nameLength := sub(q, add(p, 1))
                    if lt(nameLength, 33) {
                        let v := shr(sub(256, shl(3, nameLength)), mload(add(p, 1)))
                        let candidate := byte(shr(251, mul(v, magic)), table)
                        if candidate {
                            if eq(mload(add(ctx, shl(5, candidate))), v) { id := sub(candidate, 1) }
                        }
                    }
                }
                default {
                    let escaped := 0
                    q, escaped := stringEnd(q)
                    if escaped { malformed(p) }
                    nameLength := sub(q, add(p, 1))
                }
                q := add(q, 1)
                if iszero(eq(byte(0, mload(q)), 0x3a)) {
                    q := ws(q)
                    if iszero(eq(byte(0, mload(q)), 0x3a)) { malformed(q) }
                }
                q := add(q, 1)
                if lt(byte(0, mload(q)), 0x21) { q := ws(q) }
            }

            // ---- the signed block's fields ----
            // The decimal value of the digits in [s, e): `ok` is 0 for none, a leading zero or more than 2^256 - 1.
            function decimal(s, e) -> v, ok {
                let n := sub(e, s)
                ok := and(gt(n, 0), or(eq(n, 1), iszero(eq(byte(0, mload(s)), 0x30))))
                switch lt(n, 78)
                case 1 {
                    // At most 77 digits: below 10^77 < 2^256, no overflow check needed.
                    for {} lt(s, e) { s := add(s, 1) } { v := add(mul(v, 10), sub(byte(0, mload(s)), 0x30)) }
                }
                default {
                    for {} lt(s, e) { s := add(s, 1) } {
                        let d := sub(byte(0, mload(s)), 0x30)
                        if gt(v, div(sub(not(0), d), 10)) {
                            ok := 0
                            leave
                        }
                        v := add(mul(v, 10), d)
                    }
                }
            }
            // A number of plain digits at `p` (no sign, fraction or exponent): value, position after (0 when the
            // value is another JSON value, or a number in another form).
            function plainNumber(p) -> v, q {
                let c := byte(0, mload(p))
                if or(lt(sub(c, 0x30), 10), eq(c, 0x2d)) {
                    let e := numberEnd(p)
                    if eq(digitsEnd(p), e) {
                        let ok := 0
                        v, ok := decimal(p, e)
                        if ok { q := e }
                    }
                }
            }
            // ISO 8601 `YYYY-MM-DDTHH:MM:SS(.fff)?Z` in the `len` bytes at `s`: Unix seconds (0 when not such a date).
            function isoTime(s, len) -> t {
                let w := mload(s)
                // Digits at bytes 0-3, 5-6, 8-9, 11-12, 14-15, 17-18; `-` `-` `T` `:` `:` at 4, 7, 10, 13, 16;
                // `Z` at 19, or `.` digits `Z` at 19-23.
                let dm := 0xffffffff00ffff00ffff00ffff00ffff00ffff00000000000000000000000000
                let ok := eq(and(w, 0x00000000ff0000ff0000ff0000ff0000ff000000000000000000000000000000),
                    0x000000002d00002d00005400003a00003a000000000000000000000000000000)
                switch len
                case 20 { ok := and(ok, eq(byte(19, w), 0x5a)) }
                case 24 {
                    ok := and(ok, eq(and(w, 0x00000000000000000000000000000000000000ff000000ff0000000000000000),
                        0x000000000000000000000000000000000000002e0000005a0000000000000000))
                    dm := or(dm, 0x0000000000000000000000000000000000000000ffffff000000000000000000)
                }
                default { ok := 0 }
                // Each digit byte is 0x30-0x39: high nibble 0 after the xor, low nibble at most 9.
                let tt := xor(and(w, dm), and(dm, 0x3030303030303030303030303030303030303030303030303030303030303030))
                ok := and(ok, iszero(and(or(tt, add(tt, 0x0606060606060606060606060606060606060606060606060606060606060606)),
                    and(dm, 0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0))))
                // Byte k of `pairs` is 10 d_k + d_(k+1): the two-digit numbers, all at once.
                let pairs := add(mul(tt, 10), shl(8, tt))
                let year := add(mul(byte(0, pairs), 100), byte(2, pairs))
                let month := byte(5, pairs)
                let day := byte(8, pairs)
                // Days in the month (February 29 in leap years).
                let dim := byte(month, 0x001f1c1f1e1f1e1f1f1e1f1e1f00000000000000000000000000000000000000)
                if eq(month, 2) {
                    if and(iszero(and(year, 3)), or(gt(mod(year, 100), 0), iszero(mod(year, 400)))) { dim := 29 }
                }
                if or(or(lt(year, 1970), or(iszero(month), gt(month, 12))), or(iszero(day), gt(day, dim))) { ok := 0 }
                if or(gt(byte(11, pairs), 23), or(gt(byte(14, pairs), 59), gt(byte(17, pairs), 59))) { ok := 0 }
                if ok {
                    // Days from 1970-01-01 (H. Hinnant's days_from_civil, years from 1969 on). 0 is "no date" for
                    // the oracle: 1970-01-01T00:00:00Z itself is refused.
                    let y := sub(year, lt(month, 3))
                    let era := div(y, 400)
                    let yoe := sub(y, mul(era, 400))
                    let doy := add(div(add(mul(153, mod(add(month, 9), 12)), 2), 5), sub(day, 1))
                    let doe := add(sub(add(mul(yoe, 365), shr(2, yoe)), div(yoe, 100)), doy)
                    t := add(
                        mul(sub(add(mul(era, 146097), doe), 719468), 86400),
                        add(mul(byte(11, pairs), 3600), add(mul(byte(14, pairs), 60), byte(17, pairs)))
                    )
                }
            }
            // Reads the value of field `id` at `p` into `out`; the position after it, or 0 when the value is valid
            // JSON (or not yet known to be invalid) but not in the field's form.
            function readField(id, p, out) -> q {
                switch id
                case 0 {
                    // agentId: "123" (at most 2^256 - 1) or 123 (at most 2^53 - 1, what JSON.parse keeps exactly).
                    let v := 0
                    let ok := 0
                    switch byte(0, mload(p))
                    case 0x22 {
                        let s, len, next, escaped := stringAt(p)
                        if or(escaped, iszero(eq(digitsEnd(s), sub(next, 1)))) { leave }
                        v, ok := decimal(s, sub(next, 1))
                        if iszero(ok) { leave }
                        q := next
                    }
                    default {
                        let next := 0
                        v, next := plainNumber(p)
                        if or(iszero(next), gt(v, 0x1fffffffffffff)) { leave }
                        q := next
                    }
                    mstore(out, v)
                    leave
                }
                case 3 {
                    // owner: "0x" + 40 hex digits, or null.
                    if eq(shr(224, mload(p)), 0x6e756c6c) {
                        q := add(p, 4)
                        leave
                    }
                }
                case 4 {
                    // score: plain digits, 0-MAX_SCORE (TrustConstants.MAX_SCORE = 100).
                    let v, next := plainNumber(p)
                    if or(iszero(next), gt(v, 100)) { leave }
                    mstore(add(out, 0x80), v)
                    q := next
                    leave
                }
                case 6 {
                    // sybilSeverity: null or a name.
                    if eq(shr(224, mload(p)), 0x6e756c6c) {
                        q := add(p, 4)
                        leave
                    }
                }
                // The other forms are strings without escapes.
                let s, len, next, escaped := stringAt(p)
                if or(iszero(next), escaped) { leave }
                switch id
                case 1 {
                    // chain: 1-32 bytes, left-aligned (the oracle's table holds only valid slugs).
                    if or(iszero(len), gt(len, 32)) { leave }
                    mstore(add(out, 0x20), and(mload(s), not(shr(shl(3, len), not(0)))))
                }
                case 2 {
                    // registry: non-empty, copied.
                    if iszero(len) { leave }
                    let str := mload(0x40)
                    mstore(str, len)
                    mcopy(add(str, 0x20), s, len)
                    mstore(0x40, add(add(str, 0x20), and(add(len, 31), not(31))))
                    mstore(add(out, 0x40), str)
                }
                case 3 {
                    // owner: "0x" + 32 hex digits, then 8 (padded with "0"s to a word).
                    let prefix := shr(240, mload(s))
                    if or(iszero(eq(len, 42)), iszero(or(eq(prefix, 0x3078), eq(prefix, 0x3058)))) { leave }
                    let hi, okHi := hexWord(mload(add(s, 2)))
                    let lo, okLo := hexWord(or(and(mload(add(s, 34)), shl(192, not(0))),
                        0x303030303030303030303030303030303030303030303030))
                    if iszero(and(okHi, okLo)) { leave }
                    mstore(add(out, 0x60), or(shl(32, hi), shr(96, lo)))
                }
                case 5 {
                    // tier name.
                    if or(iszero(len), gt(len, 11)) { leave }
                    let code := 0xff
                    switch shr(sub(256, shl(3, len)), mload(s))
                    case 0x666c6167676564 { code := 0 } // flagged
                    case 0x6c696d69746564 { code := 1 } // limited
                    case 0x646576656c6f70696e67 { code := 2 } // developing
                    case 0x65737461626c6973686564 { code := 3 } // established
                    if eq(code, 0xff) { leave }
                    mstore(add(out, 0xa0), code)
                }
                case 6 {
                    // sybilSeverity name.
                    if or(iszero(len), gt(len, 8)) { leave }
                    let code := 0xff
                    switch shr(sub(256, shl(3, len)), mload(s))
                    case 0x6e6f6e65 { code := 0 } // none (legacy)
                    case 0x6c6f77 { code := 1 } // low
                    case 0x6d6f646572617465 { code := 2 } // moderate
                    case 0x656c657661746564 { code := 3 } // elevated
                    case 0x6865617679 { code := 4 } // heavy
                    if eq(code, 0xff) { leave }
                    mstore(add(out, 0xc0), code)
                }
                default {
                    // issuedAt (7), verifiedAt (8), expiry (9).
                    let t := isoTime(s, len)
                    if iszero(t) { leave }
                    mstore(add(out, add(0xe0, shl(5, sub(id, 7)))), t)
                }
                q := next
            }
            // One member of the signed block at `p`; the position after its value.
            function payloadMember(p, ctx, out) -> q {
                let id, nameLength, valueAt := knownName(
                    p,
                    ctx,
                    0x120d7f89899253a927a73a5c7d076be4cc38877f27d908a6d037162e7303290d,
                    0x000000000000000a080007000005000c0000000b010002040309000000000006
                )
                if lt(id, 12) {
                    let seen := mload(ctx)
                    let bit := shl(id, 1)
                    switch and(seen, bit)
                    case 0 {
                        mstore(ctx, or(seen, bit))
                        if lt(id, 10) {
                            q := readField(id, valueAt, out)
                            if iszero(q) { fieldError(ctx, 1, id, valueAt) }
                        }
                    }
                    default { fieldError(ctx, 2, id, p) }
                }
                if iszero(q) { q := skipValue(valueAt) }
            }

            // ---- JWS header members ----
            // One member of a JWS protected header at `p`; the position after its value. Refuses a duplicate name,
            // a refused member, or a value the kit does not accept, naming the member.
            function headerMember(p, ctx, out) -> q {
                let id, nameLength, valueAt := knownName(
                    p,
                    ctx,
                    0x29cea1b76e80f701eebc4caf86681aefa3b144df2c5487b28041452f1a5e09f3,
                    0x0000000000000003010000000005000700000000040206000800000000000009
                )
                let name := add(p, 1)
                switch lt(id, 12)
                case 1 {
                    let seen := mload(ctx)
                    let bit := shl(id, 1)
                    if and(seen, bit) { failMember(0xafb403be, name, nameLength, p) }
                    mstore(ctx, or(seen, bit))
                    // crit, jku, x5u, jwk, x5c, b64.
                    if gt(id, 2) { failMember(0x04b9bea8, name, nameLength, p) }
                    let s, len, next, escaped := stringAt(valueAt)
                    let ok := and(gt(next, 0), iszero(escaped))
                    switch id
                    case 0 { ok := and(ok, and(eq(len, 5), eq(shr(216, mload(s)), 0x4553323536))) } // "ES256"
                    case 1 {
                        mstore(out, sub(s, mload(0x00)))
                        mstore(add(out, 0x20), len)
                    }
                    default {
                        // typ: "JWT" or "JOSE".
                        ok := and(ok, or(and(eq(len, 3), eq(shr(232, mload(s)), 0x4a5754)),
                            and(eq(len, 4), eq(shr(224, mload(s)), 0x4a4f5345))))
                    }
                    if iszero(ok) { failMember(0xab4bb61a, name, nameLength, valueAt) }
                    q := next
                }
                default {
                    // Other names: duplicates found by hash among those met before.
                    let h := keccak256(name, nameLength)
                    let count := mload(add(ctx, 0x1e0))
                    let list := add(ctx, 0x200)
                    for { let i := 0 } lt(i, count) { i := add(i, 1) } {
                        if eq(mload(add(list, shl(5, i))), h) { failMember(0xafb403be, name, nameLength, p) }
                    }
                    mstore(add(list, shl(5, count)), h)
                    mstore(add(ctx, 0x1e0), add(count, 1))
                    mstore(0x40, add(list, shl(5, add(count, 1))))
                    q := skipValue(valueAt)
                }
            }

            // ---- the top-level object ----
            // Context at `ctx`: the names met (0x00, bits by id), the known names (0x20 + 32 id, right-aligned), the
            // first field error (0x1a0), the word the document's end overwrote (0x1c0), then, for a header, the
            // count (0x1e0) and hashes (0x200 on) of its other member names.
            let start := add(doc, 0x20)
            let end := add(start, mload(doc))
            mstore(0x00, start)
            let ctx := mload(0x40)
            mstore(ctx, 0)
            mstore(add(ctx, 0x1a0), 0)
            mstore(add(ctx, 0x1c0), mload(end))
            mstore(end, 0)
            switch header
            case 0 {
                mstore(0x20, 0xf424751b693262e6)
                mstore(0x40, add(ctx, 0x1e0))
                mstore(add(ctx, 0x20), 0x6167656e744964) // agentId
                mstore(add(ctx, 0x40), 0x636861696e) // chain
                mstore(add(ctx, 0x60), 0x7265676973747279) // registry
                mstore(add(ctx, 0x80), 0x6f776e6572) // owner
                mstore(add(ctx, 0xa0), 0x73636f7265) // score
                mstore(add(ctx, 0xc0), 0x74696572) // tier
                mstore(add(ctx, 0xe0), 0x737962696c5365766572697479) // sybilSeverity
                mstore(add(ctx, 0x100), 0x6973737565644174) // issuedAt
                mstore(add(ctx, 0x120), 0x76657269666965644174) // verifiedAt
                mstore(add(ctx, 0x140), 0x657870697279) // expiry
                mstore(add(ctx, 0x160), 0x626164676573) // badges
                mstore(add(ctx, 0x180), 0x737962696c5369676e616c73) // sybilSignals
            }
            default {
                mstore(0x20, 0x4d3515b24d3515b2)
                mstore(add(ctx, 0x1e0), 0)
                mstore(0x40, add(ctx, 0x200))
                mstore(add(ctx, 0x20), 0x616c67) // alg
                mstore(add(ctx, 0x40), 0x6b6964) // kid
                mstore(add(ctx, 0x60), 0x747970) // typ
                mstore(add(ctx, 0x80), 0x63726974) // crit
                mstore(add(ctx, 0xa0), 0x6a6b75) // jku
                mstore(add(ctx, 0xc0), 0x783575) // x5u
                mstore(add(ctx, 0xe0), 0x6a776b) // jwk
                mstore(add(ctx, 0x100), 0x783563) // x5c
                mstore(add(ctx, 0x120), 0x623634) // b64
            }
            let p := start
            if iszero(eq(byte(0, mload(p)), 0x7b)) {
                p := ws(p)
                if iszero(eq(byte(0, mload(p)), 0x7b)) { malformed(p) }
            }
            p := add(p, 1)
            if lt(byte(0, mload(p)), 0x21) { p := ws(p) }
            switch byte(0, mload(p))
            case 0x7d { p := add(p, 1) }
            default {
                for {} 1 {} {
                    switch header
                    case 0 { p := payloadMember(p, ctx, att) }
                    default { p := headerMember(p, ctx, found) }
                    let c := byte(0, mload(p))
                    if lt(c, 0x21) {
                        p := ws(p)
                        c := byte(0, mload(p))
                    }
                    if eq(c, 0x2c) {
                        p := add(p, 1)
                        if lt(byte(0, mload(p)), 0x21) { p := ws(p) }
                        continue
                    }
                    if iszero(eq(c, 0x7d)) { malformed(p) }
                    p := add(p, 1)
                    break
                }
            }
            if iszero(eq(p, end)) {
                p := ws(p)
                if iszero(eq(p, end)) { malformed(p) }
            }
            mstore(end, mload(add(ctx, 0x1c0)))
            let seen := mload(ctx)
            switch header
            case 0 {
                let firstError := mload(add(ctx, 0x1a0))
                if firstError {
                    let selector := 0xa11accad // AttestationFieldInvalid
                    if eq(byte(0, firstError), 2) { selector := 0x2ec92177 } // AttestationFieldDuplicate
                    revertWith(selector, and(shr(240, firstError), 0xff), and(firstError, 0xffffffffffffffffffffffffffffffff), 2)
                }
                if iszero(eq(and(seen, 0x3ff), 0x3ff)) {
                    let missing := 0
                    for {} and(seen, 1) { seen := shr(1, seen) } { missing := add(missing, 1) }
                    revertWith(0xbd88a3b6, missing, 0, 1)
                }
            }
            default {
                mstore(add(found, 0x40), and(seen, 1))
                mstore(add(found, 0x60), and(shr(1, seen), 1))
            }
        }
    }
}
