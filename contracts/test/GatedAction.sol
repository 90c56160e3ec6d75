// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustGated} from "../TrustGated.sol";

/// @title GatedAction
/// @notice The smallest useful `TrustGated` consumer: an action that an agent may take only while it passes
///         the gate's policy. Used by the kit's tests and by `npm run bench` as the "all checks" side of the
///         gas comparison with `ThresholdOnlyAction`.
contract GatedAction is TrustGated {
    /// @notice How many times each agent acted.
    mapping(uint256 agentId => uint256) public actions;

    /// @notice Emitted on every successful action.
    /// @param agentId The agent that acted.
    /// @param account The account that acted for it.
    /// @param score The agent's score (0 when acting through the modifier, which does not return the record).
    event Acted(uint256 indexed agentId, address indexed account, uint8 score);

    /// @notice Deploys the action with its gate configuration.
    /// @param config Gate configuration (oracle, identity registry, agent domain, policy).
    /// @param initialOwner Owner of the gate's policy.
    constructor(TrustGateConfig memory config, address initialOwner) TrustGated(config, initialOwner) {}

    /// @notice Takes the action as `agentId`; reverts with the gate's custom errors when the agent does not pass.
    /// @param agentId The agent acting.
    function act(uint256 agentId) external {
        uint8 score = _requireTrustedAgent(agentId, msg.sender).score;
        ++actions[agentId];
        emit Acted(agentId, msg.sender, score);
    }

    /// @notice The action with the agent's signed attestation submitted in the same call, through the
    ///         `onlyTrustedAgentWithAttestation` modifier (the gate's oracle must be an `AttestedTrustOracle`).
    /// @param agentId The agent acting.
    /// @param kid The attestation's key id.
    /// @param signedJson The exact signed bytes.
    /// @param signature The signature, `r‖s`.
    function actWithAttestation(uint256 agentId, string calldata kid, bytes calldata signedJson, bytes calldata signature)
        external
        onlyTrustedAgentWithAttestation(agentId, kid, signedJson, signature)
    {
        ++actions[agentId];
        emit Acted(agentId, msg.sender, 0);
    }

    /// @notice The action with the agent's compact JWS attestation submitted in the same call, through the
    ///         `onlyTrustedAgentWithJwsAttestation` modifier (the gate's oracle must be an `AttestedTrustOracle`).
    /// @param agentId The agent acting.
    /// @param kid The attestation's key id.
    /// @param jws The compact JWS, as ASCII bytes.
    function actWithJwsAttestation(uint256 agentId, string calldata kid, bytes calldata jws)
        external
        onlyTrustedAgentWithJwsAttestation(agentId, kid, jws)
    {
        ++actions[agentId];
        emit Acted(agentId, msg.sender, 0);
    }

    /// @notice The same action through the `onlyTrustedAgent` modifier.
    /// @param agentId The agent acting.
    function actWithModifier(uint256 agentId) external onlyTrustedAgent(agentId) {
        ++actions[agentId];
        emit Acted(agentId, msg.sender, 0);
    }
}
