// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title BlocklistToken
/// @notice Test ERC-20 with an issuer blocklist, as USDC and USDT have: a blocked account can neither send nor
///         receive tokens (the transfer reverts), but it can still call other contracts.
/// @dev Not for deployment to a live network: anyone can mint and block.
contract BlocklistToken is ERC20 {
    /// @notice Whether an account is blocked.
    mapping(address account => bool) public blocked;

    /// @notice A transfer from or to a blocked account.
    /// @param account The blocked account.
    error AccountBlocked(address account);

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

    /// @notice Blocks or unblocks `account`. Anyone may call.
    /// @param account The account.
    /// @param value Whether it is blocked.
    function setBlocked(address account, bool value) external {
        blocked[account] = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blocked[from]) revert AccountBlocked(from);
        if (blocked[to]) revert AccountBlocked(to);
        super._update(from, to, value);
    }
}
