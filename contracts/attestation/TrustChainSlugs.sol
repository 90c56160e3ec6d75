// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TrustChainSlugs
/// @notice The chain slugs the service writes in a signed block's `chain` (`base`, `ethereum`, ...): the service's EVM
///         slugs with their chain ids, fixed in code, and the left-aligned word a slug is kept and compared as.
/// @dev The service's slugs are EIP-155 chain ids that never change, so they are code: finding the chain id of one
///      costs a few comparisons, not a storage read. A slug the service adds later is set in `AttestedTrustOracle`'s
///      own table by its admin. `solana`, the service's one non-EVM chain, has no chain id and is refused.
library TrustChainSlugs {
    /// @notice The chain id of one of the service's EVM slugs, or 0 for any other word.
    /// @param slug The slug, left-aligned in the word, zero-padded (as `chainSlugWord` returns it).
    /// @return chainId The chain id, or 0.
    function serviceChainId(bytes32 slug) internal pure returns (uint256 chainId) {
        assembly ("memory-safe") {
            // Every service slug is at most 9 bytes: compared as the word's top 9 bytes once the rest is known to be
            // zero (Base first: most of the service's records are of agents on Base).
            if iszero(shl(72, slug)) {
                switch shr(184, slug)
                case 0x626173650000000000 { chainId := 8453 } // base
                case 0x657468657265756d00 { chainId := 1 } // ethereum
                case 0x626e62000000000000 { chainId := 56 } // bnb
                case 0x676e6f736973000000 { chainId := 100 } // gnosis
                case 0x6176616c616e636865 { chainId := 43114 } // avalanche
                case 0x63656c6f0000000000 { chainId := 42220 } // celo
                case 0x617262697472756d00 { chainId := 42161 } // arbitrum
                case 0x706f6c79676f6e0000 { chainId := 137 } // polygon
                case 0x6f7074696d69736d00 { chainId := 10 } // optimism
                case 0x6d6f6e616400000000 { chainId := 143 } // monad
                case 0x6d6567616574680000 { chainId := 4326 } // megaeth
            }
        }
    }

    /// @notice The service's EVM slugs, in the order `serviceChainId` knows them.
    /// @return slugs The slugs.
    function serviceSlugs() internal pure returns (string[11] memory slugs) {
        slugs = ["base", "ethereum", "bnb", "gnosis", "avalanche", "celo", "arbitrum", "polygon", "optimism", "monad", "megaeth"];
    }

    /// @notice The word a slug is kept and compared as (what `TrustAttestationLib.parse` returns as `chain`), or zero
    ///         when the slug is not 1-32 bytes of `a-z 0-9 _ -`.
    /// @param slug The chain slug.
    /// @return word The slug left-aligned in a word.
    function chainSlugWord(string memory slug) internal pure returns (bytes32 word) {
        bytes memory b = bytes(slug);
        uint256 length = b.length;
        if (length == 0 || length > 32) return 0;
        for (uint256 i; i < length; ++i) {
            bytes1 c = b[i];
            if (!((c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "_" || c == "-")) return 0;
        }
        assembly ("memory-safe") {
            word := mload(add(b, 0x20))
            if lt(length, 32) { word := and(word, not(shr(shl(3, length), not(0)))) }
        }
    }

    /// @notice The slug in a word (as `chainSlugWord` returns it), as a string.
    /// @param word The slug, left-aligned, zero-padded.
    /// @return slug The slug.
    function chainSlugString(bytes32 word) internal pure returns (string memory slug) {
        uint256 length;
        while (length < 32 && word[length] != 0) ++length;
        slug = new string(length);
        assembly ("memory-safe") {
            mstore(add(slug, 0x20), word)
        }
    }
}
