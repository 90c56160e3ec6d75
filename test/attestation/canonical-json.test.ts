import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/attestation/canonical-json";
import { CanonicalJsonError, InvalidArgumentError } from "../../src/errors";

describe("canonicalJson (RFC 8785)", () => {
  it("sorts member names at every depth and writes no whitespace", () => {
    const value = { tier: "established", agentId: "1487", nested: { z: [3, { b: 1, a: 2 }], a: null }, badges: [] };
    expect(canonicalJson(value)).toBe('{"agentId":"1487","badges":[],"nested":{"a":null,"z":[3,{"a":2,"b":1}]},"tier":"established"}');
  });

  it("compares names as UTF-16 code units, not code points: an astral character sorts before U+FB33", () => {
    const value = { "\uFB33": 1, "\u{1F600}": 2, "\u20AC": 3, "\u00F6": 4, "\u0080": 5, "1": 6, "\r": 7 };
    const text = canonicalJson(value);
    const order = ["\r", "1", "\u0080", "\u00F6", "\u20AC", "\u{1F600}", "\uFB33"].map((name) => text.indexOf(JSON.stringify(name)));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("writes numbers as ECMAScript does", () => {
    expect(canonicalJson([1e30, 4.5, 0.002, 1e-7, -0, 100, 333333333.3333333, 2 ** 53 + 2])).toBe(
      "[1e+30,4.5,0.002,1e-7,0,100,333333333.3333333,9007199254740994]",
    );
  });

  it("escapes strings minimally, as JSON.stringify does", () => {
    expect(canonicalJson({ s: 'a"b\\c\n\u0001\u007f/é' })).toBe('{"s":"a\\"b\\\\c\\n\\u0001\u007f/é"}');
  });

  it("leaves out members whose value is undefined, as JSON.stringify does", () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
  });

  it("equals JSON.stringify of an object whose members are already sorted", () => {
    const sorted = { agentId: "1", badges: ["x"], chain: "base", score: 82 };
    expect(canonicalJson(sorted)).toBe(JSON.stringify(sorted));
  });

  it.each([
    ["NaN", { score: Number.NaN }, "$.score"],
    ["Infinity", [1, Number.POSITIVE_INFINITY], "$[1]"],
    ["-Infinity", { a: { b: Number.NEGATIVE_INFINITY } }, "$.a.b"],
    ["a bigint", { n: 1n }, "$.n"],
    ["undefined in an array", [undefined], "$[0]"],
    ["undefined at the top", undefined, "$"],
    ["a function", { f: () => 1 }, "$.f"],
    ["a Date", { at: new Date(0) }, "$.at"],
    ["a lone high surrogate", { s: "\uD800x" }, "$.s"],
    ["a lone low surrogate in a name", { "\uDC00": 1 }, "$.\uDC00"],
  ])("refuses %s with a typed error naming where", (_label, value, path) => {
    let caught: unknown;
    try {
      canonicalJson(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CanonicalJsonError);
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect((caught as CanonicalJsonError).path).toBe(path);
  });
});
