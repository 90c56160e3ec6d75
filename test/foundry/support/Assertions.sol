// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Assertions
/// @notice The few assertions the kit's forge suite needs, without forge-std: each failure reverts with the values
///         compared, so that forge prints them next to the fuzz input that broke the test.
abstract contract Assertions {
    /// @notice Two words that should be equal were not.
    /// @param what What was compared.
    /// @param actual The value found.
    /// @param expected The value required.
    error AssertionFailedUint(string what, uint256 actual, uint256 expected);

    /// @notice Two byte strings that should be equal were not.
    /// @param what What was compared.
    /// @param actual The bytes found.
    /// @param expected The bytes required.
    error AssertionFailedBytes(string what, bytes actual, bytes expected);

    /// @notice A condition that should hold did not.
    /// @param what The condition.
    error AssertionFailed(string what);

    /// @dev Reverts with both values unless `actual == expected`.
    function assertEq(uint256 actual, uint256 expected, string memory what) internal pure {
        if (actual != expected) revert AssertionFailedUint(what, actual, expected);
    }

    /// @dev Reverts with both byte strings unless they are equal.
    function assertEq(bytes memory actual, bytes memory expected, string memory what) internal pure {
        if (keccak256(actual) != keccak256(expected)) revert AssertionFailedBytes(what, actual, expected);
    }

    /// @dev Reverts unless `condition` holds.
    function assertTrue(bool condition, string memory what) internal pure {
        if (!condition) revert AssertionFailed(what);
    }
}
