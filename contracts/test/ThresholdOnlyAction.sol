// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ShortString, ShortStrings} from "@openzeppelin/contracts/utils/ShortStrings.sol";
import {ITrustOracle} from "../interfaces/ITrustOracle.sol";

/// @title ThresholdOnlyAction
/// @notice Baseline for `npm run bench`: the same action as `GatedAction`, gated the way existing consumers of
///         the oracle gate, with a single `meetsThreshold` call (no freshness, sybil or controller check).
///         Storage is laid out like `TrustGated` (oracle and threshold in one slot, agent domain immutable)
///         so that the gas comparison measures the checks, not the layout.
/// @dev Do not use this pattern in production: a stale or missing freshness check lets a months-old record
///      pass. It exists to be measured against.
contract ThresholdOnlyAction {
    using ShortStrings for ShortString;
    using ShortStrings for string;

    ITrustOracle private _oracle;
    uint8 private _threshold;
    uint256 private immutable _agentChainId;
    ShortString private immutable _agentRegistry;

    /// @notice How many times each agent acted.
    mapping(uint256 agentId => uint256) public actions;

    /// @notice Emitted on every successful action.
    /// @param agentId The agent that acted.
    /// @param account The account that acted for it.
    /// @param score The threshold the agent met (this gate never reads the score itself).
    event Acted(uint256 indexed agentId, address indexed account, uint8 score);

    /// @notice The agent's score is below the threshold (or it has no record).
    /// @param agentId The agent refused.
    /// @param threshold The threshold it did not meet.
    error BelowThreshold(uint256 agentId, uint8 threshold);

    /// @notice Deploys the baseline with its oracle, agent domain and threshold.
    /// @param oracle The oracle to read.
    /// @param agentChainId The chain on which agents are registered.
    /// @param agentRegistry The registry name.
    /// @param threshold The minimum score.
    constructor(address oracle, uint256 agentChainId, string memory agentRegistry, uint8 threshold) {
        _oracle = ITrustOracle(oracle);
        _threshold = threshold;
        _agentChainId = agentChainId;
        _agentRegistry = agentRegistry.toShortString();
    }

    /// @notice Takes the action as `agentId` if `meetsThreshold` says yes.
    /// @param agentId The agent acting.
    function act(uint256 agentId) external {
        uint8 threshold = _threshold;
        if (!_oracle.meetsThreshold(agentId, _agentChainId, _agentRegistry.toString(), threshold)) {
            revert BelowThreshold(agentId, threshold);
        }
        ++actions[agentId];
        emit Acted(agentId, msg.sender, threshold);
    }
}
