/**
 * The bounded body reader: the one way the kit reads a response body from the network (the API client's
 * transport, the JWKS resolver). A service that sends too much — a huge body, or a stream that never ends — costs at
 * most the limit in memory:
 *
 * 1. a `Content-Length` over the limit is refused before one byte of the body is read;
 * 2. the body is then read as a stream and the read stops, and the stream is cancelled, as soon as more than the
 *    limit has arrived (a missing or lying `Content-Length` changes nothing);
 * 3. both end in {@link ResponseTooLargeError}, naming the limit, which callers never retry.
 *
 * The bytes counted are the decoded ones (after `Content-Encoding`), so a compressed bomb is stopped too. The
 * request's own time limit (its abort signal) still applies while the body is read.
 *
 * @packageDocumentation
 */
import { ResponseTooLargeError } from "../errors.js";

/** Most bytes the API client reads from one response of the trust service: 8 MiB. */
export const MAX_API_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Most bytes the JWKS resolver reads from one key set: 1 MiB. */
export const MAX_JWKS_RESPONSE_BYTES = 1024 * 1024;

/** What {@link readBoundedText} needs to know besides the response. */
export interface ReadBoundedTextOptions {
  /** Most bytes read (decoded); more ends the read with {@link ResponseTooLargeError}. */
  readonly maxBytes: number;
  /** Method of the request, for the error. */
  readonly method: string;
  /** URL of the request, already redacted, for the error. */
  readonly url: string;
}

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` (see the module notes).
 *
 * @param response - A `fetch` response whose body has not been read.
 * @param options - The limit, and the method and redacted URL to name in an error.
 * @returns The body as text (invalid UTF-8 replaced by U+FFFD, as `Response.text()` does).
 * @throws {@link ResponseTooLargeError} when the body is, or announces it is, larger than `maxBytes`; whatever the
 *   stream throws otherwise (an abort on time-out, a reset connection).
 */
export async function readBoundedText(response: Response, options: ReadBoundedTextOptions): Promise<string> {
  const { maxBytes, method, url } = options;
  const declared = declaredLength(response.headers.get("content-length"));
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError({ method, url, limitBytes: maxBytes, declaredBytes: declared });
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parts: string[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError({ method, url, limitBytes: maxBytes });
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

function declaredLength(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  const value = Number(header);
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}
