import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NATIVE_PURGE_SETTING, preferSmallHeap, releaseFreedNativeMemory } from "../../src/cli/heap";

describe("the command line's memory policy", () => {
  it("favours a small heap unless TRUSTGATE_V8_DEFAULT_HEAP=1 keeps V8's default", () => {
    expect(preferSmallHeap({ TRUSTGATE_V8_DEFAULT_HEAP: "1" })).toBe(false);
    expect(preferSmallHeap({})).toBe(true);
    expect(preferSmallHeap({ TRUSTGATE_V8_DEFAULT_HEAP: "0" })).toBe(true);
  });

  it("asks EDR's allocator to return freed memory at once, unless MIMALLOC_PURGE_DELAY is already set", () => {
    const env: NodeJS.ProcessEnv = {};
    expect(releaseFreedNativeMemory(env)).toBe(true);
    expect(env).toEqual({ MIMALLOC_PURGE_DELAY: "0" });
    expect(NATIVE_PURGE_SETTING).toEqual({ name: "MIMALLOC_PURGE_DELAY", value: "0" });
    const own: NodeJS.ProcessEnv = { MIMALLOC_PURGE_DELAY: "10" };
    expect(releaseFreedNativeMemory(own)).toBe(false);
    expect(own).toEqual({ MIMALLOC_PURGE_DELAY: "10" });
  });

  it("is set by the program's entry point before it runs, and by nothing the library exports", () => {
    const bin = readFileSync(join(__dirname, "../../src/cli/bin.ts"), "utf8");
    for (const call of ["preferSmallHeap();", "releaseFreedNativeMemory();"]) {
      expect(bin.indexOf(call)).toBeGreaterThan(-1);
      expect(bin.indexOf(call)).toBeLessThan(bin.indexOf("main(process.argv"));
    }
    const entry = readFileSync(join(__dirname, "../../src/index.ts"), "utf8");
    expect(entry).not.toContain("heap");
    expect(entry).not.toContain("MIMALLOC");
  });
});
