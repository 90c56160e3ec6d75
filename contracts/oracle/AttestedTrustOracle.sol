// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {JwsHeaderReader} from "../attestation/JwsHeaderReader.sol";
import {P256Verifier} from "../attestation/P256Verifier.sol";
import {TrustAttestationLib} from "../attestation/TrustAttestationLib.sol";
import {TrustEs256Lib} from "../attestation/TrustEs256Lib.sol";
import {TrustChainSlugs} from "../attestation/TrustChainSlugs.sol";
import {TrustJwsLib} from "../attestation/TrustJwsLib.sol";
import {IAttestedTrustOracle} from "../interfaces/IAttestedTrustOracle.sol";
import {ITrustOracle} from "../interfaces/ITrustOracle.sol";
import {TrustConstants} from "../TrustConstants.sol";
import {TrustRecord} from "../TrustTypes.sol";

/// @title AttestedTrustOracle
/// @notice Trust oracle with the Base oracle's read ABI whose records come from the service's signed
///         `/api/trust-check` attestations, verified on-chain (ES256: P-256 + SHA-256), and which falls back on an
///         upstream oracle (the Base oracle) for everything else. When the nightly oracle goes stale, a caller
///         that needs a fresh record asks the service for an attestation and submits it in the same transaction
///         (Pyth's pull model); a gate pointed at this oracle can do it for its caller
///         (`TrustGated.onlyTrustedAgentWithAttestation`).
/// @dev Reads (`getScore`, `hasScore`, `meetsThreshold`) answer with the fresher of the record held here and the
///      upstream's (by `updatedAt`; equal dates keep this oracle's). An upstream record dated after the current
///      block never replaces a record held here. The upstream is called with a bounded static call (at most
///      `UPSTREAM_GAS` gas, at most 128 bytes of answer copied); a reverting upstream, or an answer that is too
///      short or holds a value out of its type or a score above `TrustConstants.MAX_SCORE`, counts as "no
///      upstream record", so it never breaks the reads of records held here.
///
///      That choice on a read is the read policy, one internal virtual hook (`_answersAlone`: never here, and
///      `heldFirstRecordMaxAge` answers 0). `HeldFirstAttestedTrustOracle`, for a deployment whose pusher keeps the
///      records fresh, lets a record held here in force answer alone, without asking the upstream, up to a max age.
///
///      Records are stored as in the reference oracle (one word per key: score | tier << 8 | sybil << 16 |
///      updatedAt << 24, key `keccak256(abi.encodePacked(agentId, chainId, registry))`) with the same events, and
///      remember the key they were stored under: the word's upper 192 bits hold the key id's tag (the low 192 bits of
///      `keccak256(bytes(kid))`), and `RecordSignedBy` names the key id. While that key id is revoked, reads treat the
///      record as absent, so that revoking a leaked key takes back every record it made, and the next attestation
///      under a live key replaces it whatever its `issuedAt`. `updatedAt` is the attestation's `issuedAt` (when the
///      service computed the score), not its `verifiedAt`, so that a gate's `maxAge` measures the age of the score
///      itself.
///
///      Dates: `issuedAt` is at most `verifiedAt` (the score is computed before it is signed), and one tolerance,
///      `MAX_CLOCK_SKEW` (60 seconds), applies on both sides, as in the kit's TypeScript verifier: `verifiedAt` may
///      be up to that much after the block time (a service clock slightly ahead of the chain's), and an attestation
///      is refused as expired only when the block time is more than that much after its `expiry`. A record dated in
///      the future within that window is stored as signed; it never shadows an upstream record dated at or before
///      the block (reads answer the upstream's until the chain catches up), with no such upstream record gates
///      refuse it (`TrustRecordFromFuture`) until then, and it does not count as held: any valid attestation
///      replaces it, whatever its `issuedAt`. So whoever stores an attestation dated up to `MAX_CLOCK_SKEW` ahead
///      cannot block a gate call that carries a current one (the call stores its own and is judged on it).
///
///      Keys: hold only the service's trust-check key ids (any key held here can sign trust records). A key id names
///      one key for its whole life; the service rotates by publishing a new key id, which `setSigningKey` installs
///      without any change here.
///
///      Gas-bounded reads: the upstream is called with at most `UPSTREAM_GAS` gas. A caller that gives a view
///      (`getScore`, `hasScore`, `meetsThreshold`, or a gate's view such as `trustVerdict`) too little gas for that
///      call gets an answer without the upstream's record, as if it had none. A state-changing gate cannot be led
///      there: under the 63/64 rule a transaction that would starve the upstream call runs out of gas itself. Off-
///      chain readers that cap a view's gas must give it at least `UPSTREAM_GAS` plus the view's own cost.
///
///      Signing keys are set and revoked by `DEFAULT_ADMIN_ROLE` (the JWKS entries of the service's trust
///      kids); the service's EVM chain slugs map to their chain ids in code (`TrustChainSlugs`, fixed), and the admin
///      adds slugs the service publishes later. `agentCount` is the upstream's count plus the records held here whose key the upstream did not
///      hold when it was first attested (an estimate of the union: a key the upstream publishes later is
///      counted twice).
contract AttestedTrustOracle is IAttestedTrustOracle, AccessControl {
    /// @notice The clock tolerance, in seconds, applied on both sides: how far `issuedAt` and `verifiedAt` may be after
    ///         the block time, and how far the block time may be after `expiry`.
    /// @dev Equal to the TypeScript verifier's default, `DEFAULT_CLOCK_SKEW_SECONDS` in `src/attestation/options.ts`,
    ///      so that both refuse the same attestations as expired or future-dated (a test pins the two equal).
    uint256 public constant MAX_CLOCK_SKEW = 60;

    /// @notice Gas given to each call to the upstream oracle.
    uint256 public constant UPSTREAM_GAS = 100_000;

    /// @dev `y` of a revoked key id (with `x == 0`): not a curve point, so it can never verify.
    bytes32 private constant _REVOKED = bytes32(uint256(1));

    /// @dev Where a stored record word keeps the tag of the key id it was stored under (its bits below are the
    ///      reference oracle's 64-bit record).
    uint256 private constant _KEY_TAG_SHIFT = 64;

    /// @dev In a slug's entry: the bit saying it is in `_slugs`, and where its count of records starts.
    uint256 private constant _SLUG_LISTED = 1 << 128;
    uint256 private constant _SLUG_COUNT_SHIFT = 192;

    /// @dev A P-256 public key.
    struct SigningKey {
        bytes32 x;
        bytes32 y;
    }

    /// @dev What a submission found held for its subject.
    /// @param key The record key.
    /// @param chainId The subject's chain id.
    /// @param own The record held here in force (the reference oracle's 64-bit word; 0 when none, or when it was stored
    ///        under a revoked key id).
    /// @param upstream The upstream's record (packed; 0 when none, or when it was not asked).
    /// @param stored The word stored here for the key, with its key id's tag (0 when none; in force or not).
    /// @param newer Whether the attestation would change what reads answer (else the submission is a no-op).
    struct Held {
        bytes32 key;
        uint256 chainId;
        uint256 own;
        uint256 upstream;
        uint256 stored;
        bool newer;
    }

    ITrustOracle private immutable _upstream;
    /// @dev Checks a signature the precompile did not accept (see `P256Verifier`), deployed with the oracle.
    P256Verifier private immutable _p256Verifier;
    /// @dev Reads a JWS header other than the one the service's signer writes (see `JwsHeaderReader`), deployed with
    ///      the oracle.
    JwsHeaderReader private immutable _headerReader;

    mapping(uint192 keyTag => SigningKey) private _keys;
    /// @dev Per chain slug (left-aligned word): its chain id for a slug the admin set (bits 0-127; the service's own are
    ///      code, `TrustChainSlugs`), whether the slug is in `_slugs` (bit 128), and how many records held here under it
    ///      were of keys the upstream did not hold when first attested (bits 192-255, for `agentCount`). Every entry in
    ///      `_slugs` is non-zero from the start, so that counting a record rewrites a non-zero slot (5,000 gas cold)
    ///      rather than filling a zero one (22,100).
    mapping(bytes32 slug => uint256 entry) private _chainSlots;
    /// @dev Every slug ever listed (the service's, at deployment, then the admin's), each once: what `agentCount` sums
    ///      over.
    bytes32[] private _slugs;
    mapping(bytes32 key => uint256 record) private _records;

    /// @notice Deploys the oracle.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` (signing keys, chain slugs, roles).
    /// @param upstream_ The oracle to fall back on (the Base oracle), or zero for none.
    constructor(address admin, address upstream_) {
        if (admin == address(0)) revert AttestedTrustOracleInvalidAdmin();
        if (upstream_ != address(0) && upstream_.code.length == 0) revert AttestedTrustOracleInvalidUpstream(upstream_);
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _upstream = ITrustOracle(upstream_);
        _p256Verifier = new P256Verifier();
        _headerReader = new JwsHeaderReader();
        // The service's EVM chain slugs (solana has no EVM chain id and is refused): their chain ids are code
        // (`TrustChainSlugs`); each is listed here once, so that `agentCount` sums its count, and announced.
        string[11] memory slugs = TrustChainSlugs.serviceSlugs();
        for (uint256 i; i < slugs.length; ++i) {
            bytes32 word = TrustChainSlugs.chainSlugWord(slugs[i]);
            _slugs.push(word);
            _chainSlots[word] = _SLUG_LISTED;
            emit ChainSlugSet(slugs[i], TrustChainSlugs.serviceChainId(word));
        }
    }

    // ---- administration ----

    /// @inheritdoc IAttestedTrustOracle
    function setSigningKey(string calldata kid, bytes32 x, bytes32 y) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bytes(kid).length == 0) revert SigningKeyIdEmpty();
        // x == 0 is this oracle's "no key": such a key could be neither used nor revoked.
        if (x == 0 || !P256.isValidPublicKey(x, y)) revert InvalidSigningKey(kid, x, y);
        SigningKey storage key = _keys[_keyTag(kid)];
        bytes32 heldX = key.x;
        bytes32 heldY = key.y;
        if (heldX != 0) {
            if (heldX != x || heldY != y) revert SigningKeyAlreadySet(kid, heldX, heldY);
            return;
        }
        if (heldY == _REVOKED) revert RevokedSigningKey(kid);
        key.x = x;
        key.y = y;
        emit SigningKeySet(kid, x, y);
    }

    /// @inheritdoc IAttestedTrustOracle
    function revokeSigningKey(string calldata kid) external onlyRole(DEFAULT_ADMIN_ROLE) {
        SigningKey storage key = _keys[_keyTag(kid)];
        if (key.x == 0) {
            if (key.y == _REVOKED) revert RevokedSigningKey(kid);
            revert UnknownSigningKey(kid);
        }
        key.x = 0;
        key.y = _REVOKED;
        emit SigningKeyRevoked(kid);
    }

    /// @inheritdoc IAttestedTrustOracle
    function setChainSlug(string calldata slug, uint256 chainId) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setChainSlug(slug, chainId);
    }

    // ---- submission ----

    /// @inheritdoc IAttestedTrustOracle
    function submitJwsAttestation(string calldata kid, bytes calldata jws)
        external
        returns (TrustRecord memory record)
    {
        (uint256 own,) = _submitJws(kid, jws);
        _returnRecord(record, own);
    }

    /// @inheritdoc IAttestedTrustOracle
    function submitJwsAttestationFor(
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        string calldata kid,
        bytes calldata jws
    ) external returns (TrustRecord memory record) {
        (bytes memory payload, uint256 headerLength, uint256 signedLength) = TrustJwsLib.payloadOf(jws);
        TrustAttestationLib.TrustAttestation memory att = TrustAttestationLib.parseRecord(payload);
        _requireSubject(agentId, chainId, registry, att);
        Held memory held = _held(att, chainId, true);
        if (!held.newer) _returnRecord(record, _fresher(held.own, held.upstream));
        bytes32 kidHash = _requireJws(kid, jws, headerLength, signedLength);
        _returnRecord(record, _store(held, att, kidHash));
    }

    /// @inheritdoc IAttestedTrustOracle
    function submitJwsAttestations(string[] calldata kids, bytes[] calldata jwss) external returns (uint256 stored) {
        uint256 count = kids.length;
        if (jwss.length != count) revert AttestationBatchLengthMismatch(count, jwss.length);
        for (uint256 i; i < count; ++i) {
            (, bool written) = _submitJws(kids[i], jwss[i]);
            if (written) ++stored;
        }
    }

    /// @inheritdoc IAttestedTrustOracle
    function submitAttestation(string calldata kid, bytes calldata signedJson, bytes calldata signature)
        external
        returns (TrustRecord memory record)
    {
        TrustAttestationLib.TrustAttestation memory att = TrustAttestationLib.parseRecord(signedJson);
        Held memory held = _held(att, _checkedChainId(att), false);
        if (!held.newer) _returnRecord(record, held.own);
        bytes32 kidHash = _requireSignature(kid, sha256(signedJson), signature);
        _returnRecord(record, _store(held, att, kidHash));
    }

    /// @inheritdoc IAttestedTrustOracle
    function submitAttestationFor(
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        string calldata kid,
        bytes calldata signedJson,
        bytes calldata signature
    ) external returns (TrustRecord memory record) {
        TrustAttestationLib.TrustAttestation memory att = TrustAttestationLib.parseRecord(signedJson);
        _requireSubject(agentId, chainId, registry, att);
        Held memory held = _held(att, chainId, true);
        if (!held.newer) _returnRecord(record, _fresher(held.own, held.upstream));
        bytes32 kidHash = _requireSignature(kid, sha256(signedJson), signature);
        _returnRecord(record, _store(held, att, kidHash));
    }

    // ---- reads ----

    /// @inheritdoc ITrustOracle
    function getScore(uint256 agentId, uint256 chainId, string calldata registry)
        external
        view
        returns (uint8 score, uint8 tier, uint8 sybilSeverity, uint40 updatedAt)
    {
        uint256 word = _freshest(agentId, chainId, registry);
        return (uint8(word), uint8(word >> 8), uint8(word >> 16), uint40(word >> 24));
    }

    /// @inheritdoc ITrustOracle
    function hasScore(uint256 agentId, uint256 chainId, string calldata registry) external view returns (bool) {
        return _freshest(agentId, chainId, registry) >> 24 != 0;
    }

    /// @inheritdoc ITrustOracle
    function meetsThreshold(uint256 agentId, uint256 chainId, string calldata registry, uint8 threshold)
        external
        view
        returns (bool)
    {
        uint256 word = _freshest(agentId, chainId, registry);
        return word >> 24 != 0 && uint8(word) >= threshold;
    }

    /// @inheritdoc ITrustOracle
    function agentCount() external view returns (uint256) {
        uint256 upstreamCount;
        if (address(_upstream) != address(0)) {
            (bool ok, uint256 size, uint256 count,,,) =
                _callUpstream(_agentCountCall());
            if (ok && size >= 0x20) upstreamCount = count;
        }
        uint256 notUpstream;
        uint256 slugCount = _slugs.length;
        unchecked {
            // Each count is below 2^64 (one per record stored), so the sum cannot wrap.
            for (uint256 i; i < slugCount; ++i) {
                notUpstream += _chainSlots[_slugs[i]] >> _SLUG_COUNT_SHIFT;
            }
            // A garbage upstream count cannot make the sum wrap.
            return upstreamCount > type(uint256).max - notUpstream ? type(uint256).max : upstreamCount + notUpstream;
        }
    }

    /// @inheritdoc IAttestedTrustOracle
    function attestedRecord(uint256 agentId, uint256 chainId, string calldata registry)
        external
        view
        returns (TrustRecord memory record)
    {
        record = _unpack(_inForce(_records[recordKey(agentId, chainId, registry)]));
    }

    /// @inheritdoc IAttestedTrustOracle
    function signingKey(string calldata kid) external view returns (bytes32 x, bytes32 y, bool revoked) {
        SigningKey storage key = _keys[_keyTag(kid)];
        revoked = key.x == 0 && key.y == _REVOKED;
        if (!revoked) (x, y) = (key.x, key.y);
    }

    /// @inheritdoc IAttestedTrustOracle
    function chainIdOfSlug(string calldata slug) external view returns (uint256) {
        // An invalid slug's word is 0, which is neither a service slug nor ever set.
        return _chainIdOf(TrustChainSlugs.chainSlugWord(slug));
    }

    /// @inheritdoc IAttestedTrustOracle
    function upstream() external view returns (address) {
        return address(_upstream);
    }

    /// @inheritdoc IAttestedTrustOracle
    function heldFirstRecordMaxAge() public view virtual returns (uint256) {
        return 0;
    }

    /// @inheritdoc IAttestedTrustOracle
    function recordKey(uint256 agentId, uint256 chainId, string calldata registry) public pure returns (bytes32 key) {
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            mstore(ptr, agentId)
            mstore(add(ptr, 0x20), chainId)
            calldatacopy(add(ptr, 0x40), registry.offset, registry.length)
            key := keccak256(ptr, add(0x40, registry.length))
        }
    }

    // ---- internals ----

    /// @dev `submitJwsAttestation` for one JWS: the record held here after the call, and whether it was written.
    function _submitJws(string calldata kid, bytes calldata jws) private returns (uint256 own, bool stored) {
        (bytes memory payload, uint256 headerLength, uint256 signedLength) = TrustJwsLib.payloadOf(jws);
        TrustAttestationLib.TrustAttestation memory att = TrustAttestationLib.parseRecord(payload);
        Held memory held = _held(att, _checkedChainId(att), false);
        if (!held.newer) return (held.own, false);
        bytes32 kidHash = _requireJws(kid, jws, headerLength, signedLength);
        return (_store(held, att, kidHash), true);
    }

    /// @dev The chain id of the attestation's slug, once the attestation is known to be in force: the block not more
    ///      than `MAX_CLOCK_SKEW` past its `expiry`, `issuedAt` not after `verifiedAt`, and `verifiedAt` (so `issuedAt`
    ///      too) not more than `MAX_CLOCK_SKEW` after the block.
    function _checkedChainId(TrustAttestationLib.TrustAttestation memory att) private view returns (uint256 chainId) {
        chainId = _chainIdOf(att.chain);
        if (chainId == 0) revert UnknownChainSlug(TrustChainSlugs.chainSlugString(att.chain));
        // (Unchecked: the dates are 40-bit values and block times far below 2^256 - 60.)
        unchecked {
            if (block.timestamp > uint256(att.expiry) + MAX_CLOCK_SKEW) revert AttestationExpired(att.expiry, block.timestamp);
            if (att.issuedAt > att.verifiedAt) revert AttestationDatesOutOfOrder(att.issuedAt, att.verifiedAt);
            if (att.verifiedAt > block.timestamp + MAX_CLOCK_SKEW) {
                revert AttestationFromFuture(att.verifiedAt, block.timestamp);
            }
        }
    }

    /// @dev `_checkedChainId`, then refuses an attestation about another subject than `(agentId, chainId, registry)`.
    function _requireSubject(
        uint256 agentId,
        uint256 chainId,
        string calldata registry,
        TrustAttestationLib.TrustAttestation memory att
    ) private view {
        uint256 attestedChainId = _checkedChainId(att);
        string memory attestedRegistry = att.registry;
        bool sameRegistry;
        assembly ("memory-safe") {
            let length := mload(attestedRegistry)
            sameRegistry := eq(length, registry.length)
            if sameRegistry {
                switch lt(length, 33)
                case 1 {
                    // One word: the bytes past the length compared as zero on both sides.
                    let keep := not(shr(shl(3, length), not(0)))
                    sameRegistry := eq(and(mload(add(attestedRegistry, 0x20)), keep), and(calldataload(registry.offset), keep))
                }
                default {
                    let ptr := mload(0x40)
                    calldatacopy(ptr, registry.offset, length)
                    sameRegistry := eq(keccak256(ptr, length), keccak256(add(attestedRegistry, 0x20), length))
                }
            }
        }
        if (att.agentId != agentId || attestedChainId != chainId || !sameRegistry) {
            revert AttestationSubjectMismatch(agentId, chainId, registry, att.agentId, attestedChainId, att.registry);
        }
    }

    /// @dev The records held for the attestation's subject, and whether the attestation would change what reads
    ///      answer: its `issuedAt` must be after this oracle's own record in force (a record stored under a revoked key
    ///      id, or dated after the block, does not count) and after the upstream's (an upstream record dated after the
    ///      block does not count: reads never prefer it to a record held here). The upstream is
    ///      asked only when that is still open, or when `readUpstream` asks for it (to answer the fresher of the
    ///      two).
    function _held(TrustAttestationLib.TrustAttestation memory att, uint256 chainId, bool readUpstream)
        private
        view
        returns (Held memory held)
    {
        held.key = _recordKeyOf(att.agentId, chainId, att.registry);
        held.chainId = chainId;
        held.stored = _records[held.key];
        held.own = _inForce(held.stored);
        uint256 issuedAt = att.issuedAt;
        uint256 ownAt = held.own >> 24;
        // A record held here dated after the block does not count either: any attestation replaces it, so that a
        // record stored from the future (within the clock skew) cannot hold off an older, current one until the
        // chain catches up, nor block a gate call that carries one.
        bool newerThanOwn = issuedAt > ownAt || ownAt > block.timestamp;
        // A record that answers reads alone (the read policy, `_answersAlone`) is all reads compare with.
        if (!_answersAlone(held.own) && (newerThanOwn || readUpstream)) {
            held.upstream = _upstreamRecord(att.agentId, chainId, att.registry);
        }
        uint256 upstreamAt = held.upstream >> 24;
        held.newer = newerThanOwn && (upstreamAt > block.timestamp || issuedAt > upstreamAt);
    }

    /// @dev Checks the JWS's protected header and its signature over `header.payload` as issued; the key id's hash.
    function _requireJws(string calldata kid, bytes calldata jws, uint256 headerLength, uint256 signedLength)
        private
        view
        returns (bytes32 kidHash)
    {
        TrustJwsLib.requireHeader(jws, headerLength, kid, _headerReader);
        return _requireSignature(kid, TrustJwsLib.signedDigest(jws, signedLength), TrustJwsLib.signatureOf(jws, signedLength));
    }

    /// @dev Refuses an unknown or revoked key id, and a signature that does not verify under its key; the key id's
    ///      hash (`keccak256(bytes(kid))`, whose low 192 bits are its tag).
    function _requireSignature(string calldata kid, bytes32 digest, bytes memory signature)
        private
        view
        returns (bytes32 kidHash)
    {
        kidHash = _kidHash(kid);
        SigningKey storage key = _keys[uint192(uint256(kidHash))];
        bytes32 x = key.x;
        if (x == 0) {
            if (key.y == _REVOKED) revert RevokedSigningKey(kid);
            revert UnknownSigningKey(kid);
        }
        if (!TrustEs256Lib.verifyDigest(digest, signature, x, key.y, _p256Verifier)) revert InvalidAttestationSignature(kid);
    }

    /// @dev Stores the attested record under the tag of the key id whose hash is `kidHash` (newer than what reads
    ///      answered, so reads now answer it) and emits its events (`RecordSignedBy` first, when the key id changes);
    ///      the record as reads answer it.
    function _store(Held memory held, TrustAttestationLib.TrustAttestation memory att, bytes32 kidHash)
        private
        returns (uint256 record)
    {
        record = uint256(att.score) | (uint256(att.tier) << 8) | (uint256(att.sybilSeverity) << 16)
            | (uint256(att.issuedAt) << 24);
        uint192 keyTag = uint192(uint256(kidHash));
        // The key id is named when it changes: the subject's first record, or one stored under another key id than
        // the record it replaces (so a refresh under the same key id, the common case, emits no more than before).
        // `RecordSignedBy(key, kid)` is emitted here with the key id's hash as its topic (an indexed string's topic is
        // its keccak256), so that the key id is not hashed twice.
        if (uint192(held.stored >> _KEY_TAG_SHIFT) != keyTag) {
            bytes32 signedBy = RecordSignedBy.selector;
            bytes32 key = held.key;
            assembly ("memory-safe") {
                log3(0, 0, signedBy, key, kidHash)
            }
        }
        _records[held.key] = record | (uint256(keyTag) << _KEY_TAG_SHIFT);
        if (held.stored != 0) {
            emit RecordUpdated(held.key, record);
        } else {
            // Only keys the upstream does not hold are counted, so that the common case writes no counter.
            // (Unchecked: the count would need 2^64 records to reach the top of the word.)
            if (held.upstream >> 24 == 0) {
                unchecked {
                    _chainSlots[att.chain] += 1 << _SLUG_COUNT_SHIFT;
                }
            }
            emit RecordAdded(held.key, att.agentId, held.chainId, att.registry, record);
        }
    }

    /// @dev A stored record word as reads see it: the reference oracle's 64-bit record, or 0 when none is stored or it
    ///      was stored under a key id revoked since (a record is stored only under a key id held then, so a key slot
    ///      with `x == 0` is a revoked one).
    function _inForce(uint256 stored) private view returns (uint256) {
        if (stored == 0 || _keys[uint192(stored >> _KEY_TAG_SHIFT)].x == 0) return 0;
        return uint64(stored);
    }

    /// @dev The tag of a key id: the low 192 bits of its keccak256, the key of its signing key and what a record
    ///      stored under it keeps.
    function _keyTag(string calldata kid) private pure returns (uint192) {
        return uint192(uint256(_kidHash(kid)));
    }

    /// @dev `keccak256(bytes(kid))`, the key id hashed where it is copied past the free memory pointer (not kept).
    function _kidHash(string calldata kid) private pure returns (bytes32 hash) {
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            calldatacopy(ptr, kid.offset, kid.length)
            hash := keccak256(ptr, kid.length)
        }
    }

    /// @dev What reads answer for a subject, as a packed word (0 when none): the record held here in force when it
    ///      answers alone (`_answersAlone`), else the fresher of it and the upstream's.
    function _freshest(uint256 agentId, uint256 chainId, string calldata registry) private view returns (uint256) {
        uint256 own = _inForce(_records[recordKey(agentId, chainId, registry)]);
        if (_answersAlone(own)) return own;
        return _fresher(own, _upstreamRecordOf(agentId, chainId, registry));
    }

    /// @dev The read policy: whether the record held here in force, `own` (a packed word; 0 when none), answers reads
    ///      alone, without asking the upstream. Here never: reads answer the fresher of the two (`_fresher`), and
    ///      `heldFirstRecordMaxAge` is 0. Reads, the no-op rule of the submissions and the record the `...For`
    ///      submissions answer all follow this choice.
    ///
    ///      NOTE: a deployment that trades "the fresher decides" for a cheaper read should override this function
    ///      (and `heldFirstRecordMaxAge`, which tells off-chain tools the policy), as `HeldFirstAttestedTrustOracle`
    ///      does, instead of the reads and submissions that call it. An override must answer false for 0 and for a
    ///      record dated after the block (which never shadows an upstream record, see the contract's notes).
    function _answersAlone(uint256 /* own */) internal view virtual returns (bool) {
        return false;
    }

    /// @dev The fresher of two packed records by `updatedAt`, with the block as the judge of dates: ties keep `own`;
    ///      an upstream record dated after the block never replaces a record held here; a record held here dated
    ///      after the block never shadows an upstream record that is not.
    function _fresher(uint256 own, uint256 up) private view returns (uint256 fresher) {
        if (own >> 24 == 0) return up;
        // Without a branch: the upstream's record is taken when it is dated (from 1 up to the block; `upAt - 1` wraps
        // for 0) and is after the record held here, or that one is after the block.
        assembly ("memory-safe") {
            let ownAt := shr(24, own)
            let upAt := shr(24, up)
            let takeUp := and(lt(sub(upAt, 1), timestamp()), or(gt(upAt, ownAt), gt(ownAt, timestamp())))
            fresher := xor(own, mul(xor(own, up), takeUp))
        }
    }

    /// @dev The upstream's record as a packed word; 0 when there is no upstream, it fails, or its answer is not a
    ///      well-formed record.
    function _upstreamRecord(uint256 agentId, uint256 chainId, string memory registry) private view returns (uint256) {
        if (address(_upstream) == address(0)) return 0;
        (uint256 callSize, uint256 registryAt) = _getScoreCall(agentId, chainId, bytes(registry).length);
        assembly ("memory-safe") {
            mcopy(registryAt, add(registry, 0x20), mload(registry))
        }
        return _upstreamAnswer(callSize);
    }

    /// @dev `_upstreamRecord` of a registry name in calldata (what reads receive), copied once, into the call data.
    function _upstreamRecordOf(uint256 agentId, uint256 chainId, string calldata registry) private view returns (uint256) {
        if (address(_upstream) == address(0)) return 0;
        (uint256 callSize, uint256 registryAt) = _getScoreCall(agentId, chainId, bytes(registry).length);
        assembly ("memory-safe") {
            calldatacopy(registryAt, registry.offset, registry.length)
        }
        return _upstreamAnswer(callSize);
    }

    /// @dev The call data of `getScore(agentId, chainId, registry)` for a registry of `length` bytes, written at the free
    ///      memory pointer and not allocated (it is used at once, by `_upstreamAnswer`, whose answer lands over it): every
    ///      word but the registry's bytes written (the word of its last bytes zeroed, so that the caller's copy leaves it
    ///      padded); its size, and where the registry's bytes go.
    function _getScoreCall(uint256 agentId, uint256 chainId, uint256 length)
        private
        pure
        returns (uint256 callSize, uint256 registryAt)
    {
        bytes4 selector = ITrustOracle.getScore.selector;
        assembly ("memory-safe") {
            let callAt := mload(0x40)
            mstore(callAt, selector)
            mstore(add(callAt, 0x04), agentId)
            mstore(add(callAt, 0x24), chainId)
            mstore(add(callAt, 0x44), 0x60)
            mstore(add(callAt, 0x64), length)
            registryAt := add(callAt, 0x84)
            // The word that holds the registry's last bytes (past the end, unused, for a length of whole words).
            mstore(add(registryAt, and(length, not(31))), 0)
            callSize := add(0x84, and(add(length, 31), not(31)))
        }
    }

    /// @dev The upstream's answer to the `getScore` call of `callSize` bytes at the free memory pointer (written by
    ///      `_getScoreCall`) as a packed word; 0 when the call fails or its answer is not a well-formed record.
    function _upstreamAnswer(uint256 callSize) private view returns (uint256) {
        (bool ok, uint256 size, uint256 score, uint256 tier, uint256 sybil, uint256 updatedAt) = _callUpstream(callSize);
        uint256 maxScore = TrustConstants.MAX_SCORE;
        bool wellFormed;
        // Every condition evaluated, without a branch each: a call that succeeded with four words, each in its type
        // (the tier and sybil bytes, a 40-bit date) and the score at most `MAX_SCORE`.
        assembly ("memory-safe") {
            wellFormed := and(
                and(ok, gt(size, 0x7f)),
                iszero(or(or(gt(score, maxScore), shr(8, or(tier, sybil))), shr(40, updatedAt)))
            )
        }
        if (!wellFormed) return 0;
        return score | (tier << 8) | (sybil << 16) | (updatedAt << 24);
    }

    /// @dev `recordKey` of a registry name in memory.
    function _recordKeyOf(uint256 agentId, uint256 chainId, string memory registry) private pure returns (bytes32 key) {
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            let length := mload(registry)
            mstore(ptr, agentId)
            mstore(add(ptr, 0x20), chainId)
            mcopy(add(ptr, 0x40), add(registry, 0x20), length)
            key := keccak256(ptr, add(0x40, length))
        }
    }

    /// @dev The call data of `agentCount()`, written at the free memory pointer and not allocated (as `_getScoreCall`'s);
    ///      its size.
    function _agentCountCall() private pure returns (uint256 callSize) {
        bytes4 selector = ITrustOracle.agentCount.selector;
        assembly ("memory-safe") {
            mstore(mload(0x40), selector)
        }
        return 4;
    }

    /// @dev Bounded static call to the upstream with the `callSize` bytes of call data at the free memory pointer:
    ///      `UPSTREAM_GAS` gas, the first four words of the answer (meaningful up to `size`).
    function _callUpstream(uint256 callSize)
        private
        view
        returns (bool ok, uint256 size, uint256 w0, uint256 w1, uint256 w2, uint256 w3)
    {
        address target = address(_upstream);
        assembly ("memory-safe") {
            // The answer's first four words land where the call data was, at the free memory pointer (the call has read
            // it by then); beyond `size` they are whatever was there, which the callers, who check `size`, never read.
            let ptr := mload(0x40)
            ok := staticcall(UPSTREAM_GAS, target, ptr, callSize, ptr, 0x80)
            size := returndatasize()
            w0 := mload(ptr)
            w1 := mload(add(ptr, 0x20))
            w2 := mload(add(ptr, 0x40))
            w3 := mload(add(ptr, 0x60))
        }
    }

    /// @dev The chain id of a slug word: one of the service's (code), else the admin's table; 0 when neither.
    function _chainIdOf(bytes32 slug) private view returns (uint256 chainId) {
        chainId = TrustChainSlugs.serviceChainId(slug);
        if (chainId == 0) chainId = uint128(_chainSlots[slug]);
    }

    function _setChainSlug(string memory slug, uint256 chainId) private {
        bytes32 word = TrustChainSlugs.chainSlugWord(slug);
        if (word == 0) revert InvalidChainSlug(slug);
        uint256 serviceChainId = TrustChainSlugs.serviceChainId(word);
        if (serviceChainId != 0) revert ChainSlugFixed(slug, serviceChainId);
        if (chainId > type(uint128).max) revert ChainIdOutOfRange(slug, chainId);
        uint256 entry = _chainSlots[word];
        if (entry & _SLUG_LISTED == 0) _slugs.push(word);
        _chainSlots[word] = (entry & ~uint256(type(uint192).max)) | _SLUG_LISTED | chainId;
        emit ChainSlugSet(slug, chainId);
    }

    /// @dev Ends the call, returning a packed record as a `TrustRecord`: its four words written into `record` (the
    ///      caller's return value, four words of memory) and returned as they are, which is their ABI encoding, without
    ///      the encoder.
    function _returnRecord(TrustRecord memory record, uint256 word) private pure {
        assembly ("memory-safe") {
            mstore(record, and(word, 0xff))
            mstore(add(record, 0x20), and(shr(8, word), 0xff))
            mstore(add(record, 0x40), and(shr(16, word), 0xff))
            mstore(add(record, 0x60), and(shr(24, word), 0xffffffffff))
            return(record, 0x80)
        }
    }

    function _unpack(uint256 word) private pure returns (TrustRecord memory) {
        return TrustRecord(uint8(word), uint8(word >> 8), uint8(word >> 16), uint40(word >> 24));
    }
}
