// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TrustOracleOverride
/// @notice Test shim put in front of a trust oracle on a development node (a Base fork or the kit's local Base
///         simulation) so that tests can change single records, or make the oracle fail, without losing the
///         oracle's other data. Its runtime code is placed at the oracle's address with `hardhat_setCode`; the
///         oracle's original runtime code is moved to a side address. Reads of overridden keys are answered
///         from the override's own state; every other call (other keys, `agentCount`, publishing, anything the
///         original code implements) is DELEGATECALLed to the original code, so it runs against the
///         original storage at the oracle's address, with the original caller and value.
/// @dev Never deployed with a constructor and has no write functions: the test helpers
///      (`src/testing/oracle-override.ts`) write its state directly with `hardhat_setStorageAt`. The state
///      lives in one ERC-7201 namespaced struct (`trustgate.storage.TrustOracleOverride`), far from the
///      original contract's slots (sequential slots from 0, or mapping slots at hashes with other preimages),
///      so that both share the oracle address's storage without collisions.
///
///      Override words: bit 255 marks the key as overridden; bits 0-63 hold the record packed as in
///      `TrustScoreOracleBase` (bits 0-7 score, 8-15 tier, 16-23 sybil severity, 24-63 `updatedAt`). A word
///      with only bit 255 set means "no record" (the key reads as cleared). Keys are
///      `keccak256(abi.encodePacked(agentId, chainId, registry))`.
contract TrustOracleOverride {
    /// @custom:storage-location erc7201:trustgate.storage.TrustOracleOverride
    struct OverrideStorage {
        /// @dev Address holding the oracle's original runtime code.
        address original;
        /// @dev While non-zero, every call reverts with `TrustOracleOverrideUnavailable`.
        uint256 reverting;
        /// @dev Override word per record key (see the contract notes).
        mapping(bytes32 key => uint256 word) records;
    }

    /// @dev `keccak256(abi.encode(uint256(keccak256("trustgate.storage.TrustOracleOverride")) - 1)) & ~bytes32(uint256(0xff))`.
    bytes32 private constant STORAGE_LOCATION = 0x39e5b5d65f1d1d68f593f6e6683e274a0fee207c9cbe9575a55a986124853700;

    /// @dev Marks an override word as set.
    uint256 private constant OVERRIDDEN = 1 << 255;

    /// @notice Raised by every call while the oracle is made unavailable.
    error TrustOracleOverrideUnavailable();

    /// @notice Raised when no original code address has been written (the override was placed incompletely).
    error TrustOracleOverrideNotInstalled();

    /// @notice The record of an agent: the overridden one when the key is overridden, else the original oracle's.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @return score The score (0 when there is no record).
    /// @return tier The tier code.
    /// @return sybilSeverity The sybil severity code.
    /// @return updatedAt The record date (0 when there is no record).
    function getScore(uint256 agentId, uint256 chainId, string calldata registry)
        external
        returns (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt)
    {
        (bool overridden, uint256 word) = _override(agentId, chainId, registry);
        if (!overridden) _delegateToOriginal();
        return (uint8(word), uint8(word >> 8), uint8(word >> 16), uint40(word >> 24));
    }

    /// @notice Whether the oracle holds a record of the agent (overridden keys: whether the override holds one).
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @return True when a record exists.
    function hasScore(uint256 agentId, uint256 chainId, string calldata registry) external returns (bool) {
        (bool overridden, uint256 word) = _override(agentId, chainId, registry);
        if (!overridden) _delegateToOriginal();
        return uint40(word >> 24) != 0;
    }

    /// @notice Whether the agent's score is at least `threshold` (overridden keys: the overridden record's).
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @param threshold The minimum score.
    /// @return True when a record exists and its score is at least `threshold`.
    function meetsThreshold(uint256 agentId, uint256 chainId, string calldata registry, uint8 threshold)
        external
        returns (bool)
    {
        (bool overridden, uint256 word) = _override(agentId, chainId, registry);
        if (!overridden) _delegateToOriginal();
        return uint40(word >> 24) != 0 && uint8(word) >= threshold;
    }

    /// @notice Everything else goes to the original code, against the oracle's storage.
    fallback() external payable {
        _forward();
    }

    /// @notice Plain ether transfers go to the original code too (it decides whether to accept them).
    receive() external payable {
        _forward();
    }

    /// @dev Forwards the call to the original code, after the revert switch.
    function _forward() private {
        if (_layout().reverting != 0) revert TrustOracleOverrideUnavailable();
        _delegateToOriginal();
    }

    /// @dev The override of a key, after the revert switch.
    function _override(uint256 agentId, uint256 chainId, string calldata registry)
        private
        view
        returns (bool overridden, uint256 word)
    {
        OverrideStorage storage $ = _layout();
        if ($.reverting != 0) revert TrustOracleOverrideUnavailable();
        word = $.records[keccak256(abi.encodePacked(agentId, chainId, registry))];
        overridden = word & OVERRIDDEN != 0;
    }

    /// @dev DELEGATECALLs the original code with the whole calldata and returns or reverts with its answer.
    function _delegateToOriginal() private {
        address original = _layout().original;
        if (original == address(0)) revert TrustOracleOverrideNotInstalled();
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), original, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    /// @dev The namespaced state.
    function _layout() private pure returns (OverrideStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }
}
