// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title RawResponseOracle
/// @notice Test oracle that answers every call with configured raw bytes, or reverts with them, to show how a
///         gate handles an oracle that returns garbage (short answers, values that do not fit their types).
/// @dev Not for deployment to a live network.
contract RawResponseOracle {
    bytes private _response;
    bool private _reverts;

    /// @notice Sets the raw bytes every call answers with.
    /// @param response The bytes to return (or revert with).
    /// @param reverts Whether calls revert with `response` instead of returning it.
    function setResponse(bytes calldata response, bool reverts) external {
        _response = response;
        _reverts = reverts;
    }

    /// @notice Answers every call with the configured bytes, or reverts with them when so configured.
    /// @dev Not a simple fallback on purpose: answering any selector with garbage is this contract's whole job.
    fallback(bytes calldata) external returns (bytes memory) { // solhint-disable-line no-complex-fallback
        bytes memory response = _response;
        if (_reverts) {
            assembly ("memory-safe") {
                revert(add(response, 0x20), mload(response))
            }
        }
        return response;
    }
}
