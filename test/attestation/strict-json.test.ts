/**
 * The strict JSON reader over bytes (`strict-json.ts`): every RFC 8259 object it must accept, and each refusal with
 * its fault, field and byte offset (the rules both verifiers apply to a JWS header and a trust-check v2 block).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_NESTED_DEPTH, readStrictObject, type StrictObjectRules, utf8SequenceLength } from "../../src/attestation/strict-json.js";

const utf8 = (text: string) => Buffer.from(text, "utf8");
const read = (input: string | Uint8Array, rules?: StrictObjectRules) =>
  readStrictObject(typeof input === "string" ? utf8(input) : input, rules);

describe("readStrictObject accepts", () => {
  it.each([
    ["an empty object", "{}"],
    ["whitespace of the four kinds between tokens and around", ' \t\r\n{ "a" \n:\t1 ,\r"b": [ 1 , { } , [ ] ] } \n'],
    ["every escape JSON has", String.raw`{"s":"\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \ud800"}`],
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
    expect(text.slice(result.byName.get("a")!.valueStart, result.byName.get("a")!.valueEnd)).toBe("-1.5e3");
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
  it.each([
    ["an empty text", "", "malformed", 0],
    ["an array at the top", "[1]", "malformed", 0],
    ["a string at the top", '"a"', "malformed", 0],
    ["something after the object", '{"a":1} x', "malformed", 8],
    ["a second object", '{"a":1}{}', "malformed", 7],
    ["a byte-order mark", "\uFEFF{}", "malformed", 0],
    ["a vertical tab as whitespace", '{"a":\u000b1}', "malformed", 5],
    ["a no-break space as whitespace", '{"a":\u00a01}', "malformed", 5],
    ["a trailing comma in the object", '{"a":1,}', "malformed", 7],
    ["a trailing comma in an array", '{"a":[1,]}', "malformed", 8],
    ["a missing colon", '{"a" 1}', "malformed", 5],
    ["a name that is not a string", "{a:1}", "malformed", 1],
    ["a nested name that is not a string", '{"a":{b:1}}', "malformed", 6],
    ["a raw control byte in a string", '{"a":"x\u0001"}', "malformed", 7],
    ["a raw tab in a string", '{"a":"x\ty"}', "malformed", 7],
    ["an escape JSON does not have", '{"a":"\\x41"}', "malformed", 6],
    ["a short \\u escape", '{"a":"\\u12g4"}', "malformed", 6],
    ["an unclosed string", '{"a":"abc', "malformed", 9],
    ["a leading zero", '{"a":01}', "malformed", 6],
    ["a leading plus", '{"a":+1}', "malformed", 5],
    ["a bare fraction point", '{"a":1.}', "malformed", 7],
    ["a fraction without a leading digit", '{"a":.5}', "malformed", 5],
    ["an exponent without digits", '{"a":1e}', "malformed", 7],
    ["a hexadecimal number", '{"a":0x10}', "malformed", 6],
    ["NaN", '{"a":NaN}', "malformed", 5],
    ["a literal in capitals", '{"a":True}', "malformed", 5],
    ["a truncated literal", '{"a":nul}', "malformed", 5],
    ["an unclosed object", '{"a":1', "malformed", 6],
    ["an unclosed nested array", '{"a":[1,2}', "malformed", 9],
  ])("%s", (_name, text, fault, offset) => {
    expect(read(text)).toMatchObject({ ok: false, fault, field: "json", offset });
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
    expect(read(bytes)).toMatchObject({ ok: false, fault: "malformed", field: "json", offset });
  });

  it("a byte above 0x7F outside a string", () => {
    expect(read(Buffer.concat([utf8('{"a":1'), Buffer.from([0xc3, 0xa9]), utf8("}")]))).toMatchObject({ ok: false, offset: 6 });
  });

  it("containers nested deeper than the limit, inside a member's value", () => {
    const deep = `{"a":${"[".repeat(MAX_NESTED_DEPTH + 1)}${"]".repeat(MAX_NESTED_DEPTH + 1)}}`;
    expect(read(deep)).toMatchObject({ ok: false, fault: "too-deep", field: "json", offset: 5 + MAX_NESTED_DEPTH });
    const objects = `{"a":${'{"b":'.repeat(MAX_NESTED_DEPTH + 1)}1${"}".repeat(MAX_NESTED_DEPTH + 1)}}`;
    expect(read(objects)).toMatchObject({ ok: false, fault: "too-deep" });
  });

  it("a top-level name written with an escape, when the rules say so (a nested one is fine)", () => {
    const escaped = '{"sc\\u006fre":1}';
    expect(read(escaped)).toMatchObject({ ok: true });
    expect(read(escaped, { refuseEscapedNames: true })).toMatchObject({ ok: false, fault: "malformed", field: "json", offset: 1 });
    expect(read('{"a":{"sc\\u006fre":1}}', { refuseEscapedNames: true })).toMatchObject({ ok: true });
    // Allowed, the name is decoded as JSON.parse decodes it.
    const allowed = read(escaped);
    expect(allowed.ok && allowed.members[0]!.name).toBe("score");
  });

  it("a unique name twice, at the second name's offset; other names may repeat", () => {
    const text = '{"score":1,"x":1,"x":2,"score":2}';
    expect(read(text, { uniqueNames: new Set(["score"]) })).toMatchObject({
      ok: false,
      fault: "duplicate",
      field: "score",
      offset: text.lastIndexOf('"score"'),
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

describe("utf8SequenceLength", () => {
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
