// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ShortString, ShortStrings} from "@openzeppelin/contracts/utils/ShortStrings.sol";
import {IAttestedTrustOracle} from "./interfaces/IAttestedTrustOracle.sol";
import {IERC8004IdentityRegistry} from "./interfaces/IERC8004IdentityRegistry.sol";
import {ITrustGated} from "./interfaces/ITrustGated.sol";
import {ITrustOracle} from "./interfaces/ITrustOracle.sol";
import {TrustConstants} from "./TrustConstants.sol";
import {TrustPolicyLib} from "./TrustPolicyLib.sol";
import {TrustPolicy, TrustRecord, TrustRefusal} from "./TrustTypes.sol";

/// @title TrustGated
/// @notice Abstract base for contracts that admit an AI agent only while the trust oracle vouches for it.
///         Inherit it, pass a `TrustGateConfig` to its constructor, and put `onlyTrustedAgent(agentId)` on
///         the functions to gate (or call `_requireTrustedAgent(agentId, account)` when the account to check
///         is not the direct caller, as in a hook called by another contract).
/// @dev Each check makes one `getScore` call to the oracle and, when the policy asks for it, up to four
///      calls to the ERC-8004 identity registry. It fails closed: the call reverts with a custom error
///      carrying the values found and required when the oracle reverts or answers something that is not a
///      well-formed record, when there is no record, when the record is dated in the future or is older
///      than `maxAge`, when the score is below `minScore`, when the sybil severity is above
///      `maxSybilSeverity`, and (optionally) when the account does not control the agent (owner, approved
///      account, operator, or the agent wallet registered in the identity registry).
///
///      For inheritors: the checks live in the non-virtual `_requireTrustedAgent` and `onlyTrustedAgent`;
///      they cannot be skipped by an override. The one extension point is `_validateTrustPolicy`, to add
///      constraints on the policy the owner may set (call `super` first). The policy is held per gate
///      and only its owner (two-step ownership transfer) can change it; every change is an event.
///      The agent domain (the chain id and registry name under which agents are looked up) is immutable.
///      The errors, events and external functions are declared in `ITrustGated`.
abstract contract TrustGated is ITrustGated, Ownable2Step {
    using ShortStrings for ShortString;
    using ShortStrings for string;

    /// @notice Constructor arguments of a gate.
    /// @param oracle The trust oracle to read (on Base: `0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4`).
    /// @param identityRegistry The ERC-8004 identity registry used by the controller check; may be the
    ///        zero address when the policy never requires it.
    /// @param agentChainId The chain on which the gated agents are registered (the oracle's `chainId`).
    /// @param agentRegistry The oracle's registry name for the gated agents, at most 31 bytes (`erc8004`).
    /// @param policy The initial policy.
    struct TrustGateConfig {
        address oracle;
        address identityRegistry;
        uint256 agentChainId;
        string agentRegistry;
        TrustPolicy policy;
    }

    /// @dev Oracle address and policy, packed into one storage slot so that a check costs one SLOAD.
    struct GateSlot {
        ITrustOracle oracle;
        uint8 minScore;
        uint8 maxSybilSeverity;
        uint32 maxAge;
        bool requireController;
    }

    /// @dev Bytes of an oracle's revert data or malformed answer kept in the revert of a gated call.
    uint256 private constant MAX_ORACLE_DATA = 256;

    GateSlot private _gate;
    IERC8004IdentityRegistry private immutable _identityRegistry;
    uint256 private immutable _agentChainId;
    ShortString private immutable _agentRegistry;

    /// @notice Reverts unless `agentId` passes the gate's policy, with the caller as the account.
    /// @param agentId The agent's id in the gate's registry.
    modifier onlyTrustedAgent(uint256 agentId) {
        _requireTrustedAgent(agentId, _msgSender());
        _;
    }

    /// @notice `onlyTrustedAgentWithJwsAttestation` for a response without a JWS: the raw `sig` form (the signed bytes
    ///         and the 64-byte signature), submitted to the gate's `AttestedTrustOracle` before the policy runs.
    /// @dev See `_requireTrustedAgentWithAttestation`.
    /// @param agentId The agent's id in the gate's registry.
    /// @param kid The attestation's key id (`attestation.kid`).
    /// @param signedJson The exact signed bytes (`JSON.stringify(attestation.signed)`).
    /// @param signature The signature, 64 bytes `r‖s` (`attestation.sig` decoded from base64).
    modifier onlyTrustedAgentWithAttestation(
        uint256 agentId,
        string calldata kid,
        bytes calldata signedJson,
        bytes calldata signature
    ) {
        _requireTrustedAgentWithAttestation(agentId, _msgSender(), kid, signedJson, signature);
        _;
    }

    /// @notice Submits the service's compact JWS attestation of `agentId` (`attestation.jws`, as issued) to the gate's
    ///         oracle, which must be an `AttestedTrustOracle`, then reverts unless `agentId` passes the gate's policy,
    ///         with the caller as the account. The main attestation path.
    /// @dev See `_requireTrustedAgentWithJwsAttestation`.
    /// @param agentId The agent's id in the gate's registry.
    /// @param kid The attestation's key id (`attestation.kid`, equal to the JWS header's `kid`).
    /// @param jws The compact JWS, as ASCII bytes.
    modifier onlyTrustedAgentWithJwsAttestation(uint256 agentId, string calldata kid, bytes calldata jws) {
        _requireTrustedAgentWithJwsAttestation(agentId, _msgSender(), kid, jws);
        _;
    }

    /// @notice Sets the gate up; emits `TrustOracleChanged` and `TrustPolicyChanged`.
    /// @param config The oracle, identity registry, agent domain and initial policy.
    /// @param initialOwner The account allowed to change the policy and the oracle.
    constructor(TrustGateConfig memory config, address initialOwner) Ownable(initialOwner) {
        _identityRegistry = IERC8004IdentityRegistry(config.identityRegistry);
        _agentChainId = config.agentChainId;
        _agentRegistry = config.agentRegistry.toShortString();
        _setTrustOracle(config.oracle);
        _setTrustPolicy(config.policy);
    }

    /// @inheritdoc ITrustGated
    function setTrustPolicy(TrustPolicy calldata policy) external onlyOwner {
        _setTrustPolicy(policy);
    }

    /// @inheritdoc ITrustGated
    function setTrustOracle(address oracle) external onlyOwner {
        _setTrustOracle(oracle);
    }

    /// @inheritdoc ITrustGated
    function trustPolicy() public view returns (TrustPolicy memory policy) {
        GateSlot memory gate = _gate;
        return TrustPolicy(gate.minScore, gate.maxSybilSeverity, gate.maxAge, gate.requireController);
    }

    /// @inheritdoc ITrustGated
    function trustOracle() external view returns (address) {
        return address(_gate.oracle);
    }

    /// @inheritdoc ITrustGated
    function identityRegistry() external view returns (address) {
        return address(_identityRegistry);
    }

    /// @inheritdoc ITrustGated
    function agentDomain() external view returns (uint256 chainId, string memory registry) {
        return (_agentChainId, _agentRegistry.toString());
    }

    /// @inheritdoc ITrustGated
    function trustVerdict(uint256 agentId, address account)
        external
        view
        returns (bool allowed, TrustRefusal refusal, TrustRecord memory record)
    {
        (refusal, record,) = _evaluateTrust(agentId, account, _gate);
        allowed = refusal == TrustRefusal.None;
    }

    /// @notice Reverts with the matching custom error unless `agentId` passes the policy for `account`.
    /// @dev Non-virtual on purpose: inheritors cannot weaken the check.
    /// @param agentId The agent's id in the gate's registry.
    /// @param account The account acting for the agent (the controller check applies to it).
    /// @return record The record that passed, for inheritors that want the score.
    function _requireTrustedAgent(uint256 agentId, address account) internal view returns (TrustRecord memory record) {
        GateSlot memory gate = _gate;
        TrustRefusal refusal;
        bytes memory oracleData;
        (refusal, record, oracleData) = _evaluateTrust(agentId, account, gate);
        if (refusal == TrustRefusal.None) return record;
        _revertWith(refusal, agentId, account, record, gate, oracleData);
    }

    /// @notice Submits the compact JWS attestation of `agentId` to the gate's oracle, then applies
    ///         `_requireTrustedAgent`.
    /// @dev The oracle (`IAttestedTrustOracle.submitJwsAttestationFor`) verifies the JWS and the signed block,
    ///      refuses an attestation about another agent or agent domain than the gate's, an expired or future-dated
    ///      one, and stores the record when it is newer than what it answers (otherwise the submission is a no-op);
    ///      its errors reach the caller unchanged. The unchanged policy (the same code as `_requireTrustedAgent`
    ///      after its read) then runs against what the oracle answers, which is what its `getScore` returns at that
    ///      point (the fresher of the attested record and its upstream's), so an attestation can only make the data
    ///      fresher, never bypass a check: a low score, a high sybil severity, an old `issuedAt` or a caller who
    ///      does not control the agent are refused as usual. Reverts with `TrustOracleNotAttested` when the oracle
    ///      does not implement the submission (empty revert). Non-virtual on purpose.
    /// @param agentId The agent's id in the gate's registry.
    /// @param account The account acting for the agent (the controller check applies to it).
    /// @param kid The attestation's key id.
    /// @param jws The compact JWS, as ASCII bytes.
    /// @return record The record that passed.
    function _requireTrustedAgentWithJwsAttestation(
        uint256 agentId,
        address account,
        string calldata kid,
        bytes calldata jws
    ) internal returns (TrustRecord memory record) {
        record = _requireAttested(
            agentId, account, _submission(IAttestedTrustOracle.submitJwsAttestationFor.selector, agentId, kid, jws, jws[:0], false)
        );
    }

    /// @notice `_requireTrustedAgentWithJwsAttestation` for a response without a JWS: the raw `sig` form, through
    ///         `IAttestedTrustOracle.submitAttestationFor`. Non-virtual on purpose.
    /// @param agentId The agent's id in the gate's registry.
    /// @param account The account acting for the agent (the controller check applies to it).
    /// @param kid The attestation's key id.
    /// @param signedJson The exact signed bytes.
    /// @param signature The signature, 64 bytes `r‖s`.
    /// @return record The record that passed.
    function _requireTrustedAgentWithAttestation(
        uint256 agentId,
        address account,
        string calldata kid,
        bytes calldata signedJson,
        bytes calldata signature
    ) internal returns (TrustRecord memory record) {
        record = _requireAttested(
            agentId,
            account,
            _submission(IAttestedTrustOracle.submitAttestationFor.selector, agentId, kid, signedJson, signature, true)
        );
    }

    /// @notice Extension point: checks a policy before it is stored (at deployment and in `setTrustPolicy`).
    /// @dev The base refuses a `minScore` above `TrustConstants.MAX_SCORE` (100), a `maxSybilSeverity` above
    ///      `TrustConstants.MAX_SYBIL_SEVERITY` (4), a zero `maxAge`, and a controller requirement without an
    ///      identity registry.
    ///
    ///      NOTE: this is the one place for an inheritor to restrict the policies its owner may set; override it
    ///      and call `super._validateTrustPolicy(policy)` first, so that the base rules keep applying.
    /// @param policy The policy about to be stored.
    function _validateTrustPolicy(TrustPolicy memory policy) internal view virtual {
        if (policy.minScore > TrustConstants.MAX_SCORE) {
            revert MinScoreOutOfRange(policy.minScore, TrustConstants.MAX_SCORE);
        }
        if (policy.maxSybilSeverity > TrustConstants.MAX_SYBIL_SEVERITY) {
            revert MaxSybilSeverityOutOfRange(policy.maxSybilSeverity, TrustConstants.MAX_SYBIL_SEVERITY);
        }
        if (policy.maxAge == 0) revert ZeroMaxAge();
        if (policy.requireController && address(_identityRegistry) == address(0)) revert IdentityRegistryNotSet();
    }

    /// @notice Whether `account` controls `agentId` in the identity registry: its owner, the account approved
    ///         for it, an operator of its owner, or its registered agent wallet.
    /// @param agentId The agent id (ERC-721 token id in the identity registry).
    /// @param account The account to check.
    /// @return known False when the registry could not name an owner (unregistered agent or failing registry).
    /// @return controls True when `account` controls the agent.
    function _agentControlledBy(uint256 agentId, address account) internal view returns (bool known, bool controls) {
        address registry = address(_identityRegistry);
        if (registry == address(0)) return (false, false);
        uint256 owner;
        (known, owner) = _staticWord(registry, abi.encodeCall(IERC8004IdentityRegistry.ownerOf, (agentId)));
        if (!known || owner == 0 || owner > type(uint160).max) return (false, false);
        if (address(uint160(owner)) == account) return (true, true);
        (bool ok, uint256 word) =
            _staticWord(registry, abi.encodeCall(IERC8004IdentityRegistry.getAgentWallet, (agentId)));
        if (ok && word != 0 && word == uint256(uint160(account))) return (true, true);
        (ok, word) = _staticWord(registry, abi.encodeCall(IERC8004IdentityRegistry.getApproved, (agentId)));
        if (ok && word != 0 && word == uint256(uint160(account))) return (true, true);
        (ok, word) = _staticWord(
            registry, abi.encodeCall(IERC8004IdentityRegistry.isApprovedForAll, (address(uint160(owner)), account))
        );
        return (true, ok && word == 1);
    }

    function _setTrustPolicy(TrustPolicy memory policy) private {
        _validateTrustPolicy(policy);
        TrustPolicy memory previous = trustPolicy();
        GateSlot storage gate = _gate;
        gate.minScore = policy.minScore;
        gate.maxSybilSeverity = policy.maxSybilSeverity;
        gate.maxAge = policy.maxAge;
        gate.requireController = policy.requireController;
        emit TrustPolicyChanged(previous, policy);
    }

    function _setTrustOracle(address oracle) private {
        if (oracle.code.length == 0) revert InvalidTrustOracle(oracle);
        address previous = address(_gate.oracle);
        _gate.oracle = ITrustOracle(oracle);
        emit TrustOracleChanged(previous, oracle);
    }

    /// @dev The call data of a submission to the gate's oracle: `selector(agentId, chainId, registry, kid, first)`,
    ///      with `second` as a last argument when `withSecond`, ABI-encoded straight from the gated call's calldata
    ///      (the gate's agent domain from its immutables), without the intermediate copies `abi.encodeCall` makes.
    function _submission(
        bytes4 selector,
        uint256 agentId,
        string calldata kid,
        bytes calldata first,
        bytes calldata second,
        bool withSecond
    ) private view returns (bytes memory data) {
        // The registry name, left-aligned and zero-padded, its length (at most 31) in the last byte.
        bytes32 registry = ShortString.unwrap(_agentRegistry);
        uint256 chainId = _agentChainId;
        assembly ("memory-safe") {
            // Appends `text` (length word, bytes, zero padding) at `args + at`, its offset in the head slot `slot`;
            // the position after it.
            function append(args, at, slot, offset, length) -> next {
                mstore(add(args, slot), at)
                let start := add(add(args, at), 0x20)
                mstore(sub(start, 0x20), length)
                calldatacopy(start, offset, length)
                mstore(add(start, length), 0)
                next := add(add(at, 0x20), and(add(length, 31), not(31)))
            }
            data := mload(0x40)
            let args := add(data, 0x24)
            mstore(add(data, 0x20), selector)
            mstore(args, agentId)
            mstore(add(args, 0x20), chainId)
            let at := 0xa0
            if withSecond { at := 0xc0 }
            mstore(add(args, 0x40), at)
            mstore(add(args, at), and(registry, 0xff))
            mstore(add(add(args, at), 0x20), and(registry, not(0xff)))
            at := add(at, 0x40)
            at := append(args, at, 0x60, kid.offset, kid.length)
            at := append(args, at, 0x80, first.offset, first.length)
            if withSecond { at := append(args, at, 0xa0, second.offset, second.length) }
            mstore(data, add(at, 4))
            mstore(0x40, add(args, add(at, 28)))
        }
    }

    /// @dev Sends a submission to the gate's oracle and runs the policy on the record it answers. The oracle's revert
    ///      reaches the caller unchanged; an empty revert means the oracle takes no attestations; an answer that is
    ///      not a well-formed record (too short, a value out of its type, a score above `TrustConstants.MAX_SCORE`) is
    ///      refused with `TrustOracleMalformedResponse`, as on the read path.
    function _requireAttested(uint256 agentId, address account, bytes memory submission)
        private
        returns (TrustRecord memory record)
    {
        GateSlot memory gate = _gate;
        address oracle = address(gate.oracle);
        bool ok;
        uint256 size;
        uint256 score;
        uint256 tier;
        uint256 sybil;
        uint256 updatedAt;
        // A low-level call, so that one path serves both submission forms and tells an empty revert apart; only the
        // four words of a record are copied from a normal answer.
        assembly ("memory-safe") {
            ok := call(gas(), oracle, 0, add(submission, 0x20), mload(submission), 0, 0)
            size := returndatasize()
            let ptr := mload(0x40)
            if iszero(or(ok, iszero(size))) {
                returndatacopy(ptr, 0, size)
                revert(ptr, size)
            }
            if and(ok, gt(size, 0x7f)) {
                returndatacopy(ptr, 0, 0x80)
                score := mload(ptr)
                tier := mload(add(ptr, 0x20))
                sybil := mload(add(ptr, 0x40))
                updatedAt := mload(add(ptr, 0x60))
            }
        }
        if (!ok) revert TrustOracleNotAttested(oracle);
        if (
            size < 0x80 || score > TrustConstants.MAX_SCORE || tier > type(uint8).max || sybil > type(uint8).max
                || updatedAt > type(uint40).max
        ) {
            revert TrustOracleMalformedResponse(oracle, _boundedReturnData(size));
        }
        record = TrustRecord(uint8(score), uint8(tier), uint8(sybil), uint40(updatedAt));
        TrustRefusal refusal = _evaluateRecord(record, agentId, account, gate);
        if (refusal == TrustRefusal.None) return record;
        _revertWith(refusal, agentId, account, record, gate, abi.encode(record));
    }

    /// @dev The whole decision, shared by the view and the enforcing path so that they cannot disagree.
    function _evaluateTrust(uint256 agentId, address account, GateSlot memory gate)
        private
        view
        returns (TrustRefusal refusal, TrustRecord memory record, bytes memory oracleData)
    {
        (refusal, record, oracleData) = _readRecord(gate.oracle, agentId);
        if (refusal != TrustRefusal.None) return (refusal, record, oracleData);
        refusal = _evaluateRecord(record, agentId, account, gate);
    }

    /// @dev The policy against a well-formed record: the record checks, then (when required) the controller check.
    function _evaluateRecord(TrustRecord memory record, uint256 agentId, address account, GateSlot memory gate)
        private
        view
        returns (TrustRefusal refusal)
    {
        refusal = TrustPolicyLib.evaluate(
            record, TrustPolicy(gate.minScore, gate.maxSybilSeverity, gate.maxAge, gate.requireController), block.timestamp
        );
        if (refusal != TrustRefusal.None || !gate.requireController) return refusal;
        (bool known, bool controls) = _agentControlledBy(agentId, account);
        if (!known) refusal = TrustRefusal.AgentIdentityUnavailable;
        else if (!controls) refusal = TrustRefusal.NotAgentController;
    }

    /// @dev One `getScore` call. Copies at most 128 bytes of a normal answer (no return-data bomb) and checks
    ///      that each word fits its type and that the score is in range; otherwise reports the failure.
    function _readRecord(ITrustOracle oracle, uint256 agentId)
        private
        view
        returns (TrustRefusal refusal, TrustRecord memory record, bytes memory oracleData)
    {
        bytes memory callData = abi.encodeCall(ITrustOracle.getScore, (agentId, _agentChainId, _agentRegistry.toString()));
        bool success;
        uint256 size;
        uint256 score;
        uint256 tier;
        uint256 sybil;
        uint256 updatedAt;
        assembly ("memory-safe") {
            success := staticcall(gas(), oracle, add(callData, 0x20), mload(callData), 0, 0)
            size := returndatasize()
            if and(success, gt(size, 0x7f)) {
                let ptr := mload(0x40)
                returndatacopy(ptr, 0, 0x80)
                score := mload(ptr)
                tier := mload(add(ptr, 0x20))
                sybil := mload(add(ptr, 0x40))
                updatedAt := mload(add(ptr, 0x60))
            }
        }
        if (!success) return (TrustRefusal.OracleUnavailable, record, _boundedReturnData(size));
        if (
            size < 0x80 || score > TrustConstants.MAX_SCORE || tier > type(uint8).max || sybil > type(uint8).max
                || updatedAt > type(uint40).max
        ) {
            return (TrustRefusal.OracleMalformedResponse, record, _boundedReturnData(size));
        }
        record = TrustRecord(uint8(score), uint8(tier), uint8(sybil), uint40(updatedAt));
    }

    /// @dev The first `MAX_ORACLE_DATA` bytes of the last call's return data.
    function _boundedReturnData(uint256 size) private pure returns (bytes memory data) {
        if (size > MAX_ORACLE_DATA) size = MAX_ORACLE_DATA;
        data = new bytes(size);
        assembly ("memory-safe") {
            returndatacopy(add(data, 0x20), 0, size)
        }
    }

    /// @dev Static call returning the first word of the answer; `ok` is false on revert or a short answer.
    function _staticWord(address target, bytes memory callData) private view returns (bool ok, uint256 word) {
        assembly ("memory-safe") {
            ok := staticcall(gas(), target, add(callData, 0x20), mload(callData), 0, 0x20)
            ok := and(ok, gt(returndatasize(), 0x1f))
            word := mload(0)
        }
    }

    function _revertWith(
        TrustRefusal refusal,
        uint256 agentId,
        address account,
        TrustRecord memory record,
        GateSlot memory gate,
        bytes memory oracleData
    ) private view {
        if (refusal == TrustRefusal.OracleUnavailable) revert TrustOracleUnavailable(address(gate.oracle), oracleData);
        if (refusal == TrustRefusal.OracleMalformedResponse) {
            revert TrustOracleMalformedResponse(address(gate.oracle), oracleData);
        }
        if (refusal == TrustRefusal.RecordMissing) {
            revert TrustRecordMissing(agentId, _agentChainId, _agentRegistry.toString());
        }
        if (refusal == TrustRefusal.RecordFromFuture) revert TrustRecordFromFuture(agentId, record.updatedAt, block.timestamp);
        if (refusal == TrustRefusal.RecordStale) {
            revert TrustRecordStale(agentId, record.updatedAt, gate.maxAge, block.timestamp);
        }
        if (refusal == TrustRefusal.ScoreTooLow) revert TrustScoreTooLow(agentId, record.score, gate.minScore);
        if (refusal == TrustRefusal.SybilSeverityTooHigh) {
            revert SybilSeverityTooHigh(agentId, record.sybilSeverity, gate.maxSybilSeverity);
        }
        if (refusal == TrustRefusal.AgentIdentityUnavailable) {
            revert AgentIdentityUnavailable(address(_identityRegistry), agentId);
        }
        revert NotAgentController(agentId, account);
    }
}
