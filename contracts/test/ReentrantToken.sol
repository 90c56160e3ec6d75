// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReentrantToken
/// @notice Malicious test ERC-20: once armed, the next transfer (including `transferFrom`, excluding mints
///         and burns) calls a chosen contract with chosen calldata from inside the token, to show that a
///         token cannot re-enter a protected contract. A failing call makes the transfer revert with the
///         callee's revert data, so the callee's error surfaces through the token.
/// @dev Not for deployment to a live network: anyone can mint and arm it. The hook fires once per arming.
contract ReentrantToken is ERC20 {
    address private _target;
    bytes private _callData;
    bool private _armed;

    /// @notice Emitted when the token is armed.
    /// @param target The contract the next transfer will call.
    /// @param callData The calldata it will send.
    event Armed(address indexed target, bytes callData);

    /// @notice Emitted when the re-entrant call succeeded.
    /// @param target The contract called.
    /// @param returnData What it returned.
    event Reentered(address indexed target, bytes returnData);

    /// @notice Deploys the token.
    /// @param name_ Token name.
    /// @param symbol_ Token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    /// @notice Mints `amount` to `to`. Anyone may call.
    /// @param to The recipient.
    /// @param amount The amount to mint.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Makes the next transfer call `target` with `callData` before it completes. Anyone may call.
    /// @param target The contract to re-enter.
    /// @param callData The call to make (for example an encoded `claim(escrowId)`).
    function arm(address target, bytes calldata callData) external {
        _target = target;
        _callData = callData;
        _armed = true;
        emit Armed(target, callData);
    }

    /// @notice Whether the next transfer will make the re-entrant call.
    /// @return True while armed.
    function armed() external view returns (bool) {
        return _armed;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (!_armed || from == address(0) || to == address(0)) return;
        _armed = false;
        address target = _target;
        // The arbitrary call is the point of this token: it is how it re-enters the contract under test.
        (bool success, bytes memory returnData) = target.call(_callData); // solhint-disable-line avoid-low-level-calls
        if (!success) {
            assembly ("memory-safe") {
                revert(add(returnData, 0x20), mload(returnData))
            }
        }
        emit Reentered(target, returnData);
    }
}
