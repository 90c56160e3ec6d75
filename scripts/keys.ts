/**
 * Sets the service's signing keys (its JWKS) on a deployed `AttestedTrustOracle`, revokes key ids, and lists the records
 * a key id stored. Thin: parses arguments and calls `updateSigningKeys` or `listKeyRecords`
 * (`src/deploy/signing-keys.ts`), which make every check before sending.
 *
 *   npm run keys -- (--network <name> | --rpc-url <url>) [--oracle <address>] --jwks <url|file> [--kid <kid> ...]
 *                   [--force-kid <kid> ...] [--thumbprint <kid>=<b64url> ...] [--revoke <kid> ...] [--dry-run]
 *                   [--confirm-mainnet] [--config deploy/config.json] [--deployments-dir deployments]
 *   npm run keys -- (--network <name> | --rpc-url <url>) [--oracle <address>] --records <kid> [--from-block <n>]
 *                   [--json <file|->]
 *
 * @packageDocumentation
 */

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { http } from "viem";
import {
  loadDeployConfig,
  type NetworkDeployConfig,
  networkConfig,
  parseThumbprintPins,
  RPC_URL_VARIABLE,
  resolveRpcUrl,
  keyRecordsJson,
  listKeyRecords,
  updateSigningKeys,
} from "../src/deploy/index.js";
import { checkFileTarget } from "../src/cli/file-target.js";
import { ONCHAIN_TRUST_ATTESTATION_KIDS } from "../src/config/service.js";
import { DeploymentError } from "../src/errors.js";
import { readHardhatVar } from "./lib/hardhat-vars.js";
import { runCommand } from "./lib/run-command.js";
import { KEYS_OPTIONS } from "./lib/script-options.js";

const USAGE = `Usage: npm run keys -- (--network <name> | --rpc-url <url>) --jwks <url|file> [options]
       npm run keys -- (--network <name> | --rpc-url <url>) --records <kid> [--from-block <n>] [--json <file|->] [--oracle <address>]

Sets the service's trust-check signing keys (EC P-256 / ES256 keys of its JWKS) on a deployed
AttestedTrustOracle, and revokes key ids. The oracle accepts a trust record signed under any kid it holds,
so only ${ONCHAIN_TRUST_ATTESTATION_KIDS.join(", ")} is installed unless another kid is forced by name (--force-kid). A key the oracle already
holds with the same coordinates is left alone: a second run sends nothing. A key id names one key for life:
a kid held with other coordinates is refused (revoke it and install the new kid). Everything is checked
before the first transaction (the JWKS, each kid, thumbprints, revoked kids, the sender's admin role).

Options:
  --network <name>          Network of the configuration (localhost, baseSepolia, base): its chain id is
                            checked and its RPC URL used; local networks send from the node's unlocked accounts
  --rpc-url <url>           RPC endpoint (default: $${RPC_URL_VARIABLE}, else the network's variable, else its
                            rpcUrl); enough alone (without --network) for any chain
  --oracle <address>        The AttestedTrustOracle (default: the one recorded in <deployments-dir>/<chainId>.json)
  --jwks <url|file>         The service's JWKS: an http(s) URL (https://rnwy.com/.well-known/jwks.json) or a
                            saved copy; on mainnet, plain http only from this machine (127.0.0.1, ::1, localhost)
  --kid <kid>               Set only this key of the JWKS (repeatable; an on-chain trust kid, default: those the
                            JWKS has)
  --force-kid <kid>         Set this key although it is not an on-chain trust kid, with a warning (repeatable;
                            e.g. the service's next trust kid before the kit knows it)
  --thumbprint <kid>=<b64>  Refuse unless the JWKS's key <kid> has this RFC 7638 thumbprint (repeatable; a dry
                            run prints each key's)
  --revoke <kid>            Revoke this key id (repeatable; final: the oracle refuses its attestations from then on,
                            and every record stored under it reads as absent)
  --records <kid>           List the records the oracle stored under this key id (from its RecordSignedBy events),
                            and whether each is still current; sends nothing. After a leak: what revoking takes back
  --from-block <n>          First block --records scans (default: the recorded deployment block, else 0)
  --json <file|->           With --records: also write the listing as JSON to a file, or to stdout with "-"
                            (stdout then carries nothing else; the listing's lines go to stderr)
  --dry-run                 Print what would be set, left alone or revoked; send nothing (no key needed)
  --confirm-mainnet         Required to change keys on Base (8453) or Ethereum (1) mainnet
  --config <file>           Configuration (default deploy/config.json)
  --deployments-dir <dir>   Where the deployments files are (default deployments)
  -h, --help                Show this help

The sender's key is read from DEPLOYER_PRIVATE_KEY (environment, or \`npx hardhat vars set DEPLOYER_PRIVATE_KEY\`);
it must hold the oracle's DEFAULT_ADMIN_ROLE.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: KEYS_OPTIONS,
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const network = values.network;
  let config: NetworkDeployConfig | undefined;
  if (network !== undefined) {
    if (network === "hardhat" && !values["rpc-url"]) {
      throw new DeploymentError(
        "bad-config",
        "Network hardhat is in-process and thrown away when a command exits: it holds no oracle. Use --network localhost (a node started with `npx hardhat node`) or --rpc-url <url>",
      );
    }
    config = networkConfig(loadDeployConfig(resolve(values.config)), network);
  } else if (!values["rpc-url"] && !process.env[RPC_URL_VARIABLE]?.trim()) {
    throw new DeploymentError("bad-config", `Give --network <name> or --rpc-url <url> (or set ${RPC_URL_VARIABLE})`);
  }
  const json = values.json;
  if (json !== undefined && values.records === undefined) throw new DeploymentError("bad-config", "--json goes with --records <kid>");
  if (json !== undefined && json !== "-") await checkFileTarget("--json", json);
  const rpcUrl = resolveRpcUrl(network ?? "(given by URL)", config ?? {}, values["rpc-url"], process.env).url;
  // The node and the oracle, as both modes take them.
  const target = {
    provider: http(rpcUrl, { retryCount: 2 })({}),
    rpcUrl,
    network,
    expectedChainId: config?.chainId,
    local: config?.local ?? false,
    rpcUrlEnv: config?.rpcUrlEnv,
    oracle: values.oracle as `0x${string}` | undefined,
    deploymentsDir: resolve(values["deployments-dir"]),
    // With the JSON on stdout, the listing's lines go to stderr.
    log: (line: string) => (json === "-" ? console.error(line) : console.log(line)),
  };
  if (values.records !== undefined) {
    const changes = ["jwks", "kid", "force-kid", "thumbprint", "revoke"] as const;
    const mixed = changes.filter((name) => values[name] !== undefined);
    if (mixed.length > 0) {
      throw new DeploymentError("bad-config", `--records lists and changes nothing: run it without --${mixed.join(", --")}`);
    }
    const fromBlock = values["from-block"];
    if (fromBlock !== undefined && !/^\d+$/.test(fromBlock)) {
      throw new DeploymentError("bad-config", `--from-block must be a block number, not "${fromBlock}"`);
    }
    const listing = await listKeyRecords({
      ...target,
      kid: values.records,
      fromBlock: fromBlock === undefined ? undefined : BigInt(fromBlock),
    });
    if (json !== undefined) {
      const text = `${JSON.stringify(keyRecordsJson(listing), null, 2)}\n`;
      if (json === "-") process.stdout.write(text);
      else writeFileSync(json, text);
    }
    return 0;
  }
  if (values["from-block"] !== undefined) throw new DeploymentError("bad-config", "--from-block goes with --records <kid>");
  await updateSigningKeys({
    ...target,
    jwks: values.jwks,
    kids: values.kid,
    forceKids: values["force-kid"],
    thumbprints: values.thumbprint === undefined ? undefined : parseThumbprintPins(values.thumbprint),
    revoke: values.revoke,
    dryRun: values["dry-run"],
    confirmMainnet: values["confirm-mainnet"],
    readVar: readHardhatVar,
  });
  return 0;
}

runCommand(main, USAGE);
