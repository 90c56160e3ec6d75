// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {TrustConstants} from "../TrustConstants.sol";
import {TRUST_VM} from "./TrustVm.sol";

/// @notice A v2 signed block of the service's `/api/trust-check` attestation (kid `rnwy-trust-v2`), field for field in
///         the order the service writes them (the TypeScript `TrustSignedV2`).
/// @param agentId The agent's id (written as a decimal string).
/// @param chain The chain slug (`base`).
/// @param registry The registry name (`erc8004`).
/// @param owner The agent's owner (written lowercase; zero is written `null`).
/// @param score The score (0-95 on the live service).
/// @param tier The tier name (`flagged`, `limited`, `developing`, `established`).
/// @param badges The badge ids (snake_case), earned and warnings merged.
/// @param sybilSeverity The sybil severity name (`low` ... `heavy`), or empty for `null` (no sybil signal).
/// @param sybilSignals The sybil signal ids.
/// @param issuedAt When the score was computed (Unix seconds; written ISO 8601 with milliseconds, as
///        `Date.toISOString` does).
/// @param verifiedAt When the attestation was signed (Unix seconds).
/// @param expiry When it expires (Unix seconds; the service writes `verifiedAt` + 24 h).
struct TrustSignedV2 {
    uint256 agentId;
    string chain;
    string registry;
    address owner;
    uint8 score;
    string tier;
    string[] badges;
    string sybilSeverity;
    string[] sybilSignals;
    uint40 issuedAt;
    uint40 verifiedAt;
    uint40 expiry;
}

/// @notice A signed attestation ready for `AttestedTrustOracle.submitAttestationFor` or a gate's
///         `onlyTrustedAgentWithAttestation`.
/// @param kid The key id.
/// @param signedJson The exact signed bytes (`JSON.stringify(attestation.signed)`).
/// @param signature `r‖s`, 64 bytes (ES256 over `sha256(signedJson)`).
struct SignedTrustAttestation {
    string kid;
    bytes signedJson;
    bytes signature;
}

/// @title TrustTestAttestations
/// @notice Signs attestations in the service's v2 shape inside a forge test, with a fixed P-256 test key, for
///         `AttestedTrustOracle` (which verifies ES256 on-chain): the Solidity twin of the TypeScript
///         `trustSignedV2` / `signPayload`. The JSON is byte for byte what the service's `JSON.stringify` writes for
///         the same values (checked by the kit's tests against the TypeScript serializer).
/// @dev Signs with the `signP256` cheatcode (forge 1.7 has it). The test key is public: install it only on a test
///      chain (`setSigningKey(TEST_ATTESTATION_KID, TEST_ATTESTATION_KEY_X, TEST_ATTESTATION_KEY_Y)`).
library TrustTestAttestations {
    /// @notice Key id the test key is installed under by default (the service's current trust kid).
    string internal constant TEST_ATTESTATION_KID = "rnwy-trust-v2";

    /// @notice The test key's private scalar: `sha256("trustgate.testing.attestation-key") mod n`. Public: tests only.
    uint256 internal constant TEST_ATTESTATION_PRIVATE_KEY =
        0x5ef3bd815460ee3b5cea4e6564a15e84a8800990c3313871ee790f55abc91712;

    /// @notice The test key's public x coordinate.
    bytes32 internal constant TEST_ATTESTATION_KEY_X = 0xfa3078f022e6313a4296878fe14254c3e5c5e3ea2cac79457767d9b61e26d3c3;

    /// @notice The test key's public y coordinate.
    bytes32 internal constant TEST_ATTESTATION_KEY_Y = 0x85d747ef628b59d45871b5b006ec1187cba2952fbb948a8cff3c71cceb2a25f5;

    /// @notice Lifetime of an attestation as the service signs it (24 h after `verifiedAt`).
    uint40 internal constant ATTESTATION_LIFETIME_SECONDS = 24 hours;

    /// @notice Raised when a string field holds a character `JSON.stringify` would escape (not supported here).
    /// @param value The string.
    error UnsupportedJsonString(string value);

    /// @notice Raised for a sybil severity code above `TrustConstants.MAX_SYBIL_SEVERITY`.
    /// @param code The code.
    error UnknownSybilSeverity(uint8 code);

    /// @notice A v2 block for an agent on Base (`erc8004`) with the service's defaults: the tier of the score, no
    ///         badges and no signals, the sybil severity named after its code (0 is `null`), signed at
    ///         `verifiedAt`, expiring 24 h later.
    /// @param agentId The agent's id.
    /// @param owner The agent's owner (zero for `null`).
    /// @param score The score.
    /// @param sybilSeverity The sybil severity code (0 none ... 4 heavy).
    /// @param issuedAt When the score was computed (the record date the oracle stores).
    /// @param verifiedAt When the attestation is signed.
    /// @return signed The block.
    function trustSignedV2(
        uint256 agentId,
        address owner,
        uint8 score,
        uint8 sybilSeverity,
        uint40 issuedAt,
        uint40 verifiedAt
    ) internal pure returns (TrustSignedV2 memory signed) {
        signed.agentId = agentId;
        signed.chain = "base";
        signed.registry = "erc8004";
        signed.owner = owner;
        signed.score = score;
        signed.tier = tierName(score);
        signed.badges = new string[](0);
        signed.sybilSeverity = sybilSeverityName(sybilSeverity);
        signed.sybilSignals = new string[](0);
        signed.issuedAt = issuedAt;
        signed.verifiedAt = verifiedAt;
        signed.expiry = verifiedAt + ATTESTATION_LIFETIME_SECONDS;
    }

    /// @notice Signs a block with the test key under `TEST_ATTESTATION_KID`.
    /// @param signed The block.
    /// @return attestation The kid, the exact signed bytes and the signature.
    function signTrustAttestation(TrustSignedV2 memory signed)
        internal
        pure
        returns (SignedTrustAttestation memory attestation)
    {
        return signTrustAttestation(signed, TEST_ATTESTATION_KID, TEST_ATTESTATION_PRIVATE_KEY);
    }

    /// @notice Signs a block with a given P-256 key under a given kid.
    /// @param signed The block.
    /// @param kid The key id.
    /// @param privateKey The P-256 private scalar.
    /// @return attestation The kid, the exact signed bytes and the signature.
    function signTrustAttestation(TrustSignedV2 memory signed, string memory kid, uint256 privateKey)
        internal
        pure
        returns (SignedTrustAttestation memory attestation)
    {
        attestation.kid = kid;
        attestation.signedJson = toJson(signed);
        attestation.signature = signPayload(attestation.signedJson, privateKey);
    }

    /// @notice Signs bytes as the service does: ES256, that is P-256 over `sha256(payload)`, as 64 bytes `r‖s`.
    /// @param payload The bytes to sign.
    /// @param privateKey The P-256 private scalar.
    /// @return signature `r‖s`.
    function signPayload(bytes memory payload, uint256 privateKey) internal pure returns (bytes memory signature) {
        (bytes32 r, bytes32 s) = TRUST_VM.signP256(privateKey, sha256(payload));
        return abi.encodePacked(r, s);
    }

    /// @notice The block as `JSON.stringify` writes it: no whitespace, the fields in the service's order.
    /// @param signed The block.
    /// @return json The exact bytes the service signs.
    function toJson(TrustSignedV2 memory signed) internal pure returns (bytes memory json) {
        json = abi.encodePacked(
            "{\"agentId\":\"",
            Strings.toString(signed.agentId),
            "\",\"chain\":",
            _quoted(signed.chain),
            ",\"registry\":",
            _quoted(signed.registry),
            ",\"owner\":",
            signed.owner == address(0) ? bytes("null") : _quoted(Strings.toHexString(signed.owner)),
            ",\"score\":",
            Strings.toString(signed.score)
        );
        json = abi.encodePacked(
            json,
            ",\"tier\":",
            _quoted(signed.tier),
            ",\"badges\":",
            _array(signed.badges),
            ",\"sybilSeverity\":",
            bytes(signed.sybilSeverity).length == 0 ? bytes("null") : _quoted(signed.sybilSeverity),
            ",\"sybilSignals\":",
            _array(signed.sybilSignals)
        );
        json = abi.encodePacked(
            json,
            ",\"issuedAt\":\"",
            isoTime(signed.issuedAt),
            "\",\"verifiedAt\":\"",
            isoTime(signed.verifiedAt),
            "\",\"expiry\":\"",
            isoTime(signed.expiry),
            "\"}"
        );
    }

    /// @notice ISO 8601 in UTC with milliseconds, as `new Date(seconds * 1000).toISOString()` writes it.
    /// @param timestamp Unix seconds (years up to 9999).
    /// @return The text, `YYYY-MM-DDTHH:MM:SS.000Z`.
    function isoTime(uint256 timestamp) internal pure returns (string memory) {
        (uint256 year, uint256 month, uint256 day) = _civilFromDays(timestamp / 1 days);
        uint256 secondsOfDay = timestamp % 1 days;
        return string(
            abi.encodePacked(
                _digits(year, 4),
                "-",
                _digits(month, 2),
                "-",
                _digits(day, 2),
                "T",
                _digits(secondsOfDay / 1 hours, 2),
                ":",
                _digits((secondsOfDay % 1 hours) / 1 minutes, 2),
                ":",
                _digits(secondsOfDay % 1 minutes, 2),
                ".000Z"
            )
        );
    }

    /// @notice The service's tier name of a score (`TrustConstants` boundaries).
    /// @param score The score.
    /// @return The name.
    function tierName(uint8 score) internal pure returns (string memory) {
        if (score >= TrustConstants.TIER_ESTABLISHED_MIN_SCORE) return "established";
        if (score >= TrustConstants.TIER_DEVELOPING_MIN_SCORE) return "developing";
        if (score >= TrustConstants.TIER_LIMITED_MIN_SCORE) return "limited";
        return "flagged";
    }

    /// @notice The service's sybil severity name of a code (`TrustConstants` codes); empty (`null`) for none.
    /// @param code The code.
    /// @return The name.
    function sybilSeverityName(uint8 code) internal pure returns (string memory) {
        if (code == TrustConstants.SYBIL_NONE) return "";
        if (code == TrustConstants.SYBIL_LOW) return "low";
        if (code == TrustConstants.SYBIL_MODERATE) return "moderate";
        if (code == TrustConstants.SYBIL_ELEVATED) return "elevated";
        if (code == TrustConstants.SYBIL_HEAVY) return "heavy";
        revert UnknownSybilSeverity(code);
    }

    /// @dev `"value"`, refusing characters JSON would escape.
    function _quoted(string memory value) private pure returns (bytes memory) {
        bytes memory b = bytes(value);
        for (uint256 i; i < b.length; ++i) {
            if (b[i] == "\"" || b[i] == "\\" || uint8(b[i]) < 0x20) revert UnsupportedJsonString(value);
        }
        return abi.encodePacked("\"", b, "\"");
    }

    /// @dev `["a","b"]`.
    function _array(string[] memory values) private pure returns (bytes memory out) {
        out = "[";
        for (uint256 i; i < values.length; ++i) {
            out = abi.encodePacked(out, i == 0 ? "" : ",", _quoted(values[i]));
        }
        out = abi.encodePacked(out, "]");
    }

    /// @dev `value` in decimal, left-padded with zeros to `width` digits.
    function _digits(uint256 value, uint256 width) private pure returns (bytes memory out) {
        out = new bytes(width);
        for (uint256 i = width; i > 0; --i) {
            out[i - 1] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
    }

    /// @dev Year, month and day of a count of days since 1970-01-01 (H. Hinnant's `civil_from_days`).
    function _civilFromDays(uint256 daysSinceEpoch) private pure returns (uint256 year, uint256 month, uint256 day) {
        uint256 z = daysSinceEpoch + 719_468;
        uint256 era = z / 146_097;
        uint256 doe = z - era * 146_097;
        uint256 yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        uint256 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        uint256 mp = (5 * doy + 2) / 153;
        day = doy - (153 * mp + 2) / 5 + 1;
        month = mp < 10 ? mp + 3 : mp - 9;
        year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    }
}
