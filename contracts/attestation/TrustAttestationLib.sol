// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {AttestationField, ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";

/// @title TrustAttestationLib
/// @notice Reads and verifies the signed block of the trust service's `/api/trust-check` attestation (v2, kid
///         `rnwy-trust-v2`) on-chain: the exact bytes the service signed (`JSON.stringify(attestation.signed)`)
///         and the 64-byte `r‖s` ES256 signature (ECDSA P-256 over SHA-256 of those bytes).
/// @dev Reading (`parse`) is one pass over the bytes, written in assembly, that follows the JSON structure:
///      - the top level must be one object, with no whitespace and nothing after it (what `JSON.stringify`
///        writes); its members may come in any order, and members the kit does not read are skipped;
///      - only top-level keys count: a nested value (object or array, to any depth up to 248 levels) is skipped by
///        its brackets, and every string (key or value) is skipped up to its closing quote, honouring
///        backslash escapes, so that a key name inside a string or a nested object is never taken for a field;
///      - every field read must appear exactly once, in the type and form the service writes it: `agentId` a
///        decimal string or number (no sign, no leading zero, at most 2^256 - 1), `chain` a string of 1 to 32
///        bytes without escapes (the oracle looks it up in its table of `a-z 0-9 _ -` slugs), `registry` a
///        non-empty string without escapes, `owner` `0x` + 40 hex digits or `null`, `score` an integer
///        0-`TrustConstants.MAX_SCORE`, `tier` and `sybilSeverity` one of the names below, `issuedAt` /
///        `verifiedAt` / `expiry` ISO 8601 `YYYY-MM-DDTHH:MM:SS(.fff)?Z` (UTC, after 1970-01-01T00:00:00Z, year at
///        most 9999; the milliseconds are dropped).
///      Anything else reverts with a custom error of `ITrustAttestationErrors` naming the field (`AttestationField`)
///      and the byte offset in the signed bytes.
///
///      Cost (about 20,500 gas for a typical 342-byte block): strings are scanned 32 bytes at a time (one word
///      tested for `"`, `\` and control bytes at once); the service's keys are tried in the order it writes them,
///      one word comparison each; arrays of strings are skipped on a fast path; the owner's hex digits are decoded
///      a word at a time; dates and the owner are read at their fixed lengths.
///
///      Codes (`TrustConstants`): tier `flagged` 0, `limited` 1, `developing` 2, `established` 3; sybil severity
///      `null` or `none` 0, `low` 1, `moderate` 2, `elevated` 3, `heavy` 4.
///
///      Signature (`verifySignature`): `r` and `s` must be in [1, n-1] and the key on the curve; a high-S
///      signature (`s > n/2`, which the service does not avoid) is normalised to `n - s` before OpenZeppelin's
///      `P256.verify` (the RIP-7212 / EIP-7951 precompile at `0x100` where present, its Solidity implementation
///      elsewhere).
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

    /// @dev Order of the P-256 group and half of it.
    uint256 private constant _N = P256.N;
    uint256 private constant _HALF_N = 0x7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8;

    /// @notice Reads the fields of a v2 signed block by a full, depth-aware scan.
    /// @dev Reverts with `AttestationJsonMalformed`, `AttestationJsonTooDeep`, `AttestationFieldInvalid`,
    ///      `AttestationFieldDuplicate` or `AttestationFieldMissing` (see the library notes).
    /// @param json The exact signed bytes.
    /// @return att The fields.
    function parse(bytes memory json) internal pure returns (TrustAttestation memory att) {
        att = _read(json, 0);
    }

    /// @notice Reads the fields at caller-given offsets (OpenZeppelin `WebAuthn` style) WITHOUT checking that they
    ///         are top-level keys.
    /// @dev WARNING: not safe on its own. It checks only that the key text (`"score":`) is at the offset, after
    ///      `{` or `,`, and reads the value there: a look-alike inside a nested object (`"badges":[{"score":99}]`)
    ///      passes. Proving an offset is at the top level needs the structure of every byte before it, that is
    ///      the scan `parse` does anyway. It is kept only so that the benchmark can show the floor of any
    ///      hint-based reader against the scan; the kit's oracle uses `parse`.
    /// @param json The exact signed bytes.
    /// @param hints Offset of each field's key (its opening quote), 16 bits per field, field `i` in bits
    ///        `16 i` to `16 i + 15` (`AttestationField` order).
    /// @return att The fields.
    function parseAtUnverifiedHints(bytes memory json, uint256 hints) internal pure returns (TrustAttestation memory att) {
        if (hints == 0) revert ITrustAttestationErrors.AttestationFieldMissing(AttestationField.AgentId);
        att = _read(json, hints);
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

    // solhint-disable-next-line code-complexity, function-max-lines
    function _read(bytes memory json, uint256 hints) private pure returns (TrustAttestation memory att) {
        assembly ("memory-safe") {
            // ---- errors (selectors of the library's custom errors) ----
            function failAt(selector, offset) {
                mstore(0x00, shl(224, selector))
                mstore(0x04, offset)
                revert(0x00, 0x24)
            }
            function failField(selector, field, offset) {
                mstore(0x00, shl(224, selector))
                mstore(0x04, field)
                mstore(0x24, offset)
                revert(0x00, 0x44)
            }
            // AttestationJsonMalformed(uint256) 0xf424751b; AttestationJsonTooDeep(uint256) 0x693262e6;
            // AttestationFieldInvalid(uint8,uint256) 0xa11accad; AttestationFieldDuplicate(uint8,uint256)
            // 0x2ec92177; AttestationFieldMissing(uint8) 0xbd88a3b6.

            // ---- word-at-a-time byte classes ----
            // 0x80 in each byte of `x` that is zero (exact: no carry crosses a byte).
            function zeroBytes(x) -> m {
                let m7f := 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f
                m := and(not(or(or(add(and(x, m7f), m7f), x), m7f)), not(m7f))
            }
            // 0x80 in each byte of `w` that is `"`, `\` or a control byte (< 0x20).
            function specialBytes(w) -> m {
                let m7f := 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f
                let ctrl :=
                    and(not(or(add(and(w, m7f), 0x6060606060606060606060606060606060606060606060606060606060606060), w)), not(m7f))
                m := or(or(zeroBytes(xor(w, 0x2222222222222222222222222222222222222222222222222222222222222222)),
                    zeroBytes(xor(w, 0x5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c))), ctrl)
            }
            // Number of leading zero bytes of a non-zero word.
            function leadingZeroBytes(m) -> n {
                if iszero(shr(128, m)) {
                    n := 16
                    m := shl(128, m)
                }
                if iszero(shr(192, m)) {
                    n := add(n, 8)
                    m := shl(64, m)
                }
                if iszero(shr(224, m)) {
                    n := add(n, 4)
                    m := shl(32, m)
                }
                if iszero(shr(240, m)) {
                    n := add(n, 2)
                    m := shl(16, m)
                }
                if iszero(shr(248, m)) { n := add(n, 1) }
            }
            // First `"`, `\` or control byte at or after `p` (a position >= end when none before `end`).
            function plainEnd(p, end) -> q {
                for {} 1 {} {
                    if iszero(lt(p, end)) {
                        q := end
                        leave
                    }
                    let m := specialBytes(mload(p))
                    if m {
                        q := add(p, leadingZeroBytes(m))
                        leave
                    }
                    p := add(p, 0x20)
                }
            }
            // Closing quote of a string whose contents start at `p` (escapes honoured); reverts when there is none.
            function stringEnd(p, start, end) -> q {
                for {} 1 {} {
                    q := plainEnd(p, end)
                    if iszero(lt(q, end)) { failAt(0xf424751b, sub(end, start)) }
                    let c := byte(0, mload(q))
                    if eq(c, 0x22) { leave }
                    if lt(c, 0x20) { failAt(0xf424751b, sub(q, start)) }
                    // A backslash: the next byte is escaped (`\"`, `\\`, `\u`, ...).
                    p := add(q, 2)
                }
            }
            // The byte at `p`, or 0 at or past `end`.
            function at(p, end) -> c {
                if lt(p, end) { c := byte(0, mload(p)) }
            }
            // Skips one JSON value starting at `p`; returns the position after it.
            function skipValue(p, start, end) -> q {
                let c := at(p, end)
                if eq(c, 0x22) {
                    q := add(stringEnd(add(p, 1), start, end), 1)
                    leave
                }
                if eq(c, 0x5b) {
                    // Fast path for what the service writes here (`badges`, `sybilSignals`): an array of strings.
                    // Anything else in the array falls back to the general skip below, from the start.
                    q := add(p, 1)
                    if eq(at(q, end), 0x5d) {
                        q := add(q, 1)
                        leave
                    }
                    for {} eq(at(q, end), 0x22) {} {
                        q := add(stringEnd(add(q, 1), start, end), 1)
                        c := at(q, end)
                        if eq(c, 0x5d) {
                            q := add(q, 1)
                            leave
                        }
                        if iszero(eq(c, 0x2c)) { break }
                        q := add(q, 1)
                    }
                    c := 0x5b
                }
                if or(eq(c, 0x7b), eq(c, 0x5b)) {
                    // Bit stack of open brackets: 1 for `{`, 0 for `[`, above a sentinel 1.
                    let stack := 1
                    q := p
                    for {} 1 {} {
                        c := at(q, end)
                        switch c
                        case 0x22 { q := stringEnd(add(q, 1), start, end) }
                        case 0x7b {
                            if shr(248, stack) { failAt(0x693262e6, sub(q, start)) }
                            stack := or(shl(1, stack), 1)
                        }
                        case 0x5b {
                            if shr(248, stack) { failAt(0x693262e6, sub(q, start)) }
                            stack := shl(1, stack)
                        }
                        case 0x7d {
                            if iszero(and(stack, 1)) { failAt(0xf424751b, sub(q, start)) }
                            stack := shr(1, stack)
                        }
                        case 0x5d {
                            if or(and(stack, 1), eq(stack, 1)) { failAt(0xf424751b, sub(q, start)) }
                            stack := shr(1, stack)
                        }
                        case 0 { failAt(0xf424751b, sub(q, start)) }
                        default {
                            if lt(c, 0x20) { failAt(0xf424751b, sub(q, start)) }
                        }
                        q := add(q, 1)
                        if eq(stack, 1) { leave }
                    }
                }
                // A number or a literal: letters, digits, `.`, `+`, `-`.
                q := p
                for {} 1 { q := add(q, 1) } {
                    c := at(q, end)
                    let isDigit := lt(sub(c, 0x30), 10)
                    let isLower := lt(sub(c, 0x61), 26)
                    let isUpper := lt(sub(c, 0x41), 26)
                    if iszero(or(or(isDigit, or(isLower, isUpper)), or(eq(c, 0x2e), or(eq(c, 0x2b), eq(c, 0x2d))))) {
                        break
                    }
                }
                if eq(q, p) { failAt(0xf424751b, sub(p, start)) }
            }
            // Decimal digits from `p`: value, position after them. No leading zero; reverts on overflow.
            // (`errorAt` is the offset errors name: the start of the field's value.)
            function digits(p, end, field, errorAt) -> v, q {
                q := p
                for {} 1 { q := add(q, 1) } {
                    let d := sub(at(q, end), 0x30)
                    if gt(d, 9) { break }
                    if gt(v, div(sub(not(0), d), 10)) { failField(0xa11accad, field, errorAt) }
                    v := add(mul(v, 10), d)
                }
                if or(eq(q, p), and(eq(byte(0, mload(p)), 0x30), gt(sub(q, p), 1))) {
                    failField(0xa11accad, field, errorAt)
                }
            }
            // Reverts unless the byte at `q` ends a top-level value (`,` or `}`): a number must not go on.
            function endsValue(q, end, field, errorAt) {
                let c := at(q, end)
                if iszero(or(eq(c, 0x2c), eq(c, 0x7d))) { failField(0xa11accad, field, errorAt) }
            }
            // A string without escapes starting at `p` (the opening quote): contents start, length, position after.
            function plainString(p, end, field, start) -> s, len, q {
                if iszero(eq(at(p, end), 0x22)) { failField(0xa11accad, field, sub(p, start)) }
                s := add(p, 1)
                let e := plainEnd(s, end)
                if iszero(eq(at(e, end), 0x22)) { failField(0xa11accad, field, sub(p, start)) }
                len := sub(e, s)
                q := add(e, 1)
            }
            // The `len` (1-32) bytes at `s`, right-aligned.
            function rightAligned(s, len) -> w {
                w := shr(sub(256, shl(3, len)), mload(s))
            }
            // Whether the 4 bytes at `p` are `null`.
            function isNull(p, end) -> yes {
                yes := and(lt(add(p, 3), end), eq(shr(224, mload(p)), 0x6e756c6c))
            }
            // ISO 8601 `"YYYY-MM-DDTHH:MM:SS(.fff)?Z"` at `p` (the opening quote): Unix seconds, position after.
            function isoTime(p, end, field, start) -> t, q {
                // Exactly 20 or 24 bytes between quotes, every one of them checked below (so no escape or quote
                // can hide inside): no scan needed.
                let s := add(p, 1)
                let w := mload(s)
                let len := 20
                if iszero(eq(byte(19, w), 0x5a)) { len := 24 }
                q := add(add(s, len), 1)
                if iszero(and(and(eq(byte(0, mload(p)), 0x22), eq(byte(0, mload(add(s, len))), 0x22)), iszero(gt(q, end)))) {
                    failField(0xa11accad, field, sub(p, start))
                }
                // Digits at bytes 0-3, 5-6, 8-9, 11-12, 14-15, 17-18; `-` `-` `T` `:` `:` at 4, 7, 10, 13, 16.
                let dm := 0xffffffff00ffff00ffff00ffff00ffff00ffff00000000000000000000000000
                let sm := 0x00000000ff0000ff0000ff0000ff0000ff000000000000000000000000000000
                let sv := 0x000000002d00002d00005400003a00003a000000000000000000000000000000
                let ok := eq(and(w, sm), sv)
                let tt := xor(and(w, dm), and(dm, 0x3030303030303030303030303030303030303030303030303030303030303030))
                // Each digit byte is 0x30-0x39: high nibble 0 after the xor, low nibble at most 9.
                ok := and(ok, iszero(and(tt, and(dm, 0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0))))
                ok := and(ok, iszero(and(add(tt, and(dm, 0x0606060606060606060606060606060606060606060606060606060606060606)),
                    and(dm, 0x1010101010101010101010101010101010101010101010101010101010101010))))
                switch len
                case 20 { ok := and(ok, eq(byte(19, w), 0x5a)) }
                case 24 {
                    // `.fff` then `Z`.
                    let f := and(shr(64, w), 0xffffffffff)
                    let fd := xor(and(f, 0xffffff00), 0x30303000)
                    ok := and(ok, eq(shr(32, f), 0x2e))
                    ok := and(ok, eq(and(f, 0xff), 0x5a))
                    ok := and(ok, iszero(and(fd, 0xf0f0f000)))
                    ok := and(ok, iszero(and(add(fd, 0x06060600), 0x10101000)))
                }
                default { ok := 0 }
                if iszero(ok) { failField(0xa11accad, field, sub(p, start)) }
                let year := add(add(mul(byte(0, tt), 1000), mul(byte(1, tt), 100)), add(mul(byte(2, tt), 10), byte(3, tt)))
                let month := add(mul(byte(5, tt), 10), byte(6, tt))
                let day := add(mul(byte(8, tt), 10), byte(9, tt))
                let hour := add(mul(byte(11, tt), 10), byte(12, tt))
                let minute := add(mul(byte(14, tt), 10), byte(15, tt))
                let second := add(mul(byte(17, tt), 10), byte(18, tt))
                // Days in the month (February 29 in leap years).
                let dim := byte(month, 0x001f1c1f1e1f1e1f1f1e1f1e1f00000000000000000000000000000000000000)
                if eq(month, 2) {
                    if and(iszero(mod(year, 4)), or(gt(mod(year, 100), 0), iszero(mod(year, 400)))) { dim := 29 }
                }
                if or(
                    or(lt(year, 1970), or(iszero(month), gt(month, 12))),
                    or(or(iszero(day), gt(day, dim)), or(gt(hour, 23), or(gt(minute, 59), gt(second, 59))))
                ) { failField(0xa11accad, field, sub(p, start)) }
                // Days from 1970-01-01 (H. Hinnant's days_from_civil, years from 1969 on).
                let y := sub(year, lt(month, 3))
                let era := div(y, 400)
                let yoe := sub(y, mul(era, 400))
                let doy := add(div(add(mul(153, mod(add(month, 9), 12)), 2), 5), sub(day, 1))
                let doe := add(sub(add(mul(yoe, 365), div(yoe, 4)), div(yoe, 100)), doy)
                let dayCount := sub(add(mul(era, 146097), doe), 719468)
                t := add(mul(dayCount, 86400), add(mul(hour, 3600), add(mul(minute, 60), second)))
                // 0 is "no date" for the oracle: 1970-01-01T00:00:00Z itself is refused.
                if iszero(t) { failField(0xa11accad, field, sub(p, start)) }
            }
            // Reads the value of field `id` at `p` into `att`; returns the position after it.
            function readField(id, p, end, start, out) -> q {
                switch id
                case 0 {
                    // agentId: "123" or 123.
                    let v := 0
                    switch at(p, end)
                    case 0x22 {
                        v, q := digits(add(p, 1), end, 0, sub(p, start))
                        if iszero(eq(at(q, end), 0x22)) { failField(0xa11accad, 0, sub(p, start)) }
                        q := add(q, 1)
                    }
                    default {
                        v, q := digits(p, end, 0, sub(p, start))
                        endsValue(q, end, 0, sub(p, start))
                    }
                    mstore(out, v)
                }
                case 1 {
                    // chain: 1-32 bytes without escapes, left-aligned (the oracle's table holds only valid slugs).
                    let s, len, next := plainString(p, end, 1, start)
                    q := next
                    if or(iszero(len), gt(len, 32)) { failField(0xa11accad, 1, sub(p, start)) }
                    mstore(add(out, 0x20), shl(sub(256, shl(3, len)), rightAligned(s, len)))
                }
                case 2 {
                    // registry: non-empty string without escapes, copied.
                    let s, len, next := plainString(p, end, 2, start)
                    q := next
                    if iszero(len) { failField(0xa11accad, 2, sub(p, start)) }
                    let str := mload(0x40)
                    mstore(str, len)
                    mcopy(add(str, 0x20), s, len)
                    mstore(0x40, add(add(str, 0x20), and(add(len, 31), not(31))))
                    mstore(add(out, 0x40), str)
                }
                case 3 {
                    // owner: "0x" + 40 hex digits, or null.
                    switch isNull(p, end)
                    case 1 { q := add(p, 4) }
                    default {
                        // Exactly `"0x` + 40 bytes + `"`, each of the 40 checked by hexWord: no scan needed.
                        let s := add(p, 1)
                        q := add(p, 44)
                        if iszero(and(and(eq(byte(0, mload(p)), 0x22), eq(byte(0, mload(add(s, 42))), 0x22)),
                            and(iszero(gt(q, end)), or(eq(shr(240, mload(s)), 0x3078), eq(shr(240, mload(s)), 0x3058))))) {
                            failField(0xa11accad, 3, sub(p, start))
                        }
                        // 32 hex digits, then 8 (padded with "0"s to a word).
                        let hi, okHi := hexWord(mload(add(s, 2)))
                        let lo, okLo := hexWord(or(and(mload(add(s, 34)), shl(192, not(0))),
                            0x303030303030303030303030303030303030303030303030))
                        if iszero(and(okHi, okLo)) { failField(0xa11accad, 3, sub(p, start)) }
                        let a := or(shl(32, hi), shr(96, lo))
                        mstore(add(out, 0x60), a)
                    }
                }
                case 4 {
                    // score: integer 0-MAX_SCORE.
                    let v := 0
                    v, q := digits(p, end, 4, sub(p, start))
                    endsValue(q, end, 4, sub(p, start))
                    if gt(v, 100) { failField(0xa11accad, 4, sub(p, start)) } // TrustConstants.MAX_SCORE (100)
                    mstore(add(out, 0x80), v)
                }
                case 5 {
                    // tier name.
                    let s, len, next := plainString(p, end, 5, start)
                    q := next
                    let code := 0xff
                    if and(gt(len, 0), lt(len, 12)) {
                        switch rightAligned(s, len)
                        case 0x666c6167676564 { code := 0 } // flagged
                        case 0x6c696d69746564 { code := 1 } // limited
                        case 0x646576656c6f70696e67 { code := 2 } // developing
                        case 0x65737461626c6973686564 { code := 3 } // established
                    }
                    if eq(code, 0xff) { failField(0xa11accad, 5, sub(p, start)) }
                    mstore(add(out, 0xa0), code)
                }
                case 6 {
                    // sybilSeverity: null or a name.
                    switch isNull(p, end)
                    case 1 { q := add(p, 4) }
                    default {
                        let s, len, next := plainString(p, end, 6, start)
                        q := next
                        let code := 0xff
                        if and(gt(len, 0), lt(len, 9)) {
                            switch rightAligned(s, len)
                            case 0x6e6f6e65 { code := 0 } // none (legacy)
                            case 0x6c6f77 { code := 1 } // low
                            case 0x6d6f646572617465 { code := 2 } // moderate
                            case 0x656c657661746564 { code := 3 } // elevated
                            case 0x6865617679 { code := 4 } // heavy
                        }
                        if eq(code, 0xff) { failField(0xa11accad, 6, sub(p, start)) }
                        mstore(add(out, 0xc0), code)
                    }
                }
                default {
                    // issuedAt (7), verifiedAt (8), expiry (9).
                    let t, next := isoTime(p, end, id, start)
                    q := next
                    mstore(add(out, add(0xe0, shl(5, sub(id, 7)))), t)
                }
            }
            // The key at `p` (its opening quote) when it is one the service writes, compared with its `"name":` text
            // in one word: field id 0-9, or 10 for `badges` and `sybilSignals` (skipped), and the length of the
            // text; 11 for any other key. A key matched this way is exactly that name (its closing quote is not
            // escaped), and a key whose name is a field's always matches, so 11 is never a field.
            function keyAt(p, end) -> id, len {
                let w := mload(p)
                id := 11
                switch shr(224, w)
                case 0x22616765 { if eq(shr(176, w), 0x226167656e744964223a) { id := 0 len := 10 } } // "agentId":
                case 0x22636861 { if eq(shr(192, w), 0x22636861696e223a) { id := 1 len := 8 } } // "chain":
                case 0x22726567 { if eq(shr(168, w), 0x227265676973747279223a) { id := 2 len := 11 } } // "registry":
                case 0x226f776e { if eq(shr(192, w), 0x226f776e6572223a) { id := 3 len := 8 } } // "owner":
                case 0x2273636f { if eq(shr(192, w), 0x2273636f7265223a) { id := 4 len := 8 } } // "score":
                case 0x22746965 { if eq(shr(200, w), 0x2274696572223a) { id := 5 len := 7 } } // "tier":
                case 0x22626164 { if eq(shr(184, w), 0x22626164676573223a) { id := 10 len := 9 } } // "badges":
                case 0x22737962 {
                    switch shr(128, w)
                    case 0x22737962696c5365766572697479223a { id := 6 len := 16 } // "sybilSeverity":
                    default { if eq(shr(136, w), 0x22737962696c5369676e616c73223a) { id := 10 len := 15 } } // "sybilSignals":
                }
                case 0x22697373 { if eq(shr(168, w), 0x226973737565644174223a) { id := 7 len := 11 } } // "issuedAt":
                case 0x22766572 { if eq(shr(152, w), 0x2276657269666965644174223a) { id := 8 len := 13 } } // "verifiedAt":
                case 0x22657870 { if eq(shr(184, w), 0x22657870697279223a) { id := 9 len := 9 } } // "expiry":
                // The text must end before the bytes do (a value follows it).
                if iszero(lt(add(p, len), end)) { id := 11 }
            }
            // 32 ASCII hex digits (either case) as 16 bytes in the low half of the result; `ok` is 0 when a byte
            // is not a hex digit. Word-at-a-time: classify, map to nibbles, then pack nibble pairs.
            function hexWord(x) -> v, ok {
                let m80 := 0x8080808080808080808080808080808080808080808080808080808080808080
                let lower := or(x, 0x2020202020202020202020202020202020202020202020202020202020202020)
                ok := iszero(and(x, m80))
                let digit := and(and(add(lower, 0x5050505050505050505050505050505050505050505050505050505050505050),
                    not(add(lower, 0x4646464646464646464646464646464646464646464646464646464646464646))), m80)
                let letter := and(and(add(lower, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f),
                    not(add(lower, 0x1919191919191919191919191919191919191919191919191919191919191919))), m80)
                ok := and(ok, eq(or(digit, letter), m80))
                v := add(and(lower, 0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f), mul(shr(7, letter), 9))
                v := and(or(shr(4, v), v), 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff)
                v := and(or(shr(8, v), v), 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff)
                v := and(or(shr(16, v), v), 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff)
                v := and(or(shr(32, v), v), 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff)
                v := and(or(shr(64, v), v), 0xffffffffffffffffffffffffffffffff)
            }

            let start := add(json, 0x20)
            let end := add(start, mload(json))
            let seen := 0
            switch hints
            case 0 {
                // The service's keys in the order it writes them, one word each: `"name":` text << 16 | text
                // length << 8 | field id (10: skipped). The key expected at member `k` is tried first, with one
                // comparison; any other key goes through `keyAt`.
                let order := mload(0x40)
                mstore(0x40, add(order, 0x180))
                mstore(order, 0x226167656e744964223a0a00) // "agentId":
                mstore(add(order, 0x20), 0x22636861696e223a0801) // "chain":
                mstore(add(order, 0x40), 0x227265676973747279223a0b02) // "registry":
                mstore(add(order, 0x60), 0x226f776e6572223a0803) // "owner":
                mstore(add(order, 0x80), 0x2273636f7265223a0804) // "score":
                mstore(add(order, 0xa0), 0x2274696572223a0705) // "tier":
                mstore(add(order, 0xc0), 0x22626164676573223a090a) // "badges":
                mstore(add(order, 0xe0), 0x22737962696c5365766572697479223a1006) // "sybilSeverity":
                mstore(add(order, 0x100), 0x22737962696c5369676e616c73223a0f0a) // "sybilSignals":
                mstore(add(order, 0x120), 0x226973737565644174223a0b07) // "issuedAt":
                mstore(add(order, 0x140), 0x2276657269666965644174223a0d08) // "verifiedAt":
                mstore(add(order, 0x160), 0x22657870697279223a0909) // "expiry":
                let k := 0
                // Full scan of the top-level object.
                let p := start
                if iszero(eq(at(p, end), 0x7b)) { failAt(0xf424751b, 0) }
                p := add(p, 1)
                if eq(at(p, end), 0x7d) { p := add(p, 1) }
                if iszero(eq(p, add(start, 2))) {
                    for {} 1 {} {
                        if iszero(and(lt(p, end), eq(byte(0, mload(p)), 0x22))) { failAt(0xf424751b, sub(p, start)) }
                        let id := 11
                        let len := 0
                        if lt(k, 12) {
                            let e := mload(add(order, shl(5, k)))
                            len := and(shr(8, e), 0xff)
                            if and(eq(shr(sub(256, shl(3, len)), mload(p)), shr(16, e)), lt(add(p, len), end)) {
                                id := and(e, 0xff)
                            }
                        }
                        k := add(k, 1)
                        if eq(id, 11) { id, len := keyAt(p, end) }
                        switch id
                        case 11 {
                            // A key the kit does not read (one written with an escape included): skip its value.
                            p := add(stringEnd(add(p, 1), start, end), 1)
                            if iszero(eq(at(p, end), 0x3a)) { failAt(0xf424751b, sub(p, start)) }
                            p := skipValue(add(p, 1), start, end)
                        }
                        case 10 { p := skipValue(add(p, len), start, end) }
                        default {
                            let bit := shl(id, 1)
                            if and(seen, bit) { failField(0x2ec92177, id, sub(p, start)) }
                            seen := or(seen, bit)
                            p := readField(id, add(p, len), end, start, att)
                        }
                        let c := at(p, end)
                        if eq(c, 0x2c) {
                            p := add(p, 1)
                            continue
                        }
                        if iszero(eq(c, 0x7d)) { failAt(0xf424751b, sub(p, start)) }
                        p := add(p, 1)
                        break
                    }
                }
                if iszero(eq(p, end)) { failAt(0xf424751b, sub(p, start)) }
            }
            default {
                // At caller-given offsets, unverified (see parseAtUnverifiedHints).
                for { let id := 0 } lt(id, 10) { id := add(id, 1) } {
                    let h := and(shr(shl(4, id), hints), 0xffff)
                    let p := add(start, h)
                    let before := 0
                    if h { before := at(sub(p, 1), end) }
                    if iszero(and(or(eq(before, 0x7b), eq(before, 0x2c)), eq(at(p, end), 0x22))) {
                        failAt(0xbd88a3b6, id)
                    }
                    let kid, len := keyAt(p, end)
                    if iszero(eq(kid, id)) { failAt(0xbd88a3b6, id) }
                    p := readField(id, add(p, len), end, start, att)
                    let c := at(p, end)
                    if iszero(or(eq(c, 0x2c), eq(c, 0x7d))) { failAt(0xf424751b, sub(p, start)) }
                    seen := or(seen, shl(id, 1))
                }
            }
            if iszero(eq(seen, 0x3ff)) {
                let missing := 0
                for {} and(seen, 1) { seen := shr(1, seen) } { missing := add(missing, 1) }
                failAt(0xbd88a3b6, missing)
            }
        }
    }
}
