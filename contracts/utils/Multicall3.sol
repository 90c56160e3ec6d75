// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Arbitrary low-level calls are what Multicall3 is for, and its revert strings are the canonical contract's, which
// clients match on: both rules are off for this contract.
// solhint-disable avoid-low-level-calls, gas-custom-errors

/// @title Multicall3
/// @notice Batches read (and plain) calls into one call, with the ABI of the Multicall3 contract deployed at
///         `0xcA11bde05977b3631167028862bE2a173976CA11` on Base, Ethereum and most EVM chains. The kit places
///         this contract's runtime code at that address on its local networks (`src/devnet/multicall3.ts`), so
///         that clients such as viem batch reads there exactly as they do on Base.
/// @dev Written for this kit from the public Multicall3 ABI; every function of that ABI is served, with the same
///      names, argument and return types, and the same observable behaviour: calls run in order from this
///      contract, a failed call whose failure is not allowed reverts the whole batch with
///      `Error("Multicall3: call failed")`, and `aggregate3Value` reverts with `Error("Multicall3: value mismatch")`
///      when `msg.value` is not the sum of the calls' values. No function keeps state; Ether sent with a
///      non-`Value` batch stays in the contract, as with the canonical deployment.
contract Multicall3 {
    /// @notice A call that must succeed (for `aggregate`, and `tryAggregate` with `requireSuccess`).
    struct Call {
        address target;
        bytes callData;
    }

    /// @notice A call of `aggregate3`, with whether its failure is tolerated.
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    /// @notice A call of `aggregate3Value`, with the Ether it forwards.
    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    /// @notice The outcome of one call: whether it succeeded, and what it returned or reverted with.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Runs every call in order; reverts if any fails.
    /// @param calls The calls to make.
    /// @return blockNumber The current block number.
    /// @return returnData What each call returned, in order.
    function aggregate(Call[] calldata calls) external payable returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        uint256 length = calls.length;
        returnData = new bytes[](length);
        for (uint256 i; i < length; ++i) {
            Call calldata c = calls[i];
            (bool success, bytes memory data) = c.target.call(c.callData);
            if (!success) _revertCallFailed();
            returnData[i] = data;
        }
    }

    /// @notice Runs every call in order, recording failures instead of reverting unless `requireSuccess`.
    /// @param requireSuccess Whether a failed call reverts the whole batch.
    /// @param calls The calls to make.
    /// @return returnData The outcome of each call, in order.
    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i; i < length; ++i) {
            Call calldata c = calls[i];
            (bool success, bytes memory data) = c.target.call(c.callData);
            if (requireSuccess && !success) _revertCallFailed();
            returnData[i] = Result(success, data);
        }
    }

    /// @notice `tryAggregate`, also returning the current block's number and the hash of that block.
    /// @dev `blockhash(block.number)` is zero inside a block, as with the canonical deployment.
    /// @param requireSuccess Whether a failed call reverts the whole batch.
    /// @param calls The calls to make.
    /// @return blockNumber The current block number.
    /// @return blockHash `blockhash(block.number)`.
    /// @return returnData The outcome of each call, in order.
    function tryBlockAndAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        blockNumber = block.number;
        blockHash = blockhash(block.number);
        returnData = tryAggregate(requireSuccess, calls);
    }

    /// @notice `tryBlockAndAggregate` with every call required to succeed.
    /// @param calls The calls to make.
    /// @return blockNumber The current block number.
    /// @return blockHash `blockhash(block.number)`.
    /// @return returnData The outcome of each call, in order.
    function blockAndAggregate(Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        return tryBlockAndAggregate(true, calls);
    }

    /// @notice Runs every call in order; a failed call reverts the batch unless its `allowFailure` is set.
    /// @param calls The calls to make.
    /// @return returnData The outcome of each call, in order.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i; i < length; ++i) {
            Call3 calldata c = calls[i];
            (bool success, bytes memory data) = c.target.call(c.callData);
            if (!success && !c.allowFailure) _revertCallFailed();
            returnData[i] = Result(success, data);
        }
    }

    /// @notice `aggregate3` where each call forwards `value` wei; `msg.value` must equal the sum of the values.
    /// @param calls The calls to make.
    /// @return returnData The outcome of each call, in order.
    function aggregate3Value(Call3Value[] calldata calls) external payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        uint256 total;
        for (uint256 i; i < length; ++i) {
            Call3Value calldata c = calls[i];
            total += c.value;
            (bool success, bytes memory data) = c.target.call{value: c.value}(c.callData);
            if (!success && !c.allowFailure) _revertCallFailed();
            returnData[i] = Result(success, data);
        }
        if (msg.value != total) revert("Multicall3: value mismatch");
    }

    /// @notice The hash of a block (zero outside the last 256 blocks).
    /// @param blockNumber The block.
    /// @return blockHash Its hash.
    function getBlockHash(uint256 blockNumber) external view returns (bytes32 blockHash) {
        blockHash = blockhash(blockNumber);
    }

    /// @notice The current block number.
    /// @return blockNumber `block.number`.
    function getBlockNumber() external view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }

    /// @notice The current block's fee recipient.
    /// @return coinbase `block.coinbase`.
    function getCurrentBlockCoinbase() external view returns (address coinbase) {
        coinbase = block.coinbase;
    }

    /// @notice The current block's difficulty field, which since the merge carries `prevrandao`.
    /// @return difficulty `block.prevrandao`.
    function getCurrentBlockDifficulty() external view returns (uint256 difficulty) {
        difficulty = block.prevrandao;
    }

    /// @notice The current block's gas limit.
    /// @return gaslimit `block.gaslimit`.
    function getCurrentBlockGasLimit() external view returns (uint256 gaslimit) {
        gaslimit = block.gaslimit;
    }

    /// @notice The current block's timestamp.
    /// @return timestamp `block.timestamp`.
    function getCurrentBlockTimestamp() external view returns (uint256 timestamp) {
        timestamp = block.timestamp;
    }

    /// @notice The Ether balance of an account.
    /// @param addr The account.
    /// @return balance Its balance in wei.
    function getEthBalance(address addr) external view returns (uint256 balance) {
        balance = addr.balance;
    }

    /// @notice The hash of the previous block.
    /// @return blockHash `blockhash(block.number - 1)`.
    function getLastBlockHash() external view returns (bytes32 blockHash) {
        unchecked {
            blockHash = blockhash(block.number - 1);
        }
    }

    /// @notice The current block's base fee.
    /// @return basefee `block.basefee`.
    function getBasefee() external view returns (uint256 basefee) {
        basefee = block.basefee;
    }

    /// @notice The chain id.
    /// @return chainid `block.chainid`.
    function getChainId() external view returns (uint256 chainid) {
        chainid = block.chainid;
    }

    /// @dev Reverts with the canonical contract's message for a failed call that must succeed.
    function _revertCallFailed() private pure {
        revert("Multicall3: call failed");
    }
}
