// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustPolicy, TrustRecord, TrustRefusal} from "../TrustTypes.sol";

/// @title ITrustGated
/// @notice The outside view of a trust gate (`TrustGated` and every contract built on it): the errors a gated call
///         or a configuration change reverts with, the configuration events, the views that tell what the gate
///         enforces and what it would decide, and the owner's two setters. Front ends and off-chain code decode
///         refusals and read gates through this interface alone; the kit's TypeScript `trustGatedAbi` is generated
///         from it.
/// @dev Refusals of a gated call come in the order the gate checks: the oracle call (`TrustOracleUnavailable`,
///      `TrustOracleMalformedResponse`), the record (`TrustRecordMissing`, `TrustRecordFromFuture`,
///      `TrustRecordStale`, `TrustScoreTooLow`, `SybilSeverityTooHigh`), then, when the policy requires it, the
///      controller check (`AgentIdentityUnavailable`, `NotAgentController`). Each one matches one `TrustRefusal`
///      value of `trustVerdict`.
interface ITrustGated {
    /// @notice The oracle call reverted (or the oracle address has no code and the call failed).
    /// @param oracle The oracle the gate called.
    /// @param reason The oracle's revert data, cut to its first 256 bytes.
    error TrustOracleUnavailable(address oracle, bytes reason);

    /// @notice The oracle answered something that is not a well-formed `getScore` result (too short, a value that
    ///         does not fit its type, or a score above `TrustConstants.MAX_SCORE`).
    /// @param oracle The oracle the gate called.
    /// @param response The oracle's answer, cut to its first 256 bytes.
    error TrustOracleMalformedResponse(address oracle, bytes response);

    /// @notice The oracle holds no record of the agent (`updatedAt == 0`).
    /// @param agentId The agent's id.
    /// @param chainId The gate's agent chain id, as passed to the oracle.
    /// @param registry The gate's registry name, as passed to the oracle.
    error TrustRecordMissing(uint256 agentId, uint256 chainId, string registry);

    /// @notice The agent's record is dated after the current block.
    /// @param agentId The agent's id.
    /// @param updatedAt The record's date.
    /// @param blockTimestamp The current block's timestamp.
    error TrustRecordFromFuture(uint256 agentId, uint40 updatedAt, uint256 blockTimestamp);

    /// @notice The agent's record is older than the policy's `maxAge`.
    /// @param agentId The agent's id.
    /// @param updatedAt The record's date.
    /// @param maxAge The policy's oldest accepted age, in seconds.
    /// @param blockTimestamp The current block's timestamp.
    error TrustRecordStale(uint256 agentId, uint40 updatedAt, uint32 maxAge, uint256 blockTimestamp);

    /// @notice The agent's score is below the policy's `minScore`.
    /// @param agentId The agent's id.
    /// @param score The agent's score.
    /// @param minScore The policy's lowest accepted score.
    error TrustScoreTooLow(uint256 agentId, uint8 score, uint8 minScore);

    /// @notice The agent's sybil severity is above the policy's `maxSybilSeverity`.
    /// @param agentId The agent's id.
    /// @param sybilSeverity The agent's sybil severity code.
    /// @param maxSybilSeverity The policy's highest accepted code.
    error SybilSeverityTooHigh(uint256 agentId, uint8 sybilSeverity, uint8 maxSybilSeverity);

    /// @notice The identity registry could not name the agent's owner (agent not registered, or registry failing).
    /// @param identityRegistry The registry the gate asked.
    /// @param agentId The agent's id.
    error AgentIdentityUnavailable(address identityRegistry, uint256 agentId);

    /// @notice `account` is neither the owner, an approved account, an operator nor the agent wallet of the agent.
    /// @param agentId The agent's id.
    /// @param account The account that acted for the agent.
    error NotAgentController(uint256 agentId, address account);

    /// @notice A gated call brought an attestation but the gate's oracle does not take attestations (it is not an
    ///         `AttestedTrustOracle`: the submission reverted without data).
    /// @param oracle The gate's oracle.
    error TrustOracleNotAttested(address oracle);

    /// @notice The oracle address given to the gate has no code.
    /// @param oracle The address refused.
    error InvalidTrustOracle(address oracle);

    /// @notice A policy's `minScore` is above the highest score, so no record could meet it.
    /// @param minScore The `minScore` refused.
    /// @param maxScore The highest score (`TrustConstants.MAX_SCORE`).
    error MinScoreOutOfRange(uint8 minScore, uint8 maxScore);

    /// @notice A policy's `maxSybilSeverity` is above the highest sybil severity code.
    /// @param maxSybilSeverity The `maxSybilSeverity` refused.
    /// @param highestCode The highest code (`TrustConstants.MAX_SYBIL_SEVERITY`).
    error MaxSybilSeverityOutOfRange(uint8 maxSybilSeverity, uint8 highestCode);

    /// @notice A policy's `maxAge` is 0, which no record could meet.
    error ZeroMaxAge();

    /// @notice A policy requires the controller check but the gate has no identity registry.
    error IdentityRegistryNotSet();

    /// @notice The policy changed (also emitted once at deployment, with an all-zero previous policy).
    /// @param previousPolicy The policy replaced.
    /// @param newPolicy The policy now enforced.
    event TrustPolicyChanged(TrustPolicy previousPolicy, TrustPolicy newPolicy);

    /// @notice The oracle changed (also emitted once at deployment, from the zero address).
    /// @param previousOracle The oracle replaced.
    /// @param newOracle The oracle now read.
    event TrustOracleChanged(address indexed previousOracle, address indexed newOracle);

    /// @notice Replaces the policy. Only the gate's owner.
    /// @dev Reverts with `MinScoreOutOfRange`, `MaxSybilSeverityOutOfRange`, `ZeroMaxAge` or
    ///      `IdentityRegistryNotSet` for a policy no record could meet, or with an inheritor's own error.
    /// @param policy The new policy.
    function setTrustPolicy(TrustPolicy calldata policy) external;

    /// @notice Points the gate at another oracle. Only the gate's owner.
    /// @param oracle The new oracle; reverts with `InvalidTrustOracle` when it has no code.
    function setTrustOracle(address oracle) external;

    /// @notice The policy the gate enforces.
    /// @return policy The policy.
    function trustPolicy() external view returns (TrustPolicy memory policy);

    /// @notice The oracle the gate reads.
    /// @return The oracle address.
    function trustOracle() external view returns (address);

    /// @notice The identity registry used by the controller check.
    /// @return The registry address (zero when the gate has none).
    function identityRegistry() external view returns (address);

    /// @notice The agent domain: the chain id and registry name under which the gate looks agents up.
    /// @return chainId The chain on which gated agents are registered.
    /// @return registry The oracle's registry name.
    function agentDomain() external view returns (uint256 chainId, string memory registry);

    /// @notice What a gated call by `account` for `agentId` would do now, without sending it, so that a front end
    ///         can explain a refusal before the user signs.
    /// @param agentId The agent's id in the gate's registry.
    /// @param account The account that would make the call (checked only when the policy requires it).
    /// @return allowed Whether the call would pass the gate.
    /// @return refusal Why it would be refused (`None` when allowed); each value matches one custom error.
    /// @return record The oracle record read (zero when the oracle failed or holds no record).
    function trustVerdict(uint256 agentId, address account)
        external
        view
        returns (bool allowed, TrustRefusal refusal, TrustRecord memory record);
}
