/**
 * The cause of a failed network request in one line: the socket's or TLS layer's error code and message
 * (`connect ECONNREFUSED 127.0.0.1:8545`, `getaddrinfo ENOTFOUND rnwy.example`, `unable to verify the first
 * certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)`), found at the bottom of the chain of causes that `fetch`, viem and
 * the kit's own errors wrap it in. The RPC, the service's API and the JWKS all report a failure with it, so that
 * "request failed" always comes with why.
 *
 * @packageDocumentation
 */
import { messageOf } from "../errors.js";

/** Deepest causes looked at. */
const MAX_DEPTH = 8;

/**
 * The network cause of an error: the deepest error in its chain of causes that carries a string `code` (Node's system
 * and TLS errors, undici's; not the kit's or viem's own errors, which wrap it), as its message, with the code added
 * when the message does not name it.
 *
 * @param error - Anything thrown.
 * @returns One line, or `undefined` when no error in the chain carries a code.
 */
export function networkCauseOf(error: unknown): string | undefined {
  let found: string | undefined;
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === "object" && depth < MAX_DEPTH; depth++) {
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    // The kit's and viem's own errors (they carry a `shortMessage`) wrap the cause; their codes are not one.
    const wrapper = "shortMessage" in current;
    if (!wrapper && typeof code === "string" && /^[A-Z][A-Z0-9_]+$/.test(code)) {
      const text = typeof message === "string" ? message.split("\n")[0]!.trim() : "";
      found = text === "" ? code : text.includes(code) ? text : `${text} (${code})`;
    }
    // An AggregateError (a host with several addresses, each refused) carries its errors apart: the first says why.
    const next = (current as { cause?: unknown }).cause ?? (Array.isArray(errors) ? errors[0] : undefined);
    current = next;
  }
  return found;
}

/**
 * An error's one-line message (`messageOf`) with its network cause added when the message does not already say it:
 * `HTTP request failed. (connect ECONNREFUSED 127.0.0.1:8545)`.
 *
 * @param error - Anything thrown.
 * @returns One line.
 */
export function failureWithCause(error: unknown): string {
  const message = messageOf(error);
  const cause = networkCauseOf(error);
  return cause === undefined || message.includes(cause) ? message : `${message} (${cause})`;
}
