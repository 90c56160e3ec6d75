/**
 * The `--jwks` value: an http(s) URL, or a file holding a JWKS as JSON (a path or a `file:` URL).
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { DriftConfig } from "../drift/config.js";
import { InvalidArgumentError } from "../errors.js";
import { parseEndpointUrl } from "../security/endpoint-url.js";

/**
 * Parses a `--jwks` value. A URL is checked and kept as a string; a file is read and parsed now, so that a
 * missing or malformed file is a usage error before the scan starts.
 *
 * @param value - `https://…/jwks.json`, `./keys.json` or `file:///…/keys.json`.
 * @param readFile - Reads a file as UTF-8 text (default `fs.readFileSync`).
 * @returns The URL, or the key set read from the file.
 * @throws {@link InvalidArgumentError} for a bad URL (credentials, a query or a fragment included), an unreadable file, a file that is not JSON, or JSON
 *   that is not a non-empty JWKS.
 */
export function parseJwksArgument(
  value: string,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): DriftConfig["jwks"] {
  const text = value.trim();
  if (text === "") throw new InvalidArgumentError("--jwks is empty");
  if (/^https?:/i.test(text)) return new URL(parseEndpointUrl(text, { name: "--jwks", protocols: ["http:", "https:"] })).toString();
  const path = /^file:/i.test(text) ? fileURLToPath(text) : text;
  let content: string;
  try {
    content = readFile(path);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
    throw new InvalidArgumentError(`Cannot read --jwks file "${path}" (${reason})`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw new InvalidArgumentError(`--jwks file "${path}" is not JSON (${(error as Error).message})`, { cause: error });
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new InvalidArgumentError(`--jwks file "${path}" is not a JWKS: no "keys" array`);
  if (keys.length === 0) throw new InvalidArgumentError(`--jwks file "${path}" holds no keys`);
  const bad = keys.findIndex(
    (k) => k === null || typeof k !== "object" || Array.isArray(k) || typeof (k as { kty?: unknown }).kty !== "string",
  );
  if (bad >= 0) throw new InvalidArgumentError(`--jwks file "${path}": keys[${bad}] is not a JSON Web Key (no "kty")`);
  return { keys: keys as Record<string, unknown>[] };
}
