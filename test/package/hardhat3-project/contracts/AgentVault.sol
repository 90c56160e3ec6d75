// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustGated} from "trustgate/contracts/TrustGated.sol";

/// @notice The README's gated contract, as a Hardhat 3 user writes it.
contract AgentVault is TrustGated {
    constructor(TrustGateConfig memory config, address owner) TrustGated(config, owner) {}

    /// @notice Reached only when the agent passes the policy and the caller controls it.
    function withdrawFor(uint256 agentId, uint256 amount) external onlyTrustedAgent(agentId) {}
}
