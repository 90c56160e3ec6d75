// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IAgentAdmissionHook
/// @notice A pluggable admission check that a core contract (for example `AgentTaskBoard`) asks before letting an
///         account act for an AI agent. Like ERC-721's `onERC721Received`, the hook answers with a magic value: it
///         admits `(account, agentId)` only by returning exactly `IAgentAdmissionHook.admitAgent.selector`
///         (`bytes4(keccak256("admitAgent(address,uint256)"))`, ABI-encoded as one 32-byte word). Any other
///         answer, no answer, or a revert is a refusal; a hook should revert with a custom error that says why.
/// @dev The core calls the hook with `STATICCALL`, so a hook cannot change state or reenter the core. The core
///      must check the returned value, not merely that the call succeeded: a hook that does not implement this
///      exact function (a different signature, hence a different selector) then fails closed instead of being
///      silently bypassed.
interface IAgentAdmissionHook {
    /// @notice Decides whether `account` may act for `agentId` now.
    /// @param account The account acting for the agent (the core's caller, not the core itself).
    /// @param agentId The agent's id in the hook's agent registry.
    /// @return magic `IAgentAdmissionHook.admitAgent.selector` when admitted; the hook reverts otherwise.
    function admitAgent(address account, uint256 agentId) external view returns (bytes4 magic);
}
