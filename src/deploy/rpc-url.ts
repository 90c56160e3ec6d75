/**
 * Where the deployment script finds a network's RPC endpoint. First found wins:
 *
 * 1. `--rpc-url <url>`;
 * 2. `TRUSTGATE_RPC_URL` (any network: the node you are pointing the kit at);
 * 3. the network's own variable (`rpcUrlEnv` in `deploy/config.json`: `LOCALHOST_RPC_URL`, `BASE_SEPOLIA_RPC_URL`,
 *    `BASE_RPC_URL`);
 * 4. the network's `rpcUrl` in the configuration (`localhost`: `http://127.0.0.1:8545`).
 *
 * The chain id is checked against the configuration before anything is sent, so a URL meant for another
 * network is refused rather than deployed to. A URL with credentials (`user:pass@`), a query or a fragment is refused,
 * with the reason; a key in the path (`https://base-mainnet.g.alchemy.com/v2/<key>`) is accepted, and every message
 * names the URL redacted (`redactUrl`).
 *
 * @packageDocumentation
 */
import { DeploymentError, messageOf } from "../errors.js";
import { parseEndpointUrl } from "../security/endpoint-url.js";
import type { NetworkDeployConfig } from "./config.js";

/** Environment variable read for the RPC URL of any network when `--rpc-url` is not given. */
export const RPC_URL_VARIABLE = "TRUSTGATE_RPC_URL";

const CONFIG_FILE = "deploy/config.json";

/** An RPC URL and where it came from (for messages). */
export interface ResolvedRpcUrl {
  /** The URL. */
  readonly url: string;
  /** `--rpc-url`, the variable's name, or `deploy/config.json`. */
  readonly source: string;
}

/**
 * Resolves a network's RPC URL (see the module notes for the order).
 *
 * @param network - Network name, for the message.
 * @param config - The network's configuration.
 * @param flag - `--rpc-url`, if given.
 * @param env - The environment.
 * @returns The URL and its source.
 * @throws {@link DeploymentError} (`bad-config`) when none is found, or the one found is not an http(s) URL or has
 *   credentials, a query or a fragment.
 */
export function resolveRpcUrl(
  network: string,
  config: Pick<NetworkDeployConfig, "rpcUrl" | "rpcUrlEnv">,
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedRpcUrl {
  const candidates: [string | undefined, string][] = [
    [flag, "--rpc-url"],
    [variable(env, RPC_URL_VARIABLE), RPC_URL_VARIABLE],
    [config.rpcUrlEnv ? variable(env, config.rpcUrlEnv) : undefined, config.rpcUrlEnv ?? ""],
    [config.rpcUrl, CONFIG_FILE],
  ];
  for (const [value, source] of candidates) {
    const url = value?.trim();
    if (!url) continue;
    try {
      return {
        url: parseEndpointUrl(url, { name: source === CONFIG_FILE ? `rpcUrl (${CONFIG_FILE})` : source, protocols: ["http:", "https:"] }),
        source,
      };
    } catch (cause) {
      throw new DeploymentError("bad-config", messageOf(cause), { cause });
    }
  }
  const variables = [RPC_URL_VARIABLE, ...(config.rpcUrlEnv ? [config.rpcUrlEnv] : [])].join(" or ");
  throw new DeploymentError("bad-config", `No RPC URL for network "${network}": pass --rpc-url or set ${variables}`);
}

/**
 * A variable of the environment: its own string value only. `rpcUrlEnv` is a name from `deploy/config.json`, and the
 * environment (like `process.env`) inherits Object.prototype: `constructor` must not read a function.
 */
function variable(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  return typeof value === "string" ? value : undefined;
}
