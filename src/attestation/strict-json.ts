/**
 * A strict reader of one JSON object given as bytes: the reader the kit uses wherever two parties (the
 * TypeScript verifier and the on-chain oracle, or the verifier and `JSON.parse`) must read the same signed
 * bytes alike — a JWS protected header, and the signed block of a trust-check v2 attestation.
 *
 * It accepts exactly RFC 8259 JSON whose top level is one object, and refuses:
 * - bytes that are not UTF-8: overlong forms, encoded surrogates (U+D800–DFFF), anything above U+10FFFF,
 *   truncated sequences (only strings may hold bytes above 0x7F; anywhere else they are not JSON); a byte-order
 *   mark before the object is not JSON either, and one inside a string is a character of it, kept as written;
 * - whitespace other than space, tab, line feed and carriage return, and anything after the object;
 * - strings holding a raw byte below 0x20, or an escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`;
 * - numbers outside `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`, and literals other than `true`, `false`, `null`;
 * - containers nested more than {@link MAX_NESTED_DEPTH} levels inside a top-level member's value (the on-chain
 *   reader's bracket stack holds that many);
 * - as the caller's rules ask: a top-level member name written with a backslash escape (an escaped name could
 *   decode to a field name that one reader sees and another skips), and a top-level member name appearing
 *   twice.
 *
 * Every value is validated, also the ones no one reads. The reader hands back the top-level members with the
 * byte range of each value (its raw lexeme), so that a caller decides on the bytes as written, not on a value
 * `JSON.parse` rebuilt; a caller may also read the values of the members it decides on itself
 * ({@link MemberValueReader}). A refusal names the `field` (`json` for the text's structure, the member's name
 * for a duplicate or a value the caller refused) and the byte `offset` where reading stopped; the reader never
 * throws.
 *
 * Which refusal, when there are several: a fault of the text (not JSON, too deep, an escaped top-level name) at
 * once; a duplicate name or a value the caller refuses only once the whole text is known to be JSON, the first in
 * document order. The on-chain reader orders them the same way, so that a text both malformed and wrong in a
 * field is refused as malformed by both, as `JSON.parse` would refuse it.
 *
 * @packageDocumentation
 */

/** Containers (objects, arrays) allowed inside a top-level member's value, counting the value itself. */
export const MAX_NESTED_DEPTH = 248;

/** A top-level member of the object read, with the byte range of its value. */
export interface TopLevelMember {
  /** The member's name (decoded; when escaped names are allowed, escapes are decoded as JSON does). */
  readonly name: string;
  /** Offset of the name's opening quote. */
  readonly nameOffset: number;
  /** Offset of the value's first byte. */
  readonly valueStart: number;
  /** Offset just past the value's last byte: the raw lexeme is `bytes.subarray(valueStart, valueEnd)`. */
  readonly valueEnd: number;
  /** What the caller's {@link MemberValueReader} read from the value, when it read it. */
  readonly read?: unknown;
}

/**
 * What kind of fault a refusal is, as the on-chain reader's errors tell them apart: the text is not JSON
 * (`malformed`), a value is nested too deep (`too-deep`), a member appears twice (`duplicate`), a caller's
 * reader refused a member's value (`invalid`).
 */
export type StrictJsonFault = "malformed" | "too-deep" | "duplicate" | "invalid";

/** A refusal: where reading stopped and why. */
export interface StrictJsonRefusal {
  readonly ok: false;
  /** What kind of fault. */
  readonly fault: StrictJsonFault;
  /** `json` for the structure of the text; the member's name for a duplicate member or a refused value. */
  readonly field: string;
  /** Byte offset where reading stopped (for a duplicate, the opening quote of its second name). */
  readonly offset: number;
  /** What is wrong, in a few words. */
  readonly problem: string;
}

/** The object read: its top-level members in order. */
export interface StrictObject {
  readonly ok: true;
  readonly members: readonly TopLevelMember[];
}

/**
 * A caller's own reading of a top-level member's value, from its first byte: the offset just past the value
 * and what it read, or what is wrong with it (an `invalid` fault of `field`, at the value's offset, reported
 * once the text is known to be JSON: the value is then scanned as any JSON value); `undefined` to let the
 * reader scan the value as any JSON value. It must not throw.
 */
export type MemberValueReader = (
  name: string,
  bytes: Uint8Array,
  valueStart: number,
  state: unknown,
) => { readonly end: number; readonly value: unknown } | { readonly field: string; readonly problem: string } | undefined;

/** What a caller refuses beyond the JSON grammar, and the values it reads itself. */
export interface StrictObjectRules {
  /** Top-level names that may appear only once: every name (`"all"`), or the given ones. Default none. */
  readonly uniqueNames?: "all" | ReadonlySet<string>;
  /** Refuse a top-level member name written with a backslash escape. Default `false`. */
  readonly refuseEscapedNames?: boolean;
  /**
   * Reads the values of the members the caller decides on, in place of the generic scan, so that a fault
   * inside such a value is that member's (as the on-chain reader reports it), not the text's.
   */
  readonly readValue?: MemberValueReader;
}

/**
 * Reads one JSON object from bytes, strictly (see the module notes).
 *
 * @param bytes - The exact bytes (a JWS header or payload, signed bytes).
 * @param rules - Duplicate and escaped-name rules for top-level member names, and the caller's value readers.
 * @param state - Handed to `rules.readValue` with each value (where a reader keeps what it read).
 * @returns The members, or the refusal with its field and offset.
 */
export function readStrictObject(bytes: Uint8Array, rules: StrictObjectRules = {}, state?: unknown): StrictObject | StrictJsonRefusal {
  try {
    return readTopLevel(bytes, rules, state);
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/**
 * The last top-level member of a name (the one `JSON.parse` keeps), or `undefined`.
 *
 * @param object - An object read by {@link readStrictObject}.
 * @param name - The member's name.
 * @returns The member.
 */
export function memberNamed(object: StrictObject, name: string): TopLevelMember | undefined {
  for (let i = object.members.length - 1; i >= 0; i--) if (object.members[i]!.name === name) return object.members[i];
  return undefined;
}

/**
 * The text of a member's string value written without escapes, or `undefined` when the value is not a string,
 * or is one written with an escape.
 *
 * @param bytes - The bytes read.
 * @param member - A member from {@link readStrictObject}.
 * @returns The string, or `undefined`.
 */
export function plainStringOf(bytes: Uint8Array, member: TopLevelMember): string | undefined {
  if (bytes[member.valueStart] !== QUOTE) return undefined;
  for (let i = member.valueStart + 1; i < member.valueEnd - 1; i++) if (bytes[i] === BACKSLASH) return undefined;
  return decodeUtf8(bytes, member.valueStart + 1, member.valueEnd - 1);
}

/**
 * Whether a member's raw lexeme is exactly the given ASCII text (e.g. `"ES256"` with its quotes, or `null`).
 *
 * @param bytes - The bytes read.
 * @param member - A member from {@link readStrictObject}.
 * @param text - The lexeme expected.
 * @returns `true` when the bytes are exactly that text.
 */
export function lexemeIs(bytes: Uint8Array, member: TopLevelMember, text: string): boolean {
  return member.valueEnd - member.valueStart === text.length && bytesAre(bytes, member.valueStart, text);
}

/**
 * Whether the bytes at `at` are the given ASCII text.
 *
 * @param bytes - Any bytes.
 * @param at - Where to compare.
 * @param text - ASCII text.
 * @returns `true` when they are.
 */
export function bytesAre(bytes: Uint8Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * Fatal, and keeping a leading U+FEFF: a decoder that dropped it (the default) would read a name or a string that
 * starts with a byte-order mark as the same text without it, where the on-chain reader compares the bytes.
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** A decoder of one character per byte (identical to ASCII below 0x80), for slicing ASCII names out of a text. */
const SINGLE_BYTE = new TextDecoder("latin1");

/**
 * The text of bytes already checked to be UTF-8, from `from` to `to`: short ASCII (member names, the service's
 * values) is built directly, which costs a small fraction of a `TextDecoder` call.
 *
 * @param bytes - The bytes.
 * @param from - First offset.
 * @param to - Offset past the last byte.
 * @returns The text.
 */
export function decodeUtf8(bytes: Uint8Array, from: number, to: number): string {
  if (to - from > 64) return UTF8.decode(bytes.subarray(from, to));
  let text = "";
  for (let i = from; i < to; i++) {
    const byte = bytes[i]!;
    if (byte >= 0x80) return UTF8.decode(bytes.subarray(from, to));
    text += String.fromCharCode(byte);
  }
  return text;
}

/**
 * The length of the well-formed UTF-8 sequence at `at` (Unicode's table of well-formed byte sequences: no
 * overlong form, no encoded surrogate, nothing above U+10FFFF), or 0 when the bytes there are not one.
 *
 * @param bytes - Any bytes.
 * @param at - Offset of the sequence's first byte.
 * @returns 1 to 4, or 0.
 */
export function utf8SequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at];
  if (lead === undefined) return 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return isContinuation(bytes[at + 1], 0x80, 0xbf) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0: no overlong (second byte A0–BF); ED: no surrogate (second byte 80–9F).
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return isContinuation(bytes[at + 1], low, high) && isContinuation(bytes[at + 2], 0x80, 0xbf) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0: no overlong (second byte 90–BF); F4: nothing above U+10FFFF (second byte 80–8F).
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return isContinuation(bytes[at + 1], low, high) &&
      isContinuation(bytes[at + 2], 0x80, 0xbf) &&
      isContinuation(bytes[at + 3], 0x80, 0xbf)
      ? 4
      : 0;
  }
  return 0;
}

/** Thrown inside the reader only, and turned into a {@link StrictJsonRefusal} at its edge. */
class Refused extends Error {
  readonly refusal: StrictJsonRefusal;

  constructor(fault: StrictJsonFault, field: string, offset: number, problem: string) {
    super(problem);
    this.refusal = { ok: false, fault, field, offset, problem };
  }
}

function fail(bytes: Uint8Array, offset: number, problem: string, fault: StrictJsonFault = "malformed"): never {
  throw new Refused(fault, "json", offset, offset >= bytes.length ? `${problem} (the text ends at ${bytes.length})` : problem);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

function isContinuation(byte: number | undefined, low: number, high: number): boolean {
  return byte !== undefined && byte >= low && byte <= high;
}

/**
 * The offset of the first byte at or after `at` that is not JSON whitespace (space, tab, line feed, carriage
 * return).
 *
 * @param bytes - Any bytes.
 * @param at - Where to start.
 * @returns The offset (the length of the bytes when only whitespace is left).
 */
export function skipWhitespace(bytes: Uint8Array, at: number): number {
  for (;;) {
    const byte = bytes[at];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return at;
    at++;
  }
}

function readTopLevel(bytes: Uint8Array, rules: StrictObjectRules, state: unknown): StrictObject {
  let at = skipWhitespace(bytes, 0);
  if (bytes[at] !== OPEN_OBJECT) fail(bytes, at, at < bytes.length ? "the text is not a JSON object" : "the text is empty");
  const members: TopLevelMember[] = [];
  const uniqueNames = rules.uniqueNames;
  // The unique names seen so far (only those can be duplicates).
  const seen = new Set<string>();
  // The text with one character per byte, decoded at the first ASCII name.
  let text: string | undefined;
  // The first duplicate or refused value, reported once the text is known to be JSON.
  let fieldFault: Refused | undefined;
  at = skipWhitespace(bytes, at + 1);
  if (bytes[at] === CLOSE_OBJECT) {
    at++;
  } else {
    for (;;) {
      if (bytes[at] !== QUOTE) fail(bytes, at, "a member name (a string) is expected");
      const nameOffset = at;
      const nameEnd = scanString(bytes, at);
      let escaped = false;
      let ascii = true;
      for (let i = nameOffset + 1; i < nameEnd - 1; i++) {
        const byte = bytes[i]!;
        if (byte === BACKSLASH) escaped = true;
        else if (byte >= 0x80) ascii = false;
      }
      if (escaped && rules.refuseEscapedNames === true)
        fail(bytes, nameOffset, "a top-level member name is written with a backslash escape");
      let name: string;
      if (escaped) {
        name = JSON.parse(decodeUtf8(bytes, nameOffset, nameEnd)) as string;
      } else if (ascii) {
        // One decoding of the whole text serves every ASCII name: a byte is a character there.
        text ??= SINGLE_BYTE.decode(bytes);
        name = text.slice(nameOffset + 1, nameEnd - 1);
      } else {
        name = decodeUtf8(bytes, nameOffset + 1, nameEnd - 1);
      }
      let duplicate = false;
      if (uniqueNames === "all" || uniqueNames?.has(name) === true) {
        duplicate = seen.has(name);
        if (duplicate) fieldFault ??= new Refused("duplicate", name, nameOffset, `the member "${name}" appears twice`);
        else seen.add(name);
      }
      at = skipWhitespace(bytes, nameEnd);
      if (bytes[at] !== COLON) fail(bytes, at, "a colon is expected after a member name");
      const valueStart = skipWhitespace(bytes, at + 1);
      // A duplicate's value is only validated: the first of its name is the one read.
      const read = duplicate ? undefined : rules.readValue?.(name, bytes, valueStart, state);
      let member: TopLevelMember;
      if (read === undefined) {
        member = { name, nameOffset, valueStart, valueEnd: scanValue(bytes, valueStart) };
      } else if ("end" in read) {
        member = { name, nameOffset, valueStart, valueEnd: read.end, read: read.value };
      } else {
        fieldFault ??= new Refused("invalid", read.field, valueStart, read.problem);
        member = { name, nameOffset, valueStart, valueEnd: scanValue(bytes, valueStart) };
      }
      members.push(member);
      at = skipWhitespace(bytes, member.valueEnd);
      if (bytes[at] === COMMA) {
        at = skipWhitespace(bytes, at + 1);
        continue;
      }
      if (bytes[at] !== CLOSE_OBJECT) fail(bytes, at, "a comma or the end of the object is expected");
      at++;
      break;
    }
  }
  at = skipWhitespace(bytes, at);
  if (at !== bytes.length) fail(bytes, at, "something follows the object");
  if (fieldFault !== undefined) throw fieldFault;
  return { ok: true, members };
}

/** One value at `at` (not whitespace), containers included: the offset just past it. */
function scanValue(bytes: Uint8Array, at: number): number {
  const byte = bytes[at];
  if (byte === QUOTE) return scanString(bytes, at);
  if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) return scanContainer(bytes, at);
  if (byte === MINUS || isDigit(byte)) return scanNumber(bytes, at);
  if (byte === 0x74 && bytesAre(bytes, at, "true")) return at + 4;
  if (byte === 0x66 && bytesAre(bytes, at, "false")) return at + 5;
  if (byte === 0x6e && bytesAre(bytes, at, "null")) return at + 4;
  return fail(bytes, at, "a JSON value is expected");
}

/** What the next token of a container must be. */
const enum Expect {
  /** A value. */
  Value,
  /** A value, or the close of an empty array. */
  ValueOrClose,
  /** A member name. */
  Name,
  /** A member name, or the close of an empty object. */
  NameOrClose,
  /** A comma or the close of the container (after a value). */
  AfterValue,
}

/**
 * A container at `start` and everything in it, without recursion: a stack of the open containers (`true` for an
 * object), at most {@link MAX_NESTED_DEPTH} deep.
 */
function scanContainer(bytes: Uint8Array, start: number): number {
  const open: boolean[] = [];
  let at = start;
  let expect = Expect.Value;
  for (;;) {
    at = skipWhitespace(bytes, at);
    const byte = bytes[at];
    if (expect === Expect.AfterValue) {
      const inObject = open[open.length - 1]!;
      if (byte === COMMA) {
        at++;
        expect = inObject ? Expect.Name : Expect.Value;
        continue;
      }
      if (byte !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) fail(bytes, at, `a comma or ${inObject ? "}" : "]"} is expected`);
      open.pop();
      at++;
      if (open.length === 0) return at;
      continue;
    }
    if ((expect === Expect.NameOrClose && byte === CLOSE_OBJECT) || (expect === Expect.ValueOrClose && byte === CLOSE_ARRAY)) {
      open.pop();
      at++;
      if (open.length === 0) return at;
      expect = Expect.AfterValue;
      continue;
    }
    if (expect === Expect.Name || expect === Expect.NameOrClose) {
      if (byte !== QUOTE) fail(bytes, at, "a member name (a string) is expected");
      at = skipWhitespace(bytes, scanString(bytes, at));
      if (bytes[at] !== COLON) fail(bytes, at, "a colon is expected after a member name");
      at++;
      expect = Expect.Value;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (open.length >= MAX_NESTED_DEPTH) fail(bytes, at, `values are nested more than ${MAX_NESTED_DEPTH} levels deep`, "too-deep");
      open.push(byte === OPEN_OBJECT);
      at++;
      expect = byte === OPEN_OBJECT ? Expect.NameOrClose : Expect.ValueOrClose;
      continue;
    }
    at = scanValue(bytes, at);
    expect = Expect.AfterValue;
  }
}

/**
 * A string at `start` (its opening quote), checked: the offset past its closing quote.
 *
 * @param bytes - Any bytes.
 * @param start - Offset of the opening quote.
 * @returns The offset past the closing quote.
 */
function scanString(bytes: Uint8Array, start: number): number {
  let at = start + 1;
  for (;;) {
    const byte = bytes[at];
    if (byte === undefined) return fail(bytes, at, "a string is not closed");
    if (byte === QUOTE) return at + 1;
    if (byte < 0x20) fail(bytes, at, "a string holds a control byte (below 0x20) that is not escaped");
    if (byte < 0x80 && byte !== BACKSLASH) {
      at++;
      continue;
    }
    if (byte === BACKSLASH) {
      const next = bytes[at + 1];
      if (next === 0x75 /* u */) {
        for (let i = 2; i < 6; i++) if (!isHexDigit(bytes[at + i])) fail(bytes, at, "a \\u escape is not followed by 4 hex digits");
        at += 6;
      } else if (
        next === 0x22 ||
        next === 0x5c ||
        next === 0x2f ||
        next === 0x62 ||
        next === 0x66 ||
        next === 0x6e ||
        next === 0x72 ||
        next === 0x74
      ) {
        at += 2;
      } else {
        fail(bytes, at, "a string holds an escape JSON does not have");
      }
      continue;
    }
    const length = utf8SequenceLength(bytes, at);
    if (length === 0) fail(bytes, at, "the bytes are not valid UTF-8 (overlong, surrogate, above U+10FFFF or truncated)");
    at += length;
  }
}

/** A number at `start`, by RFC 8259's grammar: the offset past it. */
function scanNumber(bytes: Uint8Array, start: number): number {
  let at = start;
  if (bytes[at] === MINUS) at++;
  if (bytes[at] === ZERO) {
    at++;
  } else if (isDigit(bytes[at])) {
    while (isDigit(bytes[at])) at++;
  } else {
    fail(bytes, at, "a number has no digits");
  }
  if (bytes[at] === 0x2e /* . */) {
    at++;
    if (!isDigit(bytes[at])) fail(bytes, at, "a number's fraction has no digits");
    while (isDigit(bytes[at])) at++;
  }
  if (bytes[at] === 0x65 || bytes[at] === 0x45 /* e E */) {
    at++;
    if (bytes[at] === 0x2b || bytes[at] === MINUS) at++;
    if (!isDigit(bytes[at])) fail(bytes, at, "a number's exponent has no digits");
    while (isDigit(bytes[at])) at++;
  }
  return at;
}
