/**
 * The URL redactor: the one way the kit names an endpoint in a message, a report or an error. RPC providers put
 * their key in the path (`https://base-mainnet.g.alchemy.com/v2/<key>`, `https://mainnet.infura.io/v3/<key>`), some
 * services in the query or the user info, so a URL is shown as:
 *
 * - its scheme, host and port, never the user info (`user:pass@`) nor the fragment;
 * - the path segments that are plain words (runs of at most 12 lowercase letters joined by `.`, `_` or `-`, such as
 *   `api`, `trust-check`, `.well-known`, `jwks.json`) or versions (`v2`); any other segment (a key, a token, an id)
 *   is shown as `…`;
 * - the query parameters by name, the value shown only for the parameters the kit's own requests carry, whose values
 *   are public identifiers ({@link PUBLIC_QUERY_PARAMETERS}: `id`, `chain`, `wallet`, `limit`…); any other value is
 *   shown as `***`.
 *
 * {@link redactUrlsIn} applies the same to every URL inside a free text (an error message from a library).
 *
 * @packageDocumentation
 */
import { REDACTED } from "./secrets.js";

/** What a hidden path segment is replaced with. */
export const HIDDEN_SEGMENT = "…";

const PLAIN_SEGMENT = /^(?:\.?[a-z]{1,12}(?:[._-][a-z]{1,12}){0,3}|v\d{1,3})$/;

/** Query parameters whose values {@link redactUrl} shows: those of the kit's own requests, public identifiers. */
export const PUBLIC_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  "id",
  "agentId",
  "agent_id",
  "agents",
  "chain",
  "chainId",
  "registry",
  "threshold",
  "minScore",
  "tier",
  "sort",
  "limit",
  "cursor",
  "page",
  "offset",
  "q",
  "summary",
  "wallet",
  "address",
  "addresses",
  "server",
  "canonical_id",
]);

/**
 * A URL as the kit shows it (see the module notes): no user info, no fragment, secret-looking path segments and
 * query values hidden.
 *
 * @param url - Any URL (a string or a `URL`).
 * @returns The redacted URL, or `<invalid URL>` when `url` does not parse.
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<invalid URL>";
  }
  if (parsed.host === "") {
    // No host (`did:`, `mailto:`, `file:`): nothing an endpoint can be named by; show the scheme only.
    return `${parsed.protocol}${HIDDEN_SEGMENT}`;
  }
  const segments: string[] = [];
  for (const segment of parsed.pathname.split("/").slice(1)) {
    const shown = segment === "" || PLAIN_SEGMENT.test(segment) ? segment : HIDDEN_SEGMENT;
    if (shown === HIDDEN_SEGMENT && segments.at(-1) === HIDDEN_SEGMENT) continue;
    segments.push(shown);
  }
  const path = segments.join("/");
  let query = "";
  if (parsed.search !== "") {
    const params = new URLSearchParams(parsed.search);
    let masked = false;
    for (const name of new Set(params.keys())) {
      if (!PUBLIC_QUERY_PARAMETERS.has(name)) {
        params.set(name, REDACTED);
        masked = true;
      }
    }
    query = masked ? `?${params.toString()}` : parsed.search;
  }
  const shownPath = path === "" && query === "" ? "" : `/${path}`;
  return `${parsed.protocol}//${parsed.host}${shownPath}${query}`;
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/**
 * Redacts every `scheme://…` URL inside a text with {@link redactUrl} (trailing punctuation stays outside the URL).
 *
 * @param text - Any text, such as an error message from a library.
 * @returns The text with each URL redacted.
 */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - trailing.length);
    const redacted = redactUrl(url);
    return `${redacted === "<invalid URL>" ? `${url.split("://")[0]}://${HIDDEN_SEGMENT}` : redacted}${trailing}`;
  });
}
