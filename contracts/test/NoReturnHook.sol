// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title NoReturnHook
/// @notice Deliberately broken admission hook, for tests only: it implements `admitAgent(address,uint256)` with
///         the right selector but returns nothing, as written by an author who believed that "not reverting"
///         means "admitted". A core must treat the empty answer as a refusal, not as success.
/// @dev Does not implement `IAgentAdmissionHook` (it cannot: the return type differs). Not for deployment.
contract NoReturnHook {
    /// @notice Accepts every `(account, agentId)` and returns no data; both arguments are ignored.
    /// @dev Empty on purpose: the missing return value is the bug this fixture reproduces.
    function admitAgent(address, uint256) external pure {} // solhint-disable-line no-empty-blocks
}
