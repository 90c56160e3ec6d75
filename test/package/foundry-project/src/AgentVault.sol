// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustGated} from "trustgate/contracts/TrustGated.sol";

/// A user's contract: pays out for an agent only while the trust oracle vouches for it.
contract AgentVault is TrustGated {
    event Withdrawn(uint256 indexed agentId, address indexed by, uint256 amount);

    constructor(TrustGateConfig memory config, address owner) TrustGated(config, owner) {}

    function withdrawFor(uint256 agentId, uint256 amount) external onlyTrustedAgent(agentId) {
        emit Withdrawn(agentId, msg.sender, amount);
    }

    function withdrawWithAttestation(
        uint256 agentId,
        string calldata kid,
        bytes calldata signedJson,
        bytes calldata signature
    ) external onlyTrustedAgentWithAttestation(agentId, kid, signedJson, signature) {
        emit Withdrawn(agentId, msg.sender, 0);
    }
}
