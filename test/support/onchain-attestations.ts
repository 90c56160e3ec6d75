/**
 * Helpers for the on-chain attestation tests and benchmark: real P-256 keys (node:crypto), v2 signed blocks in the
 * service's published shape (string `agentId`, `null` sybil, flat badges, ISO dates) signed exactly as the service
 * signs them (ES256 over the UTF-8 of `JSON.stringify(signed)`, raw `r‖s`), compact JWSs over exact header and
 * payload texts, low-S and high-S twins, and a second
 * in-process Hardhat network without the P-256 precompile (hardfork `prague`), where OpenZeppelin's `P256` falls
 * back to its Solidity implementation.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { ethers } from "ethers";
import hre from "hardhat";
import { P256_ORDER } from "./attestations";

/** A P-256 signing key with its key id and public coordinates as bytes32 hex. */
export interface P256TestKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly x: string;
  readonly y: string;
}

/**
 * Generates a P-256 key.
 *
 * @param kid - Key id (default `rnwy-trust-v2`).
 * @returns The key.
 */
export function makeP256Key(kid = "rnwy-trust-v2"): P256TestKey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const hex = (b64: string | undefined) => `0x${Buffer.from(b64!, "base64url").toString("hex").padStart(64, "0")}`;
  return { kid, privateKey, x: hex(jwk.x), y: hex(jwk.y) };
}

/** A v2 signed block (`JSON.stringify` order as the service writes it). */
export interface V2Signed {
  agentId: string | number;
  chain: string;
  registry: string;
  owner: string | null;
  score: number;
  tier: string;
  badges: string[];
  sybilSeverity: string | null;
  sybilSignals: string[];
  issuedAt: string;
  verifiedAt: string;
  expiry: string;
  [extra: string]: unknown;
}

/** Tier name of a score, by the service's boundaries. */
export function tierOf(score: number): string {
  return score >= 75 ? "established" : score >= 51 ? "developing" : score >= 30 ? "limited" : "flagged";
}

/** `AttestationField` (contracts/interfaces/ITrustAttestationErrors.sol), by name: the values errors carry. */
export const FIELD = {
  AgentId: 0,
  Chain: 1,
  Registry: 2,
  Owner: 3,
  Score: 4,
  Tier: 5,
  SybilSeverity: 6,
  IssuedAt: 7,
  VerifiedAt: 8,
  Expiry: 9,
  Badges: 10,
  SybilSignals: 11,
  Found: 12,
} as const;

/** Tier and sybil codes of the kit. */
export const TIER_CODE: Record<string, number> = { flagged: 0, limited: 1, developing: 2, established: 3 };
export const SYBIL_CODE: Record<string, number> = { none: 0, low: 1, moderate: 2, elevated: 3, heavy: 4 };

/** ISO 8601 with milliseconds, as `Date.toISOString` writes it, of Unix seconds (plus optional ms). */
export function iso(seconds: number, ms = 0): string {
  return new Date(seconds * 1000 + ms).toISOString();
}

/**
 * A v2 signed block in the published shape: the score computed `ageSeconds` before `now`, signed at `now`,
 * expiring 24 h later.
 *
 * @param now - Signing time (Unix seconds; normally the chain's latest block time).
 * @param overrides - Fields to change (key order is kept; new keys are appended).
 * @param ageSeconds - How long before `now` the score was computed (default 2 h).
 * @returns The block.
 */
export function v2Signed(now: number, overrides: Partial<V2Signed> = {}, ageSeconds = 7_200): V2Signed {
  const score = overrides.score ?? 59;
  return {
    agentId: "1",
    chain: "base",
    registry: "erc8004",
    owner: "0x7a16ff8270133f063aab6c9977183d9e72835428",
    score,
    tier: tierOf(score),
    badges: ["original_owner"],
    sybilSeverity: null,
    sybilSignals: [],
    issuedAt: iso(now - ageSeconds),
    verifiedAt: iso(now, 456),
    expiry: iso(now + 86_400, 456),
    ...overrides,
  };
}

/** A signed block ready for `submitAttestation`. */
export interface SignedCall {
  /** The exact signed bytes (hex). */
  readonly signedJson: string;
  /** The text signed. */
  readonly text: string;
  /** `r‖s` with `s ≤ n/2` (hex). */
  readonly lowS: string;
  /** `r‖(n − s)`, the high-S twin (hex). */
  readonly highS: string;
}

/**
 * Signs bytes with ES256 (raw `r‖s`), giving both the low-S and the high-S form.
 *
 * @param key - Signing key.
 * @param text - The text to sign (its UTF-8 bytes are signed), or the object to `JSON.stringify`.
 * @returns Bytes and signatures, hex.
 */
export function signText(key: P256TestKey, text: string | object): SignedCall {
  const body = typeof text === "string" ? text : JSON.stringify(text);
  const bytes = Buffer.from(body, "utf8");
  const raw = sign("sha256", bytes, { key: key.privateKey, dsaEncoding: "ieee-p1363" });
  const r = raw.subarray(0, 32).toString("hex");
  const s = BigInt(`0x${raw.subarray(32).toString("hex")}`);
  const low = s > P256_ORDER / 2n ? P256_ORDER - s : s;
  const high = P256_ORDER - low;
  const hex = (v: bigint) => v.toString(16).padStart(64, "0");
  return { signedJson: `0x${bytes.toString("hex")}`, text: body, lowS: `0x${r}${hex(low)}`, highS: `0x${r}${hex(high)}` };
}

/** A compact JWS signed over exact header and payload texts. */
export interface JwsCall {
  /** `header.payload.signature`, low-S. */
  readonly jws: string;
  /** The same JWS with the high-S twin of its signature. */
  readonly highS: string;
  /** The header text signed. */
  readonly header: string;
  /** The payload text signed. */
  readonly payload: string;
}

/**
 * Signs a compact JWS with ES256 over the exact texts given (objects are `JSON.stringify`-ed), as a signer may write
 * them: any header member order or whitespace, any payload serialization.
 *
 * @param key - Signing key.
 * @param payload - The payload text, or the object to `JSON.stringify`.
 * @param header - The protected header text, or the object to `JSON.stringify` (default `{"alg":"ES256","kid":<kid>}`).
 * @returns The JWS (low-S) and its high-S twin.
 */
export function signJws(key: P256TestKey, payload: string | object, header: string | object = { alg: "ES256", kid: key.kid }): JwsCall {
  const headerText = typeof header === "string" ? header : JSON.stringify(header);
  const payloadText = typeof payload === "string" ? payload : JSON.stringify(payload);
  const input = `${Buffer.from(headerText, "utf8").toString("base64url")}.${Buffer.from(payloadText, "utf8").toString("base64url")}`;
  const raw = sign("sha256", Buffer.from(input, "ascii"), { key: key.privateKey, dsaEncoding: "ieee-p1363" });
  const r = raw.subarray(0, 32);
  const s = BigInt(`0x${raw.subarray(32).toString("hex")}`);
  const low = s > P256_ORDER / 2n ? P256_ORDER - s : s;
  const part = (v: bigint) => Buffer.concat([r, Buffer.from(v.toString(16).padStart(64, "0"), "hex")]).toString("base64url");
  return { jws: `${input}.${part(low)}`, highS: `${input}.${part(P256_ORDER - low)}`, header: headerText, payload: payloadText };
}

/** An in-process Hardhat network of its own, with its own accounts (the same mnemonic as the default one). */
export interface SideNetwork {
  readonly provider: ethers.BrowserProvider;
  readonly signers: ethers.JsonRpcSigner[];
  /** Timestamp of the latest block. */
  latestTimestamp(): Promise<number>;
  /** Sets the timestamp of the next block. */
  setNextBlockTimestamp(timestamp: number): Promise<void>;
}

/**
 * Starts a second in-process Hardhat network with another hardfork (and RIP-7212 on or off), next to `hre`'s own.
 * With `hardfork: "prague"` and no RIP-7212 there is no precompile at `0x100`, so OpenZeppelin's `P256.verify`
 * runs its Solidity fallback. With `initialDate`, its chain starts at that date, so that fixed times before the
 * machine's clock can still be block times.
 *
 * @param options - Hardfork, RIP-7212 switch, and the date of the first block (default: now).
 * @returns The network.
 */
export async function startSideNetwork(options: { hardfork: string; enableRip7212?: boolean; initialDate?: string }): Promise<SideNetwork> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createProvider } = require("hardhat/internal/core/providers/construction") as {
    createProvider(config: unknown, name: string, artifacts: unknown): Promise<ethers.Eip1193Provider>;
  };
  const config = {
    ...hre.config,
    networks: {
      ...hre.config.networks,
      hardhat: {
        ...hre.config.networks.hardhat,
        hardfork: options.hardfork,
        enableRip7212: options.enableRip7212 ?? false,
        ...(options.initialDate === undefined ? {} : { initialDate: options.initialDate }),
      },
    },
  };
  const eip1193 = await createProvider(config, "hardhat", hre.artifacts);
  const provider = new ethers.BrowserProvider(eip1193, undefined, { cacheTimeout: -1 });
  const accounts = (await provider.send("eth_accounts", [])) as string[];
  const signers = await Promise.all(accounts.slice(0, 5).map((a) => provider.getSigner(a)));
  return {
    provider,
    signers,
    async latestTimestamp() {
      return (await provider.getBlock("latest"))!.timestamp;
    },
    async setNextBlockTimestamp(timestamp: number) {
      await provider.send("evm_setNextBlockTimestamp", [timestamp]);
    },
  };
}
