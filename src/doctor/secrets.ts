/**
 * No secret leaves the doctor: the API key, and the RPC URL with the key a provider puts in its path, are removed
 * from every string of the report (the service may echo them; an error message may quote the URL), and every URL
 * left is shown as the kit's URL redactor shows it.
 *
 * @packageDocumentation
 */
import { redactUrl, redactUrlsIn } from "../security/redact-url.js";
import { scrubSecrets } from "../security/secrets.js";

/**
 * The secrets of a configuration: the API key, the RPC URL whole (unless it has nothing to hide), and each part of
 * its path that the URL redactor hides (where providers put their key).
 *
 * @param config - `apiKey` and `rpcUrl`.
 * @returns The strings to remove.
 */
export function secretsOf(config: { readonly apiKey?: string | undefined; readonly rpcUrl?: string | undefined }): string[] {
  const secrets: string[] = [];
  if (config.apiKey) secrets.push(config.apiKey);
  if (config.rpcUrl && URL.canParse(config.rpcUrl)) {
    const url = new URL(config.rpcUrl);
    if (redactUrl(url) !== config.rpcUrl) secrets.push(config.rpcUrl);
    const shown = new Set(redactUrl(url).split("/").slice(3));
    for (const segment of url.pathname.split("/")) if (segment !== "" && !shown.has(segment)) secrets.push(segment);
  }
  return secrets;
}

/**
 * A copy of a JSON-like value with every secret removed from every string (member names included) and every URL
 * redacted.
 *
 * @param value - The report (or any JSON-like value).
 * @param secrets - The strings to remove.
 * @returns The copy.
 */
export function withoutSecrets<T>(value: T, secrets: readonly string[]): T {
  const clean = (text: string) => redactUrlsIn(scrubSecrets(text, secrets));
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return clean(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object")
      return Object.fromEntries(Object.entries(node).map(([key, entry]) => [clean(key), walk(entry)]));
    return node;
  };
  return walk(value) as T;
}
