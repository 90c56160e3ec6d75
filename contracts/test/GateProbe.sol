// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {GatedAction} from "./GatedAction.sol";
import {TrustRefusal} from "../TrustTypes.sol";

/// @title GateProbe
/// @notice Test account contract: in one transaction (so at one block timestamp) it asks a gate's
///         `trustVerdict` what would happen, then really calls the gated action, and reports both. It lets a
///         test compare the view with the enforced decision at exactly the same time.
/// @dev Not for deployment to a live network.
contract GateProbe {
    /// @notice Emitted by `probe` with the view's answer and the outcome of the real call.
    /// @param allowed What `trustVerdict` said.
    /// @param refusal The refusal `trustVerdict` gave.
    /// @param succeeded Whether the gated call went through.
    /// @param revertData The gated call's revert data (empty when it succeeded).
    event Probed(bool allowed, TrustRefusal refusal, bool succeeded, bytes revertData);

    /// @notice Asks `gate.trustVerdict(agentId, this)`, then calls `gate.act(agentId)` as this contract.
    /// @param gate The gate under test.
    /// @param agentId The agent to act as.
    function probe(GatedAction gate, uint256 agentId) external {
        (bool allowed, TrustRefusal refusal,) = gate.trustVerdict(agentId, address(this));
        try gate.act(agentId) {
            emit Probed(allowed, refusal, true, "");
        } catch (bytes memory revertData) {
            emit Probed(allowed, refusal, false, revertData);
        }
    }
}
