/**
 * A strict reader of one JSON object given as bytes: the reader the kit uses wherever two parties (the
 * TypeScript verifier and the on-chain oracle, or the verifier and `JSON.parse`) must read the same signed
 * bytes alike — a JWS protected header, and the signed block of a trust-check v2 attestation.
 *
 * It accepts exactly RFC 8259 JSON whose top level is one object, and refuses:
 * - bytes that are not UTF-8: overlong forms, encoded surrogates (U+D800–DFFF), anything above U+10FFFF,
 *   truncated sequences (only strings may hold bytes above 0x7F; anywhere else they are not JSON);
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
 * `JSON.parse` rebuilt. A refusal names the `field` (`json` for the text's structure, the member's name for a
 * duplicate) and the byte `offset` where reading stopped; the reader never throws.
 *
 * @packageDocumentation
 */

/** Containers (objects, arrays) allowed inside a top-level member's value, counting the value itself. */
export const MAX_NESTED_DEPTH = 248;

/** What a JSON value's first byte makes it. */
export type JsonLexemeKind = "string" | "number" | "literal" | "object" | "array";

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
  /** What the value is. */
  readonly kind: JsonLexemeKind;
  /** For a string value: whether its lexeme holds a backslash escape. */
  readonly escaped: boolean;
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
  /** `json` for the structure of the text; the member's name for a duplicate member. */
  readonly field: string;
  /** Byte offset where reading stopped (for a duplicate, the opening quote of its second name). */
  readonly offset: number;
  /** What is wrong, in a few words. */
  readonly problem: string;
}

/** The object read: its top-level members in order, and the last of each name (the one `JSON.parse` keeps). */
export interface StrictObject {
  readonly ok: true;
  readonly members: readonly TopLevelMember[];
  readonly byName: ReadonlyMap<string, TopLevelMember>;
}

/**
 * A caller's own reading of a top-level member's value, from its first byte: the offset just past the value,
 * or what is wrong with it (reported under `field`, at the value's offset); `undefined` to let the reader scan
 * the value as any JSON value.
 */
export type MemberValueReader = (name: string, valueStart: number) => number | { readonly field: string; readonly problem: string } | undefined;

/** What a caller refuses beyond the JSON grammar. */
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
 * @param rules - Duplicate and escaped-name rules for top-level member names.
 * @returns The members, or the refusal with its field and offset.
 */
export function readStrictObject(bytes: Uint8Array, rules: StrictObjectRules = {}): StrictObject | StrictJsonRefusal {
  const reader = new Reader(bytes);
  try {
    return reader.readTopLevel(rules);
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/**
 * The text of a string lexeme without escapes (its bytes between the quotes, as UTF-8), or `undefined` when
 * the member's value is not a string, or is one written with an escape.
 *
 * @param bytes - The bytes read.
 * @param member - A member from {@link readStrictObject}.
 * @returns The string, or `undefined`.
 */
export function plainStringOf(bytes: Uint8Array, member: TopLevelMember): string | undefined {
  if (member.kind !== "string" || member.escaped) return undefined;
  return UTF8.decode(bytes.subarray(member.valueStart + 1, member.valueEnd - 1));
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
  if (member.valueEnd - member.valueStart !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[member.valueStart + i] !== text.charCodeAt(i)) return false;
  return true;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Thrown inside the reader only, and turned into a {@link StrictJsonRefusal} at its edge. */
class Refused extends Error {
  readonly refusal: StrictJsonRefusal;

  constructor(fault: StrictJsonFault, field: string, offset: number, problem: string) {
    super(problem);
    this.refusal = { ok: false, fault, field, offset, problem };
  }
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

/** The bytes an escape may name after its backslash (besides `u`): `" \ / b f n r t`. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && (isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

function isContinuation(byte: number | undefined, low = 0x80, high = 0xbf): boolean {
  return byte !== undefined && byte >= low && byte <= high;
}

class Reader {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  readTopLevel(rules: StrictObjectRules): StrictObject {
    const bytes = this.#bytes;
    let at = this.#skipWhitespace(0);
    if (bytes[at] !== OPEN_OBJECT) this.#fail(at, at < bytes.length ? "the text is not a JSON object" : "the text is empty");
    const members: TopLevelMember[] = [];
    const byName = new Map<string, TopLevelMember>();
    at = this.#skipWhitespace(at + 1);
    if (bytes[at] === CLOSE_OBJECT) {
      at++;
    } else {
      for (;;) {
        if (bytes[at] !== QUOTE) this.#fail(at, "a member name (a string) is expected");
        const nameOffset = at;
        const name = this.#scanString(at);
        if (name.escaped && rules.refuseEscapedNames === true) {
          this.#fail(nameOffset, "a top-level member name is written with a backslash escape");
        }
        const text = this.#decodeString(nameOffset, name.end, name.escaped);
        const unique = rules.uniqueNames === "all" || rules.uniqueNames?.has(text) === true;
        if (unique && byName.has(text)) throw new Refused("duplicate", text, nameOffset, `the member "${text}" appears twice`);
        at = this.#skipWhitespace(name.end);
        if (bytes[at] !== COLON) this.#fail(at, "a colon is expected after a member name");
        const valueStart = this.#skipWhitespace(at + 1);
        const value = this.#readMemberValue(text, valueStart, rules.readValue);
        const member: TopLevelMember = { name: text, nameOffset, valueStart, valueEnd: value.end, kind: value.kind, escaped: value.escaped };
        members.push(member);
        byName.set(text, member);
        at = this.#skipWhitespace(value.end);
        if (bytes[at] === COMMA) {
          at = this.#skipWhitespace(at + 1);
          continue;
        }
        if (bytes[at] !== CLOSE_OBJECT) this.#fail(at, "a comma or the end of the object is expected");
        at++;
        break;
      }
    }
    at = this.#skipWhitespace(at);
    if (at !== bytes.length) this.#fail(at, "something follows the object");
    return { ok: true, members, byName };
  }

  /** A top-level member's value: read by the caller's reader when it takes it, else scanned as any value. */
  #readMemberValue(name: string, valueStart: number, readValue: MemberValueReader | undefined): { kind: JsonLexemeKind; end: number; escaped: boolean } {
    const read = readValue?.(name, valueStart);
    if (read === undefined) return this.#scanValue(valueStart);
    if (typeof read !== "number") throw new Refused("invalid", read.field, valueStart, read.problem);
    const first = this.#bytes[valueStart];
    const kind: JsonLexemeKind =
      first === QUOTE ? "string" : first === OPEN_OBJECT ? "object" : first === OPEN_ARRAY ? "array" : first === MINUS || isDigit(first) ? "number" : "literal";
    let escaped = false;
    if (kind === "string") for (let i = valueStart + 1; i < read - 1 && !escaped; i++) escaped = this.#bytes[i] === BACKSLASH;
    return { kind, end: read, escaped };
  }

  #fail(offset: number, problem: string, fault: StrictJsonFault = "malformed"): never {
    throw new Refused(fault, "json", offset, offset >= this.#bytes.length ? `${problem} (the text ends at ${this.#bytes.length})` : problem);
  }

  #skipWhitespace(at: number): number {
    while (isWhitespace(this.#bytes[at])) at++;
    return at;
  }

  /** One value at `at` (not whitespace), containers included: its kind and the offset just past it. */
  #scanValue(at: number): { kind: JsonLexemeKind; end: number; escaped: boolean } {
    const byte = this.#bytes[at];
    if (byte === QUOTE) {
      const scanned = this.#scanString(at);
      return { kind: "string", end: scanned.end, escaped: scanned.escaped };
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) return { kind: byte === OPEN_OBJECT ? "object" : "array", end: this.#scanContainer(at), escaped: false };
    if (byte === MINUS || isDigit(byte)) return { kind: "number", end: this.#scanNumber(at), escaped: false };
    for (const literal of LITERALS) {
      if (this.#startsWith(at, literal)) return { kind: "literal", end: at + literal.length, escaped: false };
    }
    return this.#fail(at, "a JSON value is expected");
  }

  #startsWith(at: number, text: string): boolean {
    for (let i = 0; i < text.length; i++) if (this.#bytes[at + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /**
   * A container at `start` and everything in it, without recursion: a stack of the open containers (`true` for
   * an object), at most {@link MAX_NESTED_DEPTH} deep.
   */
  #scanContainer(start: number): number {
    const bytes = this.#bytes;
    const open: boolean[] = [];
    let at = start;
    // What the next token must be: a value, a member name, either of them or the close of an empty container,
    // or what follows a value (a comma or a close).
    let expect: "value" | "value-or-close" | "name" | "name-or-close" | "after-value" = "value";
    // Closes the innermost container; `true` when that was the outermost one.
    const close = (): boolean => {
      open.pop();
      at++;
      expect = "after-value";
      return open.length === 0;
    };
    for (;;) {
      at = this.#skipWhitespace(at);
      const byte = bytes[at];
      if (expect === "after-value") {
        const inObject = open[open.length - 1]!;
        if (byte === COMMA) {
          at++;
          expect = inObject ? "name" : "value";
        } else if (byte === (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          if (close()) return at;
        } else {
          this.#fail(at, `a comma or ${inObject ? "}" : "]"} is expected`);
        }
        continue;
      }
      if ((expect === "name-or-close" && byte === CLOSE_OBJECT) || (expect === "value-or-close" && byte === CLOSE_ARRAY)) {
        if (close()) return at;
        continue;
      }
      if (expect === "name" || expect === "name-or-close") {
        if (byte !== QUOTE) this.#fail(at, "a member name (a string) is expected");
        at = this.#skipWhitespace(this.#scanString(at).end);
        if (bytes[at] !== COLON) this.#fail(at, "a colon is expected after a member name");
        at++;
        expect = "value";
        continue;
      }
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (open.length >= MAX_NESTED_DEPTH) this.#fail(at, `values are nested more than ${MAX_NESTED_DEPTH} levels deep`, "too-deep");
        open.push(byte === OPEN_OBJECT);
        at++;
        expect = byte === OPEN_OBJECT ? "name-or-close" : "value-or-close";
        continue;
      }
      at = this.#scanValue(at).end;
      expect = "after-value";
    }
  }

  /** A string at `at` (its opening quote): the offset past its closing quote, and whether it holds an escape. */
  #scanString(start: number): { end: number; escaped: boolean } {
    const bytes = this.#bytes;
    let at = start + 1;
    let escaped = false;
    for (;;) {
      const byte = bytes[at];
      if (byte === undefined) this.#fail(at, "a string is not closed");
      if (byte === QUOTE) return { end: at + 1, escaped };
      if (byte < 0x20) this.#fail(at, "a string holds a control byte (below 0x20) that is not escaped");
      if (byte === BACKSLASH) {
        escaped = true;
        const next = bytes[at + 1];
        if (next === 0x75 /* u */) {
          for (let i = 2; i < 6; i++) if (!isHexDigit(bytes[at + i])) this.#fail(at, "a \\u escape is not followed by 4 hex digits");
          at += 6;
        } else {
          if (next === undefined || !SIMPLE_ESCAPES.has(next)) this.#fail(at, "a string holds an escape JSON does not have");
          at += 2;
        }
        continue;
      }
      at = byte < 0x80 ? at + 1 : this.#scanUtf8(at);
    }
  }

  /** One multi-byte UTF-8 sequence at `at`: the offset past it. */
  #scanUtf8(at: number): number {
    const length = utf8SequenceLength(this.#bytes, at);
    if (length === 0) this.#fail(at, "the bytes are not valid UTF-8 (overlong, surrogate, above U+10FFFF or truncated)");
    return at + length;
  }

  /** A number at `at`, by RFC 8259's grammar: the offset past it. */
  #scanNumber(start: number): number {
    const bytes = this.#bytes;
    let at = start;
    if (bytes[at] === MINUS) at++;
    if (bytes[at] === ZERO) {
      at++;
    } else if (isDigit(bytes[at])) {
      while (isDigit(bytes[at])) at++;
    } else {
      this.#fail(at, "a number has no digits");
    }
    if (bytes[at] === 0x2e /* . */) {
      at++;
      if (!isDigit(bytes[at])) this.#fail(at, "a number's fraction has no digits");
      while (isDigit(bytes[at])) at++;
    }
    if (bytes[at] === 0x65 || bytes[at] === 0x45 /* e E */) {
      at++;
      if (bytes[at] === 0x2b || bytes[at] === MINUS) at++;
      if (!isDigit(bytes[at])) this.#fail(at, "a number's exponent has no digits");
      while (isDigit(bytes[at])) at++;
    }
    return at;
  }

  /** A member name's text (its bytes are already checked). */
  #decodeString(start: number, end: number, escaped: boolean): string {
    const inner = this.#bytes.subarray(start, end);
    return escaped ? (JSON.parse(UTF8.decode(inner)) as string) : UTF8.decode(inner.subarray(1, inner.length - 1));
  }
}

const LITERALS = ["true", "false", "null"] as const;

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
  if (lead >= 0xc2 && lead <= 0xdf) return isContinuation(bytes[at + 1]) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0: no overlong (second byte A0–BF); ED: no surrogate (second byte 80–9F).
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return isContinuation(bytes[at + 1], low, high) && isContinuation(bytes[at + 2]) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0: no overlong (second byte 90–BF); F4: nothing above U+10FFFF (second byte 80–8F).
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return isContinuation(bytes[at + 1], low, high) && isContinuation(bytes[at + 2]) && isContinuation(bytes[at + 3]) ? 4 : 0;
  }
  return 0;
}
