// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {TrustGated} from "../TrustGated.sol";
import {TrustPolicy} from "../TrustTypes.sol";

/// @title TrustGatedEscrow
/// @notice Escrow that pays an AI agent only while the trust oracle vouches for it. A client locks ERC-20
///         funds for an agent until a deadline; until then (deadline included) whoever controls the agent in
///         the ERC-8004 identity registry (its owner, an approved account, an operator of its owner, or its
///         registered agent wallet) may claim them, provided the agent passes the gate's policy at the time
///         of the claim. After the deadline the client may take unclaimed funds back. Each escrow is settled
///         once.
/// @dev The controller check is mandatory here: the owner may tune the score, sybil and freshness limits but
///      can never set a policy with `requireController == false`, because otherwise anyone could claim an
///      agent's funds while the agent is trusted. Fee-on-transfer tokens are handled by recording the amount
///      actually received. All state-changing entry points are `nonReentrant` (transient-storage guard,
///      Cancun and later, as on Base) and follow checks-effects-interactions where the flow allows it
///      (`createEscrow` must read the balance after the transfer to learn what was received).
contract TrustGatedEscrow is TrustGated, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice Life cycle of an escrow. `None` means no escrow has that id.
    enum EscrowStatus {
        None,
        Open,
        Claimed,
        Refunded
    }

    /// @notice One escrow.
    /// @param token The ERC-20 token held.
    /// @param deadline Last second (inclusive) at which the agent may claim; the client may refund after it.
    /// @param status Whether the escrow is open or how it was settled.
    /// @param client The account that locked the funds and receives a refund.
    /// @param agentId The agent the funds are for.
    /// @param amount The amount the escrow actually received and will pay out.
    /// @dev Four storage slots, the fewest these 113 bytes can take (`token`, `deadline` and `status` share one).
    struct Escrow { // solhint-disable-line gas-struct-packing
        IERC20 token;
        uint64 deadline;
        EscrowStatus status;
        address client;
        uint256 agentId;
        uint256 amount;
    }

    uint256 private _escrowCount;
    mapping(uint256 escrowId => Escrow) private _escrows;

    /// @notice Emitted when a client locks funds for an agent.
    /// @param escrowId The new escrow's id.
    /// @param client The account that locked the funds.
    /// @param agentId The agent the funds are for.
    /// @param token The token locked.
    /// @param amount The amount actually received (after any transfer fee).
    /// @param deadline Last second at which the agent may claim.
    event EscrowCreated(
        uint256 indexed escrowId,
        address indexed client,
        uint256 indexed agentId,
        IERC20 token,
        uint256 amount,
        uint64 deadline
    );

    /// @notice Emitted when an agent's controller claims an escrow.
    /// @param escrowId The escrow claimed.
    /// @param agentId The agent paid.
    /// @param recipient The controller who claimed and received the funds.
    /// @param amount The amount sent.
    /// @param score The agent's trust score at the time of the claim.
    event EscrowClaimed(
        uint256 indexed escrowId, uint256 indexed agentId, address indexed recipient, uint256 amount, uint8 score
    );

    /// @notice Emitted when a client takes back the funds of an expired escrow.
    /// @param escrowId The escrow refunded.
    /// @param client The client refunded.
    /// @param amount The amount sent back.
    event EscrowRefunded(uint256 indexed escrowId, address indexed client, uint256 amount);

    /// @notice The escrow's policy must require that the claimer controls the agent.
    error ControllerCheckRequired();
    /// @notice `createEscrow` was called with a zero amount.
    error ZeroAmount();
    /// @notice The token address has no code.
    /// @param token The address given as the token.
    error TokenHasNoCode(address token);
    /// @notice The deadline is not after the current block, so the agent could never claim.
    /// @param deadline The deadline given.
    /// @param blockTimestamp The current block's timestamp.
    error DeadlineNotInFuture(uint64 deadline, uint256 blockTimestamp);
    /// @notice The token transfer into the escrow left the escrow's balance unchanged (or lower).
    /// @param token The token.
    /// @param amountSent The amount the client asked to transfer.
    /// @param balanceBefore The escrow's token balance before the transfer.
    /// @param balanceAfter The escrow's token balance after the transfer.
    error NothingReceived(IERC20 token, uint256 amountSent, uint256 balanceBefore, uint256 balanceAfter);
    /// @notice No escrow has this id.
    /// @param escrowId The id asked for.
    error UnknownEscrow(uint256 escrowId);
    /// @notice The escrow was already claimed or refunded.
    /// @param escrowId The escrow.
    /// @param status How it was settled.
    error EscrowAlreadySettled(uint256 escrowId, EscrowStatus status);
    /// @notice The claim comes after the escrow's deadline.
    /// @param escrowId The escrow.
    /// @param deadline The escrow's deadline.
    /// @param blockTimestamp The current block's timestamp.
    error ClaimDeadlinePassed(uint256 escrowId, uint64 deadline, uint256 blockTimestamp);
    /// @notice The refund comes before the escrow's deadline has passed.
    /// @param escrowId The escrow.
    /// @param deadline The escrow's deadline.
    /// @param blockTimestamp The current block's timestamp.
    error RefundDeadlineNotReached(uint256 escrowId, uint64 deadline, uint256 blockTimestamp);
    /// @notice Only the escrow's client may refund it.
    /// @param escrowId The escrow.
    /// @param caller The account that asked for the refund.
    /// @param client The escrow's client.
    error NotEscrowClient(uint256 escrowId, address caller, address client);

    /// @notice Deploys the escrow with its gate configuration; the policy must require the controller check.
    /// @param config Gate configuration (oracle, identity registry, agent domain, initial policy).
    /// @param initialOwner Owner of the gate's policy and oracle address.
    constructor(TrustGateConfig memory config, address initialOwner) TrustGated(config, initialOwner) {}

    /// @notice Locks `amount` of `token` from the caller for `agentId` until `deadline`.
    /// @dev The caller must have approved this contract for `amount`. The escrow records what it actually
    ///      received, which is less than `amount` for a fee-on-transfer token.
    /// @param token The ERC-20 token to lock.
    /// @param agentId The agent the funds are for (id in the gate's agent registry).
    /// @param amount The amount to transfer from the caller.
    /// @param deadline Last second (inclusive) at which the agent may claim; must be after the current block.
    /// @return escrowId The new escrow's id (ids start at 1).
    function createEscrow(IERC20 token, uint256 agentId, uint256 amount, uint64 deadline)
        external
        nonReentrant
        returns (uint256 escrowId)
    {
        if (amount == 0) revert ZeroAmount();
        if (deadline <= block.timestamp) revert DeadlineNotInFuture(deadline, block.timestamp);
        if (address(token).code.length == 0) revert TokenHasNoCode(address(token));

        uint256 balanceBefore = token.balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), amount);
        uint256 balanceAfter = token.balanceOf(address(this));
        if (balanceAfter <= balanceBefore) revert NothingReceived(token, amount, balanceBefore, balanceAfter);
        uint256 received = balanceAfter - balanceBefore;

        escrowId = ++_escrowCount;
        _escrows[escrowId] = Escrow({
            token: token,
            deadline: deadline,
            status: EscrowStatus.Open,
            client: msg.sender,
            agentId: agentId,
            amount: received
        });
        emit EscrowCreated(escrowId, msg.sender, agentId, token, received, deadline);
    }

    /// @notice Pays an open escrow to the caller, who must control the escrow's agent, while the agent passes
    ///         the gate's policy and the deadline has not passed.
    /// @dev Reverts with the gate's custom errors (`TrustRecordStale`, `NotAgentController`, ...) when the
    ///      agent does not pass.
    /// @param escrowId The escrow to claim.
    function claim(uint256 escrowId) external nonReentrant {
        (Escrow storage escrow, uint256 agentId) = _claimableEscrow(escrowId);
        _payClaim(escrow, escrowId, agentId, _requireTrustedAgent(agentId, msg.sender).score);
    }

    /// @notice `claim` with the agent's signed trust attestation submitted in the same transaction, for when the
    ///         nightly oracle is stale: the gate's oracle (an `AttestedTrustOracle`) verifies and stores it, then
    ///         the unchanged policy runs against the fresh record.
    /// @dev Reverts with the oracle's errors for an attestation it refuses (`InvalidAttestationSignature`,
    ///      `AttestationExpired`, `AttestationSubjectMismatch` for another agent, ...), with
    ///      `TrustOracleNotAttested` when the gate's oracle takes no attestations, and with the gate's errors when
    ///      the agent does not pass (`TrustScoreTooLow`, `NotAgentController`, ...).
    /// @param escrowId The escrow to claim.
    /// @param kid The attestation's key id (`attestation.kid`).
    /// @param signedJson The exact signed bytes (`JSON.stringify(attestation.signed)`).
    /// @param signature The signature, 64 bytes `r‖s` (`attestation.sig` decoded from base64).
    function claimWithAttestation(
        uint256 escrowId,
        string calldata kid,
        bytes calldata signedJson,
        bytes calldata signature
    ) external nonReentrant {
        (Escrow storage escrow, uint256 agentId) = _claimableEscrow(escrowId);
        uint8 score = _requireTrustedAgentWithAttestation(agentId, msg.sender, kid, signedJson, signature).score;
        _payClaim(escrow, escrowId, agentId, score);
    }

    /// @notice Returns the funds of an unclaimed escrow to its client once the deadline has passed.
    /// @param escrowId The escrow to refund.
    function refund(uint256 escrowId) external nonReentrant {
        Escrow storage escrow = _openEscrow(escrowId);
        address client = escrow.client;
        if (msg.sender != client) revert NotEscrowClient(escrowId, msg.sender, client);
        uint64 deadline = escrow.deadline;
        if (block.timestamp <= deadline) revert RefundDeadlineNotReached(escrowId, deadline, block.timestamp);

        escrow.status = EscrowStatus.Refunded;
        uint256 amount = escrow.amount;
        emit EscrowRefunded(escrowId, client, amount);

        escrow.token.safeTransfer(client, amount);
    }

    /// @notice An escrow by id.
    /// @param escrowId The escrow's id.
    /// @return The escrow (all zero, status `None`, when no escrow has that id).
    function getEscrow(uint256 escrowId) external view returns (Escrow memory) {
        return _escrows[escrowId];
    }

    /// @notice How many escrows were created; ids run from 1 to this number.
    /// @return The number of escrows.
    function escrowCount() external view returns (uint256) {
        return _escrowCount;
    }

    /// @notice Refuses any policy that does not require the claimer to control the agent.
    /// @param policy The policy about to be stored.
    function _validateTrustPolicy(TrustPolicy memory policy) internal view override {
        super._validateTrustPolicy(policy);
        if (!policy.requireController) revert ControllerCheckRequired();
    }

    /// @dev The open escrow `escrowId` and its agent, before its deadline.
    function _claimableEscrow(uint256 escrowId) private view returns (Escrow storage escrow, uint256 agentId) {
        escrow = _openEscrow(escrowId);
        uint64 deadline = escrow.deadline;
        if (block.timestamp > deadline) revert ClaimDeadlinePassed(escrowId, deadline, block.timestamp);
        agentId = escrow.agentId;
    }

    /// @dev Settles a claim that passed the gate: effects, event, then the transfer to the caller.
    function _payClaim(Escrow storage escrow, uint256 escrowId, uint256 agentId, uint8 score) private {
        escrow.status = EscrowStatus.Claimed;
        uint256 amount = escrow.amount;
        emit EscrowClaimed(escrowId, agentId, msg.sender, amount, score);

        escrow.token.safeTransfer(msg.sender, amount);
    }

    /// @dev The escrow `escrowId`, which must exist and be open.
    function _openEscrow(uint256 escrowId) private view returns (Escrow storage escrow) {
        escrow = _escrows[escrowId];
        EscrowStatus status = escrow.status;
        if (status == EscrowStatus.None) revert UnknownEscrow(escrowId);
        if (status != EscrowStatus.Open) revert EscrowAlreadySettled(escrowId, status);
    }
}
