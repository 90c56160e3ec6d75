// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title FeeOnTransferToken
/// @notice Test ERC-20 that burns a fixed share of every transfer (mints and burns excepted), so that the
///         recipient gets less than the amount sent, as with deflationary or taxed tokens. A fee of 100 %
///         makes every transfer deliver nothing while still succeeding.
/// @dev Not for deployment to a live network: anyone can mint.
contract FeeOnTransferToken is ERC20 {
    /// @notice Denominator of `feeBps`.
    uint256 public constant BPS = 10_000;

    /// @notice Share of each transfer that is burnt, in basis points.
    uint256 public immutable feeBps;

    /// @notice The fee is above 100 %.
    /// @param feeBps The fee given.
    error FeeTooHigh(uint256 feeBps);

    /// @notice Deploys the token with a fixed transfer fee.
    /// @param name_ Token name.
    /// @param symbol_ Token symbol.
    /// @param feeBps_ Share of each transfer burnt, in basis points (at most 10 000).
    constructor(string memory name_, string memory symbol_, uint256 feeBps_) ERC20(name_, symbol_) {
        if (feeBps_ > BPS) revert FeeTooHigh(feeBps_);
        feeBps = feeBps_;
    }

    /// @notice Mints `amount` to `to` with no fee. Anyone may call.
    /// @param to The recipient.
    /// @param amount The amount to mint.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice The fee burnt on a transfer of `amount`.
    /// @param amount The amount sent.
    /// @return The fee (the recipient gets `amount` minus this).
    function feeOn(uint256 amount) public view returns (uint256) {
        return amount * feeBps / BPS;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = feeOn(value);
        if (fee != 0) super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}
