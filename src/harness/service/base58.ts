/**
 * Base58 (Bitcoin alphabet) encoding and the synthetic Solana addresses of the local service's SATI agents.
 *
 * @packageDocumentation
 */
import { createRng, hashSeed } from "../prng.js";

/** The base58 alphabet Solana uses. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * Encodes bytes as base58.
 *
 * @param bytes - The bytes.
 * @returns The base58 text (leading zero bytes become `1`s).
 */
export function encodeBase58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = "";
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/**
 * A deterministic synthetic Solana address (base58 of 32 bytes) from any parts.
 *
 * @param parts - Values to hash, in order.
 * @returns The address.
 */
export function syntheticSolanaAddress(...parts: readonly (string | number)[]): string {
  const rng = createRng(hashSeed("solana-address", ...parts));
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i += 4) {
    const word = rng.uint32();
    bytes[i] = word >>> 24;
    bytes[i + 1] = (word >>> 16) & 0xff;
    bytes[i + 2] = (word >>> 8) & 0xff;
    bytes[i + 3] = word & 0xff;
  }
  bytes[0] = bytes[0]! | 1; // never a leading zero byte, so the address is always 43–44 characters
  return encodeBase58(bytes);
}
