// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IERC8004IdentityRegistry
/// @notice The part of the ERC-8004 identity registry (`0x8004A169FB4a3325136EB29fA0ceB6D2e539a432` on Base,
///         Ethereum and other chains) that tells who controls an agent. The registry is an ERC-721: the
///         agent id is the token id.
interface IERC8004IdentityRegistry {
    /// @notice Owner of the agent's identity token; reverts when the agent does not exist.
    /// @param agentId The agent id (ERC-721 token id).
    /// @return The owner.
    function ownerOf(uint256 agentId) external view returns (address);

    /// @notice Account approved for this one agent token (ERC-721 `getApproved`).
    /// @param agentId The agent id.
    /// @return The approved account, or the zero address.
    function getApproved(uint256 agentId) external view returns (address);

    /// @notice Whether `operator` may manage every token of `owner` (ERC-721 `isApprovedForAll`).
    /// @param owner The token owner.
    /// @param operator The operator.
    /// @return True when approved.
    function isApprovedForAll(address owner, address operator) external view returns (bool);

    /// @notice The wallet the agent acts from, proven to the registry by a signature of that wallet.
    /// @param agentId The agent id.
    /// @return The agent wallet, or the zero address when none is set.
    function getAgentWallet(uint256 agentId) external view returns (address);
}
