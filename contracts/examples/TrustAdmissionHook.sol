// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustGated} from "../TrustGated.sol";
import {IAgentAdmissionHook} from "../interfaces/IAgentAdmissionHook.sol";

/// @title TrustAdmissionHook
/// @notice An `IAgentAdmissionHook` that admits an agent only while the trust oracle vouches for it under the
///         hook's `TrustGated` policy (record present, fresh, not future-dated, score and sybil severity within
///         bounds, and, when the policy requires it, `account` controls the agent in the ERC-8004 registry).
/// @dev The account to check is passed explicitly because `msg.sender` is the core contract that calls the hook.
///      A refusal reverts with `TrustGated`'s custom errors (for example `TrustScoreTooLow(agentId, score,
///      minScore)`), which a core such as `AgentTaskBoard` lets bubble up unchanged. Deploy it with
///      `requireController = true` when the core pays or credits the account that acts for the agent: otherwise
///      anyone can act in the name of any trusted agent.
contract TrustAdmissionHook is TrustGated, IAgentAdmissionHook {
    /// @notice Deploys the hook with its gate configuration.
    /// @param config Gate configuration (oracle, identity registry, agent domain, policy).
    /// @param initialOwner Owner of the hook's policy and oracle.
    constructor(TrustGateConfig memory config, address initialOwner) TrustGated(config, initialOwner) {}

    /// @notice Admits `account` acting for `agentId` if the agent passes the policy; reverts with the gate's
    ///         custom error otherwise.
    /// @param account The account acting for the agent (checked by the controller check when the policy asks).
    /// @param agentId The agent's id in the hook's agent registry.
    /// @return magic Always `IAgentAdmissionHook.admitAgent.selector` (the function reverts instead of refusing).
    function admitAgent(address account, uint256 agentId) external view returns (bytes4 magic) {
        _requireTrustedAgent(agentId, account);
        return IAgentAdmissionHook.admitAgent.selector;
    }
}
