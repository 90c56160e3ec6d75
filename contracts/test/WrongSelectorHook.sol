// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAgentAdmissionHook} from "../interfaces/IAgentAdmissionHook.sol";

/// @title WrongSelectorHook
/// @notice Deliberately broken admission hook, for tests only. It reproduces the bug found in an existing
///         consumer of the trust oracle: its author computed the magic value from a different
///         signature than the one the core calls (`admitAgent(uint256,address)`, arguments swapped), so the value
///         never matches `IAgentAdmissionHook.admitAgent.selector`. It never reverts, i.e. it "admits" everyone.
///         A test that calls the hook directly and compares with `WRONG_MAGIC` passes; a core that checks the
///         magic value must refuse every agent when this hook is installed.
/// @dev Not for deployment to a live network.
contract WrongSelectorHook is IAgentAdmissionHook {
    /// @notice The value this hook returns: the selector of `admitAgent(uint256,address)`.
    bytes4 public constant WRONG_MAGIC = bytes4(keccak256("admitAgent(uint256,address)"));

    /// @notice Returns `WRONG_MAGIC` for every `(account, agentId)`; both arguments are ignored.
    /// @return magic `WRONG_MAGIC`, never the interface's selector.
    function admitAgent(address, uint256) external pure returns (bytes4 magic) {
        return WRONG_MAGIC;
    }
}
