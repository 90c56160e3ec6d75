// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ITrustOracle} from "../interfaces/ITrustOracle.sol";
import {TrustRecord} from "../TrustTypes.sol";
import {TrustOracleOverride} from "./TrustOracleOverride.sol";
import {TRUST_VM} from "./TrustVm.sol";

/// @notice The key of an oracle record as a test gives it: the agent's id, the chain it is registered on and the
///         registry name (the TypeScript helpers' `TestRecordKey`).
/// @param agentId The agent's id in its registry.
/// @param chainId The chain the agent is registered on (8453 for Base).
/// @param registry The registry name (`erc8004`).
struct TestRecordKey {
    uint256 agentId;
    uint256 chainId;
    string registry;
}

/// @title OracleOverride
/// @notice Puts `TrustOracleOverride` in front of a trust oracle inside a forge test (or a Hardhat 3 Solidity test),
///         and writes its state, with cheatcodes: the Solidity twin of the TypeScript helpers in
///         `src/harness/testing/oracle-override.ts`, with the same names, slots and words. The oracle's original
///         runtime code moves to a side address; the override's code takes its place and DELEGATECALLs every call it
///         does not answer itself to the original code, so that the oracle's own storage (every real record on a Base
///         fork) stays readable as it was. The override's state sits in an ERC-7201 namespaced slot of the oracle
///         address and is written with `vm.store`: no transaction, no event.
/// @dev Stateless: `BaseContext` keeps the list of overridden keys (to restore them) on top of it. Needs the
///      cheatcodes `etch`, `store` and `load` (`TrustVm.sol`).
library OracleOverride {
    /// @notice Base slot of the override's state (`TrustOracleOverride`'s `STORAGE_LOCATION`):
    ///         `keccak256(abi.encode(uint256(keccak256("trustgate.storage.TrustOracleOverride")) - 1)) & ~0xff`.
    bytes32 internal constant ORACLE_OVERRIDE_STORAGE_LOCATION =
        0x39e5b5d65f1d1d68f593f6e6683e274a0fee207c9cbe9575a55a986124853700;

    /// @notice Slot holding the address of the original code.
    bytes32 internal constant ORACLE_OVERRIDE_ORIGINAL_SLOT = ORACLE_OVERRIDE_STORAGE_LOCATION;

    /// @notice Slot of the revert switch.
    bytes32 internal constant ORACLE_OVERRIDE_REVERTING_SLOT =
        bytes32(uint256(ORACLE_OVERRIDE_STORAGE_LOCATION) + 1);

    /// @notice Slot of the records mapping (its entries are at `keccak256(abi.encode(key, slot))`).
    bytes32 internal constant ORACLE_OVERRIDE_RECORDS_SLOT = bytes32(uint256(ORACLE_OVERRIDE_STORAGE_LOCATION) + 2);

    /// @notice Default side address for the original code: the last 20 bytes of
    ///         `keccak256("trustgate.TrustOracleOverride.original")` (no code or state on any real chain).
    address internal constant ORACLE_ORIGINAL_CODE_ADDRESS = 0x906e558CaA41Cee8205668A29719AF277a15D76B;

    /// @dev Bit 255 of an override word: the key is overridden.
    uint256 private constant _OVERRIDDEN = 1 << 255;

    /// @notice Raised when the oracle address has no code to put the override in front of.
    /// @param oracle The oracle address.
    error OracleHasNoCode(address oracle);

    /// @notice Raised when the override is at the oracle address but the side address holds no original code.
    /// @param oracle The oracle address.
    /// @param originalCodeAddress The side address.
    error OriginalCodeMissing(address oracle, address originalCodeAddress);

    /// @notice Installs the override in front of `oracle`, the original code going to `ORACLE_ORIGINAL_CODE_ADDRESS`.
    /// @param oracle The oracle.
    function installOracleOverride(address oracle) internal {
        installOracleOverride(oracle, ORACLE_ORIGINAL_CODE_ADDRESS);
    }

    /// @notice Installs the override in front of `oracle`: copies its runtime code to `originalCodeAddress`, places the
    ///         override's code at `oracle` and writes the side address into the override's state. The oracle's storage
    ///         is not touched otherwise. Installing twice is harmless (the original code stays where it is).
    /// @dev Reverts with `OracleHasNoCode` when nothing runs at `oracle`.
    /// @param oracle The oracle.
    /// @param originalCodeAddress Where the original code goes.
    function installOracleOverride(address oracle, address originalCodeAddress) internal {
        bytes memory overrideCode = type(TrustOracleOverride).runtimeCode;
        bytes memory current = oracle.code;
        if (keccak256(current) == keccak256(overrideCode)) {
            if (originalCodeAddress.code.length == 0) revert OriginalCodeMissing(oracle, originalCodeAddress);
        } else {
            if (current.length == 0) revert OracleHasNoCode(oracle);
            TRUST_VM.etch(originalCodeAddress, current);
            TRUST_VM.etch(oracle, overrideCode);
        }
        TRUST_VM.store(oracle, ORACLE_OVERRIDE_ORIGINAL_SLOT, bytes32(uint256(uint160(originalCodeAddress))));
    }

    /// @notice Removes the override: zeroes the given keys' words, the revert switch and the side address, and puts the
    ///         original code back at `oracle`.
    /// @param oracle The oracle (running the override).
    /// @param keys The keys overridden since installation.
    function uninstallOracleOverride(address oracle, TestRecordKey[] memory keys) internal {
        for (uint256 i; i < keys.length; ++i) {
            TRUST_VM.store(oracle, overrideRecordSlot(keys[i]), bytes32(0));
        }
        setOracleReverting(oracle, false);
        address original = originalCodeAddressOf(oracle);
        TRUST_VM.store(oracle, ORACLE_OVERRIDE_ORIGINAL_SLOT, bytes32(0));
        if (original != address(0)) TRUST_VM.etch(oracle, original.code);
    }

    /// @notice Where the override at `oracle` delegates to (zero when it is not installed).
    /// @param oracle The oracle.
    /// @return The side address holding the original code.
    function originalCodeAddressOf(address oracle) internal view returns (address) {
        return address(uint160(uint256(TRUST_VM.load(oracle, ORACLE_OVERRIDE_ORIGINAL_SLOT))));
    }

    /// @notice Writes one key's override: the record given (a record dated 0 reads as "no record").
    /// @param oracle The oracle (running the override).
    /// @param key The key.
    /// @param record The record the oracle answers for `key` from now on.
    function writeOverride(address oracle, TestRecordKey memory key, TrustRecord memory record) internal {
        TRUST_VM.store(oracle, overrideRecordSlot(key), overrideWord(record));
    }

    /// @notice Drops one key's override: the key reads from the original oracle again.
    /// @param oracle The oracle (running the override).
    /// @param key The key.
    function dropOverride(address oracle, TestRecordKey memory key) internal {
        TRUST_VM.store(oracle, overrideRecordSlot(key), bytes32(0));
    }

    /// @notice Switches the revert switch: while on, every call to the oracle reverts with
    ///         `TrustOracleOverride.TrustOracleOverrideUnavailable()`.
    /// @param oracle The oracle (running the override).
    /// @param reverting On or off.
    function setOracleReverting(address oracle, bool reverting) internal {
        TRUST_VM.store(oracle, ORACLE_OVERRIDE_REVERTING_SLOT, bytes32(uint256(reverting ? 1 : 0)));
    }

    /// @notice The override's hash of a key: `keccak256(abi.encodePacked(agentId, chainId, registry))`.
    /// @param key The key.
    /// @return The hash (the oracle's `recordKey`).
    function overrideRecordKey(TestRecordKey memory key) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(key.agentId, key.chainId, key.registry));
    }

    /// @notice The storage slot (of the oracle address) holding a key's override word.
    /// @param key The key.
    /// @return The slot.
    function overrideRecordSlot(TestRecordKey memory key) internal pure returns (bytes32) {
        return keccak256(abi.encode(overrideRecordKey(key), ORACLE_OVERRIDE_RECORDS_SLOT));
    }

    /// @notice The override word of a record: bit 255 set, the record packed in bits 0-63 (a record dated 0 gives the
    ///         "cleared" word, which reads as "no record").
    /// @param record The record.
    /// @return The word.
    function overrideWord(TrustRecord memory record) internal pure returns (bytes32) {
        if (record.updatedAt == 0) return bytes32(_OVERRIDDEN);
        return bytes32(
            _OVERRIDDEN | uint256(record.score) | (uint256(record.tier) << 8) | (uint256(record.sybilSeverity) << 16)
                | (uint256(record.updatedAt) << 24)
        );
    }

    /// @notice Reads a record through the oracle (`getScore`), as a gate would.
    /// @param oracle The oracle.
    /// @param key The key.
    /// @return record The record; `updatedAt` 0 when there is none. Reverts when the oracle reverts.
    function readRecord(address oracle, TestRecordKey memory key) internal view returns (TrustRecord memory record) {
        (record.score, record.tier, record.sybilSeverity, record.updatedAt) =
            ITrustOracle(oracle).getScore(key.agentId, key.chainId, key.registry);
    }
}
