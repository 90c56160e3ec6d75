/**
 * Where the keys command and the deployment's key install read the service's JWKS from: an http(s) URL, fetched with
 * the kit's JWKS resolver (no redirects, bounded size and time), or a saved file; on a mainnet, never plain http from a
 * host other than this machine.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { JSONWebKeySet } from "jose";
import { createJwksResolver } from "../attestation/jwks.js";
import { DeploymentError, messageOf } from "../errors.js";
import { isLoopbackUrl } from "../security/endpoint-url.js";
import type { LoadedJwks } from "./key-selection.js";
import { MAINNET_CHAIN_IDS } from "./sender.js";

/** Options of {@link loadJwks}. */
export interface LoadJwksParameters {
  /** Timeout of the fetch, in ms (default: the JWKS resolver's, 5,000). */
  readonly timeoutMs?: number | undefined;
  /** `fetch` implementation (default: the global `fetch`). */
  readonly fetch?: typeof fetch | undefined;
  /**
   * The chain the keys are for: on a mainnet ({@link MAINNET_CHAIN_IDS}) a plain http URL whose host is not this
   * machine is refused before anything is fetched.
   */
  readonly chainId?: number | undefined;
}

/**
 * Reads a JWKS from an http(s) URL (with the kit's JWKS resolver: no redirects, bounded size and time) or from a
 * file.
 *
 * @param location - `https://…` / `http://…`, or a file path (relative to the working directory).
 * @param options - Fetch timeout and implementation, and the chain the keys are for.
 * @returns The key set and its source.
 * @throws {@link DeploymentError} `jwks-unavailable` (one line naming the URL, the reason and what to do) when the
 *   URL cannot be fetched or does not serve a JWKS; `insecure-jwks` for a plain http URL of another host when
 *   `options.chainId` is a mainnet; `bad-jwks` when the file cannot be read, is not JSON or is not a JWKS, or the
 *   location is neither a file nor an http(s) URL.
 */
export async function loadJwks(location: string, options: LoadJwksParameters = {}): Promise<LoadedJwks> {
  const trimmed = location.trim();
  if (trimmed === "") throw new DeploymentError("bad-jwks", "No JWKS given: pass an http(s) URL or a file (--jwks <url|file>)");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    if (!/^https?:\/\//i.test(trimmed)) {
      throw new DeploymentError("bad-jwks", `The JWKS URL must be http(s): "${trimmed}" (or give a file path)`);
    }
    refuseInsecureJwksUrl(trimmed, options.chainId);
    let resolver: ReturnType<typeof createJwksResolver>;
    try {
      resolver = createJwksResolver({
        url: trimmed,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      });
    } catch (cause) {
      throw new DeploymentError("bad-jwks", messageOf(cause), { cause });
    }
    try {
      await resolver.reload();
    } catch (cause) {
      const problem = messageOf(cause).replace(/^JWKS unavailable: /, "");
      throw new DeploymentError(
        "jwks-unavailable",
        `Cannot fetch the JWKS ${resolver.source} (${problem}): check the URL and that the service is up, or save the JWKS to a file and pass --jwks <file>`,
        { cause },
      );
    }
    return { source: resolver.source, jwks: resolver.jwks()! };
  }
  const path = resolve(trimmed);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code;
    throw new DeploymentError(
      "bad-jwks",
      `Cannot read the JWKS file ${path}${typeof code === "string" ? ` (${code})` : ""}: give an existing file or an http(s) URL`,
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new DeploymentError("bad-jwks", `The JWKS file ${path} is not valid JSON`, { cause });
  }
  if (typeof json !== "object" || json === null || !Array.isArray((json as JSONWebKeySet).keys)) {
    throw new DeploymentError("bad-jwks", `The JWKS file ${path} is not a JWKS (expected {"keys": [...]})`);
  }
  return { source: path, jwks: json as JSONWebKeySet };
}

/**
 * Refuses a plain http JWKS URL of a host other than this machine when the keys are for a mainnet: anyone on the
 * network path could serve their own key, which would then sign trust records. Loopback http is allowed anywhere,
 * and any http on a test chain.
 */
function refuseInsecureJwksUrl(location: string, chainId: number | undefined): void {
  if (chainId === undefined || !MAINNET_CHAIN_IDS.has(chainId)) return;
  let url: URL;
  try {
    url = new URL(location);
  } catch (cause) {
    throw new DeploymentError("bad-jwks", `The JWKS URL "${location}" is not a URL`, { cause });
  }
  if (url.protocol !== "http:" || isLoopbackUrl(url)) return;
  throw new DeploymentError(
    "insecure-jwks",
    `Refusing the JWKS ${url.origin}${url.pathname} over plain http for mainnet (chain ${chainId}): anyone on the network path could substitute their own key; use https, or a saved copy checked against the service's (--jwks <file>)`,
  );
}
