// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustJsonReader} from "./TrustJsonReader.sol";

/// @title TrustAttestationLib
/// @notice Reads the service's `/api/trust-check` signed block (v2, kid `rnwy-trust-v2`) on-chain, as the issuer wrote
///         it (a JWS payload, or the bytes a raw `sig` covers): its fields, in the form the service writes them. The
///         signature is checked by `TrustEs256Lib`, a JWS's parts and header by `TrustJwsLib`.
/// @dev The bytes are read by `TrustJsonReader`, one pass in assembly that validates the whole document as JSON
///      (RFC 8259, its notes say exactly what it accepts) while it reads, so that this library accepts exactly what the
///      kit's TypeScript verifier accepts and reads the same values. On top of the grammar:
///      - names are matched exactly, in any member order (the service's own layout is tried first, one word
///        comparison per name; from the first member that does not fit, a perfect hash over the known names, then one
///        word comparison);
///      - each known member appears at most once (`badges` and `sybilSignals` included: `JSON.parse` keeps the last
///        of two, a reader that stops at the first keeps another);
///      - the fields are read in the form the service writes them: `agentId` a decimal string (no sign, no leading
///        zero, at most 2^256 - 1) or a number of plain digits at most 2^53 - 1 (above it `JSON.parse` rounds),
///        `chain` a string of 1 to 32 bytes without escapes (the oracle looks it up among the `a-z 0-9 _ -` slugs of
///        `TrustChainSlugs` and its own table), `registry` a non-empty string without escapes, `owner` `"0x"` + 40
///        hex digits or `null`, `score` plain digits 0-`TrustConstants.MAX_SCORE`, `tier` and `sybilSeverity` one of
///        the names below, `issuedAt` / `verifiedAt` / `expiry` an RFC 3339 date-time without escapes,
///        `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1 to 9 digits, then `Z` or `+hh:mm` / `-hh:mm` (`t` and `z`
///        in either case; hours of the offset 00-23, minutes 00-59), read as the Unix second of the instant (the
///        offset applied, the fraction dropped: floor), the year from 1970 to 9999 and the instant after
///        1970-01-01T00:00:00Z;
///      - `found`, when present, is `true`: the service signs `{found: false, wallet, issuedAt}` for a wallet that owns
///        no agent, so a block that says anything else is no agent's record, whatever agent fields it carries
///        (`AttestationFieldInvalid(Found)`).
///      A document that is not valid JSON reverts at once (`AttestationJsonMalformed`, `AttestationJsonTooDeep`); a
///      field error (`AttestationFieldInvalid`, `AttestationFieldDuplicate`) is reported after the whole document
///      has been checked, the first one in document order, so that a document both malformed and wrong in a field
///      is refused as malformed, as `JSON.parse` would; `AttestationFieldMissing` comes last.
///
///      Codes (`TrustConstants`): tier `flagged` 0, `limited` 1, `developing` 2, `established` 3; sybil severity
///      `null` or `none` 0, `low` 1, `moderate` 2, `elevated` 3, `heavy` 4.
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

    /// @notice Reads the fields of a v2 signed block (see the library notes for what it accepts).
    /// @dev Reverts with `AttestationJsonMalformed`, `AttestationJsonTooDeep`, `AttestationFieldInvalid`,
    ///      `AttestationFieldDuplicate` or `AttestationFieldMissing`.
    /// @param json The exact signed bytes.
    /// @return att The fields.
    function parse(bytes memory json) internal pure returns (TrustAttestation memory att) {
        uint256 fields = TrustJsonReader.read(json, false);
        assembly ("memory-safe") {
            att := fields
        }
        att.owner = _ownerAt(att.owner);
    }

    /// @notice `parse`, without the owner's value: `owner` is zero, its form checked all the same (what the oracle reads,
    ///         which does not keep the owner).
    /// @param json The exact signed bytes.
    /// @return att The fields, `owner` zero.
    function parseRecord(bytes memory json) internal pure returns (TrustAttestation memory att) {
        uint256 fields = TrustJsonReader.read(json, false);
        assembly ("memory-safe") {
            att := fields
        }
        att.owner = address(0);
    }

    /// @dev The address whose 40 hex digits (already checked by the reader) start at memory position `digitsAt` (what
    ///      the reader leaves in `owner`), or zero for none (`null`): each digit's value is its low nibble, plus 9 for a
    ///      letter (bit 6 set), and the 40 nibbles are packed pairwise into 20 bytes.
    function _ownerAt(address digitsAt) private pure returns (address owner) {
        assembly ("memory-safe") {
            if digitsAt {
                let a := 0
                for { let i := 0 } lt(i, 2) { i := add(i, 1) } {
                    let x := mload(add(digitsAt, shl(5, i)))
                    if i { x := or(and(x, shl(192, not(0))), 0x303030303030303030303030303030303030303030303030) }
                    let v := add(and(x, 0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f),
                        mul(shr(6, and(x, 0x4040404040404040404040404040404040404040404040404040404040404040)), 9))
                    v := and(or(shr(4, v), v), 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff)
                    v := and(or(shr(8, v), v), 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff)
                    v := and(or(shr(16, v), v), 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff)
                    v := and(or(shr(32, v), v), 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff)
                    v := and(or(shr(64, v), v), 0xffffffffffffffffffffffffffffffff)
                    a := or(shl(128, a), v)
                }
                owner := shr(96, a)
            }
        }
    }
}
