// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IJwsHeaderReader} from "../interfaces/IJwsHeaderReader.sol";
import {TrustJwsLib} from "./TrustJwsLib.sol";

/// @title JwsHeaderReader
/// @notice The general check of a JWS protected header (`TrustJwsLib.requireHeader`: decoding, the general reader,
///         the key id) in a contract of its own. `AttestedTrustOracle` deploys one and calls it only for a header that
///         is not the one the service's signer writes (`{"alg":"ES256","kid":"<kid>"}`, which the oracle recognises
///         itself), which keeps the general reader's code, about 3 KB, out of the oracle's runtime code.
contract JwsHeaderReader is IJwsHeaderReader {
    /// @inheritdoc IJwsHeaderReader
    /// @dev As `TrustJwsLib.requireHeader`, with the same offsets (the header part starts the JWS).
    function requireHeader(bytes calldata header, string calldata kid) external pure {
        TrustJwsLib.requireHeader(header, header.length, kid);
    }
}
