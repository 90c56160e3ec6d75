// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ITrustAttestationErrors} from "../interfaces/ITrustAttestationErrors.sol";

/// @title TrustJsonReader
/// @notice The one-pass JSON reader under `TrustAttestationLib` (the signed block) and `TrustJwsHeaderLib` (a JWS
///         protected header): it validates a whole document as JSON (RFC 8259) while it reads the members those two
///         libraries return. Not meant to be called directly: the struct it fills is theirs.
/// @dev The grammar, the same for both documents:
///      - UTF-8 is valid in every string (no overlong form, no surrogate, nothing above U+10FFFF); a word of 32 bytes
///        below 0x80 needs no further check, so ASCII costs nothing extra;
///      - one object, with whitespace (space, tab, LF, CR) allowed between tokens and around it, nothing after it;
///      - every value is valid JSON, skipped ones too: strings with only the RFC 8259 escapes and no raw control
///        byte, numbers in the RFC 8259 grammar, `true` `false` `null`, arrays and objects well formed and nested at
///        most 248 levels below the top-level object;
///      - a top-level member name holding a backslash is refused (`\u0073core` would be `score` to `JSON.parse` and
///        an unknown name to a byte reader).
///      Why one library reads both documents: the grammar's routines are Yul functions, and inline assembly can call
///      only the Yul functions of its own block; sharing them between two libraries would take one Solidity call per
///      token instead, on the path every submission runs. The compiler drops the document a caller does not read
///      (`header` is a constant at each call site), so `AttestedTrustOracle` holds only the block's reader and
///      `JwsHeaderReader` only the header's.
///
///      Errors are taken from `ITrustAttestationErrors` by their `.selector` and kept in scratch word 0x20 while the
///      reader runs.
library TrustJsonReader {
    /// @dev The one-pass reader of both documents: the signed block (`header == false`, into a `TrustAttestation`)
    ///      and a JWS protected header (`header == true`, into a `JwsHeader`), allocated here (`fields`, its memory
    ///      pointer; only what a successful read may leave unwritten is zeroed, so that no struct is built twice).
    ///      While it runs, scratch word 0x00 holds the document's start (for error offsets) and 0x20 the selectors of
    ///      its errors; the word after the document is zeroed (a zero byte is never valid JSON, so it ends every scan
    ///      without bounds checks) and restored at the end. That word may hold the start of whatever the caller
    ///      allocated after the document, never `fields`: one word is left free before it.
    // solhint-disable-next-line code-complexity, function-max-lines
    function read(bytes memory doc, bool header) internal pure returns (uint256 fields) {
        {
            // The document's errors, kept in scratch word 0x20 while the reader runs (see `errorOf`).
            uint256 errors = header
                ? (uint256(uint32(ITrustAttestationErrors.JwsHeaderMalformed.selector)) << 224)
                    | (uint256(uint32(ITrustAttestationErrors.JwsHeaderMalformed.selector)) << 192)
                    | (uint256(uint32(ITrustAttestationErrors.JwsHeaderMemberRefused.selector)) << 160)
                    | (uint256(uint32(ITrustAttestationErrors.JwsHeaderMemberDuplicate.selector)) << 128)
                    | (uint256(uint32(ITrustAttestationErrors.JwsHeaderMemberInvalid.selector)) << 96)
                : (uint256(uint32(ITrustAttestationErrors.AttestationJsonMalformed.selector)) << 224)
                    | (uint256(uint32(ITrustAttestationErrors.AttestationJsonTooDeep.selector)) << 192)
                    | (uint256(uint32(ITrustAttestationErrors.AttestationFieldInvalid.selector)) << 160)
                    | (uint256(uint32(ITrustAttestationErrors.AttestationFieldDuplicate.selector)) << 128)
                    | (uint256(uint32(ITrustAttestationErrors.AttestationFieldMissing.selector)) << 96);
            assembly ("memory-safe") {
                mstore(0x20, errors)
            }
        }
        assembly ("memory-safe") {
            // ---- errors ----
            // The selector of the document's error `i` (0 malformed, 1 too deep, 2 field invalid / member refused,
            // 3 field / member duplicate, 4 field missing / member invalid).
            function errorOf(i) -> selector {
                selector := shr(224, shl(shl(5, i), mload(0x20)))
            }
            function revertWith(selector, a, b, words) {
                mstore(0x00, shl(224, selector))
                mstore(0x04, a)
                mstore(0x24, b)
                revert(0x00, add(4, shl(5, words)))
            }
            // The document is not valid JSON at `p`.
            function malformed(p) {
                revertWith(errorOf(0), sub(p, mload(0x00)), 0, 1)
            }
            // Nesting too deep at `p`.
            function tooDeep(p) {
                revertWith(errorOf(1), sub(p, mload(0x00)), 0, 1)
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
            // Whether the 32 bytes of `x` are ASCII hex digits (either case). Digits are classified on the byte itself,
            // letters on the byte with 0x20 set (so that only `A-F` and `a-f` qualify).
            function hexDigits(x) -> ok {
                let m80 := 0x8080808080808080808080808080808080808080808080808080808080808080
                let lower := or(x, 0x2020202020202020202020202020202020202020202020202020202020202020)
                let digit := and(and(add(x, 0x5050505050505050505050505050505050505050505050505050505050505050),
                    not(add(x, 0x4646464646464646464646464646464646464646464646464646464646464646))), m80)
                let letter := and(and(add(lower, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f),
                    not(add(lower, 0x1919191919191919191919191919191919191919191919191919191919191919))), m80)
                ok := and(iszero(and(x, m80)), eq(or(digit, letter), m80))
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
                            // \uXXXX: four hex digits (as in hexWord, on four bytes).
                            let x := and(shr(208, w), 0xffffffff)
                            let lower := or(x, 0x20202020)
                            if iszero(and(iszero(and(x, 0x80808080)), eq(or(
                                and(and(add(x, 0x50505050), not(add(x, 0x46464646))), 0x80808080),
                                and(and(add(lower, 0x1f1f1f1f), not(add(lower, 0x19191919))), 0x80808080)
                            ), 0x80808080))) { malformed(p) }
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
            // A word at a time: bit 7 of each byte of `nonDigit` is set for a byte that is not 0-9 (the range test on the
            // low 7 bits, exact as no carry crosses a byte; a byte >= 0x80 is a stop whatever it holds), then the first
            // stop is found as in firstStop.
            function digitsEnd(p) -> q {
                for { q := p } 1 { q := add(q, 32) } {
                    let w := mload(q)
                    let x := and(w, 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f)
                    let nonDigit := and(or(w, not(xor(add(x, 0x5050505050505050505050505050505050505050505050505050505050505050),
                        add(x, 0x4646464646464646464646464646464646464646464646464646464646464646)))),
                        0x8080808080808080808080808080808080808080808080808080808080808080)
                    if nonDigit {
                        nonDigit := or(nonDigit, shr(8, nonDigit))
                        nonDigit := or(nonDigit, shr(16, nonDigit))
                        nonDigit := or(nonDigit, shr(32, nonDigit))
                        nonDigit := or(nonDigit, shr(64, nonDigit))
                        nonDigit := or(nonDigit, shr(128, nonDigit))
                        q := sub(add(q, 32), byte(0, mul(shr(7, nonDigit), 0x0101010101010101010101010101010101010101010101010101010101010101)))
                        leave
                    }
                }
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
            // An array of plain strings at `p` (`[]`, `["a"]`, `["a","b"]`, ...: no whitespace, and no escape, control
            // byte or byte >= 0x80 in a string), the service's form of `badges` and `sybilSignals`: the position after
            // it, or 0 for any other value, which skipValue then validates and skips.
            function plainStrings(p) -> q {
                if iszero(eq(shr(240, mload(p)), 0x5b5d)) {
                    if iszero(eq(shr(240, mload(p)), 0x5b22)) { leave }
                    for { p := add(p, 1) } 1 {} {
                        p := firstStop(add(p, 1))
                        // The closing quote, then `,"` or `]`.
                        let w := shr(232, mload(p))
                        if eq(w, 0x222c22) {
                            p := add(p, 2)
                            continue
                        }
                        if iszero(eq(shr(8, w), 0x225d)) { leave }
                        break
                    }
                }
                q := add(p, 2)
            }
            // The name of a member at `p` (its opening quote), looked up among the known names: its id (13 when it
            // is not one) and the position of its value (after `:` and whitespace). Refuses an escaped name. A known
            // name is recognised without scanning: a perfect hash of the first 4 bytes after the quote,
            // `byte(mul(prefix, magic) >> 251, table)` (magic and table at `ctx + 0x1c0`, `ctx + 0x1e0`), gives 1 +
            // the index of the known name with that prefix, whose entry at `ctx + 32 (index + 1)` holds its text with
            // both quotes (right-aligned), that text's length (bits 248-255) and the next name with the same prefix
            // (bits 240-247, 1 + index, 0 for none); one word comparison settles each. Any other name is scanned as a
            // string.
            function knownName(p, ctx) -> id, q {
                let w := mload(p)
                id := 13
                let candidate := byte(shr(251, mul(and(shr(216, w), 0xffffffff), mload(add(ctx, 0x1c0)))), mload(add(ctx, 0x1e0)))
                for {} candidate {} {
                    let entry := mload(add(ctx, shl(5, candidate)))
                    let width := shl(3, shr(248, entry))
                    if eq(shr(sub(256, width), w), and(entry, 0xffffffffffffffffffffffffffffffff)) {
                        id := sub(candidate, 1)
                        q := add(p, shr(3, width))
                        break
                    }
                    candidate := and(shr(240, entry), 0xff)
                }
                if eq(id, 13) {
                    if iszero(eq(byte(0, w), 0x22)) { malformed(p) }
                    let escaped := 0
                    q, escaped := stringEnd(firstStop(add(p, 1)))
                    if escaped { malformed(p) }
                    q := add(q, 1)
                }
                if iszero(eq(byte(0, mload(q)), 0x3a)) {
                    q := ws(q)
                    if iszero(eq(byte(0, mload(q)), 0x3a)) { malformed(q) }
                }
                q := add(q, 1)
                if lt(byte(0, mload(q)), 0x21) { q := ws(q) }
            }

            // ---- the signed block's fields ----
            // The decimal value of the digits in [s, e): `ok` is 0 for none, a leading zero or more than 2^256 - 1.
            // Up to 32 digits at once: right-aligned in a word, then pairs of lanes combined (10 d1 + d0, 100 h + l,
            // 10^4 h + l, 10^8 h + l, 10^16 h + l), each step within its lane.
            function decimal(s, e) -> v, ok {
                let n := sub(e, s)
                ok := and(gt(n, 0), or(eq(n, 1), iszero(eq(byte(0, mload(s)), 0x30))))
                if lt(n, 33) {
                    let x := sub(shr(sub(256, shl(3, n)), mload(s)),
                        shr(sub(256, shl(3, n)), 0x3030303030303030303030303030303030303030303030303030303030303030))
                    x := add(mul(and(shr(8, x), 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff), 10),
                        and(x, 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff))
                    x := add(mul(and(shr(16, x), 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff), 100),
                        and(x, 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff))
                    if lt(n, 5) {
                        // At most 4 digits: all in the lowest lane.
                        v := x
                        leave
                    }
                    x := add(mul(and(shr(32, x), 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff), 10000),
                        and(x, 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff))
                    x := add(mul(and(shr(64, x), 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff), 100000000),
                        and(x, 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff))
                    v := add(mul(shr(128, x), 10000000000000000), and(x, 0xffffffffffffffffffffffffffffffff))
                    leave
                }
                for {} lt(s, e) { s := add(s, 1) } {
                    let d := sub(byte(0, mload(s)), 0x30)
                    if gt(v, div(sub(not(0), d), 10)) {
                        ok := 0
                        leave
                    }
                    v := add(mul(v, 10), d)
                }
            }
            // A number of plain digits at `p` (no sign, fraction, exponent or leading zero): value, position after
            // (0 when the value is anything else; the caller then validates it as JSON).
            function plainNumber(p) -> v, q {
                let e := digitsEnd(p)
                let c := byte(0, mload(e))
                if iszero(or(or(eq(c, 0x2e), eq(or(c, 0x20), 0x65)), eq(e, p))) {
                    let ok := 0
                    v, ok := decimal(p, e)
                    if ok { q := e }
                }
            }
            // An RFC 3339 date-time at `s`: `YYYY-MM-DD`, `T` (or `t`), `HH:MM:SS`, an optional fraction (`.` and 1 to 9
            // digits), then `Z` (or `z`) or a numeric offset `+hh:mm` / `-hh:mm` (hours 00-23, minutes 00-59). Returns
            // the Unix second (the offset applied, the fraction dropped) and the position after the time; `t` is 0
            // when the bytes are not such a date-time, its year is before 1970 or its instant is not after
            // 1970-01-01T00:00:00Z (0 is "no date" for the oracle).
            function isoTime(s) -> t, e {
                let w := mload(s)
                // `-` `-` `T` `:` `:` at bytes 4, 7, 10, 13, 16, compared on `x`, `w` with bit 5 set at bytes 10 and 23
                // (so that `t` reads as `T` and `z` as `Z`; `+` has it already). The two forms with milliseconds that
                // the service writes skip the general suffix below, each recognised in one comparison: a JavaScript
                // `Date`'s, `.` at 19, three digits and `Z` at 23, and a database's, the same with `+00:00` at 23-28
                // (`plus`).
                let x := or(w, 0x0000000000000000000020000000000000000000000000200000000000000000)
                let millis := eq(and(x, 0x00000000ff0000ff0000ff0000ff0000ff0000ff000000ff0000000000000000),
                    0x000000002d00002d00007400003a00003a00002e0000007a0000000000000000)
                // Digits at bytes 0-3, 5-6, 8-9, 11-12, 14-15, 17-18, and 20-22 in the forms with milliseconds.
                let dm := 0xffffffff00ffff00ffff00ffff00ffff00ffff00ffffff000000000000000000
                let plus := 0
                if iszero(millis) {
                    plus := eq(and(x, 0x00000000ff0000ff0000ff0000ff0000ff0000ff000000ffffffffffff000000),
                        0x000000002d00002d00007400003a00003a00002e0000002b30303a3030000000)
                    millis := plus
                    if iszero(plus) {
                        if iszero(eq(and(x, 0x00000000ff0000ff0000ff0000ff0000ff000000000000000000000000000000),
                            0x000000002d00002d00007400003a00003a000000000000000000000000000000)) { leave }
                        dm := 0xffffffff00ffff00ffff00ffff00ffff00ffff00000000000000000000000000
                    }
                }
                let local := civilSeconds(w, dm)
                if iszero(local) { leave }
                // `civilSeconds` counts from one second before the epoch, so that 0 can say "not a date".
                local := sub(local, 1)
                switch millis
                case 1 {
                    t := local
                    e := add(add(s, 24), mul(plus, 5))
                }
                default {
                    let end, east, sign := timeSuffix(add(s, 19))
                    if iszero(end) { leave }
                    e := end
                    // Local time to UTC: east of UTC is earlier, west later. An instant at or before the epoch is 0.
                    switch sign
                    case 1 { if gt(local, east) { t := sub(local, east) } }
                    default { t := add(local, east) }
                }
            }
            // The local time in `w` (`YYYY-MM-DDTHH:MM:SS`, separators already checked; `dm` marks its digit bytes)
            // plus one second, or 0 when a byte is not a digit or the date or time does not exist (year before 1970,
            // month 0 or 13, day 0 or past the month's end, hour 24, minute 60, second 60).
            function civilSeconds(w, dm) -> t {
                // Each digit byte is 0x30-0x39: high nibble 0 after the xor and low nibble at most 9.
                let tt := and(xor(w, 0x3030303030303030303030303030303030303030303030303030303030303030), dm)
                if and(or(tt, add(tt, 0x0606060606060606060606060606060606060606060606060606060606060606)),
                    0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0) { leave }
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
                if or(or(lt(year, 1970), or(iszero(month), gt(month, 12))), or(iszero(day), gt(day, dim))) { leave }
                // Hours (byte 11) at most 23, minutes (14) and seconds (17) at most 59: bit 7 of each byte after adding
                // 0x80 - 24 or 0x80 - 60 (the pairs are at most 99, so no carry leaves a byte).
                if and(add(and(pairs, 0x0000000000000000000000ff0000ff0000ff0000000000000000000000000000),
                    0x0000000000000000000000680000440000440000000000000000000000000000),
                    0x0000000000000000000000800000800000800000000000000000000000000000) { leave }
                // Days from 1970-01-01 (H. Hinnant's days_from_civil with years counted from March 1, here without
                // eras: 365 y + y/4 - y/100 + y/400 for the year, then the days before the month from a table, 16
                // bits a month).
                year := sub(year, lt(month, 3))
                day := add(add(add(mul(year, 365), shr(2, year)), sub(div(year, 400), div(year, 100))),
                    add(and(shr(shl(4, month), 0x11300f500d600b80099007a005c003d001f0000015101320000), 0xffff), day))
                // Hours, minutes and seconds (bytes 11, 14, 17 of `pairs`, moved to bits 48, 24, 0) summed by one
                // multiplication: bits 48-71 of x (3600 + 60 * 2^24 + 2^48) are h * 3600 + m * 60 + s.
                t := add(add(mul(sub(day, 719469), 86400),
                    and(shr(48, mul(and(shr(112, pairs), 0xff0000ff0000ff), 0x100003c000e10)), 0xffffff)), 1)
            }
            // After the seconds, at `p`: an optional fraction (`.` and 1 to 9 digits), then `Z`, `z`, `+hh:mm` or
            // `-hh:mm` (hours 00-23, minutes 00-59). The position after it (0 when it is none of these), the offset in
            // seconds, and 1 when the offset is east of UTC (`+`).
            function timeSuffix(p) -> e, east, sign {
                let c := byte(0, mload(p))
                if eq(c, 0x2e) {
                    let f := digitsEnd(add(p, 1))
                    if or(eq(f, add(p, 1)), gt(sub(f, p), 10)) { leave }
                    p := f
                    c := byte(0, mload(p))
                }
                if eq(or(c, 0x20), 0x7a) {
                    e := add(p, 1)
                    leave
                }
                // `+hh:mm` or `-hh:mm`: digits at bytes 1-2 and 4-5 (a byte below `0` wraps to a large value), `:`
                // at byte 3.
                if iszero(or(eq(c, 0x2b), eq(c, 0x2d))) { leave }
                let offsetHours := add(mul(sub(byte(1, mload(p)), 0x30), 10), sub(byte(2, mload(p)), 0x30))
                let tens := sub(byte(4, mload(p)), 0x30)
                let units := sub(byte(5, mload(p)), 0x30)
                if or(or(gt(sub(byte(1, mload(p)), 0x30), 2), gt(sub(byte(2, mload(p)), 0x30), 9)),
                    or(or(gt(offsetHours, 23), iszero(eq(byte(3, mload(p)), 0x3a))), or(gt(tens, 5), gt(units, 9)))) { leave }
                east := add(mul(offsetHours, 3600), mul(add(mul(tens, 10), units), 60))
                sign := eq(c, 0x2b)
                e := add(p, 6)
            }
            // A date field at `p`: a string holding exactly one RFC 3339 date-time (every byte checked by isoTime, so
            // no scan), stored at `slot` as Unix seconds; the position after it, or 0.
            function dateField(p, slot) -> q {
                if eq(byte(0, mload(p)), 0x22) {
                    let t, e := isoTime(add(p, 1))
                    if and(gt(t, 0), eq(byte(0, mload(e)), 0x22)) {
                        mstore(slot, t)
                        q := add(e, 1)
                    }
                }
            }
            // Reads the value of field `id` at `p` into `out`; the position after it, or 0 when the value is valid
            // JSON (or not yet known to be invalid) but not in the field's form.
            function readField(id, p, out) -> q {
                switch id
                case 0 { q := agentIdField(p, out) }
                case 3 { q := ownerField(p, out) }
                case 4 { q := scoreField(p, out) }
                case 12 {
                    // found: only `true` (a block that says `false` is a wallet's proof of absence, not an agent's
                    // record).
                    if eq(shr(224, mload(p)), 0x74727565) { q := add(p, 4) }
                }
                default {
                    switch gt(id, 6)
                    case 1 { q := dateField(p, add(out, shl(5, id))) } // issuedAt (7), verifiedAt (8), expiry (9)
                    default { q := nameField(id, p, out) } // chain (1), registry (2), tier (5), sybilSeverity (6)
                }
            }
            // The readers of readField, one per form.
            function agentIdField(p, out) -> q {
                // agentId: "123" (at most 2^256 - 1) or 123 (at most 2^53 - 1, what JSON.parse keeps exactly).
                let v := 0
                let ok := 0
                switch byte(0, mload(p))
                case 0x22 {
                    // Digits up to the closing quote: every byte is checked, so no scan.
                    let s := add(p, 1)
                    let e := digitsEnd(s)
                    if iszero(eq(byte(0, mload(e)), 0x22)) { leave }
                    v, ok := decimal(s, e)
                    if iszero(ok) { leave }
                    q := add(e, 1)
                }
                default {
                    let next := 0
                    v, next := plainNumber(p)
                    if or(iszero(next), gt(v, 0x1fffffffffffff)) { leave }
                    q := next
                }
                mstore(out, v)
            }
            function ownerField(p, out) -> q {
                // owner: "0x" + 40 hex digits (every byte checked, so no scan), or null.
                if eq(shr(224, mload(p)), 0x6e756c6c) {
                    q := add(p, 4)
                    leave
                }
                let s := add(p, 1)
                let prefix := shr(240, mload(s))
                if iszero(and(and(eq(byte(0, mload(p)), 0x22), eq(byte(0, mload(add(s, 42))), 0x22)),
                    or(eq(prefix, 0x3078), eq(prefix, 0x3058)))) { leave }
                // 32 hex digits, then 8 (padded with "0"s to a word). Their value is left to `parse` (`_ownerAt`):
                // `owner` holds where they are.
                for { let i := 0 } lt(i, 2) { i := add(i, 1) } {
                    let x := mload(add(s, add(2, shl(5, i))))
                    if i { x := or(and(x, shl(192, not(0))), 0x303030303030303030303030303030303030303030303030) }
                    if iszero(hexDigits(x)) { leave }
                }
                mstore(add(out, 0x60), add(s, 2))
                q := add(s, 43)
            }
            function scoreField(p, out) -> q {
                // score: plain digits, 0-MAX_SCORE (TrustConstants.MAX_SCORE = 100).
                let v, next := plainNumber(p)
                if or(iszero(next), gt(v, 100)) { leave }
                mstore(add(out, 0x80), v)
                q := next
            }
            // tier at `p`: the four names compared with their quoted texts, then nameField for any other value.
            function tierField(p, out) -> q {
                let w := mload(p)
                let code := 0xff
                switch shr(184, w)
                case 0x22666c616767656422 { code := 0 } // "flagged"
                case 0x226c696d6974656422 { code := 1 } // "limited"
                default {
                    if eq(shr(160, w), 0x22646576656c6f70696e6722) { code := 2 } // "developing"
                    if eq(shr(152, w), 0x2265737461626c697368656422) { code := 3 } // "established"
                }
                if eq(code, 0xff) {
                    q := nameField(5, p, out)
                    leave
                }
                mstore(add(out, 0xa0), code)
                q := add(p, byte(code, 0x09090c0d00000000000000000000000000000000000000000000000000000000))
            }
            function nameField(id, p, out) -> q {
                if eq(id, 6) {
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
                q := next
            }
            // The signed block in the service's own layout (what `JSON.stringify` writes for its object: its 12
            // members in its order, no whitespace) at `p`: the position after the object, or 0 at the first member that
            // does not fit, where the general reader resumes (`resumeAt`, right after the value of the last member
            // read; 0 when not even the first member fits), with the `seen` bits of the members read so far. Each
            // member's separator and name (`{"agentId":`, `,"chain":`, ...) is compared with its text in one word; the
            // values are read by the same readers, so the values and the refusals are the general reader's.
            function serviceLayout(p, out) -> q, resumeAt, seen {
                if iszero(eq(shr(168, mload(p)), 0x7b226167656e744964223a)) { leave } // {"agentId":
                p := agentIdField(add(p, 11), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x1
                if iszero(eq(shr(184, mload(p)), 0x2c22636861696e223a)) { leave } // ,"chain":
                p := nameField(1, add(p, 9), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x3
                if iszero(eq(shr(160, mload(p)), 0x2c227265676973747279223a)) { leave } // ,"registry":
                p := nameField(2, add(p, 12), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x7
                if iszero(eq(shr(184, mload(p)), 0x2c226f776e6572223a)) { leave } // ,"owner":
                p := ownerField(add(p, 9), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0xf
                if iszero(eq(shr(184, mload(p)), 0x2c2273636f7265223a)) { leave } // ,"score":
                p := scoreField(add(p, 9), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x1f
                if iszero(eq(shr(192, mload(p)), 0x2c2274696572223a)) { leave } // ,"tier":
                p := tierField(add(p, 8), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x3f
                if iszero(eq(shr(176, mload(p)), 0x2c22626164676573223a)) { leave } // ,"badges":
                p := add(p, 10)
                let badgesEnd := plainStrings(p)
                if iszero(badgesEnd) { badgesEnd := skipValue(p) }
                p := badgesEnd
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x43f
                if iszero(eq(shr(120, mload(p)), 0x2c22737962696c5365766572697479223a)) { leave } // ,"sybilSeverity":
                p := nameField(6, add(p, 17), out)
                if iszero(p) { leave }
                resumeAt := p
                seen := 0x47f
                if iszero(eq(shr(128, mload(p)), 0x2c22737962696c5369676e616c73223a)) { leave } // ,"sybilSignals":
                p := add(p, 16)
                let signalsEnd := plainStrings(p)
                if iszero(signalsEnd) { signalsEnd := skipValue(p) }
                p := signalsEnd
                if iszero(p) { leave }
                resumeAt := p
                seen := 0xc7f
                if iszero(eq(shr(160, mload(p)), 0x2c226973737565644174223a)) { leave } // ,"issuedAt":
                p := dateField(add(p, 12), add(out, 0xe0))
                if iszero(p) { leave }
                resumeAt := p
                seen := 0xcff
                if iszero(eq(shr(144, mload(p)), 0x2c2276657269666965644174223a)) { leave } // ,"verifiedAt":
                p := dateField(add(p, 14), add(out, 0x100))
                if iszero(p) { leave }
                resumeAt := p
                seen := 0xdff
                if iszero(eq(shr(176, mload(p)), 0x2c22657870697279223a)) { leave } // ,"expiry":
                p := dateField(add(p, 10), add(out, 0x120))
                if iszero(p) { leave }
                resumeAt := p
                seen := 0xfff
                if iszero(eq(byte(0, mload(p)), 0x7d)) { leave }
                q := add(p, 1)
            }

            // ---- JWS header members ----
            // `selector(string member, uint256 offset)` for the header member whose name starts at `p`.
            function failHeaderMember(selector, p, at) {
                let name := add(p, 1)
                let nameEnd, escaped := stringEnd(firstStop(name))
                failMember(selector, name, sub(nameEnd, name), at)
            }
            // One member of a JWS protected header at `p`; the position after its value and the updated `seen` bits.
            // Refuses a duplicate name, a refused member, or a value the kit does not accept, naming the member.
            function headerMember(p, ctx, seen, out) -> q, seenAfter {
                let id, valueAt := knownName(p, ctx)
                seenAfter := seen
                switch lt(id, 13)
                case 1 {
                    let bit := shl(id, 1)
                    if and(seen, bit) { failHeaderMember(errorOf(3), p, p) }
                    seenAfter := or(seen, bit)
                    // crit, jku, x5u, jwk, x5c, b64.
                    if gt(id, 2) { failHeaderMember(errorOf(2), p, p) }
                    q := headerValue(id, valueAt, out)
                    if iszero(q) { failHeaderMember(errorOf(4), p, valueAt) }
                }
                default {
                    rememberOtherName(p, ctx)
                    q := skipValue(valueAt)
                }
            }
            // The value of header member `id` (0 alg, 1 kid, 2 typ) at `p`; the position after it, or 0 when the
            // kit does not accept it. Records where the kid is in `out`.
            function headerValue(id, p, out) -> q {
                let s, len, next, escaped := stringAt(p)
                if or(iszero(next), escaped) { leave }
                switch id
                case 0 { if iszero(and(eq(len, 5), eq(shr(216, mload(s)), 0x4553323536))) { leave } } // "ES256"
                case 1 {
                    mstore(out, sub(s, mload(0x00)))
                    mstore(add(out, 0x20), len)
                }
                default {
                    // typ: "JWT" or "JOSE".
                    if iszero(or(and(eq(len, 3), eq(shr(232, mload(s)), 0x4a5754)),
                        and(eq(len, 4), eq(shr(224, mload(s)), 0x4a4f5345)))) { leave }
                }
                q := next
            }
            // Refuses a header member name (at `p`) that is not a known one and was met before: the hashes of such
            // names are kept after the context (count at `ctx + 0x220`, hashes from `ctx + 0x240`).
            function rememberOtherName(p, ctx) {
                let name := add(p, 1)
                // (`escaped` is 0 here: knownName refused an escaped name.)
                let nameEnd, escaped := stringEnd(firstStop(name)) // solhint-disable-line no-unused-vars
                let h := keccak256(name, sub(nameEnd, name))
                let count := mload(add(ctx, 0x220))
                let list := add(ctx, 0x240)
                for { let i := 0 } lt(i, count) { i := add(i, 1) } {
                    if eq(mload(add(list, shl(5, i))), h) { failMember(errorOf(3), name, sub(nameEnd, name), p) }
                }
                mstore(add(list, shl(5, count)), h)
                mstore(add(ctx, 0x220), add(count, 1))
                mstore(0x40, add(list, shl(5, add(count, 1))))
            }
            // ---- the top-level object ----
            // Context at `ctx`: the known names' entries (0x20 + 32 id, see knownName), the perfect hash's magic
            // (0x1c0) and table (0x1e0), the word the document's end overwrote (0x200), then, for a header, the count
            // (0x220) and hashes (0x240 on) of its other member names.
            // (The document's start is kept at 0x00 rather than in a variable: the stack is full.) The fields are
            // allocated first, one word past the free memory pointer (the document is allocated, so the word after
            // it ends before them), 10 words whichever the document.
            mstore(0x00, add(doc, 0x20))
            let end := add(mload(0x00), mload(doc))
            fields := add(mload(0x40), 0x20)
            let ctx := add(fields, 0x140)
            mstore(add(ctx, 0x200), mload(end))
            mstore(end, 0)
            switch header
            case 0 {
                // `owner` and `sybilSeverity` are left unwritten by `null`; every other field is required.
                mstore(add(fields, 0x60), 0)
                mstore(add(fields, 0xc0), 0)
                mstore(0x40, add(ctx, 0x220))
            }
            default {
                // Where the kid is, left unwritten without one.
                mstore(fields, 0)
                mstore(add(fields, 0x20), 0)
                mstore(add(ctx, 0x220), 0)
                mstore(0x40, add(ctx, 0x240))
                mstore(add(ctx, 0x20), 0x05000000000000000000000000000000000000000000000000000022616c6722) // "alg"
                mstore(add(ctx, 0x40), 0x050000000000000000000000000000000000000000000000000000226b696422) // "kid"
                mstore(add(ctx, 0x60), 0x0500000000000000000000000000000000000000000000000000002274797022) // "typ"
                mstore(add(ctx, 0x80), 0x0600000000000000000000000000000000000000000000000000226372697422) // "crit"
                mstore(add(ctx, 0xa0), 0x050000000000000000000000000000000000000000000000000000226a6b7522) // "jku"
                mstore(add(ctx, 0xc0), 0x0500000000000000000000000000000000000000000000000000002278357522) // "x5u"
                mstore(add(ctx, 0xe0), 0x050000000000000000000000000000000000000000000000000000226a776b22) // "jwk"
                mstore(add(ctx, 0x100), 0x0500000000000000000000000000000000000000000000000000002278356322) // "x5c"
                mstore(add(ctx, 0x120), 0x0500000000000000000000000000000000000000000000000000002262363422) // "b64"
                mstore(add(ctx, 0x1c0), 0xde8cdc5bb28f0392f0911aa78cbe5feccebaf7f8ba1391a268acf9ddbfaff17d)
                mstore(add(ctx, 0x1e0), 0x0500000000000400000200000000000000060000080000000900070003000100)
            }
            // The first field error of the signed block, in document order (reported after the scan): kind (1
            // invalid, 2 duplicate) << 248 | field << 240 | offset.
            let firstError := 0
            let seen := 0
            let p := 0
            let resumeAt := 0
            // The service's own layout first: most blocks are read there; the general reader takes any other from
            // the first member that does not fit.
            if iszero(header) { p, resumeAt, seen := serviceLayout(mload(0x00), fields) }
            if iszero(p) {
                if iszero(header) {
                    // The known names, for knownName (the service's layout compares its own texts).
                    mstore(add(ctx, 0x20), 0x0900000000000000000000000000000000000000000000226167656e74496422) // "agentId"
                    mstore(add(ctx, 0x40), 0x0700000000000000000000000000000000000000000000000022636861696e22) // "chain"
                    mstore(add(ctx, 0x60), 0x0a00000000000000000000000000000000000000000022726567697374727922) // "registry"
                    mstore(add(ctx, 0x80), 0x07000000000000000000000000000000000000000000000000226f776e657222) // "owner"
                    mstore(add(ctx, 0xa0), 0x070000000000000000000000000000000000000000000000002273636f726522) // "score"
                    mstore(add(ctx, 0xc0), 0x0600000000000000000000000000000000000000000000000000227469657222) // "tier"
                    // "sybilSeverity", then (same prefix) "sybilSignals":
                    mstore(add(ctx, 0xe0), 0x0f0c00000000000000000000000000000022737962696c536576657269747922) // "sybilSeverity"
                    mstore(add(ctx, 0x100), 0x0a00000000000000000000000000000000000000000022697373756564417422) // "issuedAt"
                    mstore(add(ctx, 0x120), 0x0c00000000000000000000000000000000000000227665726966696564417422) // "verifiedAt"
                    mstore(add(ctx, 0x140), 0x0800000000000000000000000000000000000000000000002265787069727922) // "expiry"
                    mstore(add(ctx, 0x160), 0x0800000000000000000000000000000000000000000000002262616467657322) // "badges"
                    mstore(add(ctx, 0x180), 0x0e000000000000000000000000000000000022737962696c5369676e616c7322) // "sybilSignals"
                    mstore(add(ctx, 0x1a0), 0x0700000000000000000000000000000000000000000000000022666f756e6422) // "found"
                    mstore(add(ctx, 0x1c0), 0xe86d8d91dd9e4080cf653c90cdf7a713dfd2255c28b1d4190c3106c78c21766a)
                    mstore(add(ctx, 0x1e0), 0x00000000000a09030500010000000d000000000000000700020b040806000000)
                }
                let empty := 0
                switch resumeAt
                case 0 {
                    p := mload(0x00)
                    if iszero(eq(byte(0, mload(p)), 0x7b)) {
                        p := ws(p)
                        if iszero(eq(byte(0, mload(p)), 0x7b)) { malformed(p) }
                    }
                    p := add(p, 1)
                    if lt(byte(0, mload(p)), 0x21) { p := ws(p) }
                    if eq(byte(0, mload(p)), 0x7d) {
                        p := add(p, 1)
                        empty := 1
                    }
                }
                default {
                    // After a member's value: a comma and the next member, or the end of the object.
                    p := resumeAt
                    if lt(byte(0, mload(p)), 0x21) { p := ws(p) }
                    switch byte(0, mload(p))
                    case 0x2c {
                        p := add(p, 1)
                        if lt(byte(0, mload(p)), 0x21) { p := ws(p) }
                    }
                    case 0x7d {
                        p := add(p, 1)
                        empty := 1
                    }
                    default { malformed(p) }
                }
                if iszero(empty) {
                    for {} 1 {} {
                        switch header
                        case 0 {
                            // A member of the signed block, inline (the hot loop): its name, then its value.
                            let id, valueAt := knownName(p, ctx)
                            let q := 0
                            if lt(id, 13) {
                                let bit := shl(id, 1)
                                switch and(seen, bit)
                                case 0 {
                                    seen := or(seen, bit)
                                    // Every known name but badges (10) and sybilSignals (11), only validated.
                                    if iszero(eq(shr(1, id), 5)) {
                                        q := readField(id, valueAt, fields)
                                        if iszero(or(q, firstError)) {
                                            firstError := or(or(shl(248, 1), shl(240, id)), sub(valueAt, mload(0x00)))
                                        }
                                    }
                                }
                                default {
                                    if iszero(firstError) { firstError := or(or(shl(248, 2), shl(240, id)), sub(p, mload(0x00))) }
                                }
                            }
                            if iszero(q) { q := skipValue(valueAt) }
                            p := q
                        }
                        default { p, seen := headerMember(p, ctx, seen, fields) }
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
            }
            if iszero(eq(p, end)) {
                p := ws(p)
                if iszero(eq(p, end)) { malformed(p) }
            }
            mstore(end, mload(add(ctx, 0x200)))
            switch header
            case 0 {
                if firstError {
                    // AttestationFieldInvalid (kind 1) or AttestationFieldDuplicate (kind 2).
                    let selector := errorOf(add(1, byte(0, firstError)))
                    revertWith(selector, and(shr(240, firstError), 0xff), and(firstError, 0xffffffffffffffffffffffffffffffff), 2)
                }
                if iszero(eq(and(seen, 0x3ff), 0x3ff)) {
                    let missing := 0
                    for {} and(seen, 1) { seen := shr(1, seen) } { missing := add(missing, 1) }
                    revertWith(errorOf(4), missing, 0, 1)
                }
            }
            default {
                mstore(add(fields, 0x40), and(seen, 1))
                mstore(add(fields, 0x60), and(shr(1, seen), 1))
            }
        }
    }
}
