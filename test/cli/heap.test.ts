import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { preferSmallHeap } from "../../src/cli/heap";

describe("the command line's heap policy", () => {
  it("favours a small heap unless TRUSTGATE_V8_DEFAULT_HEAP=1 keeps V8's default", () => {
    expect(preferSmallHeap({ TRUSTGATE_V8_DEFAULT_HEAP: "1" })).toBe(false);
    expect(preferSmallHeap({})).toBe(true);
    expect(preferSmallHeap({ TRUSTGATE_V8_DEFAULT_HEAP: "0" })).toBe(true);
  });

  it("is set by the program's entry point before it runs, and by nothing the library exports", () => {
    const bin = readFileSync(join(__dirname, "../../src/cli/bin.ts"), "utf8");
    expect(bin.indexOf("preferSmallHeap();")).toBeGreaterThan(-1);
    expect(bin.indexOf("preferSmallHeap();")).toBeLessThan(bin.indexOf("main(process.argv"));
    expect(readFileSync(join(__dirname, "../../src/index.ts"), "utf8")).not.toContain("heap");
  });
});
