/**
 * The test keys of the vector set: the two private P-256 keys committed under `keys/` (test-only, published on
 * purpose) and the public key set derived from them, which every vector is verified against.
 *
 * The key set publishes the `rnwy-trust-v2` key a second time under `rnwy-wallet-v1` (the wallet-score kid),
 * so that a trust-check signed under the wallet kid carries a signature that verifies: only the binding of a
 * kid to its kind of attestation can refuse it.
 */
import { readFileSync } from "node:fs";
import type { JSONWebKeySet, JWK } from "jose";
import { type AttestationSigningKey, importSigningKey } from "../../../src/harness/signing";
import { PRIVATE_KEYS_FILE } from "../format";

/** The kid of the wallet-score attestations, published here with the `rnwy-trust-v2` key material. */
export const WALLET_KID = "rnwy-wallet-v1";

/** The signing keys of the set. */
export interface VectorKeys {
  /** `rnwy-trust-v2`: signs the v2 vectors. */
  readonly trustV2: AttestationSigningKey;
  /** `rnwy-trust-v1`: signs the v1 vector. */
  readonly trustV1: AttestationSigningKey;
  /** The `rnwy-trust-v2` key material under the wallet kid. */
  readonly wallet: AttestationSigningKey;
  /** The public key set: the three kids above. */
  readonly jwks: JSONWebKeySet;
}

/**
 * Loads the test keys from `keys/test-only-private-keys.json`.
 *
 * @returns The keys and their public key set.
 */
export async function loadVectorKeys(): Promise<VectorKeys> {
  const file = JSON.parse(readFileSync(PRIVATE_KEYS_FILE, "utf8")) as { keys: JWK[] };
  const byKid = new Map(file.keys.map((jwk) => [jwk.kid, jwk]));
  const v2 = byKid.get("rnwy-trust-v2");
  const v1 = byKid.get("rnwy-trust-v1");
  if (!v2 || !v1) throw new Error(`${PRIVATE_KEYS_FILE} must hold the rnwy-trust-v2 and rnwy-trust-v1 keys`);
  const [trustV2, trustV1, wallet] = await Promise.all([
    importSigningKey(v2),
    importSigningKey(v1),
    importSigningKey({ ...v2, kid: WALLET_KID }),
  ]);
  return { trustV2, trustV1, wallet, jwks: { keys: [trustV2.publicJwk, trustV1.publicJwk, wallet.publicJwk] } };
}
