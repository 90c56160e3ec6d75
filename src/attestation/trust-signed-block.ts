/**
 * The reader of a trust-check v2 signed block (kid `rnwy-trust-v2`) over its exact signed bytes: the same
 * rules, and the same refusals, as the on-chain reader (`TrustAttestationLib.parse` in
 * `contracts/attestation/TrustAttestationLib.sol`), so that a block the oracle would refuse is refused
 * off-chain too, before anyone spends gas on it, and so that the two verifiers never read one signed block
 * as two different records.
 *
 * The text is read with the strict reader (`strict-json.ts`): UTF-8, one JSON object, RFC 8259 whitespace,
 * every value valid JSON (also the skipped `badges` and `sybilSignals`), no top-level member name written
 * with an escape, none of the twelve known names twice (other names may repeat: neither reader decides on
 * them). The ten fields the oracle records are read from their bytes, each in the one form the service
 * writes:
 *
 * | field | accepted bytes |
 * |---|---|
 * | `agentId` | a decimal string (no sign, no leading zero, at most 2^256 − 1), or a number written as plain digits (no sign, fraction, exponent or leading zero) at most 2^53 − 1 (above it `JSON.parse` rounds) |
 * | `chain` | a string of 1 to 32 bytes, without escapes |
 * | `registry` | a non-empty string, without escapes |
 * | `owner` | `null`, or `"0x"` (or `"0X"`) and 40 hex digits |
 * | `score` | a number written as plain digits, 0 to 100 |
 * | `tier` | `"flagged"`, `"limited"`, `"developing"` or `"established"` |
 * | `sybilSeverity` | `null`, or `"none"`, `"low"`, `"moderate"`, `"elevated"`, `"heavy"` |
 * | `issuedAt`, `verifiedAt`, `expiry` | `"YYYY-MM-DDTHH:MM:SSZ"` or `"YYYY-MM-DDTHH:MM:SS.fffZ"`, a real UTC date after the epoch (milliseconds dropped) |
 *
 * A fault inside a read field's value (a control byte, an escape, bytes that are not UTF-8, a wrong form or
 * range) is that field's; a fault anywhere else is the text's (`json`). A refusal names the field and the
 * byte offset, and its `fault` tells the on-chain error it mirrors: `malformed` `AttestationJsonMalformed`,
 * `too-deep` `AttestationJsonTooDeep`, `invalid` `AttestationFieldInvalid`, `duplicate`
 * `AttestationFieldDuplicate`, `missing` `AttestationFieldMissing` (the first missing field, in the order of
 * {@link TRUST_V2_READ_FIELDS}; its offset is the length of the bytes). Offsets follow this reader's own
 * scan; which bytes are refused, and under which field, is what agrees with the chain.
 *
 * @packageDocumentation
 */
import type { SybilSeverityName, TierName } from "../config/encodings.js";
import { readStrictObject, type StrictJsonFault, utf8SequenceLength } from "./strict-json.js";

/** The fields the oracle records, in the order of the contract's `AttestationField` enumeration. */
export const TRUST_V2_READ_FIELDS = [
  "agentId",
  "chain",
  "registry",
  "owner",
  "score",
  "tier",
  "sybilSeverity",
  "issuedAt",
  "verifiedAt",
  "expiry",
] as const;

/** A field the oracle records. */
export type TrustV2ReadField = (typeof TRUST_V2_READ_FIELDS)[number];

/** The twelve top-level names of a v2 block: none may appear twice. */
export const TRUST_V2_KNOWN_FIELDS: ReadonlySet<string> = new Set([...TRUST_V2_READ_FIELDS, "badges", "sybilSignals"]);

/** The fields of a v2 signed block, as the oracle records them. */
export interface TrustSignedBlockV2 {
  /** The agent's id in its registry. */
  readonly agentId: bigint;
  /** The chain slug. */
  readonly chain: string;
  /** The registry name. */
  readonly registry: string;
  /** The owner's address as written (`0x` and 40 hex digits), or `null`. */
  readonly owner: string | null;
  /** The score, 0–100. */
  readonly score: number;
  /** The tier. */
  readonly tier: TierName;
  /** The sybil severity: `null` as written, or a name (`none` kept as written). */
  readonly sybilSeverity: SybilSeverityName | null;
  /** When the score was computed, Unix seconds. */
  readonly issuedAt: number;
  /** When the attestation was signed, Unix seconds. */
  readonly verifiedAt: number;
  /** When the attestation expires, Unix seconds. */
  readonly expiry: number;
}

/** Why a v2 signed block is refused. */
export interface TrustSignedBlockRefusal {
  readonly ok: false;
  /** The on-chain error it mirrors (see the module notes). */
  readonly fault: StrictJsonFault | "missing";
  /** The field (`json` for the text itself). */
  readonly field: TrustV2ReadField | "badges" | "sybilSignals" | "json";
  /** Byte offset in the signed bytes. */
  readonly offset: number;
  /** What is wrong. */
  readonly problem: string;
}

/** Outcome of {@link readTrustSignedBlockV2}. */
export type TrustSignedBlockRead = { readonly ok: true; readonly block: TrustSignedBlockV2 } | TrustSignedBlockRefusal;

const TIERS: ReadonlySet<string> = new Set<TierName>(["flagged", "limited", "developing", "established"]);
const SYBIL_SEVERITIES: ReadonlySet<string> = new Set<SybilSeverityName>(["none", "low", "moderate", "elevated", "heavy"]);
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_CHAIN_BYTES = 32;
const MAX_SCORE = 100;
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{3})?Z$/;

/**
 * Reads a trust-check v2 signed block from the exact bytes its signature covers (see the module notes).
 *
 * @param bytes - The signed bytes: a JWS payload, or the bytes a raw `sig` verified over.
 * @returns The fields, or the refusal with its fault, field and byte offset. Never throws.
 */
export function readTrustSignedBlockV2(bytes: Uint8Array): TrustSignedBlockRead {
  const values = new Map<TrustV2ReadField, unknown>();
  const read = readStrictObject(bytes, {
    uniqueNames: TRUST_V2_KNOWN_FIELDS,
    refuseEscapedNames: true,
    readValue: (name, start) => {
      const reader = FIELD_READERS.get(name);
      if (reader === undefined) return undefined;
      const field = name as TrustV2ReadField;
      const value = reader(bytes, start);
      if (!value.ok) return { field, problem: `${field}: ${value.problem}` };
      values.set(field, value.value);
      return value.end;
    },
  });
  if (!read.ok) return { ok: false, fault: read.fault, field: read.field as TrustSignedBlockRefusal["field"], offset: read.offset, problem: read.problem };
  const missing = TRUST_V2_READ_FIELDS.find((field) => !values.has(field));
  if (missing !== undefined) return { ok: false, fault: "missing", field: missing, offset: bytes.length, problem: `the signed block has no ${missing}` };
  return {
    ok: true,
    block: {
      agentId: values.get("agentId") as bigint,
      chain: values.get("chain") as string,
      registry: values.get("registry") as string,
      owner: values.get("owner") as string | null,
      score: values.get("score") as number,
      tier: values.get("tier") as TierName,
      sybilSeverity: values.get("sybilSeverity") as SybilSeverityName | null,
      issuedAt: values.get("issuedAt") as number,
      verifiedAt: values.get("verifiedAt") as number,
      expiry: values.get("expiry") as number,
    },
  };
}

/** A field's value read from its first byte: the value and the offset past it, or the problem. */
type FieldRead = { ok: true; value: unknown; end: number } | { ok: false; problem: string };
type FieldReader = (bytes: Uint8Array, start: number) => FieldRead;

const FIELD_READERS: ReadonlyMap<string, FieldReader> = new Map<TrustV2ReadField, FieldReader>([
  ["agentId", readAgentId],
  ["chain", (bytes, start) => readName(bytes, start, (text, length) => length >= 1 && length <= MAX_CHAIN_BYTES, "a string of 1 to 32 bytes")],
  ["registry", (bytes, start) => readName(bytes, start, (_text, length) => length >= 1, "a non-empty string")],
  ["owner", readOwner],
  ["score", readScore],
  ["tier", (bytes, start) => readName(bytes, start, (text) => TIERS.has(text), "flagged, limited, developing or established")],
  ["sybilSeverity", (bytes, start) => (isNullAt(bytes, start) ? { ok: true, value: null, end: start + 4 } : readName(bytes, start, (text) => SYBIL_SEVERITIES.has(text), "null, none, low, moderate, elevated or heavy"))],
  ["issuedAt", readTime],
  ["verifiedAt", readTime],
  ["expiry", readTime],
]);

/**
 * A string without escapes at `start` (its opening quote): its content's range. A backslash, a control byte,
 * bytes that are not UTF-8, or no closing quote refuse it.
 */
function readPlainString(bytes: Uint8Array, start: number): { ok: true; from: number; to: number } | { ok: false; problem: string } {
  if (bytes[start] !== 0x22) return { ok: false, problem: "not a string" };
  let at = start + 1;
  for (;;) {
    const byte = bytes[at];
    if (byte === undefined) return { ok: false, problem: "the string is not closed" };
    if (byte === 0x22) return { ok: true, from: start + 1, to: at };
    if (byte === 0x5c) return { ok: false, problem: "written with a backslash escape" };
    if (byte < 0x20) return { ok: false, problem: "holds a control byte" };
    const length = utf8SequenceLength(bytes, at);
    if (length === 0) return { ok: false, problem: "holds bytes that are not UTF-8" };
    at += length;
  }
}

/** A string without escapes whose text (and byte length) passes `accept`. */
function readName(bytes: Uint8Array, start: number, accept: (text: string, length: number) => boolean, expected: string): FieldRead {
  const string = readPlainString(bytes, start);
  if (!string.ok) return { ok: false, problem: `${string.problem}; expected ${expected}` };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + string.from, string.to - string.from).toString("utf8");
  return accept(text, string.to - string.from)
    ? { ok: true, value: text, end: string.to + 1 }
    : { ok: false, problem: `${JSON.stringify(text)} is not ${expected}` };
}

function isNullAt(bytes: Uint8Array, start: number): boolean {
  return bytes[start] === 0x6e && bytes[start + 1] === 0x75 && bytes[start + 2] === 0x6c && bytes[start + 3] === 0x6c;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** Whether a byte can belong to a number or literal token (what the on-chain reader reads as one run). */
function isTokenByte(byte: number | undefined): boolean {
  if (byte === undefined) return false;
  return isDigit(byte) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2e || byte === 0x2b || byte === 0x2d;
}

/**
 * Plain decimal digits from `from` to `to`: the value, or why they are not plain (none, a leading zero, a
 * byte that is not a digit).
 */
function plainDigits(bytes: Uint8Array, from: number, to: number): { ok: true; value: bigint } | { ok: false; problem: string } {
  if (to === from) return { ok: false, problem: "no digits" };
  for (let i = from; i < to; i++) if (!isDigit(bytes[i])) return { ok: false, problem: "not plain decimal digits (a sign, fraction or exponent)" };
  if (bytes[from] === 0x30 && to - from > 1) return { ok: false, problem: "a leading zero" };
  return { ok: true, value: BigInt(Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1")) };
}

/** The run of number or literal bytes at `start` (a number's whole token). */
function tokenEnd(bytes: Uint8Array, start: number): number {
  let at = start;
  while (isTokenByte(bytes[at])) at++;
  return at;
}

function readAgentId(bytes: Uint8Array, start: number): FieldRead {
  if (bytes[start] === 0x22) {
    const string = readPlainString(bytes, start);
    if (!string.ok) return { ok: false, problem: `${string.problem}; expected a decimal string` };
    const digits = plainDigits(bytes, string.from, string.to);
    if (!digits.ok) return { ok: false, problem: `a decimal string is expected (${digits.problem})` };
    if (digits.value > MAX_UINT256) return { ok: false, problem: "above 2^256 - 1" };
    return { ok: true, value: digits.value, end: string.to + 1 };
  }
  const end = tokenEnd(bytes, start);
  const digits = plainDigits(bytes, start, end);
  if (!digits.ok) return { ok: false, problem: `a decimal string or plain digits are expected (${digits.problem})` };
  if (digits.value > BigInt(Number.MAX_SAFE_INTEGER)) {
    return { ok: false, problem: "a number above 2^53 - 1, which JSON.parse cannot hold exactly; write it as a string" };
  }
  return { ok: true, value: digits.value, end };
}

function readScore(bytes: Uint8Array, start: number): FieldRead {
  const end = tokenEnd(bytes, start);
  const digits = plainDigits(bytes, start, end);
  if (!digits.ok) return { ok: false, problem: `an integer 0-${MAX_SCORE} written as plain digits is expected (${digits.problem})` };
  if (digits.value > BigInt(MAX_SCORE)) return { ok: false, problem: `${digits.value} is above ${MAX_SCORE}` };
  return { ok: true, value: Number(digits.value), end };
}

function readOwner(bytes: Uint8Array, start: number): FieldRead {
  if (isNullAt(bytes, start)) return { ok: true, value: null, end: start + 4 };
  const string = readPlainString(bytes, start);
  if (!string.ok) return { ok: false, problem: `${string.problem}; expected null or "0x" and 40 hex digits` };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + string.from, string.to - string.from).toString("utf8");
  if (!/^0[xX][0-9a-fA-F]{40}$/.test(text)) return { ok: false, problem: `${JSON.stringify(text)} is not null or "0x" and 40 hex digits` };
  return { ok: true, value: text, end: string.to + 1 };
}

function readTime(bytes: Uint8Array, start: number): FieldRead {
  const string = readPlainString(bytes, start);
  if (!string.ok) return { ok: false, problem: `${string.problem}; expected an ISO 8601 UTC time string` };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + string.from, string.to - string.from).toString("utf8");
  const parts = TIME.exec(text);
  if (parts === null) return { ok: false, problem: `${JSON.stringify(text)} is not YYYY-MM-DDTHH:MM:SS(.fff)?Z` };
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const valid = year >= 1970 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59;
  const seconds = valid ? Date.UTC(year, month - 1, day, hour, minute, second) / 1000 : 0;
  if (!(seconds > 0)) return { ok: false, problem: `${JSON.stringify(text)} is not a UTC date and time after the epoch` };
  return { ok: true, value: seconds, end: string.to + 1 };
}
