// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAttestedTrustOracle} from "../interfaces/IAttestedTrustOracle.sol";
import {IERC8004IdentityRegistry} from "../interfaces/IERC8004IdentityRegistry.sol";
import {ITrustOracle} from "../interfaces/ITrustOracle.sol";
import {TrustScoreOracle} from "../oracle/TrustScoreOracle.sol";
import {TrustConstants} from "../TrustConstants.sol";
import {TrustRecord} from "../TrustTypes.sol";
import {MockIdentityRegistry} from "./MockIdentityRegistry.sol";
import {MockTrustOracle} from "./MockTrustOracle.sol";
import {OracleOverride, TestRecordKey} from "./OracleOverride.sol";
import {TRUST_VM} from "./TrustVm.sol";
import {SignedTrustAttestation, TrustSignedV2, TrustTestAttestations} from "./TrustTestAttestations.sol";

/// @dev The trust oracle on Base mainnet.
address constant BASE_TRUST_ORACLE_ADDRESS = 0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4;
/// @dev The ERC-8004 identity registry (same address on Base, Ethereum and others).
address constant ERC8004_IDENTITY_REGISTRY_ADDRESS = 0x8004A169FB4a3325136EB29fA0ceB6D2e539a432;
/// @dev Base's chain id.
uint256 constant BASE_CHAIN_ID = 8453;
/// @dev Default Base block of a fork (about late March 2026), the TypeScript `DEFAULT_BASE_FORK_BLOCK`.
uint256 constant DEFAULT_BASE_FORK_BLOCK = 44_000_000;

/// @title BaseContext
/// @notice A Base chain for forge tests (and Hardhat 3 Solidity tests): the Solidity twin of the TypeScript
///         `startBaseContext` (`trustgate/testing`), with the same helper names. Inherit it and call
///         `startBaseContext()` in `setUp`:
///         - with `BASE_RPC_URL` set, the test forks Base (at `BASE_FORK_BLOCK`, default `DEFAULT_BASE_FORK_BLOCK`);
///           a test already running on a Base fork (`forge test --fork-url ...`) is used as it is;
///         - otherwise a simulation: chain id 8453, the reference oracle (`TrustScoreOracle`) placed at the Base
///           oracle's address with records for agents 1 to `DEFAULT_SIMULATED_AGENTS`, and `MockIdentityRegistry`
///           placed at the ERC-8004 registry's address with those agents owned by `account(1)` ... `account(4)` in
///           turn, the clock moved to `SIMULATION_START` when it is earlier.
///         In both modes `TrustOracleOverride` is put in front of the oracle, so that `setRecord`, `clearRecord`,
///         `makeStale`, `restoreRecord`, `makeOracleRevert` and `restoreOracle` change single keys (or make the
///         oracle revert) while every other record, on a fork every real one, reads as it was.
/// @dev Every helper is `internal` (never a test entry point). Contracts are placed at their addresses by running
///      their constructors there (`placeContract`), so storage and immutables are what a deployment leaves. Needs
///      the cheatcodes of `TrustVm.sol` (no forge-std); it can be inherited together with forge-std's `Test`.
abstract contract BaseContext {
    /// @notice Which chain `startBaseContext` gives.
    enum BaseContextMode {
        Auto,
        Fork,
        Simulation
    }

    /// @notice Agents the simulation registers and scores (ids 1 to 24), as in the TypeScript simulation.
    uint256 internal constant DEFAULT_SIMULATED_AGENTS = 24;

    /// @notice The simulation's clock starts here when the test's clock is earlier: 2026-03-27T00:00:00Z.
    uint256 internal constant SIMULATION_START = 1_774_569_600;

    /// @notice Agent ids (1 to 64) a fork test usually probes with `sampleKeys`, as the TypeScript context does.
    uint256 internal constant DEFAULT_FORK_PROBE = 64;

    /// @notice The reason `skipUnlessBaseFork` gives forge.
    string internal constant BASE_FORK_SKIP_REASON = "fork test: no BASE_RPC_URL";

    /// @notice Number of test accounts (`account(0)` ... `account(4)`).
    uint256 internal constant TEST_ACCOUNTS = 5;

    /// @notice Raised by `startBaseContext` in fork mode without an RPC URL.
    error BaseRpcUrlMissing();

    /// @notice Raised when a helper needs the context and `startBaseContext` has not run.
    error BaseContextNotStarted();

    /// @notice Raised by `placeContract` when the constructor run at the target reverts.
    /// @param target The address.
    /// @param reason The constructor's revert data.
    error PlacementFailed(address target, bytes reason);

    /// @notice Raised by `makeStale` when the key has no record to backdate.
    /// @param agentId The agent's id.
    /// @param chainId The chain id.
    /// @param registry The registry name.
    error NoRecordToBackdate(uint256 agentId, uint256 chainId, string registry);

    /// @notice Raised by `makeStale` when the age reaches back before 1970 at the current block.
    /// @param ageSeconds The age asked for.
    /// @param blockTimestamp The current block's timestamp.
    error AgeBeforeEpoch(uint256 ageSeconds, uint256 blockTimestamp);

    /// @notice Raised for an account index beyond the test accounts.
    /// @param index The index.
    error NoSuchTestAccount(uint256 index);

    /// @notice The mode the context runs in (`Fork` or `Simulation`; `Auto` before `startBaseContext`).
    BaseContextMode internal baseContextMode;

    /// @dev Slots of the keys overridden since the last `restoreOracle` (zeroed by it).
    bytes32[] private _overriddenSlots;

    /// @dev Whether `makeOracleRevert(bytes)` mocked the oracle since the last `restoreOracle`.
    bool private _mockedCalls;

    // ---- starting ----

    /// @notice Starts the context: a fork of Base when `BASE_RPC_URL` is set or the test already runs on a chain
    ///         with chain id 8453 and code at the oracle's address, else the simulation.
    function startBaseContext() internal {
        startBaseContext(BaseContextMode.Auto);
    }

    /// @notice Starts the context in the given mode (`Fork` needs `BASE_RPC_URL`, unless the test already runs on a
    ///         Base fork).
    /// @param mode `Auto`, `Fork` or `Simulation`.
    function startBaseContext(BaseContextMode mode) internal {
        string memory rpcUrl = TRUST_VM.envOr("BASE_RPC_URL", string(""));
        bool onBase = block.chainid == BASE_CHAIN_ID && BASE_TRUST_ORACLE_ADDRESS.code.length != 0;
        if (mode == BaseContextMode.Auto) {
            mode = bytes(rpcUrl).length != 0 || onBase ? BaseContextMode.Fork : BaseContextMode.Simulation;
        }
        if (mode == BaseContextMode.Fork) {
            if (!onBase) {
                if (bytes(rpcUrl).length == 0) revert BaseRpcUrlMissing();
                TRUST_VM.createSelectFork(rpcUrl, TRUST_VM.envOr("BASE_FORK_BLOCK", DEFAULT_BASE_FORK_BLOCK));
            }
        } else {
            _startSimulation();
        }
        baseContextMode = mode;
        OracleOverride.installOracleOverride(BASE_TRUST_ORACLE_ADDRESS);
        TRUST_VM.label(BASE_TRUST_ORACLE_ADDRESS, "TrustOracle (override)");
        TRUST_VM.label(OracleOverride.ORACLE_ORIGINAL_CODE_ADDRESS, "TrustOracle (original code)");
        TRUST_VM.label(ERC8004_IDENTITY_REGISTRY_ADDRESS, "ERC8004IdentityRegistry");
    }

    /// @notice For fork tests: skips every test of the contract (when called in `setUp`), with the reason
    ///         `BASE_FORK_SKIP_REASON`, unless `BASE_RPC_URL` is set or the test already runs on a Base fork
    ///         (`forge test --fork-url ...`). Then `startBaseContext(BaseContextMode.Fork)` forks Base.
    function skipUnlessBaseFork() internal {
        bool onBase = block.chainid == BASE_CHAIN_ID && BASE_TRUST_ORACLE_ADDRESS.code.length != 0;
        bool hasUrl = bytes(TRUST_VM.envOr("BASE_RPC_URL", string(""))).length != 0;
        TRUST_VM.skip(!onBase && !hasUrl, BASE_FORK_SKIP_REASON);
    }

    // ---- placing contracts ----

    /// @notice Runs a contract's creation code at `target` (its constructor writes `target`'s storage and sees
    ///         `target` as `address(this)`), then leaves its runtime code there: what a deployment at that address
    ///         would leave. The constructor's `msg.sender` is this contract.
    /// @param target The address.
    /// @param creationCode The creation code with its constructor arguments appended.
    function placeContract(address target, bytes memory creationCode) internal {
        TRUST_VM.etch(target, creationCode);
        // A call with no data runs the creation code as the account's code: the only way to run a constructor at a
        // chosen address.
        (bool ok, bytes memory runtimeCode) = target.call(""); // solhint-disable-line avoid-low-level-calls
        if (!ok) revert PlacementFailed(target, runtimeCode);
        TRUST_VM.etch(target, runtimeCode);
    }

    /// @notice Places the reference oracle at the Base oracle's address, `admin` holding its admin and publisher roles.
    /// @param admin The admin and publisher.
    /// @return oracle The oracle.
    function placeTrustScoreOracle(address admin) internal returns (TrustScoreOracle oracle) {
        placeContract(BASE_TRUST_ORACLE_ADDRESS, abi.encodePacked(type(TrustScoreOracle).creationCode, abi.encode(admin)));
        return TrustScoreOracle(BASE_TRUST_ORACLE_ADDRESS);
    }

    /// @notice Places the mock oracle (unrestricted `setRecord`, `setReadFailure`, ...) at the Base oracle's address,
    ///         for tests that drive the mock's own setters rather than the context's helpers.
    /// @return oracle The mock.
    function placeMockTrustOracle() internal returns (MockTrustOracle oracle) {
        placeContract(BASE_TRUST_ORACLE_ADDRESS, type(MockTrustOracle).creationCode);
        return MockTrustOracle(BASE_TRUST_ORACLE_ADDRESS);
    }

    /// @notice Places the ERC-8004 registry stand-in (`MockIdentityRegistry`) at the registry's address.
    /// @return registry The registry.
    function placeMockIdentityRegistry() internal returns (MockIdentityRegistry registry) {
        placeContract(ERC8004_IDENTITY_REGISTRY_ADDRESS, type(MockIdentityRegistry).creationCode);
        return MockIdentityRegistry(ERC8004_IDENTITY_REGISTRY_ADDRESS);
    }

    /// @notice Installs the test attestation key (`TrustTestAttestations.TEST_ATTESTATION_KEY_X/Y`) in an
    ///         `AttestedTrustOracle` under `TEST_ATTESTATION_KID`, so that it accepts what `signTrustAttestation` signs.
    ///         This contract must hold the oracle's admin role (deploy it with `new AttestedTrustOracle(address(this),
    ///         BASE_TRUST_ORACLE_ADDRESS)`).
    /// @dev Takes the interface, not the contract, so that a test that never deploys the attested oracle does not
    ///      compile it (its P-256 verification needs the optimizer, as the kit compiles it).
    /// @param attested The oracle.
    function installTestSigningKey(IAttestedTrustOracle attested) internal {
        attested.setSigningKey(
            TrustTestAttestations.TEST_ATTESTATION_KID,
            TrustTestAttestations.TEST_ATTESTATION_KEY_X,
            TrustTestAttestations.TEST_ATTESTATION_KEY_Y
        );
    }

    // ---- records ----

    /// @notice The key of an agent on Base in the `erc8004` registry (the TypeScript `resolveRecordKey` defaults).
    /// @param agentId The agent's id.
    /// @return key The key.
    function resolveRecordKey(uint256 agentId) internal pure returns (TestRecordKey memory key) {
        return TestRecordKey(agentId, BASE_CHAIN_ID, "erc8004");
    }

    /// @notice The Base `erc8004` agents among ids 1 to `probe` that hold a record now (the TypeScript context's
    ///         `sampleKeys`): in the simulation the seeded agents, on a fork real ones. One `hasScore` call per id.
    /// @param probe How many ids to probe (the TypeScript default is `DEFAULT_FORK_PROBE`, 64).
    /// @return keys The keys found, in id order.
    function sampleKeys(uint256 probe) internal view returns (TestRecordKey[] memory keys) {
        keys = new TestRecordKey[](probe);
        uint256 found;
        for (uint256 id = 1; id <= probe; ++id) {
            if (ITrustOracle(BASE_TRUST_ORACLE_ADDRESS).hasScore(id, BASE_CHAIN_ID, "erc8004")) {
                keys[found] = resolveRecordKey(id);
                ++found;
            }
        }
        assembly ("memory-safe") {
            mstore(keys, found)
        }
    }

    /// @notice Reads a record through the oracle (`getScore`), as a gate would; reverts when the oracle reverts.
    /// @param key The key.
    /// @return The record (`updatedAt` 0 when there is none).
    function readRecord(TestRecordKey memory key) internal view returns (TrustRecord memory) {
        return OracleOverride.readRecord(BASE_TRUST_ORACLE_ADDRESS, key);
    }

    /// @notice Reads the record of a Base `erc8004` agent through the oracle.
    /// @param agentId The agent's id.
    /// @return The record.
    function readRecord(uint256 agentId) internal view returns (TrustRecord memory) {
        return readRecord(resolveRecordKey(agentId));
    }

    /// @notice Makes the oracle answer `record` for `key` (any values, any date); other keys are untouched.
    /// @param key The key.
    /// @param record The record (dated 0: "no record").
    function setRecord(TestRecordKey memory key, TrustRecord memory record) internal {
        _requireStarted();
        _track(key);
        OracleOverride.writeOverride(BASE_TRUST_ORACLE_ADDRESS, key, record);
    }

    /// @notice Makes the oracle answer a fresh record (dated now) for a Base `erc8004` agent: the score given, the tier
    ///         of that score, no sybil signal.
    /// @param agentId The agent's id.
    /// @param score The score.
    /// @return record The record written.
    function setRecord(uint256 agentId, uint8 score) internal returns (TrustRecord memory record) {
        return setRecord(agentId, score, TrustConstants.SYBIL_NONE);
    }

    /// @notice Makes the oracle answer a fresh record (dated now) for a Base `erc8004` agent: the score and sybil
    ///         severity code given, the tier of that score.
    /// @param agentId The agent's id.
    /// @param score The score.
    /// @param sybilSeverity The sybil severity code.
    /// @return record The record written.
    function setRecord(uint256 agentId, uint8 score, uint8 sybilSeverity) internal returns (TrustRecord memory record) {
        record = TrustRecord(score, tierCode(score), sybilSeverity, uint40(block.timestamp));
        setRecord(resolveRecordKey(agentId), record);
    }

    /// @notice Makes the oracle answer "no record" for `key` (`hasScore` false, `getScore` all zeros).
    /// @param key The key.
    function clearRecord(TestRecordKey memory key) internal {
        setRecord(key, TrustRecord(0, 0, 0, 0));
    }

    /// @notice Makes the oracle answer "no record" for a Base `erc8004` agent.
    /// @param agentId The agent's id.
    function clearRecord(uint256 agentId) internal {
        clearRecord(resolveRecordKey(agentId));
    }

    /// @notice Backdates `key`'s current record (overridden or original) so that it is `ageSeconds` old now, keeping
    ///         its score and codes.
    /// @dev Reverts with `NoRecordToBackdate` when the key has no record, `AgeBeforeEpoch` for an age beyond the clock.
    /// @param key The key.
    /// @param ageSeconds The age.
    /// @return record The record written.
    function makeStale(TestRecordKey memory key, uint256 ageSeconds) internal returns (TrustRecord memory record) {
        record = readRecord(key);
        if (record.updatedAt == 0) revert NoRecordToBackdate(key.agentId, key.chainId, key.registry);
        if (ageSeconds >= block.timestamp) revert AgeBeforeEpoch(ageSeconds, block.timestamp);
        record.updatedAt = uint40(block.timestamp - ageSeconds);
        setRecord(key, record);
    }

    /// @notice Backdates a Base `erc8004` agent's current record so that it is `ageSeconds` old now.
    /// @param agentId The agent's id.
    /// @param ageSeconds The age.
    /// @return The record written.
    function makeStale(uint256 agentId, uint256 ageSeconds) internal returns (TrustRecord memory) {
        return makeStale(resolveRecordKey(agentId), ageSeconds);
    }

    /// @notice Drops `key`'s override: the oracle answers the original record again.
    /// @param key The key.
    function restoreRecord(TestRecordKey memory key) internal {
        _requireStarted();
        OracleOverride.dropOverride(BASE_TRUST_ORACLE_ADDRESS, key);
    }

    /// @notice Drops a Base `erc8004` agent's override.
    /// @param agentId The agent's id.
    function restoreRecord(uint256 agentId) internal {
        restoreRecord(resolveRecordKey(agentId));
    }

    /// @notice Makes every call to the oracle revert with `TrustOracleOverride.TrustOracleOverrideUnavailable()`.
    function makeOracleRevert() internal {
        _requireStarted();
        OracleOverride.setOracleReverting(BASE_TRUST_ORACLE_ADDRESS, true);
    }

    /// @notice Makes every call to the oracle revert with exactly `revertData` (empty: a revert without data, as an
    ///         out-of-gas or a missing function gives), through the `mockCallRevert` cheatcode.
    /// @param revertData The revert data.
    function makeOracleRevert(bytes memory revertData) internal {
        _requireStarted();
        TRUST_VM.mockCallRevert(BASE_TRUST_ORACLE_ADDRESS, "", revertData);
        _mockedCalls = true;
    }

    /// @notice Stops the revert and drops every record override: the oracle answers exactly as before the helpers ran.
    /// @dev After `makeOracleRevert(bytes)` it also calls `clearMockedCalls`, which removes every mocked call of the
    ///      test, the test's own included.
    function restoreOracle() internal {
        _requireStarted();
        if (_mockedCalls) {
            TRUST_VM.clearMockedCalls();
            _mockedCalls = false;
        }
        OracleOverride.setOracleReverting(BASE_TRUST_ORACLE_ADDRESS, false);
        for (uint256 i; i < _overriddenSlots.length; ++i) {
            TRUST_VM.store(BASE_TRUST_ORACLE_ADDRESS, _overriddenSlots[i], bytes32(0));
        }
        delete _overriddenSlots;
    }

    // ---- agents and accounts ----

    /// @notice The owner of an agent in the ERC-8004 identity registry (reverts when there is none).
    /// @param agentId The agent's id.
    /// @return The owner.
    function controllerOf(uint256 agentId) internal view returns (address) {
        return IERC8004IdentityRegistry(ERC8004_IDENTITY_REGISTRY_ADDRESS).ownerOf(agentId);
    }

    /// @notice Registers agent `agentId` for `owner` in the simulation's registry stand-in (not on a fork: the real
    ///         registry has no such function).
    /// @param owner The owner.
    /// @param agentId The id (reverts when taken).
    function registerAgent(address owner, uint256 agentId) internal {
        MockIdentityRegistry(ERC8004_IDENTITY_REGISTRY_ADDRESS).registerWithId(owner, agentId);
    }

    /// @notice Test account `index` (0 to 4): the first accounts of the `test test ... junk` mnemonic, the accounts of
    ///         Hardhat's and anvil's nodes, so that the owners match the TypeScript simulation's.
    /// @param index The index.
    /// @return The address.
    function account(uint256 index) internal pure returns (address) {
        return TRUST_VM.addr(accountKey(index));
    }

    /// @notice The private key of test account `index` (public: tests only).
    /// @param index The index, 0 to 4.
    /// @return The secp256k1 private key.
    function accountKey(uint256 index) internal pure returns (uint256) {
        if (index == 0) return 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80;
        if (index == 1) return 0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d;
        if (index == 2) return 0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a;
        if (index == 3) return 0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6;
        if (index == 4) return 0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a;
        revert NoSuchTestAccount(index);
    }

    /// @notice Moves the clock forward.
    /// @param secondsForward Seconds.
    function increaseTime(uint256 secondsForward) internal {
        TRUST_VM.warp(block.timestamp + secondsForward);
    }

    // ---- attestations ----

    /// @notice Signs, with the test key, a v2 attestation of a Base `erc8004` agent computed `ageSeconds` ago and
    ///         signed now, its owner read from the registry: ready for a gate's `onlyTrustedAgentWithAttestation` over
    ///         an `AttestedTrustOracle` holding the test key (`installTestSigningKey`).
    /// @param agentId The agent's id.
    /// @param score The score.
    /// @param sybilSeverity The sybil severity code.
    /// @param ageSeconds How long ago the score was computed.
    /// @return The kid, the signed bytes and the signature.
    function signTrustAttestation(uint256 agentId, uint8 score, uint8 sybilSeverity, uint256 ageSeconds)
        internal
        view
        returns (SignedTrustAttestation memory)
    {
        TrustSignedV2 memory signed = TrustTestAttestations.trustSignedV2(
            agentId,
            controllerOf(agentId),
            score,
            sybilSeverity,
            uint40(block.timestamp - ageSeconds),
            uint40(block.timestamp)
        );
        return TrustTestAttestations.signTrustAttestation(signed);
    }

    // ---- codes ----

    /// @notice The kit's tier code of a score (`TrustConstants`: 0 flagged ... 3 established).
    /// @param score The score.
    /// @return The code.
    function tierCode(uint8 score) internal pure returns (uint8) {
        if (score >= TrustConstants.TIER_ESTABLISHED_MIN_SCORE) return TrustConstants.TIER_ESTABLISHED;
        if (score >= TrustConstants.TIER_DEVELOPING_MIN_SCORE) return TrustConstants.TIER_DEVELOPING;
        if (score >= TrustConstants.TIER_LIMITED_MIN_SCORE) return TrustConstants.TIER_LIMITED;
        return TrustConstants.TIER_FLAGGED;
    }

    // ---- internals ----

    /// @dev The simulation: chain id, clock, the reference oracle with seeded records, the registry with its agents.
    function _startSimulation() private {
        TRUST_VM.chainId(BASE_CHAIN_ID);
        if (block.timestamp < SIMULATION_START) TRUST_VM.warp(SIMULATION_START);
        TrustScoreOracle oracle = placeTrustScoreOracle(address(this));
        MockIdentityRegistry registry = placeMockIdentityRegistry();
        TrustScoreOracle.ScoreUpdate[] memory updates = new TrustScoreOracle.ScoreUpdate[](DEFAULT_SIMULATED_AGENTS);
        for (uint256 id = 1; id <= DEFAULT_SIMULATED_AGENTS; ++id) {
            registry.registerWithId(account(1 + ((id - 1) % 4)), id);
            uint256 seed = uint256(keccak256(abi.encode("trustgate.simulation", id)));
            uint8 score = uint8(20 + (seed % 76)); // 20-95
            updates[id - 1] = TrustScoreOracle.ScoreUpdate({
                agentId: id,
                chainId: BASE_CHAIN_ID,
                registry: "erc8004",
                score: score,
                tier: tierCode(score),
                sybilSeverity: uint8((seed >> 8) % 8 < 6 ? 0 : 1 + ((seed >> 16) % 4)),
                updatedAt: uint40(block.timestamp - 1 hours - ((seed >> 24) % 20 hours))
            });
        }
        oracle.publish(updates);
    }

    /// @dev Remembers a key's slot for `restoreOracle`.
    function _track(TestRecordKey memory key) private {
        _overriddenSlots.push(OracleOverride.overrideRecordSlot(key));
    }

    /// @dev Reverts unless the override is installed.
    function _requireStarted() private view {
        if (baseContextMode == BaseContextMode.Auto) revert BaseContextNotStarted();
    }
}
