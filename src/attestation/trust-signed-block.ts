/**
 * The reader of a trust-check v2 signed block (kid `rnwy-trust-v2`) over its exact signed bytes: the same
 * rules, and the same refusals, as the on-chain reader (`TrustAttestationLib.parse` in
 * `contracts/attestation/TrustAttestationLib.sol`), so that a block the oracle would refuse is refused
 * off-chain too, before anyone spends gas on it, and so that the two verifiers never read one signed block
 * as two different records.
 *
 * The text is read with the strict reader (`strict-json.ts`): UTF-8, one JSON object, RFC 8259 whitespace,
 * every value valid JSON (also the skipped `badges` and `sybilSignals`), no top-level member name written
 * with an escape, none of the thirteen known names twice (other names may repeat: neither reader decides on
 * them). `found`, when present, must be `true`: the service signs `{found: false, wallet, issuedAt}` for a
 * wallet that owns no agent, so a block saying anything else is no agent's record, whatever agent fields it
 * carries. The ten fields the oracle records are read from their bytes, each in the one form the service
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
 * | `issuedAt`, `verifiedAt`, `expiry` | a string without escapes holding an RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS`, 0 to 9 fraction digits, `Z` or `±hh:mm`; `time.ts` has the grammar), a real date from 1970, after the epoch: the Unix second, offset applied, fraction dropped |
 *
 * Which refusal, as the on-chain reader orders them: a text that is not JSON by those rules is refused at once
 * (`json`); then the first field fault in document order — a read field's value in another form, a `found`
 * other than `true`, or a known name twice; then the first missing field, in the order of {@link TRUST_V2_READ_FIELDS}. A refusal names the
 * field and the byte offset, and its `fault` tells the on-chain error it mirrors: `malformed`
 * `AttestationJsonMalformed`, `too-deep` `AttestationJsonTooDeep`, `invalid` `AttestationFieldInvalid` (at the
 * value), `duplicate` `AttestationFieldDuplicate` (at the second name), `missing` `AttestationFieldMissing` (its
 * offset is the length of the bytes). Offsets follow this reader's own scan; which bytes are refused, and under
 * which field, is what agrees with the chain.
 *
 * @packageDocumentation
 */
import type { SybilSeverityName, TierName } from "../config/encodings.js";
import { MAX_DATE_TIME_LENGTH, SIGNED_TIME_FORM, signedTimeSeconds } from "./time.js";
import { bytesAre, decodeUtf8, readStrictObject, type StrictJsonFault, type StrictObjectRules, utf8SequenceLength } from "./strict-json.js";

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

/**
 * The thirteen top-level names of a v2 block, in the order of the contract's `AttestationField` enumeration: the
 * read fields, the two only validated, then `found` (checked, not recorded). None may appear twice.
 */
export const TRUST_V2_KNOWN_FIELDS: ReadonlySet<string> = new Set([...TRUST_V2_READ_FIELDS, "badges", "sybilSignals", "found"]);

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
  readonly field: TrustV2ReadField | "badges" | "sybilSignals" | "found" | "json";
  /** Byte offset in the signed bytes. */
  readonly offset: number;
  /** What is wrong. */
  readonly problem: string;
}

/** Outcome of {@link readTrustSignedBlockV2}. */
export type TrustSignedBlockRead = { readonly ok: true; readonly block: TrustSignedBlockV2 } | TrustSignedBlockRefusal;

const TIERS: readonly TierName[] = ["flagged", "limited", "developing", "established"];
const SYBIL_SEVERITIES: readonly SybilSeverityName[] = ["none", "low", "moderate", "elevated", "heavy"];
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_SAFE_AGENT_ID = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_CHAIN_BYTES = 32;
const MAX_SCORE = 100;

/**
 * Reads a trust-check v2 signed block from the exact bytes its signature covers (see the module notes).
 *
 * @param bytes - The signed bytes: a JWS payload, or the bytes a raw `sig` verified over.
 * @returns The fields, or the refusal with its fault, field and byte offset. Never throws.
 */
export function readTrustSignedBlockV2(bytes: Uint8Array): TrustSignedBlockRead {
  // The value of each read field, by its index in TRUST_V2_READ_FIELDS (`undefined`: not seen).
  const values: unknown[] = new Array<unknown>(TRUST_V2_READ_FIELDS.length);
  const read = readStrictObject(bytes, RULES, values);
  if (!read.ok) {
    return {
      ok: false,
      fault: read.fault,
      field: read.field as TrustSignedBlockRefusal["field"],
      offset: read.offset,
      problem: read.problem,
    };
  }
  for (let i = 0; i < TRUST_V2_READ_FIELDS.length; i++) {
    if (values[i] === undefined) {
      const field = TRUST_V2_READ_FIELDS[i]!;
      return { ok: false, fault: "missing", field, offset: bytes.length, problem: `the signed block has no ${field}` };
    }
  }
  const [agentId, chain, registry, owner, score, tier, sybilSeverity, issuedAt, verifiedAt, expiry] = values;
  return {
    ok: true,
    block: {
      agentId: agentId as bigint,
      chain: chain as string,
      registry: registry as string,
      owner: owner === NULL ? null : (owner as string),
      score: score as number,
      tier: tier as TierName,
      sybilSeverity: sybilSeverity === NULL ? null : (sybilSeverity as SybilSeverityName),
      issuedAt: issuedAt as number,
      verifiedAt: verifiedAt as number,
      expiry: expiry as number,
    },
  };
}

/** What a field reader hands back for a JSON `null` (`undefined` in the values means "not seen"). */
const NULL = Symbol("null");

/** A field's value read from its first byte: the offset past it and the value, or the problem. */
type FieldRead = { end: number; value: unknown } | { field: string; problem: string };
type FieldReader = (bytes: Uint8Array, start: number, field: TrustV2ReadField) => FieldRead;

const RULES: StrictObjectRules = {
  uniqueNames: TRUST_V2_KNOWN_FIELDS,
  refuseEscapedNames: true,
  readValue: (name, bytes, start, values) => {
    if (name === "found") return readFound(bytes, start);
    const index = FIELD_INDEX.get(name);
    if (index === undefined) return undefined;
    const read = FIELD_READERS[index]!(bytes, start, name as TrustV2ReadField);
    if ("end" in read) (values as unknown[])[index] = read.value;
    return read;
  },
};

/** The index of each read field in {@link TRUST_V2_READ_FIELDS}. */
const FIELD_INDEX: ReadonlyMap<string, number> = new Map(TRUST_V2_READ_FIELDS.map((field, index) => [field, index]));

/** `found`: only `true` (its value is not recorded). */
function readFound(bytes: Uint8Array, start: number): FieldRead {
  if (bytesAre(bytes, start, "true")) return { end: start + 4, value: true };
  return {
    field: "found",
    problem: "found: expected true (a block that says found: false is a wallet's proof of absence, no agent's record)",
  };
}

function invalid(field: TrustV2ReadField, problem: string): FieldRead {
  return { field, problem: `${field}: ${problem}` };
}

const READERS_BY_FIELD: Readonly<Record<TrustV2ReadField, FieldReader>> = {
  agentId: readAgentId,
  chain: (bytes, start, field) =>
    readName(bytes, start, field, (_text, length) => length >= 1 && length <= MAX_CHAIN_BYTES, "a string of 1 to 32 bytes"),
  registry: (bytes, start, field) => readName(bytes, start, field, (_text, length) => length >= 1, "a non-empty string"),
  owner: readOwner,
  score: readScore,
  tier: (bytes, start, field) => readOneOf(bytes, start, field, TIERS, "flagged, limited, developing or established"),
  sybilSeverity: (bytes, start, field) =>
    bytesAre(bytes, start, "null")
      ? { end: start + 4, value: NULL }
      : readOneOf(bytes, start, field, SYBIL_SEVERITIES, "null, none, low, moderate, elevated or heavy"),
  issuedAt: readTime,
  verifiedAt: readTime,
  expiry: readTime,
};

/** The reader of each read field, in the order of {@link TRUST_V2_READ_FIELDS}. */
const FIELD_READERS: readonly FieldReader[] = TRUST_V2_READ_FIELDS.map((field) => READERS_BY_FIELD[field]);

/**
 * A string without escapes at `start` (its opening quote): the offset of its closing quote, or the problem. A
 * backslash, a control byte, bytes that are not UTF-8, or no closing quote refuse it.
 */
function plainStringEnd(bytes: Uint8Array, start: number): number | string {
  if (bytes[start] !== 0x22) return "not a string";
  let at = start + 1;
  for (;;) {
    const byte = bytes[at];
    if (byte === undefined) return "the string is not closed";
    if (byte === 0x22) return at;
    if (byte === 0x5c) return "written with a backslash escape";
    if (byte < 0x20) return "holds a control byte";
    if (byte < 0x80) {
      at++;
      continue;
    }
    const length = utf8SequenceLength(bytes, at);
    if (length === 0) return "holds bytes that are not UTF-8";
    at += length;
  }
}

/** A string without escapes whose text (and byte length) passes `accept`. */
function readName(
  bytes: Uint8Array,
  start: number,
  field: TrustV2ReadField,
  accept: (text: string, length: number) => boolean,
  expected: string,
): FieldRead {
  const close = plainStringEnd(bytes, start);
  if (typeof close === "string") return invalid(field, `${close}; expected ${expected}`);
  const text = decodeUtf8(bytes, start + 1, close);
  return accept(text, close - start - 1) ? { end: close + 1, value: text } : invalid(field, `${JSON.stringify(text)} is not ${expected}`);
}

/** A string without escapes that is exactly one of `names` (compared as bytes, so no text is built). */
function readOneOf(bytes: Uint8Array, start: number, field: TrustV2ReadField, names: readonly string[], expected: string): FieldRead {
  if (bytes[start] === 0x22) {
    for (const name of names) {
      if (bytes[start + 1 + name.length] === 0x22 && bytesAre(bytes, start + 1, name)) return { end: start + name.length + 2, value: name };
    }
  }
  return readName(bytes, start, field, () => false, expected);
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** Whether a byte can belong to a number or literal token (what the on-chain reader reads as one run). */
function isTokenByte(byte: number | undefined): boolean {
  if (byte === undefined) return false;
  return (
    isDigit(byte) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2e || byte === 0x2b || byte === 0x2d
  );
}

/**
 * Plain decimal digits from `from` to `to`: the value, or why they are not plain (none, a leading zero, a byte
 * that is not a digit). Up to 15 digits a double holds the value exactly; longer runs are read as a bigint.
 */
function plainDigits(bytes: Uint8Array, from: number, to: number): bigint | string {
  if (to === from) return "no digits";
  let small = 0;
  for (let i = from; i < to; i++) {
    const byte = bytes[i];
    if (!isDigit(byte)) return "not plain decimal digits (a sign, fraction or exponent)";
    small = small * 10 + byte! - 0x30;
  }
  if (bytes[from] === 0x30 && to - from > 1) return "a leading zero";
  return to - from <= 15 ? BigInt(small) : BigInt(decodeUtf8(bytes, from, to));
}

/** The run of number or literal bytes at `start` (a number's whole token). */
function tokenEnd(bytes: Uint8Array, start: number): number {
  let at = start;
  while (isTokenByte(bytes[at])) at++;
  return at;
}

function readAgentId(bytes: Uint8Array, start: number, field: TrustV2ReadField): FieldRead {
  if (bytes[start] === 0x22) {
    const close = plainStringEnd(bytes, start);
    if (typeof close === "string") return invalid(field, `${close}; expected a decimal string`);
    const digits = plainDigits(bytes, start + 1, close);
    if (typeof digits === "string") return invalid(field, `a decimal string is expected (${digits})`);
    if (digits > MAX_UINT256) return invalid(field, "above 2^256 - 1");
    return { end: close + 1, value: digits };
  }
  const end = tokenEnd(bytes, start);
  const digits = plainDigits(bytes, start, end);
  if (typeof digits === "string") return invalid(field, `a decimal string or plain digits are expected (${digits})`);
  if (digits > MAX_SAFE_AGENT_ID)
    return invalid(field, "a number above 2^53 - 1, which JSON.parse cannot hold exactly; write it as a string");
  return { end, value: digits };
}

function readScore(bytes: Uint8Array, start: number, field: TrustV2ReadField): FieldRead {
  const end = tokenEnd(bytes, start);
  const digits = plainDigits(bytes, start, end);
  if (typeof digits === "string") return invalid(field, `an integer 0-${MAX_SCORE} written as plain digits is expected (${digits})`);
  if (digits > BigInt(MAX_SCORE)) return invalid(field, `${digits} is above ${MAX_SCORE}`);
  return { end, value: Number(digits) };
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && (isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

function readOwner(bytes: Uint8Array, start: number, field: TrustV2ReadField): FieldRead {
  if (bytesAre(bytes, start, "null")) return { end: start + 4, value: NULL };
  // Exactly `"0x` (or `"0X`), 40 hex digits and `"`.
  let ok =
    bytes[start] === 0x22 &&
    bytes[start + 1] === 0x30 &&
    (bytes[start + 2] === 0x78 || bytes[start + 2] === 0x58) &&
    bytes[start + 43] === 0x22;
  for (let i = start + 3; ok && i < start + 43; i++) ok = isHexDigit(bytes[i]);
  if (!ok) return invalid(field, 'expected null or "0x" and 40 hex digits');
  return { end: start + 44, value: decodeUtf8(bytes, start + 1, start + 43) };
}

/**
 * A signed time: a string without escapes holding an RFC 3339 date-time (`time.ts`, {@link signedTimeSeconds}: the
 * grammar both readers apply), read to the Unix second.
 */
function readTime(bytes: Uint8Array, start: number, field: TrustV2ReadField): FieldRead {
  if (bytes[start] !== 0x22) return invalid(field, `not a string; expected ${SIGNED_TIME_FORM}`);
  // The grammar's bytes hold no quote, so the first one closes the string (a backslash before it is refused below).
  let close = start + 1;
  while (close <= start + MAX_DATE_TIME_LENGTH + 1 && bytes[close] !== undefined && bytes[close] !== 0x22) close++;
  if (bytes[close] !== 0x22) return invalid(field, `expected ${SIGNED_TIME_FORM}`);
  const seconds = signedTimeSeconds(bytes, start + 1, close);
  if (typeof seconds === "string") return invalid(field, seconds);
  return { end: close + 1, value: seconds };
}
