/**
 * Shared pieces of the property-based tests (test/properties/*.property.test.ts; their seed comes from
 * test/support/property-seed.ts, a setup file of every suite): arbitraries of hostile text and values, the fake
 * secrets thrown at the kit, and the checks every property repeats (no part of a secret, no raw control character,
 * a kit error rather than a raw one).
 */
import { inspect } from "node:util";
import fc from "fast-check";
import { expect } from "vitest";
import { TrustgateError } from "../../src/errors.js";

/**
 * A fake API key. Its tail is random-looking (digits and capitals), so that no 8 characters of it turn up in an
 * output by chance.
 */
export const SECRET = "tg_live_SECRET7Qm7Rz2Kx9Lw4Tn8Vb3Hc6";
/** A fake provider key, as it sits in an RPC URL's path. */
export const PATH_SECRET = "Zx81kQpLm3RtYv7Wn2BcSECRET";
/** A fake password, as it sits in a URL's user info. */
export const PASSWORD_SECRET = "pw9SECRETu4Hd7Xq2Mn";

/** ESC. */
export const ESC = "\u001b";

/**
 * Texts that have broken parsers, terminals and Markdown renderers: escape sequences, control characters, bidi
 * overrides, a BOM, prototype keys, number edge cases, format strings, a long run.
 */
export const NASTY_TEXTS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "\u0000\u0001\u0002\u0007\u0008",
  `${ESC}[2J${ESC}[H`,
  `${ESC}]0;pwned\u0007`,
  `${ESC}[31mREVOKED${ESC}[0m`,
  "\u009b31m",
  "\r\nforged line",
  "\u202eevil\u202c",
  "\uFEFF",
  "\uFEFF{}",
  "\ud800",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e309",
  "-1",
  "0x",
  "0x0",
  "9007199254740993",
  "99999999999999999999999999999999999999",
  "1.5",
  "1,2",
  "%s%d%n",
  "${process.exit()}",
  "'; DROP TABLE agents; --",
  "![img](https://attacker.example/p.png)",
  "<img src=x onerror=alert(1)>",
  "| cell | cell |",
  "../../../../etc/passwd",
  "http://",
  "http://[::1",
  "https://u:p@",
  "\\\\?\\C:\\",
  "a".repeat(5000),
];

/** Any text, from plain characters to raw code units (lone surrogates included) and the nasty ones. */
export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: fc.constantFrom("\u0000", ESC, "\r", "\n", "\u009b", "\u202e", "\t", "\u007f"), maxLength: 8 }),
    },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXTS) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...NASTY_TEXTS), fc.string({ maxLength: 10 })).map(([a, b]) => a + b),
    },
  );

/** Numbers a JSON field or an option may carry: integers of every size, fractions, and the non-finite ones. */
export const hostileNumber = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, 0.1, Number.NaN, Infinity, -Infinity),
  );

/**
 * Random JSON-like values, with the prototype keys among the object keys and strings that may hold the secret.
 *
 * @param depth - Nesting depth.
 */
export const hostileJsonValue = (depth = 3): fc.Arbitrary<unknown> =>
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: depth },
      fc.constant(null),
      fc.boolean(),
      hostileNumber(),
      hostileString(),
      fc.constant(SECRET),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "prototype")), tie("value"), {
        maxKeys: 4,
      }),
    ),
  })).value;

/** Characters of a control class a terminal acts on: C0 but line feed, DEL, C1, the bidi controls. */
// eslint-disable-next-line no-control-regex
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Asserts that no 8 consecutive characters of `secret` appear in `text` (a part of a key is as bad as the key).
 *
 * @param text - An output.
 * @param secret - The secret.
 * @param what - What the text is, for the failure message.
 */
export function expectNoPartOf(text: string, secret: string, what: string): void {
  for (let i = 0; i + 8 <= secret.length; i++) {
    const part = secret.slice(i, i + 8);
    if (text.includes(part)) expect.fail(`${what} holds "${part}" of a secret: ${JSON.stringify(text.slice(0, 2000))}`);
  }
}

/**
 * Asserts that none of the fake secrets (or part of one) appear in any of the texts.
 *
 * @param texts - Outputs, by name.
 */
export function expectNoSecrets(texts: Record<string, string>): void {
  for (const [what, text] of Object.entries(texts)) {
    for (const secret of [SECRET, PATH_SECRET, PASSWORD_SECRET]) expectNoPartOf(text, secret, what);
  }
}

/**
 * Everything of an error that may leave the process: its message, stack, `JSON.stringify` and `util.inspect` forms.
 *
 * @param error - The error.
 * @returns The texts, by name.
 */
export function errorForms(error: unknown): Record<string, string> {
  const e = error as { message?: unknown; stack?: unknown };
  let json: string;
  try {
    json = JSON.stringify(error) ?? "";
  } catch (cause) {
    json = `JSON.stringify threw: ${String(cause)}`;
  }
  return {
    message: String(e?.message ?? error),
    stack: String(e?.stack ?? ""),
    json,
    inspect: inspect(error, { depth: 10 }),
  };
}

/**
 * Asserts that an error is one of the kit's typed errors (with a code and a one-line short message), not a raw
 * `TypeError`, `SyntaxError` or a library's error.
 *
 * @param error - What was thrown.
 * @param codes - The codes accepted (any when omitted).
 */
export function expectKitError(error: unknown, codes?: readonly string[]): asserts error is TrustgateError {
  if (!(error instanceof TrustgateError)) {
    expect.fail(`expected a TrustgateError, got ${inspect(error, { depth: 2 }).slice(0, 1500)}`);
  }
  if (codes) expect(codes).toContain(error.code);
  expect(error.shortMessage.trim()).not.toBe("");
}

/** Asserts that nothing was added to `Object.prototype` (a `__proto__` key merged unsafely would). */
export function expectPrototypeClean(): void {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
}

/**
 * Runs `promise` and fails if it has not settled within `ms`: a hang fails the property instead of blocking.
 *
 * @param promise - The work.
 * @param ms - The time limit.
 * @param what - What is awaited, for the failure message.
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms (a hang)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Replaces the value at a path chosen by `choices` (an index at each level, taken modulo the entries there) with
 * `replacement`, copying what it changes; where the path ends early (a scalar, an empty array or object), the value
 * there is replaced.
 *
 * @param value - A JSON value.
 * @param choices - The path, one index per level.
 * @param replacement - What goes there.
 * @returns The changed copy.
 */
export function replaceAt(value: unknown, choices: readonly number[], replacement: unknown): unknown {
  if (choices.length === 0 || value === null || typeof value !== "object") return replacement;
  const [choice, ...rest] = choices;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const copy = [...value];
    copy[choice! % copy.length] = replaceAt(copy[choice! % copy.length], rest, replacement);
    return copy;
  }
  const names = Object.keys(value);
  if (names.length === 0) return replacement;
  const name = names[choice! % names.length]!;
  return { ...(value as Record<string, unknown>), [name]: replaceAt((value as Record<string, unknown>)[name], rest, replacement) };
}
