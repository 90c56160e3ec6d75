// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ITrustAttestationErrors} from "./ITrustAttestationErrors.sol";
import {ITrustOracle} from "./ITrustOracle.sol";
import {TrustRecord} from "../TrustTypes.sol";

/// @title IAttestedTrustOracle
/// @notice A trust oracle fed by the service's signed attestations, in the pull model: whoever needs a fresh
///         record brings the service's signed `/api/trust-check` attestation (its compact JWS as issued, or, for a
///         response without one, the raw ES256 `sig` with the bytes it covers) in the transaction that needs it. It serves the Base oracle's read
///         ABI (`ITrustOracle`), answering each read with the fresher of its own record and its upstream oracle's,
///         so that a gate pointed at it never sees older data than before.
/// @dev The errors of the signed block's reader and of the signature check (`AttestationJsonMalformed`,
///      `AttestationFieldInvalid`, `AttestationSignatureOutOfRange`, ...) come from `ITrustAttestationErrors`.
interface IAttestedTrustOracle is ITrustOracle, ITrustAttestationErrors {
    /// @notice A key got its first record here (same event as the reference oracle's).
    /// @param key The record key, `recordKey(agentId, chainId, registry)`.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @param record The packed record word: score | tier << 8 | sybil << 16 | updatedAt << 24.
    event RecordAdded(
        bytes32 indexed key, uint256 indexed agentId, uint256 indexed chainId, string registry, uint256 record
    );

    /// @notice A record held here was replaced by a newer one (same event as the reference oracle's).
    /// @param key The record key.
    /// @param record The packed record word.
    event RecordUpdated(bytes32 indexed key, uint256 record);

    /// @notice The records of a key are stored under a key id from this one on: emitted just before the `RecordAdded`
    ///         or `RecordUpdated` of a subject's first record, and of each record stored under another key id than the
    ///         one it replaces (a refresh under the same key id emits none). So every record a key id made can be
    ///         listed: the `RecordAdded`/`RecordUpdated` of a record key, from a `RecordSignedBy` naming the key id
    ///         (topic 2: `keccak256(bytes(kid))`) to the record key's next `RecordSignedBy`; the latest one names the
    ///         key id its current record is held under.
    /// @param key The record key.
    /// @param kid The key id whose signature the records are stored under (topic: its keccak256).
    event RecordSignedBy(bytes32 indexed key, string indexed kid);

    /// @notice A signing key was set. A key id names one key for its whole life: it cannot be set to other
    ///         coordinates (the service rotates by publishing a new key id).
    /// @param kid The key id, as in the service's JWKS and `attestation.kid`.
    /// @param x The P-256 public key's x coordinate.
    /// @param y The P-256 public key's y coordinate.
    event SigningKeySet(string kid, bytes32 x, bytes32 y);

    /// @notice A signing key was revoked: attestations under its key id are refused from now on, and every record held
    ///         under it reads as absent (the upstream's record answers, or none).
    /// @param kid The key id.
    event SigningKeyRevoked(string kid);

    /// @notice The chain id of a chain slug was set (0: the slug is no longer accepted).
    /// @param slug The slug as the service writes it in `chain` (`base`, `ethereum`, ...).
    /// @param chainId The EVM chain id.
    event ChainSlugSet(string slug, uint256 chainId);

    /// @notice The admin given to the constructor is the zero address.
    error AttestedTrustOracleInvalidAdmin();
    /// @notice The upstream oracle given to the constructor is neither zero nor a contract.
    /// @param upstream The address refused.
    error AttestedTrustOracleInvalidUpstream(address upstream);
    /// @notice A key id is empty.
    error SigningKeyIdEmpty();
    /// @notice A public key is not a point of P-256, or has `x == 0` (which this oracle keeps for "no key").
    /// @param kid The key id.
    /// @param x The x coordinate refused.
    /// @param y The y coordinate refused.
    error InvalidSigningKey(string kid, bytes32 x, bytes32 y);
    /// @notice The key id already holds another key (a key id names one key for its whole life; rotate to a new key
    ///         id).
    /// @param kid The key id.
    /// @param x The x coordinate held.
    /// @param y The y coordinate held.
    error SigningKeyAlreadySet(string kid, bytes32 x, bytes32 y);
    /// @notice No signing key has this key id.
    /// @param kid The key id.
    error UnknownSigningKey(string kid);
    /// @notice The key id was revoked (revocation is final: a new key takes a new key id).
    /// @param kid The key id.
    error RevokedSigningKey(string kid);
    /// @notice A chain slug is not 1-32 bytes of `a-z 0-9 _ -`.
    /// @param slug The slug refused.
    error InvalidChainSlug(string slug);
    /// @notice A chain id above 2^128 - 1 (the oracle keeps a slug's chain id in 128 bits).
    /// @param slug The slug.
    /// @param chainId The chain id refused.
    error ChainIdOutOfRange(string slug, uint256 chainId);
    /// @notice The slug is one of the service's EVM slugs, whose chain id is fixed (`TrustChainSlugs`).
    /// @param slug The slug.
    /// @param chainId Its chain id.
    error ChainSlugFixed(string slug, uint256 chainId);
    /// @notice The attestation's chain slug has no EVM chain id here (`solana`, or a slug never set).
    /// @param slug The slug.
    error UnknownChainSlug(string slug);
    /// @notice The signature does not verify for the bytes under the key id's key.
    /// @param kid The key id.
    error InvalidAttestationSignature(string kid);
    /// @notice The attestation expired: the block is more than `MAX_CLOCK_SKEW` past its signed `expiry`.
    /// @param expiry The signed expiry (Unix seconds).
    /// @param blockTimestamp The current block's timestamp.
    error AttestationExpired(uint40 expiry, uint256 blockTimestamp);
    /// @notice `verifiedAt` (so `issuedAt`, which is not after it) is later than the block time plus `MAX_CLOCK_SKEW`.
    /// @param timestamp The signed time refused (Unix seconds).
    /// @param blockTimestamp The current block's timestamp.
    error AttestationFromFuture(uint40 timestamp, uint256 blockTimestamp);
    /// @notice The signed `issuedAt` (when the score was computed) is after the signed `verifiedAt` (when it was
    ///         signed): a block the service does not write.
    /// @param issuedAt The signed `issuedAt` (Unix seconds).
    /// @param verifiedAt The signed `verifiedAt` (Unix seconds).
    error AttestationDatesOutOfOrder(uint40 issuedAt, uint40 verifiedAt);
    /// @notice The attestation is about another agent than the one the caller asked for.
    /// @param agentId The agent id asked for.
    /// @param chainId The chain id asked for.
    /// @param registry The registry asked for.
    /// @param attestedAgentId The agent id signed.
    /// @param attestedChainId The chain id of the signed slug.
    /// @param attestedRegistry The registry signed.
    error AttestationSubjectMismatch(
        uint256 agentId,
        uint256 chainId,
        string registry,
        uint256 attestedAgentId,
        uint256 attestedChainId,
        string attestedRegistry
    );
    /// @notice A batch's key ids and JWSs differ in number.
    /// @param kids The number of key ids.
    /// @param jwss The number of JWSs.
    error AttestationBatchLengthMismatch(uint256 kids, uint256 jwss);

    /// @notice Sets the public key of a key id (a JWKS entry: `x` and `y` decoded from base64url). Admin only.
    ///         Install only the service's trust-check key ids (`rnwy-trust-v2`, then the kid the service rotates to):
    ///         any key held here can sign trust records. Setting a key id again with the coordinates it holds does
    ///         nothing.
    /// @dev Reverts with `SigningKeyIdEmpty`, `InvalidSigningKey` (not on the curve, or `x == 0`), `SigningKeyAlreadySet`
    ///      (other coordinates held) or `RevokedSigningKey`. Emits `SigningKeySet`.
    /// @param kid The key id.
    /// @param x The public key's x coordinate.
    /// @param y The public key's y coordinate.
    function setSigningKey(string calldata kid, bytes32 x, bytes32 y) external;

    /// @notice Revokes a key id, for good. Admin only. From this call on, attestations under it are refused and every
    ///         record stored under it reads as absent: reads answer the upstream's record (or none), and the next
    ///         attestation under a live key replaces it whatever its `issuedAt`. Emits `SigningKeyRevoked`; reverts
    ///         with `UnknownSigningKey` or `RevokedSigningKey`.
    /// @param kid The key id.
    function revokeSigningKey(string calldata kid) external;

    /// @notice Sets the EVM chain id of a chain slug the service adds after deployment (0 removes it). Admin only. Emits
    ///         `ChainSlugSet`. The service's slugs at deployment (`base`, `ethereum`, ...) are fixed: `ChainSlugFixed`.
    /// @param slug The slug (1-32 bytes of `a-z 0-9 _ -`), else `InvalidChainSlug`.
    /// @param chainId The chain id, at most 2^128 - 1, else `ChainIdOutOfRange`.
    function setChainSlug(string calldata slug, uint256 chainId) external;

    /// @notice Verifies the service's compact JWS (`attestation.jws`) as issued and stores its record when it is newer
    ///         than what reads answer. Anyone may call. The main path: the JWS carries the exact bytes the service
    ///         signed, whatever their member order or whitespace.
    /// @dev In order (`TrustJwsLib`, `TrustAttestationLib`, `TrustJwsHeaderLib`, `TrustEs256Lib`):
    ///      1. the JWS is three canonical base64url parts, the third 64 bytes once decoded; the payload is decoded and
    ///         read as the signed block (every refusal of the reader, with its field and offset);
    ///      2. the attestation is in force: its chain slug has a chain id, the block is not more than `MAX_CLOCK_SKEW`
    ///         past `expiry`, `issuedAt` is not after `verifiedAt` (`AttestationDatesOutOfOrder`), and `verifiedAt` is
    ///         not after the block time plus `MAX_CLOCK_SKEW`;
    ///      3. no-op: when `issuedAt` is not after the `updatedAt` of the record reads answer for the subject (the
    ///         fresher of this oracle's own record in force and the upstream's; a record stored under a revoked key id
    ///         and a record of either dated after the block do not count), the call returns here, before the header,
    ///         the key and the signature are checked, storing nothing and emitting nothing. Safe: nothing read from
    ///         unauthenticated bytes is kept. A record held here dated after the block is replaced by any valid
    ///         attestation, so that one stored from the future cannot block a gate call carrying a current one;
    ///      4. the protected header (`alg` `"ES256"`, `kid` equal to `kid`, `typ` `JWT`/`JOSE` if present, no `crit`,
    ///         `jku`, `x5u`, `jwk`, `x5c`, `b64`, no duplicate or escaped member name), then the key id (known, not
    ///         revoked) and the signature over the ASCII `header.payload` (SHA-256, P-256, low-S or high-S);
    ///      5. the record `(score, tier, sybilSeverity, updatedAt = issuedAt)` is stored under `(agentId, chainId,
    ///         registry)` with the key id's tag, with `RecordSignedBy` when the key id changes (see the event), then
    ///         `RecordAdded` (new key) or `RecordUpdated`.
    /// @param kid The key id (`attestation.kid`; the header's `kid` must equal it).
    /// @param jws The compact serialization, as ASCII bytes.
    /// @return record The record this oracle holds itself for the subject after the call (not the upstream's).
    function submitJwsAttestation(string calldata kid, bytes calldata jws) external returns (TrustRecord memory record);

    /// @notice `submitJwsAttestation`, refusing an attestation about another agent than `(agentId, chainId, registry)`
    ///         with `AttestationSubjectMismatch` (checked before the no-op), and answering what `getScore` now returns
    ///         for it. What a gate calls (it then needs no second call to read the record).
    /// @param agentId The agent id expected.
    /// @param chainId The chain id expected.
    /// @param registry The registry expected.
    /// @param kid The key id.
    /// @param jws The compact serialization.
    /// @return record The fresher of the record held here and the upstream's after the call, as `getScore` returns
    ///         it.
    function submitJwsAttestationFor(
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        string calldata kid,
        bytes calldata jws
    ) external returns (TrustRecord memory record);

    /// @notice `submitJwsAttestation` for many JWSs in one call (a keeper refreshing several agents). The whole batch
    ///         reverts on the first refusal, with that refusal's error; attestations that are not newer are no-ops.
    /// @param kids The key id of each JWS.
    /// @param jwss The compact serializations; `AttestationBatchLengthMismatch` unless as many as `kids`.
    /// @return stored How many records the batch wrote (the others were no-ops).
    function submitJwsAttestations(string[] calldata kids, bytes[] calldata jwss) external returns (uint256 stored);

    /// @notice Verifies an attestation in the raw `sig` form (a response without a JWS) and stores its record when it
    ///         is newer than what reads answer. Anyone may call.
    /// @dev As `submitJwsAttestation`, with the signature (`r‖s`, low-S or high-S) checked over `sha256(signedJson)`:
    ///      the bytes read (step 1), in force (step 2), the no-op before the key and the signature (step 3), the key
    ///      and signature (step 4), then the record stored (step 5).
    /// @param kid The key id (`attestation.kid`).
    /// @param signedJson The exact signed bytes.
    /// @param signature The signature, 64 bytes `r‖s` (`attestation.sig` decoded from base64).
    /// @return record The record this oracle holds itself for the subject after the call (not the upstream's).
    function submitAttestation(string calldata kid, bytes calldata signedJson, bytes calldata signature)
        external
        returns (TrustRecord memory record);

    /// @notice `submitAttestation`, refusing an attestation about another agent than `(agentId, chainId,
    ///         registry)` with `AttestationSubjectMismatch`, and answering what `getScore` now returns for it.
    /// @param agentId The agent id expected.
    /// @param chainId The chain id expected.
    /// @param registry The registry expected.
    /// @param kid The key id.
    /// @param signedJson The exact signed bytes.
    /// @param signature The signature, 64 bytes `r‖s`.
    /// @return record The fresher of the record held here and the upstream's after the call, as `getScore` returns
    ///         it.
    function submitAttestationFor(
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        string calldata kid,
        bytes calldata signedJson,
        bytes calldata signature
    ) external returns (TrustRecord memory record);

    /// @notice A signing key.
    /// @param kid The key id.
    /// @return x The x coordinate (0 when unknown or revoked).
    /// @return y The y coordinate (0 when unknown or revoked).
    /// @return revoked Whether the key id was revoked.
    function signingKey(string calldata kid) external view returns (bytes32 x, bytes32 y, bool revoked);

    /// @notice The EVM chain id of a chain slug (0 when not accepted).
    /// @param slug The slug.
    /// @return The chain id.
    function chainIdOfSlug(string calldata slug) external view returns (uint256);

    /// @notice The oracle whose records this one falls back on (zero for none).
    /// @return The upstream oracle.
    function upstream() external view returns (address);

    /// @notice The read policy of this deployment, for off-chain tools (the drift job, `trustgate refresh`). 0: reads
    ///         answer the fresher of the record held here and the upstream's, asking the upstream every time (the
    ///         default, `AttestedTrustOracle`). Otherwise held first (`HeldFirstAttestedTrustOracle`): a record held
    ///         here in force, dated at or before the block and at most this many seconds old, answers reads alone,
    ///         without asking the upstream, so it shadows a fresher upstream record until the next push or until it is
    ///         older than this; the submissions' no-op rule then compares with it alone.
    /// @return The age, in seconds, up to which a record held here answers reads alone (0: never).
    function heldFirstRecordMaxAge() external view returns (uint256);

    /// @notice The record this oracle holds itself in force for a key (no upstream), as `getScore` returns it.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @return record The record (zero when none, or when it was stored under a key id revoked since).
    function attestedRecord(uint256 agentId, uint256 chainId, string calldata registry)
        external
        view
        returns (TrustRecord memory record);

    /// @notice The storage key of a record: `keccak256(abi.encodePacked(agentId, chainId, registry))`, as in the
    ///         reference oracle.
    /// @param agentId The agent's id in its registry.
    /// @param chainId The chain the agent is registered on.
    /// @param registry The registry name.
    /// @return The key used by `RecordAdded` and `RecordUpdated`.
    function recordKey(uint256 agentId, uint256 chainId, string calldata registry) external pure returns (bytes32);
}
