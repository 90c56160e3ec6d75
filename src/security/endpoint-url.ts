/**
 * Validation of an endpoint URL given by the user (`--rpc`, `--api`, `--jwks`, the deployment scripts' RPC URL):
 * it must parse, use an accepted scheme, and carry no secret where the kit could not keep it out of messages —
 * user info (`user:pass@`), a query or a fragment are refused with the reason. A key in the path (the usual form of
 * RPC providers, `https://base-mainnet.g.alchemy.com/v2/<key>`) is accepted: {@link redactUrl} hides it wherever
 * the URL is named.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { redactUrl } from "./redact-url.js";

/** Options of {@link parseEndpointUrl}. */
export interface ParseEndpointUrlOptions {
  /** How the URL was given, for the message (`--rpc`, `TRUSTGATE_RPC_URL`…). */
  readonly name: string;
  /** Accepted schemes, with their colon (`["http:", "https:"]`). */
  readonly protocols: readonly string[];
}

/**
 * Checks an endpoint URL (see the module notes).
 *
 * @param text - The URL as given.
 * @param options - Its name and the accepted schemes.
 * @returns The URL, trimmed.
 * @throws {@link InvalidArgumentError} naming `options.name` and the reason: not a URL, another scheme, user info,
 *   a query or a fragment. The URL is quoted redacted, never whole.
 */
export function parseEndpointUrl(text: string, options: ParseEndpointUrlOptions): string {
  const { name, protocols } = options;
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    // Node's URL error is not kept as the cause: it holds the whole text (`input`), which util.inspect would print.
    // Echo what cannot hold a path (and so a key), nor is a key itself (a variable set to a provider's key instead of
    // its URL): no "/" and no run of 16 letters and digits. `localhost:8545` is quoted; anything else is not.
    const shown = trimmed.includes("/") || /[A-Za-z0-9]{16}/.test(trimmed) ? "" : ` "${trimmed}"`;
    throw new InvalidArgumentError(`Invalid ${name} URL${shown}: not a URL`);
  }
  // Quoted redacted, and without its query and fragment: those are refused, whatever their names.
  const bare = new URL(url);
  bare.search = "";
  bare.hash = "";
  const shown = `"${redactUrl(bare)}"`;
  if (!protocols.includes(url.protocol)) {
    throw new InvalidArgumentError(`Invalid ${name} URL ${shown}: expected ${protocols.map((p) => p.slice(0, -1)).join(" or ")}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new InvalidArgumentError(
      `Invalid ${name} URL ${shown}: it contains credentials (user:password@), which would be sent and shown where the URL is; remove them (an API key goes in --api-key or TRUSTGATE_API_KEY)`,
    );
  }
  if (url.search !== "" || trimmed.includes("?")) {
    throw new InvalidArgumentError(
      `Invalid ${name} URL ${shown}: it has a query (?…), which may carry a key into messages and logs; remove it (a key in the path is accepted and hidden in messages)`,
    );
  }
  if (url.hash !== "" || trimmed.includes("#")) {
    throw new InvalidArgumentError(`Invalid ${name} URL ${shown}: it has a fragment (#…), which an endpoint never needs; remove it`);
  }
  return trimmed;
}

/**
 * Whether a URL's host is this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `[::1]`. Only such a
 * host is safe to reach over plain http when what it serves must not be substituted by someone on the network.
 *
 * @param url - The URL (its `hostname`, as `URL` normalizes it: lower case, IPv4 dotted, IPv6 in brackets).
 * @returns True for a loopback host.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/\.$/, "");
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
