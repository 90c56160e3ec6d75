// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev Address of the cheatcode contract of forge and of Hardhat 3's Solidity tests:
///      `address(uint160(uint256(keccak256("hevm cheat code"))))`.
address constant TRUST_VM_ADDRESS = 0x7109709ECfa91a80626fF3989D68f67F5b1DD12D;

/// @title ITrustVm
/// @notice The few cheatcodes the kit's Solidity test helpers (`trustgate/contracts/testing/...`) and test suites use,
///         declared here so that they need no forge-std. Each signature is one forge 1.7 answers (every one is called
///         by `test/package/foundry-project/test/TrustVm.t.sol`); a test file that also imports forge-std's `Vm` can
///         use both: they call the same address.
/// @dev Only for tests run by forge (or another EVM with the same cheatcodes, such as Hardhat 3's Solidity
///      tests). On a real chain the address has no code and every call reverts. Use it through the constant
///      `TRUST_VM` declared next to it (`import {TRUST_VM} from "trustgate/contracts/testing/TrustVm.sol";`).
interface ITrustVm {
    // ---- state ----

    /// @notice Replaces the runtime code of `target`.
    /// @param target The account.
    /// @param newRuntimeBytecode The code it runs from now on.
    function etch(address target, bytes calldata newRuntimeBytecode) external;

    /// @notice Writes one storage slot of `target`.
    /// @param target The account.
    /// @param slot The slot.
    /// @param value The word written.
    function store(address target, bytes32 slot, bytes32 value) external;

    /// @notice Reads one storage slot of `target`.
    /// @param target The account.
    /// @param slot The slot.
    /// @return data The word stored.
    function load(address target, bytes32 slot) external view returns (bytes32 data);

    /// @notice Sets the balance of `account`.
    /// @param account The account.
    /// @param newBalance The balance, in wei.
    function deal(address account, uint256 newBalance) external;

    // ---- environment ----

    /// @notice Sets `block.timestamp`.
    /// @param newTimestamp The timestamp.
    function warp(uint256 newTimestamp) external;

    /// @notice Sets `block.number`.
    /// @param newHeight The block number.
    function roll(uint256 newHeight) external;

    /// @notice Sets `block.chainid`.
    /// @param newChainId The chain id.
    function chainId(uint256 newChainId) external;

    // ---- callers ----

    /// @notice Makes the next call come from `msgSender`.
    /// @param msgSender The caller the next call has.
    function prank(address msgSender) external;

    /// @notice Makes every following call come from `msgSender`, until `stopPrank`.
    /// @param msgSender The caller.
    function startPrank(address msgSender) external;

    /// @notice Ends `startPrank`.
    function stopPrank() external;

    // ---- mocked calls ----

    /// @notice Makes calls to `callee` whose calldata starts with `data` return `returnData`.
    /// @param callee The account.
    /// @param data The calldata prefix (empty: every call).
    /// @param returnData What the calls return.
    function mockCall(address callee, bytes calldata data, bytes calldata returnData) external;

    /// @notice Makes calls to `callee` whose calldata starts with `data` revert with `revertData`.
    /// @param callee The account.
    /// @param data The calldata prefix (empty: every call).
    /// @param revertData The revert data.
    function mockCallRevert(address callee, bytes calldata data, bytes calldata revertData) external;

    /// @notice Removes every mocked call.
    function clearMockedCalls() external;

    // ---- expectations ----

    /// @notice The next call must revert with exactly `revertData`.
    /// @param revertData The expected revert data (an error's selector and arguments).
    function expectRevert(bytes calldata revertData) external;

    /// @notice The next call must revert with exactly these 4 bytes (an error without arguments); for an error with
    ///         arguments, whatever their values, use `expectPartialRevert`.
    /// @param revertData The expected selector.
    function expectRevert(bytes4 revertData) external;

    /// @notice The next call must revert with data starting with `revertData` (an error's selector, whatever its
    ///         arguments).
    /// @param revertData The expected selector.
    function expectPartialRevert(bytes4 revertData) external;

    /// @notice The next call must revert (with any data).
    function expectRevert() external;

    /// @notice The next call must emit the event emitted right after this call (topics and data all checked).
    function expectEmit() external;

    /// @notice The next call must emit the event emitted right after this call, from `emitter`.
    /// @param emitter The address that must emit it.
    function expectEmit(address emitter) external;

    /// @notice Discards the current fuzz input when `condition` is false.
    /// @param condition The condition the input must meet.
    function assume(bool condition) external pure;

    /// @notice Marks the current test as skipped when `skipTest` is true (in `setUp`: every test of the contract).
    /// @param skipTest Whether to skip.
    function skip(bool skipTest) external;

    /// @notice Marks the current test as skipped, with the reason forge prints, when `skipTest` is true.
    /// @param skipTest Whether to skip.
    /// @param reason Why.
    function skip(bool skipTest, string calldata reason) external;

    // ---- keys and signatures ----

    /// @notice The address of a secp256k1 private key.
    /// @param privateKey The key.
    /// @return keyAddr Its address.
    function addr(uint256 privateKey) external pure returns (address keyAddr);

    /// @notice Signs a digest with a secp256k1 key.
    /// @param privateKey The key.
    /// @param digest The digest.
    /// @return v The recovery id (27 or 28).
    /// @return r The signature's `r`.
    /// @return s The signature's `s`.
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);

    /// @notice Signs a digest with a P-256 (secp256r1) key, as ES256 does over the SHA-256 of the signed bytes.
    /// @param privateKey The key (1 to n - 1).
    /// @param digest The digest.
    /// @return r The signature's `r`.
    /// @return s The signature's `s` (low or high: `AttestedTrustOracle` accepts both).
    function signP256(uint256 privateKey, bytes32 digest) external pure returns (bytes32 r, bytes32 s);

    /// @notice The public key of a P-256 private key.
    /// @param privateKey The key.
    /// @return publicKeyX The x coordinate.
    /// @return publicKeyY The y coordinate.
    function publicKeyP256(uint256 privateKey) external pure returns (uint256 publicKeyX, uint256 publicKeyY);

    /// @notice Gives an address a name in traces.
    /// @param account The address.
    /// @param newLabel The name.
    function label(address account, string calldata newLabel) external;

    // ---- forks and environment variables ----

    /// @notice An environment variable, or `defaultValue` when it is not set.
    /// @param name The variable.
    /// @param defaultValue The value returned when it is not set.
    /// @return value The value.
    function envOr(string calldata name, string calldata defaultValue) external view returns (string memory value);

    /// @notice An environment variable as a number, or `defaultValue` when it is not set.
    /// @param name The variable.
    /// @param defaultValue The value returned when it is not set.
    /// @return value The value.
    function envOr(string calldata name, uint256 defaultValue) external view returns (uint256 value);

    /// @notice Forks the chain behind `urlOrAlias` at `blockNumber` and selects the fork.
    /// @param urlOrAlias An RPC URL or an alias from `[rpc_endpoints]`.
    /// @param blockNumber The block to fork at.
    /// @return forkId The fork's id.
    function createSelectFork(string calldata urlOrAlias, uint256 blockNumber) external returns (uint256 forkId);

    /// @notice Forks the chain behind `urlOrAlias` at its latest block and selects the fork.
    /// @param urlOrAlias An RPC URL or an alias from `[rpc_endpoints]`.
    /// @return forkId The fork's id.
    function createSelectFork(string calldata urlOrAlias) external returns (uint256 forkId);
}

/// @dev The cheatcode contract, typed: `TRUST_VM.warp(...)`.
ITrustVm constant TRUST_VM = ITrustVm(TRUST_VM_ADDRESS);
