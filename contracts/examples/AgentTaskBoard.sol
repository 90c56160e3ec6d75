// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IAgentAdmissionHook} from "../interfaces/IAgentAdmissionHook.sol";

/// @title AgentTaskBoard
/// @notice A task market for AI agents with a pluggable admission hook. A client posts a task with an ETH bounty
///         and a deadline; an account acting for an agent takes it, which the board allows only if its
///         `IAgentAdmissionHook` admits `(account, agentId)`; the client approves the delivery and the bounty is
///         paid to the account that took the task. The client can cancel a task nobody has taken, and reclaim
///         the bounty of a task that is not approved once its deadline has passed.
/// @dev Admission is checked twice: when the task is taken, and again when the client approves the delivery,
///      against the hook in place at that time. An agent whose trust collapsed (score fell, record went stale,
///      identity changed hands) after taking a task is therefore not paid automatically: `approveDelivery`
///      reverts with the hook's reason and the bounty stays in escrow, where the client can pay it once the agent
///      passes again, or reclaim it after the deadline and settle off-chain. The hook is called with
///      `STATICCALL` and must return exactly `IAgentAdmissionHook.admitAgent.selector`; a wrong value, a short or
///      malformed answer, or an empty revert is a refusal with the board's own custom error, and a revert with
///      data (such as `TrustScoreTooLow(agentId, score, minScore)`) bubbles up unchanged. The deadline is the
///      last second at which a task can be taken; approval stays possible after it until the client reclaims.
///      A bounty that cannot be delivered (the taker rejects ETH) stays in escrow until the client reclaims it.
contract AgentTaskBoard is Ownable2Step, ReentrancyGuardTransient {
    /// @notice Life cycle of a task.
    enum TaskStatus {
        None,
        Open,
        Taken,
        Paid,
        Cancelled,
        Reclaimed
    }

    /// @notice One task.
    /// @param client The account that posted the task and funds its bounty.
    /// @param deadline Last second (unix time) at which the task can be taken; reclaimable after it.
    /// @param status Where the task is in its life cycle.
    /// @param agentAccount The account that took the task and is paid on approval (zero while open).
    /// @param bounty The escrowed bounty in wei.
    /// @param agentId The agent for which `agentAccount` took the task (zero while open).
    struct Task {
        address client;
        uint64 deadline;
        TaskStatus status;
        address agentAccount;
        uint96 bounty;
        uint256 agentId;
    }

    IAgentAdmissionHook private _admissionHook;
    uint256 private _taskCount;
    mapping(uint256 taskId => Task) private _tasks;

    /// @notice Emitted when a client posts a task.
    /// @param taskId The new task's id.
    /// @param client The client.
    /// @param bounty The escrowed bounty in wei.
    /// @param deadline The task's deadline.
    event TaskPosted(uint256 indexed taskId, address indexed client, uint256 bounty, uint64 deadline);
    /// @notice Emitted when an admitted account takes a task for an agent.
    /// @param taskId The task.
    /// @param agentId The agent.
    /// @param account The account that took the task (and will be paid).
    event TaskTaken(uint256 indexed taskId, uint256 indexed agentId, address indexed account);
    /// @notice Emitted when the client approves a delivery and the bounty is paid.
    /// @param taskId The task.
    /// @param agentId The agent.
    /// @param account The account paid.
    /// @param bounty The amount paid in wei.
    event DeliveryApproved(uint256 indexed taskId, uint256 indexed agentId, address indexed account, uint256 bounty);
    /// @notice Emitted when the client cancels an untaken task and gets the bounty back.
    /// @param taskId The task.
    /// @param client The client refunded.
    /// @param bounty The amount refunded in wei.
    event TaskCancelled(uint256 indexed taskId, address indexed client, uint256 bounty);
    /// @notice Emitted when the client reclaims the bounty of an unapproved task after its deadline.
    /// @param taskId The task.
    /// @param client The client refunded.
    /// @param bounty The amount refunded in wei.
    event BountyReclaimed(uint256 indexed taskId, address indexed client, uint256 bounty);
    /// @notice Emitted when the admission hook changes (also once at deployment, from the zero address).
    /// @param previousHook The hook replaced.
    /// @param newHook The hook now in place.
    event AdmissionHookChanged(address indexed previousHook, address indexed newHook);

    /// @notice The admission hook address has no code.
    /// @param hook The address refused.
    error InvalidAdmissionHook(address hook);
    /// @notice A task was posted without a bounty.
    error ZeroBounty();
    /// @notice A task was posted with a deadline that is not after the current block.
    /// @param deadline The deadline given.
    /// @param blockTimestamp The current block's timestamp.
    error DeadlineNotInFuture(uint64 deadline, uint256 blockTimestamp);
    /// @notice No task has this id.
    /// @param taskId The id given.
    error TaskNotFound(uint256 taskId);
    /// @notice Only the task's client may do this.
    /// @param taskId The task.
    /// @param caller The account that tried.
    /// @param client The task's client.
    error NotTaskClient(uint256 taskId, address caller, address client);
    /// @notice The task is not open (it cannot be taken or cancelled).
    /// @param taskId The task.
    /// @param status The task's status.
    error TaskNotOpen(uint256 taskId, TaskStatus status);
    /// @notice The task is not taken (there is no delivery to approve).
    /// @param taskId The task.
    /// @param status The task's status.
    error TaskNotTaken(uint256 taskId, TaskStatus status);
    /// @notice The task's bounty was already paid or refunded.
    /// @param taskId The task.
    /// @param status The task's status.
    error TaskNotReclaimable(uint256 taskId, TaskStatus status);
    /// @notice The task's deadline has passed; it can no longer be taken.
    /// @param taskId The task.
    /// @param deadline The task's deadline.
    /// @param blockTimestamp The current block's timestamp.
    error TaskExpired(uint256 taskId, uint64 deadline, uint256 blockTimestamp);
    /// @notice The task's deadline has not passed yet; its bounty cannot be reclaimed.
    /// @param taskId The task.
    /// @param deadline The task's deadline.
    /// @param blockTimestamp The current block's timestamp.
    error DeadlineNotReached(uint256 taskId, uint64 deadline, uint256 blockTimestamp);
    /// @notice The hook answered a well-formed `bytes4` that is not `IAgentAdmissionHook.admitAgent.selector`.
    /// @param hook The hook.
    /// @param account The account refused.
    /// @param agentId The agent.
    /// @param returned The value the hook returned.
    error AgentNotAdmitted(address hook, address account, uint256 agentId, bytes4 returned);
    /// @notice The hook answered something that is not an ABI-encoded `bytes4` (too short, or dirty low bytes).
    /// @param hook The hook.
    /// @param account The account refused.
    /// @param agentId The agent.
    /// @param response The hook's answer (its first 32 bytes at most).
    error AdmissionHookMalformedResponse(address hook, address account, uint256 agentId, bytes response);
    /// @notice The hook reverted without data (out of gas, missing function without fallback, bare `revert()`).
    /// @param hook The hook.
    /// @param account The account refused.
    /// @param agentId The agent.
    error AdmissionHookReverted(address hook, address account, uint256 agentId);

    /// @notice Deploys the board with its admission hook; emits `AdmissionHookChanged`.
    /// @param admissionHook_ The initial admission hook; must have code.
    /// @param initialOwner The account allowed to replace the hook (two-step ownership transfer).
    constructor(IAgentAdmissionHook admissionHook_, address initialOwner) Ownable(initialOwner) {
        _setAdmissionHook(admissionHook_);
    }

    /// @notice Posts a task whose bounty is the ETH sent.
    /// @param deadline Last second at which the task can be taken; must be after the current block.
    /// @return taskId The new task's id (ids start at 1).
    function postTask(uint64 deadline) external payable returns (uint256 taskId) {
        if (msg.value == 0) revert ZeroBounty();
        if (deadline <= block.timestamp) revert DeadlineNotInFuture(deadline, block.timestamp);
        taskId = ++_taskCount;
        _tasks[taskId] = Task({
            client: msg.sender,
            deadline: deadline,
            status: TaskStatus.Open,
            agentAccount: address(0),
            bounty: SafeCast.toUint96(msg.value),
            agentId: 0
        });
        emit TaskPosted(taskId, msg.sender, msg.value, deadline);
    }

    /// @notice Takes an open task for `agentId`; the caller is the account checked by the hook and paid later.
    /// @dev Reverts with the hook's own error when it refuses (for example `TrustScoreTooLow`).
    /// @param taskId The task.
    /// @param agentId The agent the caller acts for.
    function takeTask(uint256 taskId, uint256 agentId) external nonReentrant {
        Task storage task = _existingTask(taskId);
        if (task.status != TaskStatus.Open) revert TaskNotOpen(taskId, task.status);
        uint64 deadline = task.deadline;
        if (block.timestamp > deadline) revert TaskExpired(taskId, deadline, block.timestamp);
        _requireAdmitted(msg.sender, agentId);
        task.status = TaskStatus.Taken;
        task.agentAccount = msg.sender;
        task.agentId = agentId;
        emit TaskTaken(taskId, agentId, msg.sender);
    }

    /// @notice Approves the delivery of a taken task and pays the bounty to the account that took it, provided
    ///         the current hook still admits that account for that agent. Only the client.
    /// @dev Possible after the deadline as long as the client has not reclaimed the bounty.
    /// @param taskId The task.
    function approveDelivery(uint256 taskId) external nonReentrant {
        Task storage task = _clientTask(taskId);
        if (task.status != TaskStatus.Taken) revert TaskNotTaken(taskId, task.status);
        address account = task.agentAccount;
        uint256 agentId = task.agentId;
        _requireAdmitted(account, agentId);
        task.status = TaskStatus.Paid;
        uint256 bounty = task.bounty;
        emit DeliveryApproved(taskId, agentId, account, bounty);
        Address.sendValue(payable(account), bounty);
    }

    /// @notice Cancels a task nobody has taken and refunds its bounty. Only the client; possible at any time.
    /// @param taskId The task.
    function cancelTask(uint256 taskId) external nonReentrant {
        Task storage task = _clientTask(taskId);
        if (task.status != TaskStatus.Open) revert TaskNotOpen(taskId, task.status);
        task.status = TaskStatus.Cancelled;
        uint256 bounty = task.bounty;
        emit TaskCancelled(taskId, msg.sender, bounty);
        Address.sendValue(payable(msg.sender), bounty);
    }

    /// @notice Refunds the bounty of a task that is not approved (open or taken) once its deadline has passed.
    ///         Only the client.
    /// @param taskId The task.
    function reclaimBounty(uint256 taskId) external nonReentrant {
        Task storage task = _clientTask(taskId);
        TaskStatus status = task.status;
        if (status != TaskStatus.Open && status != TaskStatus.Taken) revert TaskNotReclaimable(taskId, status);
        uint64 deadline = task.deadline;
        if (block.timestamp <= deadline) revert DeadlineNotReached(taskId, deadline, block.timestamp);
        task.status = TaskStatus.Reclaimed;
        uint256 bounty = task.bounty;
        emit BountyReclaimed(taskId, msg.sender, bounty);
        Address.sendValue(payable(msg.sender), bounty);
    }

    /// @notice Replaces the admission hook; it applies to every later take and approval. Only the owner.
    /// @param newHook The new hook; must have code.
    function setAdmissionHook(IAgentAdmissionHook newHook) external onlyOwner {
        _setAdmissionHook(newHook);
    }

    /// @notice The admission hook in place.
    /// @return The hook.
    function admissionHook() external view returns (IAgentAdmissionHook) {
        return _admissionHook;
    }

    /// @notice Number of tasks posted so far (the id of the latest task).
    /// @return The count.
    function taskCount() external view returns (uint256) {
        return _taskCount;
    }

    /// @notice A task, as stored.
    /// @param taskId The task.
    /// @return task The task (all zero, status `None`, for an unknown id).
    function getTask(uint256 taskId) external view returns (Task memory task) {
        return _tasks[taskId];
    }

    function _setAdmissionHook(IAgentAdmissionHook newHook) private {
        if (address(newHook).code.length == 0) revert InvalidAdmissionHook(address(newHook));
        address previous = address(_admissionHook);
        _admissionHook = newHook;
        emit AdmissionHookChanged(previous, address(newHook));
    }

    function _existingTask(uint256 taskId) private view returns (Task storage task) {
        task = _tasks[taskId];
        if (task.status == TaskStatus.None) revert TaskNotFound(taskId);
    }

    function _clientTask(uint256 taskId) private view returns (Task storage task) {
        task = _existingTask(taskId);
        address client = task.client;
        if (msg.sender != client) revert NotTaskClient(taskId, msg.sender, client);
    }

    /// @dev Asks the hook to admit `(account, agentId)` and fails closed on anything but the exact magic value.
    ///      Extra bytes after the first word are ignored, as Solidity's ABI decoder would.
    function _requireAdmitted(address account, uint256 agentId) private view {
        address hook = address(_admissionHook);
        bytes memory callData = abi.encodeCall(IAgentAdmissionHook.admitAgent, (account, agentId));
        bool success;
        uint256 size;
        assembly ("memory-safe") {
            success := staticcall(gas(), hook, add(callData, 0x20), mload(callData), 0, 0)
            size := returndatasize()
        }
        if (!success) {
            if (size == 0) revert AdmissionHookReverted(hook, account, agentId);
            // Bubble the hook's reason up unchanged, so that callers see e.g. TrustScoreTooLow with its values.
            assembly ("memory-safe") {
                let ptr := mload(0x40)
                returndatacopy(ptr, 0, size)
                revert(ptr, size)
            }
        }
        if (size < 0x20) revert AdmissionHookMalformedResponse(hook, account, agentId, _returnData(size));
        bytes32 word;
        assembly ("memory-safe") {
            returndatacopy(0, 0, 0x20)
            word := mload(0)
        }
        if (word == bytes32(IAgentAdmissionHook.admitAgent.selector)) return;
        if (uint256(word) << 32 != 0) revert AdmissionHookMalformedResponse(hook, account, agentId, _returnData(0x20));
        revert AgentNotAdmitted(hook, account, agentId, bytes4(word));
    }

    /// @dev The first `size` bytes of the last call's return data.
    function _returnData(uint256 size) private pure returns (bytes memory data) {
        data = new bytes(size);
        assembly ("memory-safe") {
            returndatacopy(add(data, 0x20), 0, size)
        }
    }
}
