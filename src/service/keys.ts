/**
 * The local service's signing keys: the trust-check signer (`rnwy-trust-v2`), the MCP signer
 * (`rnwy-mcp-v1`), generated per start or kept in a key file so that a restarted service keeps its JWKS.
 *
 * @packageDocumentation
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { JWK } from "jose";
import { exportSigningKey, generateSigningKey, importSigningKey, type AttestationSigningKey } from "../attestation/sign.js";
import { MCP_ATTESTATION_KID, TRUST_ATTESTATION_KIDS } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";

/** Kid of the trust-check and wallet-score signer the service generates by default. */
export const DEFAULT_TRUST_KID = TRUST_ATTESTATION_KIDS[0]!;

/** Kid of the MCP-attestation signer. */
export const DEFAULT_MCP_KID = MCP_ATTESTATION_KID;

/** Kids of the keys an `unknown-kid` fault signs with; never published in the JWKS. */
export const UNPUBLISHED_KIDS = { trust: "rnwy-trust-v3", mcp: "rnwy-mcp-v2" } as const;

/** The keys a service signs with and publishes. */
export interface ServiceKeys {
  /** Signs trust-check and wallet-score attestations. */
  readonly trust: AttestationSigningKey;
  /** Signs MCP-server attestations. */
  readonly mcp: AttestationSigningKey;
  /** Every key published in the JWKS, in order (the trust signer first). */
  readonly published: readonly AttestationSigningKey[];
}

/** The JSON layout of a key file: private JWKs, the trust signer first. */
export interface KeyFileContent {
  /** Private P-256 JWKs with `kid`. */
  readonly keys: readonly JWK[];
}

/**
 * Resolves the keys of a service: the given keys (the first signs trust-checks; the one with kid
 * `rnwy-mcp-v1`, or a generated one, signs MCP attestations), else the key file (created with fresh keys
 * on first use), else two generated keys.
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
  return assemble([await generateSigningKey(DEFAULT_TRUST_KID), await generateSigningKey(DEFAULT_MCP_KID)]);
}

/**
 * Loads the keys of a key file, or creates the file (mode 0600, with fresh `rnwy-trust-v2` and
 * `rnwy-mcp-v1` keys) when it does not exist. A file without an MCP key gets one added.
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
    const keys = [await generateSigningKey(DEFAULT_TRUST_KID), await generateSigningKey(DEFAULT_MCP_KID)];
    await saveKeyFile(path, keys);
    return assemble(keys);
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
  if (!keys.some((k) => k.kid === DEFAULT_MCP_KID)) {
    keys.push(await generateSigningKey(DEFAULT_MCP_KID));
    await saveKeyFile(path, keys);
  }
  return assemble(keys);
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
 * The keys: the first signs trust-checks; the one with the MCP kid signs MCP attestations, a generated one
 * (published too) when none has it.
 */
async function assemble(keys: readonly AttestationSigningKey[]): Promise<ServiceKeys> {
  const kids = new Set<string>();
  for (const key of keys) {
    if (kids.has(key.kid)) throw new InvalidArgumentError(`Two signing keys share the kid "${key.kid}"`);
    kids.add(key.kid);
  }
  const mcp = keys.find((k) => k.kid === DEFAULT_MCP_KID) ?? (await generateSigningKey(DEFAULT_MCP_KID));
  return {
    trust: keys[0]!,
    mcp,
    published: Object.freeze(keys.includes(mcp) ? [...keys] : [...keys, mcp]),
  };
}
