/**
 * Whether an `AttestedTrustOracle` can store the record a verified trust-check attestation carries, as far as the
 * signed block decides it: the oracle reads v2 blocks only, and maps the block's `chain` to a chain id through its
 * slug table (seeded with {@link ORACLE_CHAIN_SLUGS}), refusing any other slug with `UnknownChainSlug`. A signed block
 * that names another chain (`solana`, `Base`, `bäse`) is still a valid attestation off-chain (its signature is good):
 * only its storability is reported, in the verdict's `onchain`, and `toAttestationCall` refuses to build its call.
 * What the block does not decide (the key installed under its kid, the block time, the record already held) is for
 * the oracle to judge.
 *
 * @packageDocumentation
 */
import { ORACLE_CHAIN_SLUGS } from "../config/chains.js";

/** Why an attested oracle cannot store a verified record. */
export type UnstorableReason =
  /** The signed `chain` is not a slug of the oracle's table (`UnknownChainSlug`). */
  | "unknown-chain-slug"
  /** The signed block is not a v2 block (a v1 block, or a wallet's signed `found: false`): the oracle reads v2 only. */
  | "not-v2-block";

/** Whether an attested oracle can store the record of a verified trust-check attestation (see the module notes). */
export type OnchainStorability =
  | {
      readonly storable: true;
      /** The chain id the oracle maps the signed `chain` to (the record is stored under it). */
      readonly chainId: number;
    }
  | {
      readonly storable: false;
      /** Why not. */
      readonly reason: UnstorableReason;
      /** The signed `chain`, for `unknown-chain-slug`. */
      readonly chain?: string;
      /** What a person reads. */
      readonly message: string;
    };

/**
 * Whether an attested oracle with the slug table `slugs` can store a v2 block that names `chain`.
 *
 * @param chain - The signed block's `chain`, as signed.
 * @param slugs - The oracle's slug table (default {@link ORACLE_CHAIN_SLUGS}, the one it is deployed with).
 * @returns Storable with the chain id, or `unknown-chain-slug`.
 */
export function chainStorability(chain: string, slugs: ReadonlyMap<string, number> = ORACLE_CHAIN_SLUGS): OnchainStorability {
  const chainId = slugs.get(chain);
  if (chainId !== undefined && chainId !== 0) return { storable: true, chainId };
  return {
    storable: false,
    reason: "unknown-chain-slug",
    chain,
    message: `the signed chain ${JSON.stringify(chain)} is not a slug of the attested oracle's table (${[...slugs.keys()].join(", ")}): it would revert UnknownChainSlug`,
  };
}

/**
 * The storability of a verified trust-check attestation of a version: a v2 block by its chain slug, any other block
 * not storable.
 *
 * @param version - The signed block's version.
 * @param chain - The signed `chain`.
 * @returns The storability.
 */
export function trustRecordStorability(version: "v1" | "v2" | "wallet-not-found", chain: unknown): OnchainStorability {
  if (version !== "v2") {
    return {
      storable: false,
      reason: "not-v2-block",
      message: `a ${version} signed block: the attested oracle reads v2 blocks (issuedAt, verifiedAt, expiry) only`,
    };
  }
  return chainStorability(String(chain));
}
