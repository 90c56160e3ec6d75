import { describe, expect, it } from "vitest";
import { exitCodeForError, formatError } from "../../src/cli/error-exit";
import { ConfigurationError, HttpRequestError, InvalidArgumentError, UnknownChainError } from "../../src/errors";

describe("exitCodeForError", () => {
  it.each([
    ["InvalidArgumentError", new InvalidArgumentError("bad"), 2],
    ["UnknownChainError", new UnknownChainError("basse", "base", ["base"]), 2],
    ["ConfigurationError", new ConfigurationError("Cannot reach the RPC at http://x"), 2],
    ["another kit error", new HttpRequestError({ status: 500, method: "GET", url: "http://x" }), 1],
    ["a plain Error", new Error("boom"), 1],
    ["a thrown string", "boom", 1],
  ])("%s → %i", (_, error, code) => {
    expect(exitCodeForError(error)).toBe(code);
  });
});

describe("formatError", () => {
  it("prints a usage or configuration error on one line, with its one-line details", () => {
    const error = new ConfigurationError("Cannot reach the RPC at http://x", { details: "fetch failed" });
    expect(formatError(error)).toBe("trustgate: Cannot reach the RPC at http://x (fetch failed)\n");
    expect(formatError(new UnknownChainError("basse", "base", ["base", "bnb"]))).toBe(
      'trustgate: Unknown chain "basse". Did you mean "base"?\n',
    );
  });

  it("prints an unexpected error's message without its stack unless debugging", () => {
    const error = new Error("boom\nmore");
    const text = formatError(error);
    expect(text).toBe("trustgate: unexpected error: boom\n(set TRUSTGATE_DEBUG=1 for the stack trace)\n");
  });

  it("adds the stack and the causes when debugging", () => {
    const error = new Error("outer", { cause: new Error("inner") });
    const text = formatError(error, true);
    expect(text).toMatch(/^trustgate: unexpected error: outer\nError: outer\n\s+at /);
    expect(text).toMatch(/Caused by: Error: inner\n/);
  });
});
