/**
 * The service's public keys as an on-chain oracle holds them: a JWKS entry (`x`, `y` base64url, P-256) becomes
 * the `(kid, x, y)` arguments of `AttestedTrustOracle.setSigningKey`.
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import type { Hex } from "viem";
import { InvalidArgumentError } from "../errors.js";
import { importVerificationKey } from "./public-key.js";

/** The arguments of `setSigningKey(kid, x, y)`. */
export interface SigningKeyArgs {
  readonly kid: string;
  /** The x coordinate, 32 bytes big-endian. */
  readonly x: Hex;
  /** The y coordinate, 32 bytes big-endian. */
  readonly y: Hex;
}

/**
 * Converts a JWKS entry to the on-chain key arguments.
 *
 * @param jwk - An EC P-256 public key with a `kid` (its `alg`, `use` and `key_ops` must allow ES256 verification).
 * @returns `kid`, `x` and `y` as 32-byte hex.
 * @throws {@link InvalidArgumentError} when the entry is not a usable ES256 key (the reason is in the message), or
 *   is the curve point whose x is 0: the oracle reads x = 0 as "no key held" and refuses it.
 *
 * @example
 * ```ts
 * import { signingKeyArgsOf } from "trustgate";
 *
 * const response = await fetch("https://rnwy.com/.well-known/jwks.json");
 * const { keys } = (await response.json()) as { keys: Parameters<typeof signingKeyArgsOf>[0][] };
 * for (const key of keys) if (key.kid === "rnwy-trust-v2") console.log(signingKeyArgsOf(key)); // { kid, x, y }
 * ```
 */
export function signingKeyArgsOf(jwk: JWK): SigningKeyArgs {
  const imported = importVerificationKey(jwk);
  if (!imported.ok) throw new InvalidArgumentError(`JWKS entry ${JSON.stringify(jwk.kid ?? null)} ${imported.problem}`);
  const coordinate = (value: string) => {
    const bytes = Buffer.from(value, "base64url");
    if (bytes.length !== 32)
      throw new InvalidArgumentError(`JWKS entry "${imported.key.kid}": a P-256 coordinate has ${bytes.length} bytes, not 32`);
    return `0x${bytes.toString("hex")}` as Hex;
  };
  const x = coordinate(jwk.x!);
  if (BigInt(x) === 0n) {
    throw new InvalidArgumentError(
      `JWKS entry "${imported.key.kid}" has x = 0, which an AttestedTrustOracle reads as "no key held": it cannot hold this key`,
    );
  }
  return { kid: imported.key.kid, x, y: coordinate(jwk.y!) };
}

/**
 * Converts every usable entry of a JWKS, optionally only the given kids.
 *
 * @param jwks - A JWKS (`{ keys: [...] }`).
 * @param kids - Key ids to take (default: every entry); a kid asked for and absent is an error.
 * @returns The key arguments, in the JWKS's order.
 * @throws {@link InvalidArgumentError} for a JWKS without keys, an unusable entry that was asked for, or a kid not found.
 *
 * @example
 * ```ts
 * import { signingKeyArgsOfJwks } from "trustgate";
 *
 * const jwks = (await (await fetch("https://rnwy.com/.well-known/jwks.json")).json()) as Parameters<typeof signingKeyArgsOfJwks>[0];
 * const keys = signingKeyArgsOfJwks(jwks, ["rnwy-trust-v2"]); // [{ kid, x, y }]: setSigningKey's arguments
 * ```
 */
export function signingKeyArgsOfJwks(jwks: { readonly keys?: readonly JWK[] }, kids?: readonly string[]): SigningKeyArgs[] {
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new InvalidArgumentError("The JWKS has no keys");
  const wanted = kids === undefined ? undefined : new Set(kids);
  const chosen = jwks.keys.filter((jwk) => wanted === undefined || (typeof jwk.kid === "string" && wanted.has(jwk.kid)));
  for (const kid of wanted ?? []) {
    if (!chosen.some((jwk) => jwk.kid === kid)) throw new InvalidArgumentError(`The JWKS has no key "${kid}"`);
  }
  return chosen.map(signingKeyArgsOf);
}
