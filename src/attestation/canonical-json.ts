/**
 * The JSON Canonicalization Scheme (RFC 8785): the one serialisation of a JSON value that any two parties
 * compute alike. Object members are sorted by their names compared as UTF-16 code units, numbers are written
 * as ECMAScript writes them (`Number.prototype.toString`, which is `JSON.stringify`'s form for finite
 * numbers), strings with `JSON.stringify`'s minimal escapes, and no whitespace anywhere.
 *
 * A signer may sign this form of the signed block rather than its insertion order (`JSON.stringify`); the
 * verifier tries it when a raw `sig` does not verify over the insertion order (`signature-check.ts`), and the
 * test signer writes it on request (`src/harness/signing.ts`).
 *
 * Only I-JSON values have a canonical form (RFC 8785 §3.1): a number that is not finite, a string with a lone
 * surrogate, a `bigint`, a function, a symbol, `undefined` where JSON has no place for it (top level, array
 * element), and an object that is not a plain object (a `Date`, a `Map`, a class instance) are refused with a
 * {@link CanonicalJsonError} naming where the value is. An object member whose value is `undefined` is left
 * out, as `JSON.stringify` leaves it out, so that both serialisations of one object carry the same members.
 *
 * @packageDocumentation
 */
import { CanonicalJsonError } from "../errors.js";

/**
 * The RFC 8785 canonical serialisation of a JSON value.
 *
 * @param value - A JSON value (from `JSON.parse`, or built of plain objects, arrays, strings, finite numbers,
 *   booleans and `null`).
 * @returns The canonical text (its UTF-8 bytes are what a signer of this form signs).
 * @throws {@link CanonicalJsonError} when the value, or a value inside it, has no canonical form; its `path`
 *   names where (`$.badges[2]`).
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, "$", out);
  return out.join("");
}

function write(value: unknown, path: string, out: string[]): void {
  switch (typeof value) {
    case "string":
      if (LONE_SURROGATE.test(value)) throw new CanonicalJsonError(path, "a string with a lone surrogate (not I-JSON)");
      out.push(JSON.stringify(value));
      return;
    case "number":
      if (!Number.isFinite(value)) throw new CanonicalJsonError(path, `the number ${String(value)} (not finite)`);
      out.push(JSON.stringify(value));
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "object":
      if (value === null) {
        out.push("null");
        return;
      }
      if (Array.isArray(value)) {
        writeArray(value, path, out);
        return;
      }
      writeObject(value, path, out);
      return;
    default:
      throw new CanonicalJsonError(path, `a value of type ${typeof value}`);
  }
}

function writeArray(values: readonly unknown[], path: string, out: string[]): void {
  out.push("[");
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out.push(",");
    write(values[i], `${path}[${i}]`, out);
  }
  out.push("]");
}

function writeObject(value: object, path: string, out: string[]): void {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new CanonicalJsonError(path, `an object that is not a plain object (${value.constructor?.name ?? "unknown class"})`);
  }
  const record = value as Record<string, unknown>;
  // The default sort compares strings by UTF-16 code units, which is the order RFC 8785 §3.2.3 prescribes.
  const names = Object.keys(record)
    .filter((name) => record[name] !== undefined)
    .sort();
  out.push("{");
  for (const [i, name] of names.entries()) {
    if (i > 0) out.push(",");
    const memberPath = `${path}.${name}`;
    if (LONE_SURROGATE.test(name)) throw new CanonicalJsonError(memberPath, "a member name with a lone surrogate (not I-JSON)");
    out.push(JSON.stringify(name), ":");
    write(record[name], memberPath, out);
  }
  out.push("}");
}

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
