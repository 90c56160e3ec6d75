import { describe, expect, it } from "vitest";
import { firstJsonDifference } from "../../src/util/json-difference.js";

describe("firstJsonDifference", () => {
  it("finds no difference between values equal by value, whatever the member order or the spelling of numbers", () => {
    expect(firstJsonDifference(JSON.parse('{"a":1,"b":[1,{"c":null}]}'), JSON.parse('{"b":[1.0,{"c":null}],"a":1e0}'))).toBeUndefined();
    expect(firstJsonDifference(JSON.parse('{"__proto__":1}'), JSON.parse('{"__proto__":1}'))).toBeUndefined();
  });

  it.each([
    [{ a: 1 }, { a: 2 }, { path: "a", left: 1, right: 2 }],
    [{ a: 1 }, { a: "1" }, { path: "a", left: 1, right: "1" }],
    [{ a: 1 }, { a: 1, b: 2 }, { path: "b", left: undefined, right: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }, { path: "b", left: 2, right: undefined }],
    [{ a: [1, 2] }, { a: [1] }, { path: "a[1]", left: 2, right: undefined }],
    [{ a: [1] }, { a: { 0: 1 } }, { path: "a", left: [1], right: { 0: 1 } }],
    [{ a: { b: [0, { c: true }] } }, { a: { b: [0, { c: false }] } }, { path: "a.b[1].c", left: true, right: false }],
    [{ a: null }, { a: {} }, { path: "a", left: null, right: {} }],
    [[], {}, { path: "", left: [], right: {} }],
  ])("%j and %j differ first at %j", (a, b, difference) => {
    expect(firstJsonDifference(a, b)).toEqual(difference);
  });

  it("an own __proto__ member is a member like any other", () => {
    const withProto = JSON.parse('{"__proto__":{"score":1},"a":1}') as unknown;
    expect(firstJsonDifference(withProto, { a: 1 })).toMatchObject({ path: "__proto__" });
  });
});
