/**
 * The local service's signing keys, one per published kid (vocabulary crosswalk `rnwy.yaml` and `a2a.yaml`,
 * 2026-04-14): the trust-check signer (`rnwy-trust-v2`), the legacy trust-check signer (`rnwy-trust-v1`), the
 * wallet-score signer (`rnwy-wallet-v1`) and the MCP signer (`rnwy-mcp-v1`); generated per start or kept in
 * a key file so that a restarted service keeps its JWKS.
 *
 * @packageDocumentation
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { JWK } from "jose";
import { LEGACY_TRUST_ATTESTATION_KID, MCP_ATTESTATION_KID, TRUST_ATTESTATION_KIDS, WALLET_ATTESTATION_KID } from "../../config/service.js";
import { InvalidArgumentError } from "../../errors.js";
import { type AttestationSigningKey, exportSigningKey, generateSigningKey, importSigningKey } from "../signing.js";

/** Kid of the trust-check (v2) signer the service generates by default. */
export const DEFAULT_TRUST_KID = TRUST_ATTESTATION_KIDS[0]!;

/** Kid of the legacy trust-check (v1) signer. */
export const DEFAULT_TRUST_V1_KID = LEGACY_TRUST_ATTESTATION_KID;

/** Kid of the wallet-score signer. */
export const DEFAULT_WALLET_KID = WALLET_ATTESTATION_KID;

/** Kid of the MCP-attestation signer. */
export const DEFAULT_MCP_KID = MCP_ATTESTATION_KID;

/** Kids of the keys an `unknown-kid` fault signs with; never published in the JWKS. */
export const UNPUBLISHED_KIDS = {
  trust: "rnwy-trust-v3",
  trustV1: "rnwy-trust-v3",
  wallet: "rnwy-wallet-v2",
  mcp: "rnwy-mcp-v2",
} as const;

/** The keys a service signs with and publishes. */
export interface ServiceKeys {
  /** Signs trust-check attestations (v2 signed block). */
  readonly trust: AttestationSigningKey;
  /** Signs legacy trust-check attestations (v1 signed block). */
  readonly trustV1: AttestationSigningKey;
  /** Signs wallet-score attestations (JWT). */
  readonly wallet: AttestationSigningKey;
  /** Signs MCP-server attestations. */
  readonly mcp: AttestationSigningKey;
  /** Every key published in the JWKS, in order (the trust signer first). */
  readonly published: readonly AttestationSigningKey[];
}

/** Kids the service generates when the given keys lack them, in JWKS order after the given keys. */
const COMPANION_KIDS = [DEFAULT_TRUST_V1_KID, DEFAULT_WALLET_KID, DEFAULT_MCP_KID] as const;

/** The JSON layout of a key file: private JWKs, the trust signer first. */
export interface KeyFileContent {
  /** Private P-256 JWKs with `kid`. */
  readonly keys: readonly JWK[];
}

/**
 * Resolves the keys of a service: the given keys (the first signs v2 trust-checks; the ones with kids
 * `rnwy-trust-v1`, `rnwy-wallet-v1` and `rnwy-mcp-v1`, or generated ones, sign the rest), else the key file
 * (created with fresh keys on first use), else four generated keys.
 *
 * @param options - Given keys or a key file; not both.
 * @returns The keys.
 * @throws {@link InvalidArgumentError} when both are given, `signingKeys` is empty, or the key file is unreadable.
 */
export async function resolveServiceKeys(options: {
  signingKeys?: readonly AttestationSigningKey[];
  keyFile?: string;
}): Promise<ServiceKeys> {
  if (options.signingKeys && options.keyFile) {
    throw new InvalidArgumentError("Give either signingKeys or keyFile, not both");
  }
  if (options.signingKeys) {
    if (options.signingKeys.length === 0) throw new InvalidArgumentError("signingKeys must not be empty");
    return assemble(options.signingKeys);
  }
  if (options.keyFile) return loadOrCreateKeyFile(options.keyFile);
  return assemble([await generateSigningKey(DEFAULT_TRUST_KID)]);
}

/**
 * Loads the keys of a key file, or creates the file (mode 0600, with fresh keys for the four published kids)
 * when it does not exist. A file that lacks one of `rnwy-trust-v1`, `rnwy-wallet-v1`, `rnwy-mcp-v1` gets it
 * added.
 *
 * @param path - The file.
 * @returns The keys.
 * @throws {@link InvalidArgumentError} when the file exists but is not a valid key file.
 */
export async function loadOrCreateKeyFile(path: string): Promise<ServiceKeys> {
  let text: string | undefined;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new InvalidArgumentError(`Cannot read key file ${path}`, { cause: error });
    }
  }
  if (text === undefined) {
    const service = await assemble([await generateSigningKey(DEFAULT_TRUST_KID)]);
    await saveKeyFile(path, service.published);
    return service;
  }
  let content: KeyFileContent;
  try {
    content = JSON.parse(text) as KeyFileContent;
    if (!Array.isArray(content.keys) || content.keys.length === 0) throw new Error("no keys");
  } catch (error) {
    throw new InvalidArgumentError(`Key file ${path} is not a JSON object with a non-empty "keys" array`, { cause: error });
  }
  const keys: AttestationSigningKey[] = [];
  for (const jwk of content.keys) {
    try {
      keys.push(await importSigningKey(jwk));
    } catch (error) {
      throw new InvalidArgumentError(`Key file ${path} holds an invalid key`, { cause: error });
    }
  }
  const service = await assemble(keys);
  if (service.published.length !== keys.length) await saveKeyFile(path, service.published);
  return service;
}

/**
 * Writes private keys to a key file (mode 0600), creating its directory.
 *
 * @param path - The file.
 * @param keys - The keys, the trust signer first.
 */
export async function saveKeyFile(path: string, keys: readonly AttestationSigningKey[]): Promise<void> {
  const content: KeyFileContent = { keys: await Promise.all(keys.map(exportSigningKey)) };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
}

/**
 * The keys: the first signs v2 trust-checks; the ones with the v1, wallet and MCP kids sign those
 * attestations, generated ones (published too) when none has them.
 */
async function assemble(keys: readonly AttestationSigningKey[]): Promise<ServiceKeys> {
  const kids = new Set<string>();
  for (const key of keys) {
    if (kids.has(key.kid)) throw new InvalidArgumentError(`Two signing keys share the kid "${key.kid}"`);
    kids.add(key.kid);
  }
  const published = [...keys];
  const byKid = async (kid: string): Promise<AttestationSigningKey> => {
    let key = published.find((k) => k.kid === kid && k !== keys[0]);
    if (!key) {
      key = await generateSigningKey(kid);
      published.push(key);
    }
    return key;
  };
  const [trustV1, wallet, mcp] = [await byKid(COMPANION_KIDS[0]), await byKid(COMPANION_KIDS[1]), await byKid(COMPANION_KIDS[2])];
  return { trust: keys[0]!, trustV1, wallet, mcp, published: Object.freeze(published) };
}
