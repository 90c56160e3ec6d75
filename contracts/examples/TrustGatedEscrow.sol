// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {TrustGated} from "../TrustGated.sol";
import {TrustPolicy} from "../TrustTypes.sol";
import {ITrustGatedEscrow} from "../interfaces/ITrustGatedEscrow.sol";

/// @title TrustGatedEscrow
/// @notice Escrow that pays an AI agent only while the trust oracle vouches for it. A client locks ERC-20
///         funds for an agent until a deadline; until then (deadline included) whoever controls the agent in
///         the ERC-8004 identity registry (its owner, an approved account, an operator of its owner, or its
///         registered agent wallet) may claim them, provided the agent passes the gate's policy at the time
///         of the claim. After the deadline the client may take unclaimed funds back, to itself or to an address
///         it names (`refundTo`), for when the token refuses transfers to the client. Each escrow is settled
///         once. The owner may sweep a token's surplus — its balance beyond what open escrows owe, such as tokens
///         sent to the contract directly or a rebase — but never what an open escrow owes.
/// @dev The controller check is mandatory here: the owner may tune the score, sybil and freshness limits but
///      can never set a policy with `requireController == false`, because otherwise anyone could claim an
///      agent's funds while the agent is trusted. Fee-on-transfer tokens are handled by recording the amount
///      actually received, and the claim and refund events report what the recipient actually received (its
///      balance delta). Per token the contract keeps the total that open escrows owe (`owedBalance`), which
///      bounds `sweepSurplus`. A token whose balance can shrink on its own (negative rebase) can leave the
///      contract short of what it owes: such tokens are not supported. All state-changing entry points are
///      `nonReentrant` (transient-storage guard, Cancun and later, as on Base) and follow
///      checks-effects-interactions where the flow allows it (`createEscrow` must read the balance after the
///      transfer to learn what was received, and payouts read the recipient's balance after the transfer to
///      report what arrived).
contract TrustGatedEscrow is TrustGated, ReentrancyGuardTransient, ITrustGatedEscrow {
    using SafeERC20 for IERC20;

    /// @notice One escrow.
    /// @param token The ERC-20 token held.
    /// @param deadline Last second (inclusive) at which the agent may claim; the client may refund after it.
    /// @param status Whether the escrow is open or how it was settled.
    /// @param client The account that locked the funds; it alone can refund them, to itself or an address it names.
    /// @param agentId The agent the funds are for.
    /// @param amount The amount the escrow actually received, and sends on settlement (the recipient may get less
    ///        from a fee-on-transfer token; the settlement events say how much arrived).
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
    mapping(IERC20 token => uint256 owed) private _owed;

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
        _owed[token] += received;
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

    /// @notice `claim` with the agent's compact JWS trust attestation (`attestation.jws`, as issued) submitted in the
    ///         same transaction, for when the nightly oracle is stale: the gate's oracle (an `AttestedTrustOracle`)
    ///         verifies and stores it, then the unchanged policy runs against the fresh record.
    /// @dev Reverts with the oracle's errors for an attestation it refuses (`InvalidAttestationSignature`,
    ///      `JwsKidMismatch`, `AttestationExpired`, `AttestationSubjectMismatch` for another agent, ...), with
    ///      `TrustOracleNotAttested` when the gate's oracle takes no attestations, and with the gate's errors when
    ///      the agent does not pass (`TrustScoreTooLow`, `NotAgentController`, ...).
    /// @param escrowId The escrow to claim.
    /// @param kid The attestation's key id (`attestation.kid`).
    /// @param jws The compact JWS, as ASCII bytes.
    function claimWithJwsAttestation(uint256 escrowId, string calldata kid, bytes calldata jws) external nonReentrant {
        (Escrow storage escrow, uint256 agentId) = _claimableEscrow(escrowId);
        uint8 score = _requireTrustedAgentWithJwsAttestation(agentId, msg.sender, kid, jws).score;
        _payClaim(escrow, escrowId, agentId, score);
    }

    /// @notice `claimWithJwsAttestation` for a response without a JWS (the raw `sig` form), for when the
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

    /// @notice Returns the funds of an unclaimed escrow to its client once the deadline has passed. Only the client.
    /// @param escrowId The escrow to refund.
    function refund(uint256 escrowId) external nonReentrant {
        _refund(escrowId, msg.sender);
    }

    /// @notice `refund` to an address the client names, for when the token refuses transfers to the client (an
    ///         issuer blocklist, as USDC and USDT have). Only the client, once the deadline has passed.
    /// @dev The recipient is named at refund time rather than fixed at creation: a blocklisting usually comes after
    ///      the deposit, so a recipient fixed earlier could not anticipate it; and since only the client can refund,
    ///      naming it in the call gives the client the same control as a stored address without an extra write or
    ///      transaction.
    /// @param escrowId The escrow to refund.
    /// @param recipient Where the funds go; neither the zero address nor this contract.
    function refundTo(uint256 escrowId, address recipient) external nonReentrant {
        if (recipient == address(0) || recipient == address(this)) revert InvalidRefundRecipient(recipient);
        _refund(escrowId, recipient);
    }

    /// @notice Sends `token`'s surplus — this contract's balance beyond what open escrows of that token owe — to
    ///         `recipient`. Only the owner. What open escrows owe is never touched.
    /// @dev The surplus comes from tokens sent here directly, rebases and rounding: it belongs to no escrow in
    ///      particular (a balance cannot be attributed to one deposit), so the owner, already trusted with the gate's
    ///      policy, decides where it goes. After every escrow of a token is settled its whole balance is surplus.
    /// @param token The token to sweep.
    /// @param recipient Where the surplus goes; neither the zero address nor this contract.
    /// @return swept The amount sent.
    function sweepSurplus(IERC20 token, address recipient) external onlyOwner nonReentrant returns (uint256 swept) {
        if (recipient == address(0) || recipient == address(this)) revert InvalidSweepRecipient(recipient);
        uint256 balance = token.balanceOf(address(this));
        uint256 owed = _owed[token];
        if (balance <= owed) revert NoSurplus(token, balance, owed);
        swept = balance - owed;
        emit SurplusSwept(token, recipient, swept);
        token.safeTransfer(recipient, swept);
    }

    /// @notice An escrow by id.
    /// @param escrowId The escrow's id.
    /// @return The escrow (all zero, status `None`, when no escrow has that id).
    function getEscrow(uint256 escrowId) external view returns (Escrow memory) {
        return _escrows[escrowId];
    }

    /// @notice What the open escrows of `token` owe in total (the sum of their recorded amounts).
    /// @param token The token.
    /// @return The total owed.
    function owedBalance(IERC20 token) external view returns (uint256) {
        return _owed[token];
    }

    /// @notice What `sweepSurplus` would send now: this contract's balance of `token` beyond what open escrows owe.
    /// @param token The token.
    /// @return The surplus (0 when the balance does not exceed what is owed).
    function surplusOf(IERC20 token) external view returns (uint256) {
        uint256 balance = token.balanceOf(address(this));
        uint256 owed = _owed[token];
        return balance > owed ? balance - owed : 0;
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

    /// @dev Settles a claim that passed the gate: effects, the transfer to the caller, then the event with what
    ///      arrived.
    function _payClaim(Escrow storage escrow, uint256 escrowId, uint256 agentId, uint8 score) private {
        escrow.status = EscrowStatus.Claimed;
        uint256 received = _payOut(escrow, msg.sender);
        emit EscrowClaimed(escrowId, agentId, msg.sender, received, score);
    }

    /// @dev Refunds the open, expired escrow `escrowId` of the calling client to `recipient`.
    function _refund(uint256 escrowId, address recipient) private {
        Escrow storage escrow = _openEscrow(escrowId);
        address client = escrow.client;
        if (msg.sender != client) revert NotEscrowClient(escrowId, msg.sender, client);
        uint64 deadline = escrow.deadline;
        if (block.timestamp <= deadline) revert RefundDeadlineNotReached(escrowId, deadline, block.timestamp);

        escrow.status = EscrowStatus.Refunded;
        uint256 received = _payOut(escrow, recipient);
        emit EscrowRefunded(escrowId, client, recipient, received);
    }

    /// @dev Releases a settled escrow's amount from the owed total and transfers it to `recipient`; returns what
    ///      the recipient actually received (its balance delta, 0 if the balance did not grow).
    function _payOut(Escrow storage escrow, address recipient) private returns (uint256 received) {
        IERC20 token = escrow.token;
        uint256 amount = escrow.amount;
        _owed[token] -= amount;
        uint256 balanceBefore = token.balanceOf(recipient);
        token.safeTransfer(recipient, amount);
        uint256 balanceAfter = token.balanceOf(recipient);
        if (balanceAfter > balanceBefore) received = balanceAfter - balanceBefore;
    }

    /// @dev The escrow `escrowId`, which must exist and be open.
    function _openEscrow(uint256 escrowId) private view returns (Escrow storage escrow) {
        escrow = _escrows[escrowId];
        EscrowStatus status = escrow.status;
        if (status == EscrowStatus.None) revert UnknownEscrow(escrowId);
        if (status != EscrowStatus.Open) revert EscrowAlreadySettled(escrowId, status);
    }
}
