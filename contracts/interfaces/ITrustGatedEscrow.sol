// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title ITrustGatedEscrow
/// @notice Life cycle, events and custom errors of `TrustGatedEscrow`, declared apart from the contract (as
///         OpenZeppelin's `draft-IERC6093` declares token errors) so that integrators, indexers and tools can decode
///         them without the implementation.
interface ITrustGatedEscrow {
    /// @notice Life cycle of an escrow. `None` means no escrow has that id.
    enum EscrowStatus {
        None,
        Open,
        Claimed,
        Refunded
    }

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
    /// @param amount What the recipient actually received: its balance after the transfer minus before (less than
    ///        the escrow's recorded `amount`, which is what was sent, for a fee-on-transfer token).
    /// @param score The agent's trust score at the time of the claim.
    event EscrowClaimed(
        uint256 indexed escrowId, uint256 indexed agentId, address indexed recipient, uint256 amount, uint8 score
    );

    /// @notice Emitted when a client takes back the funds of an expired escrow.
    /// @param escrowId The escrow refunded.
    /// @param client The escrow's client, who asked for the refund.
    /// @param recipient Where the funds went: the client, or the address the client named with `refundTo`.
    /// @param amount What the recipient actually received (its balance delta; see `EscrowClaimed`).
    event EscrowRefunded(uint256 indexed escrowId, address indexed client, address indexed recipient, uint256 amount);

    /// @notice Emitted when the owner sweeps a token's surplus (its balance beyond what open escrows owe).
    /// @param token The token swept.
    /// @param recipient The address the owner named.
    /// @param amount The surplus sent.
    event SurplusSwept(IERC20 indexed token, address indexed recipient, uint256 amount);

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

    /// @notice `refundTo` named the zero address or the escrow itself as the recipient.
    /// @param recipient The address refused.
    error InvalidRefundRecipient(address recipient);
    /// @notice `sweepSurplus` named the zero address or the escrow itself as the recipient.
    /// @param recipient The address refused.
    error InvalidSweepRecipient(address recipient);
    /// @notice The token's balance does not exceed what open escrows owe: there is nothing to sweep.
    /// @param token The token.
    /// @param balance The escrow contract's balance of it.
    /// @param owed What the open escrows of this token owe in total.
    error NoSurplus(IERC20 token, uint256 balance, uint256 owed);
}
