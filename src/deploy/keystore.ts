/**
 * Reads an encrypted keystore: the Web3 Secret Storage v3 JSON that geth (`geth account new`), foundry
 * (`cast wallet new`, `cast wallet import`) and ethers (`Wallet.encrypt`) write. The key is derived from the password
 * with the file's KDF (scrypt or PBKDF2-HMAC-SHA256, node's own), checked against the file's MAC (keccak-256 of the
 * derived key's second half and the ciphertext), and decrypted with AES-128-CTR. No dependency: node's crypto and
 * viem's keccak-256.
 *
 * The key and the password never appear in an error message.
 *
 * @packageDocumentation
 */
import { createDecipheriv, pbkdf2, scrypt } from "node:crypto";
import { bytesToHex, type Hex, hexToBytes, keccak256 } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { ConfigurationError } from "../errors.js";

/** The largest scrypt cost accepted (geth's "standard" N is 2^18): a file asking for more is refused, not run. */
const MAX_SCRYPT_MEMORY = 1024 * 1024 * 1024;

/**
 * Decrypts a Web3 Secret Storage v3 keystore.
 *
 * @param json - The keystore file's text.
 * @param password - Its password.
 * @param name - The file's name, for the messages.
 * @returns The private key, `0x`-prefixed.
 * @throws {@link ConfigurationError} for a file that is not a v3 keystore, an unsupported KDF or cipher, a wrong
 *   password (the MAC does not match), or an `address` field that is not the key's.
 */
export async function decryptKeystore(json: string, password: string, name: string): Promise<Hex> {
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new ConfigurationError(`${name} is not a keystore: it is not JSON`);
  }
  const crypto = (file.crypto ?? file.Crypto) as Record<string, unknown> | undefined;
  if (file.version !== 3 || typeof crypto !== "object" || crypto === null) {
    throw new ConfigurationError(`${name} is not a Web3 Secret Storage v3 keystore (version 3, with its crypto section)`);
  }
  const hex = (value: unknown, what: string): Uint8Array => {
    if (typeof value !== "string" || !/^(0x)?[0-9a-fA-F]*$/.test(value)) {
      throw new ConfigurationError(`${name}: the keystore's ${what} is not hex`);
    }
    return hexToBytes(`0x${value.replace(/^0x/, "")}`);
  };
  if (crypto.cipher !== "aes-128-ctr") {
    throw new ConfigurationError(`${name}: the keystore's cipher ${String(crypto.cipher)} is not supported (aes-128-ctr is)`);
  }
  const kdfparams = (crypto.kdfparams ?? {}) as Record<string, unknown>;
  const salt = hex(kdfparams.salt, "salt");
  const dklen = Number(kdfparams.dklen ?? 32);
  if (dklen < 32) throw new ConfigurationError(`${name}: the keystore's derived key length ${dklen} is under 32 bytes`);
  const secret = Buffer.from(password.normalize("NFKC"), "utf8");
  let derived: Buffer;
  if (crypto.kdf === "scrypt") {
    const N = Number(kdfparams.n);
    const r = Number(kdfparams.r);
    const p = Number(kdfparams.p);
    const memory = 128 * N * r + 128 * r * p;
    if (![N, r, p].every(Number.isSafeInteger) || memory > MAX_SCRYPT_MEMORY) {
      throw new ConfigurationError(`${name}: the keystore's scrypt parameters (n ${N}, r ${r}, p ${p}) are not accepted`);
    }
    derived = await new Promise<Buffer>((resolve, reject) =>
      scrypt(secret, salt, dklen, { N, r, p, maxmem: memory + 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } else if (crypto.kdf === "pbkdf2") {
    if (kdfparams.prf !== "hmac-sha256") {
      throw new ConfigurationError(`${name}: the keystore's PBKDF2 function ${String(kdfparams.prf)} is not supported (hmac-sha256 is)`);
    }
    const c = Number(kdfparams.c);
    derived = await new Promise<Buffer>((resolve, reject) =>
      pbkdf2(secret, salt, c, dklen, "sha256", (error, key) => (error ? reject(error) : resolve(key))),
    );
  } else {
    throw new ConfigurationError(`${name}: the keystore's KDF ${String(crypto.kdf)} is not supported (scrypt and pbkdf2 are)`);
  }
  const ciphertext = hex(crypto.ciphertext, "ciphertext");
  const mac = keccak256(new Uint8Array([...derived.subarray(16, 32), ...ciphertext]));
  if (mac.slice(2).toLowerCase() !== String(crypto.mac).replace(/^0x/, "").toLowerCase()) {
    throw new ConfigurationError(`${name}: wrong password for the keystore (its MAC does not match)`);
  }
  const iv = hex((crypto.cipherparams as Record<string, unknown> | undefined)?.iv, "iv");
  const decipher = createDecipheriv("aes-128-ctr", derived.subarray(0, 16), iv);
  const key = new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
  if (key.length !== 32) throw new ConfigurationError(`${name}: the keystore does not hold a 32-byte private key`);
  const privateKey = bytesToHex(key);
  if (typeof file.address === "string" && file.address !== "") {
    const address = privateKeyToAddress(privateKey).slice(2).toLowerCase();
    if (file.address.replace(/^0x/, "").toLowerCase() !== address) {
      throw new ConfigurationError(`${name}: the keystore's key is not the one of its address field ${file.address}`);
    }
  }
  return privateKey;
}
