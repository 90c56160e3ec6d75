/**
 * The strict JSON reader over bytes (`strict-json.ts`): every RFC 8259 object it must accept, and each refusal with
 * its fault, field and byte offset (the rules both verifiers apply to a JWS header and a trust-check v2 block).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  lexemeIs,
  MAX_NESTED_DEPTH,
  memberNamed,
  plainStringOf,
  readStrictObject,
  type StrictObjectRules,
  utf8SequenceLength,
} from "../../src/attestation/strict-json.js";

const utf8 = (text: string) => Buffer.from(text, "utf8");
const COLON_EXPECTED = "a colon is expected after a member name";
const read = (input: string | Uint8Array, rules?: StrictObjectRules) =>
  readStrictObject(typeof input === "string" ? utf8(input) : input, rules);

describe("readStrictObject accepts", () => {
  it.each([
    ["an empty object", "{}"],
    ["whitespace of the four kinds between tokens and around", ' \t\r\n{ "a" \n:\t1 ,\r"b": [ 1 , { } , [ ] ] } \n'],
    ["every escape JSON has", String.raw`{"s":"\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \ud800"}`],
    ["hex digits of both cases at each end of their ranges in \\u escapes", String.raw`{"s":"\u09AF \u0aFf \uFFFF \u0000"}`],
    ["numbers of every form", '{"a":[0,-0,1,-12,3.25,1e5,1E+5,2e-3,-0.5E10]}'],
    ["literals", '{"a":true,"b":false,"c":null}'],
    ["UTF-8 of every length, up to U+10FFFF", '{"s":"a é € 😀 \u{10FFFF}"}'],
    ["containers nested to the limit", `{"a":${"[".repeat(MAX_NESTED_DEPTH)}${"]".repeat(MAX_NESTED_DEPTH)}}`],
    ["a repeated name when it is not declared unique", '{"a":1,"a":2}'],
  ])("%s", (_name, text) => {
    expect(read(text)).toMatchObject({ ok: true });
  });

  it("hands back each top-level member with the byte range of its raw value, and the last of each name", () => {
    const text = '{ "a" : "x\\"y" , "b":{"c":[1,2]},"a":-1.5e3 }';
    const result = read(text);
    if (!result.ok) throw new Error(result.problem);
    expect(result.members.map((m) => [m.name, text.slice(m.valueStart, m.valueEnd)])).toEqual([
      ["a", '"x\\"y"'],
      ["b", '{"c":[1,2]}'],
      ["a", "-1.5e3"],
    ]);
    expect(result.members[0]!.nameOffset).toBe(2);
    const last = memberNamed(result, "a")!;
    expect(text.slice(last.valueStart, last.valueEnd)).toBe("-1.5e3");
    expect(memberNamed(result, "z")).toBeUndefined();
  });

  it("decodes member names that are not ASCII as UTF-8, and keeps a leading byte-order mark as a character of the name", () => {
    const text = '{"é":1,"名前":2,"😀":3,"\uFEFFa":4,"a":5,"é\uFEFF":6}';
    const result = read(text, { uniqueNames: "all" });
    if (!result.ok) throw new Error(result.problem);
    expect(result.members.map((m) => m.name)).toEqual(["é", "名前", "😀", "\uFEFFa", "a", "é\uFEFF"]);
    expect(result.members.map((m) => m.name)).toEqual(Object.keys(JSON.parse(text)));
    // A name of more than 64 bytes, and one whose bytes are all ASCII but the last.
    const long = `${"ü".repeat(40)}`;
    const names = read(`{"${long}":1,"abc\u00e9":2}`);
    expect(names.ok && names.members.map((m) => m.name)).toEqual([long, "abcé"]);
  });

  it("agrees with JSON.parse on which objects are JSON (over random JSON objects, written compact or spaced)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 2 : undefined);
        expect(read(text).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("readStrictObject refuses, naming where", () => {
  const VALUE = "a JSON value is expected";
  const NAME = "a member name (a string) is expected";
  const COLON = "a colon is expected after a member name";
  const AFTER_MEMBER = "a comma or the end of the object is expected";
  const HEX = "a \\u escape is not followed by 4 hex digits";
  const DIGITS = "a number has no digits";
  it.each([
    ["an empty text", "", "malformed", 0, "the text is empty (the text ends at 0)"],
    ["a text of whitespace only", " \n", "malformed", 2, "the text is empty (the text ends at 2)"],
    ["an array at the top", "[1]", "malformed", 0, "the text is not a JSON object"],
    ["a string at the top", '"a"', "malformed", 0, "the text is not a JSON object"],
    ["something after the object", '{"a":1} x', "malformed", 8, "something follows the object"],
    ["a second object", '{"a":1}{}', "malformed", 7, "something follows the object"],
    ["a byte-order mark", "\uFEFF{}", "malformed", 0, "the text is not a JSON object"],
    ["a vertical tab as whitespace", '{"a":\u000b1}', "malformed", 5, VALUE],
    ["a no-break space as whitespace", '{"a":\u00a01}', "malformed", 5, VALUE],
    ["an object that is only opened", "{", "malformed", 1, `${NAME} (the text ends at 1)`],
    ["a trailing comma in the object", '{"a":1,}', "malformed", 7, NAME],
    ["a trailing comma in an array", '{"a":[1,]}', "malformed", 8, VALUE],
    ["a missing colon", '{"a" 1}', "malformed", 5, COLON],
    ["a missing colon in a nested object", '{"a":{"b";1}}', "malformed", 9, COLON],
    ["a missing colon in a nested object, after a space", '{"a":{"b" 1}}', "malformed", 10, COLON],
    ["a missing comma in a nested object", '{"a":{"b":1 "c":2}}', "malformed", 12, "a comma or } is expected"],
    ["a missing comma in an array", '{"a":[1 2]}', "malformed", 8, "a comma or ] is expected"],
    ["a trailing comma in a nested object", '{"a":{"b":1,}}', "malformed", 12, NAME],
    ["a nested member without a value", '{"a":{"b":}}', "malformed", 10, VALUE],
    ["an array closed as an object", '{"a":[1}}', "malformed", 7, "a comma or ] is expected"],
    ["an object closed as an array", '{"a":{"b":1]}', "malformed", 11, "a comma or } is expected"],
    ["a name that is not a string", "{a:1}", "malformed", 1, NAME],
    ["a nested name that is not a string", '{"a":{b:1}}', "malformed", 6, NAME],
    ["a raw control byte in a string", '{"a":"x\u0001"}', "malformed", 7, "a string holds a control byte (below 0x20) that is not escaped"],
    ["a raw tab in a string", '{"a":"x\ty"}', "malformed", 7, "a string holds a control byte (below 0x20) that is not escaped"],
    ["an escape JSON does not have", '{"a":"\\x41"}', "malformed", 6, "a string holds an escape JSON does not have"],
    ["a short \\u escape", '{"a":"\\u12g4"}', "malformed", 6, HEX],
    // The bytes just outside each range of hex digits: / : @ G ` g.
    ...["/", ":", "@", "G", "`", "g"].map((outside): [string, string, string, number, string] => [
      `a \\u escape holding ${outside}`,
      `{"a":"\\u00${outside}0"}`,
      "malformed",
      6,
      HEX,
    ]),
    ["an unclosed string", '{"a":"abc', "malformed", 9, "a string is not closed (the text ends at 9)"],
    ["a leading zero", '{"a":01}', "malformed", 6, AFTER_MEMBER],
    ["a leading plus", '{"a":+1}', "malformed", 5, VALUE],
    ["a minus without digits", '{"a":-}', "malformed", 6, DIGITS],
    ["a minus without digits, in an array", '{"a":[-]}', "malformed", 7, DIGITS],
    ["a minus before a letter", '{"a":-x}', "malformed", 6, DIGITS],
    ["two minus signs", '{"a":--1}', "malformed", 6, DIGITS],
    ["a bare fraction point", '{"a":1.}', "malformed", 7, "a number's fraction has no digits"],
    ["a fraction without a leading digit", '{"a":.5}', "malformed", 5, VALUE],
    ["an exponent without digits", '{"a":1e}', "malformed", 7, "a number's exponent has no digits"],
    ["a hexadecimal number", '{"a":0x10}', "malformed", 6, AFTER_MEMBER],
    ["NaN", '{"a":NaN}', "malformed", 5, VALUE],
    ["a literal in capitals", '{"a":True}', "malformed", 5, VALUE],
    ["a truncated literal", '{"a":nul}', "malformed", 5, VALUE],
    ["true misspelt", '{"a":trux}', "malformed", 5, VALUE],
    ["false misspelt", '{"a":falsy}', "malformed", 5, VALUE],
    ["null misspelt", '{"a":nulL}', "malformed", 5, VALUE],
    ["an unclosed object", '{"a":1', "malformed", 6, `${AFTER_MEMBER} (the text ends at 6)`],
    ["an unclosed nested array", '{"a":[1,2}', "malformed", 9, "a comma or ] is expected"],
  ])("%s", (_name, text, fault, offset, problem) => {
    expect(read(text)).toEqual({ ok: false, fault, field: "json", offset, problem });
  });

  it.each([
    ["an overlong encoding of /", [0xc0, 0xaf], 7],
    ["an overlong 3-byte form", [0xe0, 0x80, 0xaf], 7],
    ["a surrogate encoded in UTF-8", [0xed, 0xa0, 0x80], 7],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 7],
    ["a lone continuation byte", [0x80], 7],
    ["a truncated sequence", [0xe2, 0x82], 7],
    ["an invalid lead byte", [0xff], 7],
  ])("bytes that are not UTF-8: %s", (_name, bad, offset) => {
    const bytes = Buffer.concat([utf8('{"a":"x'), Buffer.from(bad), utf8('"}')]);
    expect(read(bytes)).toEqual({
      ok: false,
      fault: "malformed",
      field: "json",
      offset,
      problem: "the bytes are not valid UTF-8 (overlong, surrogate, above U+10FFFF or truncated)",
    });
  });

  it("a byte above 0x7F outside a string", () => {
    expect(read(Buffer.concat([utf8('{"a":1'), Buffer.from([0xc3, 0xa9]), utf8("}")]))).toMatchObject({ ok: false, offset: 6 });
  });

  it("containers nested deeper than the limit, inside a member's value", () => {
    const deep = `{"a":${"[".repeat(MAX_NESTED_DEPTH + 1)}${"]".repeat(MAX_NESTED_DEPTH + 1)}}`;
    expect(read(deep)).toEqual({
      ok: false,
      fault: "too-deep",
      field: "json",
      offset: 5 + MAX_NESTED_DEPTH,
      problem: `values are nested more than ${MAX_NESTED_DEPTH} levels deep`,
    });
    const objects = `{"a":${'{"b":'.repeat(MAX_NESTED_DEPTH + 1)}1${"}".repeat(MAX_NESTED_DEPTH + 1)}}`;
    expect(read(objects)).toMatchObject({ ok: false, fault: "too-deep" });
  });

  it("a top-level name written with an escape, when the rules say so (a nested one is fine)", () => {
    const escaped = '{"sc\\u006fre":1}';
    expect(read(escaped)).toMatchObject({ ok: true });
    expect(read(escaped, { refuseEscapedNames: true })).toEqual({
      ok: false,
      fault: "malformed",
      field: "json",
      offset: 1,
      problem: "a top-level member name is written with a backslash escape",
    });
    // A backslash just after a name's closing quote is a missing colon, not an escaped name.
    expect(read('{"a"\\:1}', { refuseEscapedNames: true })).toMatchObject({ ok: false, offset: 4, problem: COLON_EXPECTED });
    expect(read('{"a":{"sc\\u006fre":1}}', { refuseEscapedNames: true })).toMatchObject({ ok: true });
    // Allowed, the name is decoded as JSON.parse decodes it.
    const allowed = read(escaped);
    expect(allowed.ok && allowed.members[0]!.name).toBe("score");
  });

  it("a unique name twice, at the second name's offset; other names may repeat", () => {
    const text = '{"score":1,"x":1,"x":2,"score":2}';
    expect(read(text, { uniqueNames: new Set(["score"]) })).toEqual({
      ok: false,
      fault: "duplicate",
      field: "score",
      offset: text.lastIndexOf('"score"'),
      problem: 'the member "score" appears twice',
    });
    expect(read(text, { uniqueNames: "all" })).toMatchObject({ ok: false, fault: "duplicate", field: "x", offset: 17 });
    expect(read('{"a":{"b":1,"b":2}}', { uniqueNames: "all" })).toMatchObject({ ok: true });
  });

  it("a value the caller's reader refuses, as that member's invalid value", () => {
    const rules: StrictObjectRules = {
      readValue: (name, bytes, start) =>
        name === "n" ? (bytes[start] === 0x31 ? { end: start + 1, value: 1 } : { field: "n", problem: "not 1" }) : undefined,
    };
    const ok = read('{"n":1,"m":[2]}', rules);
    expect(ok.ok && ok.members.map((m) => m.read)).toEqual([1, undefined]);
    expect(read('{"m":1, "n":2}', rules)).toMatchObject({ ok: false, fault: "invalid", field: "n", offset: 12, problem: "not 1" });
  });

  it("lets an error thrown by the caller's reader through (a reader must not throw: that is its bug, not a refusal)", () => {
    const failing = new Error("reader bug");
    expect(() =>
      read('{"n":1}', {
        readValue: () => {
          throw failing;
        },
      }),
    ).toThrow(failing);
  });

  it("never throws, whatever the bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, wrapped) => {
        const input = wrapped ? Buffer.concat([utf8('{"a":'), bytes, utf8("}")]) : bytes;
        const result = read(input, { uniqueNames: "all", refuseEscapedNames: true });
        if (!result.ok) expect(result.offset).toBeGreaterThanOrEqual(0);
        // Whatever it accepts, JSON.parse accepts too (over valid UTF-8).
        if (result.ok) expect(() => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(input))).not.toThrow();
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("the readers of a member's raw value", () => {
  const object = (text: string) => {
    const result = read(text);
    if (!result.ok) throw new Error(result.problem);
    return { bytes: utf8(text), member: (name: string) => memberNamed(result, name)! };
  };

  it("lexemeIs: the whole lexeme is the text, not only its start", () => {
    const { bytes, member } = object('{"n":12,"s":"ES256","t":"ES2567","l":null}');
    expect(lexemeIs(bytes, member("n"), "12")).toBe(true);
    expect(lexemeIs(bytes, member("n"), "1")).toBe(false);
    expect(lexemeIs(bytes, member("n"), "123")).toBe(false);
    expect(lexemeIs(bytes, member("s"), '"ES256"')).toBe(true);
    expect(lexemeIs(bytes, member("t"), '"ES256"')).toBe(false);
    expect(lexemeIs(bytes, member("l"), "null")).toBe(true);
  });

  it("plainStringOf: a string written without escapes, as its bytes are (a byte-order mark kept); undefined otherwise", () => {
    const { bytes, member } = object('{"a":"plain","b":"x\\ny","c":"\\u0041","d":1,"e":"\uFEFFkid","f":"é€😀","g":""}');
    expect(plainStringOf(bytes, member("a"))).toBe("plain");
    expect(plainStringOf(bytes, member("b"))).toBeUndefined();
    expect(plainStringOf(bytes, member("c"))).toBeUndefined();
    expect(plainStringOf(bytes, member("d"))).toBeUndefined();
    expect(plainStringOf(bytes, member("e"))).toBe("\uFEFFkid");
    expect(plainStringOf(bytes, member("f"))).toBe("é€😀");
    expect(plainStringOf(bytes, member("g"))).toBe("");
  });
});

describe("utf8SequenceLength", () => {
  it("is 1 for an ASCII byte and 0 past the end", () => {
    expect(utf8SequenceLength(utf8("a\u007f"), 0)).toBe(1);
    expect(utf8SequenceLength(utf8("a\u007f"), 1)).toBe(1);
    expect(utf8SequenceLength(utf8("a"), 1)).toBe(0);
  });

  it("agrees with a fatal TextDecoder on every 1- to 4-byte sequence that starts with each lead byte", () => {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const seconds = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0];
    for (let lead = 0; lead < 0x100; lead++) {
      for (const second of seconds) {
        const bytes = Uint8Array.from([lead, second, 0x80, 0x80]);
        const length = utf8SequenceLength(bytes, 0);
        let decodes = false;
        for (const candidate of [1, 2, 3, 4]) {
          try {
            decoder.decode(bytes.subarray(0, candidate));
            if (candidate === length) decodes = true;
          } catch {
            // not a sequence of that length
          }
        }
        expect(length === 0 || decodes, `lead ${lead.toString(16)} second ${second.toString(16)}`).toBe(true);
        if (length === 0 && lead >= 0x80) {
          expect(() => decoder.decode(bytes.subarray(0, lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2))).toThrow();
        }
      }
    }
  });
});
