// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title MintableTestToken
/// @notice Plain test ERC-20 that anyone can mint, with a switch that makes `transfer` and `transferFrom`
///         return `false` without moving anything (as some old tokens do) to test `SafeERC20` handling.
/// @dev Not for deployment to a live network: anyone can mint and flip the switch.
contract MintableTestToken is ERC20 {
    /// @notice Whether `transfer` and `transferFrom` currently return `false` instead of transferring.
    bool public transfersReturnFalse;

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

    /// @notice Makes transfers return `false` without moving tokens (`true`) or behave normally (`false`).
    /// @param value The new setting.
    function setTransfersReturnFalse(bool value) external {
        transfersReturnFalse = value;
    }

    /// @notice ERC-20 `transfer`, or `false` with no effect while `transfersReturnFalse` is set.
    /// @param to The recipient.
    /// @param value The amount.
    /// @return Whether the transfer happened.
    function transfer(address to, uint256 value) public override returns (bool) {
        if (transfersReturnFalse) return false;
        return super.transfer(to, value);
    }

    /// @notice ERC-20 `transferFrom`, or `false` with no effect while `transfersReturnFalse` is set.
    /// @param from The owner of the tokens.
    /// @param to The recipient.
    /// @param value The amount.
    /// @return Whether the transfer happened.
    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (transfersReturnFalse) return false;
        return super.transferFrom(from, to, value);
    }
}
