/**
 * Installs the service's signing keys on a deployed `AttestedTrustOracle`, from its published JWKS (a URL or a
 * saved file), and revokes key ids: the logic of `npm run keys` (`scripts/keys.ts`), also used by the deployment
 * when `attestedOracle.jwks` is configured.
 *
 * What an operator can rely on:
 *
 * - only EC P-256 keys usable for ES256 (`alg` absent or `ES256`, `use` absent or `sig`) are installed; any other
 *   entry that would be installed is an error naming its kid (`--kid` picks the keys to install);
 * - a key already held with the same coordinates is left alone, so a second run sends nothing;
 * - everything is checked before the first transaction: the node answers and is the configured chain, the address
 *   is an `AttestedTrustOracle`, the JWKS is fetched and its keys valid, each kid asked for exists, no kid to set is
 *   revoked on the oracle, each kid to revoke is held, and the sender holds `DEFAULT_ADMIN_ROLE`;
 * - a dry run reads the oracle, prints what would be set, replaced, left alone or revoked, sends nothing and needs
 *   no key;
 * - keys are set before kids are revoked, so a rotation never leaves the oracle without a valid key.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { JSONWebKeySet } from "jose";
import {
  type Account,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  type Hash,
  type Hex,
  type PublicClient,
  zeroHash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createJwksResolver } from "../attestation/jwks.js";
import { type SigningKeyArgs, signingKeyArgsOfJwks } from "../attestation/onchain-keys.js";
import { DeploymentError, messageOf } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import { type AttestedOracleClients, revokeTrustSigningKeys, setTrustSigningKeys } from "../oracle/attested-oracle.js";
import { deploymentsFilePath, readDeploymentsFile } from "./deployments-file.js";
import {
  chainOf,
  DEPLOYER_KEY_VARIABLE,
  type DeployProvider,
  MAINNET_CHAIN_IDS,
  resolveDeployerKey,
  unreachableNodeError,
} from "./sender.js";

/** The attested oracle's contract name (as recorded in `deployments/<chainId>.json`). */
export const ATTESTED_ORACLE = "AttestedTrustOracle";

/** `DEFAULT_ADMIN_ROLE` of OpenZeppelin's `AccessControl`: the role that sets and revokes signing keys. */
export const DEFAULT_ADMIN_ROLE: Hex = zeroHash;

/** A JWKS and where it came from. */
export interface LoadedJwks {
  /** The URL, or the file's absolute path. */
  readonly source: string;
  /** The key set. */
  readonly jwks: JSONWebKeySet;
}

/** Options of {@link loadJwks}. */
export interface LoadJwksOptions {
  /** Timeout of the fetch, in ms (default: the JWKS resolver's, 5,000). */
  readonly timeoutMs?: number | undefined;
  /** `fetch` implementation (default: the global `fetch`). */
  readonly fetch?: typeof fetch | undefined;
}

/**
 * Reads a JWKS from an http(s) URL (with the kit's JWKS resolver: no redirects, bounded size and time) or from a
 * file.
 *
 * @param location - `https://…` / `http://…`, or a file path (relative to the working directory).
 * @param options - Fetch timeout and implementation.
 * @returns The key set and its source.
 * @throws {@link DeploymentError} `jwks-unavailable` (one line naming the URL, the reason and what to do) when the
 *   URL cannot be fetched or does not serve a JWKS; `bad-jwks` when the file cannot be read, is not JSON or is not
 *   a JWKS, or the location is neither a file nor an http(s) URL.
 */
export async function loadJwks(location: string, options: LoadJwksOptions = {}): Promise<LoadedJwks> {
  const trimmed = location.trim();
  if (trimmed === "") throw new DeploymentError("bad-jwks", "No JWKS given: pass an http(s) URL or a file (--jwks <url|file>)");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    if (!/^https?:\/\//i.test(trimmed)) {
      throw new DeploymentError("bad-jwks", `The JWKS URL must be http(s): "${trimmed}" (or give a file path)`);
    }
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
 * The `setSigningKey` arguments of a JWKS's keys: every entry, or only the kids given.
 *
 * @param loaded - The JWKS ({@link loadJwks}).
 * @param kids - Key ids to take (default: every entry). A kid given and absent is an error.
 * @returns One entry per kid, in the JWKS's order (an entry repeated with the same coordinates counts once).
 * @throws {@link DeploymentError} `bad-jwks` for a JWKS without keys, an entry to install that is not an EC P-256
 *   ES256 signing key (the message names its kid and the reason), a kid not in the JWKS (the message lists the
 *   kids it has), or one kid published with two different keys.
 */
export function selectSigningKeys(loaded: LoadedJwks, kids?: readonly string[]): SigningKeyArgs[] {
  const entries = loaded.jwks.keys;
  const published = entries.map((jwk) => (typeof jwk?.kid === "string" ? jwk.kid : undefined));
  for (const kid of kids ?? []) {
    if (!published.includes(kid)) {
      const known = published.filter((k) => k !== undefined).map((k) => `"${k}"`);
      throw new DeploymentError(
        "bad-jwks",
        `The JWKS ${loaded.source} has no key "${kid}" (its kids: ${known.length ? known.join(", ") : "none"})`,
      );
    }
  }
  let keys: SigningKeyArgs[];
  try {
    keys = signingKeyArgsOfJwks(loaded.jwks, kids);
  } catch (cause) {
    throw new DeploymentError("bad-jwks", `${messageOf(cause)} (JWKS ${loaded.source})`, {
      cause,
      details:
        "Only EC P-256 keys for ES256 (alg ES256 or none, use sig or none) verify on-chain; choose the keys to install with --kid (attestedOracle.kids in deploy/config.json).",
    });
  }
  const byKid = new Map<string, SigningKeyArgs>();
  for (const key of keys) {
    const seen = byKid.get(key.kid);
    if (!seen) byKid.set(key.kid, key);
    else if (seen.x !== key.x || seen.y !== key.y) {
      throw new DeploymentError("bad-jwks", `The JWKS ${loaded.source} publishes two different keys with kid "${key.kid}"`);
    }
  }
  return [...byKid.values()];
}

/**
 * What happens (or would happen) to one key id:
 *
 * - `set`: not held yet, set;
 * - `replace`: held with other coordinates, replaced (same kid, new key);
 * - `unchanged`: held with the same coordinates, left alone;
 * - `revoked-skipped`: in the JWKS but revoked on the oracle, not set again (revocation is final);
 * - `revoke`: revoked;
 * - `already-revoked`: asked to revoke, already revoked.
 */
export type SigningKeyChangeKind = "set" | "replace" | "unchanged" | "revoked-skipped" | "revoke" | "already-revoked";

/** One key id's change. */
export interface SigningKeyChange {
  /** The key id. */
  readonly kid: string;
  /** What happens to it. */
  readonly kind: SigningKeyChangeKind;
  /** The coordinates to hold (`set`, `replace`, `unchanged`). */
  readonly key: { readonly x: Hex; readonly y: Hex } | undefined;
  /** The coordinates held before, for `replace`. */
  readonly previous: { readonly x: Hex; readonly y: Hex } | undefined;
  /** The transaction that made the change; none in a dry run or when nothing was sent for it. */
  readonly transactionHash: Hash | undefined;
}

/** Options of {@link updateSigningKeys}. */
export interface UpdateSigningKeysOptions {
  /** The chain. */
  readonly provider: DeployProvider;
  /**
   * The `AttestedTrustOracle`. Default: the one recorded in `<deploymentsDir>/<chainId>.json` by the deployment
   * (trusted only when the file was written for this chain).
   */
  readonly oracle?: Address | undefined;
  /** Where the deployments files are, to find the oracle when `oracle` is not given. */
  readonly deploymentsDir?: string | undefined;
  /** The JWKS: a URL or file ({@link loadJwks}), or a key set already loaded. Optional when only revoking. */
  readonly jwks?: string | LoadedJwks | undefined;
  /**
   * Key ids of the JWKS to set (default: every key in it). A kid given here must be in the JWKS, and one revoked
   * on the oracle is an error (without `kids`, revoked kids are skipped and said).
   */
  readonly kids?: readonly string[] | undefined;
  /** Key ids to revoke (final: the oracle refuses their attestations from then on). */
  readonly revoke?: readonly string[] | undefined;
  /** Print what would change, send nothing; no key needed. */
  readonly dryRun?: boolean | undefined;
  /** Required to send anything on Ethereum or Base mainnet. */
  readonly confirmMainnet?: boolean | undefined;
  /** Network name of the configuration, for messages (none when the node is given only by URL). */
  readonly network?: string | undefined;
  /** The chain id the node must have (the network's configured one). */
  readonly expectedChainId?: number | undefined;
  /**
   * The sender: an account or the address of an unlocked account of the node, or `null` for none (a dry run
   * only). Default: with `local`, the first unlocked account holding the admin role (else the first one); otherwise
   * `DEPLOYER_PRIVATE_KEY` (environment, then `readVar`).
   */
  readonly account?: Account | Address | null | undefined;
  /** The network is local: use the node's unlocked accounts. */
  readonly local?: boolean | undefined;
  /** The network's variable for its RPC URL, for the hint of an unreachable node. */
  readonly rpcUrlEnv?: string | undefined;
  /** Environment holding `DEPLOYER_PRIVATE_KEY`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Reads a Hardhat configuration variable (`npx hardhat vars set`), consulted when the environment has no key. */
  readonly readVar?: ((name: string) => string | undefined) | undefined;
  /** The RPC URL the provider talks to, for messages. */
  readonly rpcUrl?: string | undefined;
  /** Fetch timeout and implementation for a JWKS URL. */
  readonly jwksFetch?: LoadJwksOptions | undefined;
  /** Receives one line per event; default none. */
  readonly log?: ((line: string) => void) | undefined;
}

/** Result of {@link updateSigningKeys}. */
export interface SigningKeysResult {
  /** The chain. */
  readonly chainId: number;
  /** The oracle. */
  readonly oracle: Address;
  /** The sender (undefined in a dry run without a key). */
  readonly sender: Address | undefined;
  /** Where the JWKS came from, if one was given. */
  readonly jwks: string | undefined;
  /** Whether this was a dry run (then nothing was sent). */
  readonly dryRun: boolean;
  /** One change per key id: sets and replacements first, then revocations. */
  readonly changes: readonly SigningKeyChange[];
  /** Transactions sent. */
  readonly transactionsSent: number;
}

/** The kinds that send a transaction. */
const SENDING: ReadonlySet<SigningKeyChangeKind> = new Set(["set", "replace", "revoke"]);

/**
 * Sets the JWKS's keys on an `AttestedTrustOracle` and revokes key ids, idempotently (see the module notes for
 * every check made before the first transaction).
 *
 * @param options - Node, oracle, JWKS, kids, revocations, dry run, sender.
 * @returns The changes made (or that a dry run would make).
 * @throws {@link DeploymentError}: `unreachable` (the node does not answer), `chain-mismatch`,
 *   `mainnet-not-confirmed`, `no-code` / `not-attested-oracle` (the address), `bad-config` (no oracle given or
 *   recorded, nothing to do, a kid both set and revoked), `jwks-unavailable`, `bad-jwks`, `revoked-key` (a kid asked
 *   for is revoked on the oracle), `unknown-key` (a kid to revoke is not held), `missing-key` / `bad-key`,
 *   `not-admin` (the sender lacks `DEFAULT_ADMIN_ROLE`), `failed` (a transaction failed; the contract's error named).
 */
export async function updateSigningKeys(options: UpdateSigningKeysOptions): Promise<SigningKeysResult> {
  const log = options.log ?? (() => {});
  const dryRun = options.dryRun ?? false;
  const revoke = [...new Set(options.revoke ?? [])];
  if (revoke.some((kid) => kid.trim() === "")) throw new DeploymentError("bad-config", "A key id to revoke is empty");
  if (options.jwks === undefined && revoke.length === 0) {
    throw new DeploymentError("bad-config", "Nothing to do: give a JWKS (--jwks <url|file>) and/or key ids to revoke (--revoke <kid>)");
  }
  if (options.jwks === undefined && options.kids?.length) {
    throw new DeploymentError("bad-config", "--kid picks keys of the JWKS: give the JWKS with --jwks <url|file>");
  }
  const transport = custom(options.provider as { request(args: unknown): Promise<unknown> });
  const publicClient = createPublicClient({ transport }) as PublicClient;

  let chainId: number;
  try {
    chainId = await publicClient.getChainId();
  } catch (error) {
    throw unreachableNodeError(options.network, { local: options.local ?? false, rpcUrlEnv: options.rpcUrlEnv }, options.rpcUrl, error);
  }
  const label = `${options.network ?? "the node"} (chain ${chainId})`;
  if (options.expectedChainId !== undefined && chainId !== options.expectedChainId) {
    throw new DeploymentError(
      "chain-mismatch",
      `The RPC endpoint is chain ${chainId}, but ${options.network === undefined ? "the network" : `network "${options.network}"`} is configured as chain ${options.expectedChainId}`,
    );
  }
  if (MAINNET_CHAIN_IDS.has(chainId) && !options.confirmMainnet && !dryRun) {
    throw new DeploymentError(
      "mainnet-not-confirmed",
      `Refusing to change signing keys on mainnet (chain ${chainId}) without --confirm-mainnet`,
      { details: "Run with --dry-run first to see what would change, then again with --confirm-mainnet." },
    );
  }

  const oracle = await attestedOracleAddress(publicClient, chainId, options);
  await assertAttestedOracle(publicClient, oracle, chainId);

  const loaded = typeof options.jwks === "string" ? await loadJwks(options.jwks, options.jwksFetch) : options.jwks;
  const explicit = options.kids !== undefined && options.kids.length > 0;
  const keys = loaded ? selectSigningKeys(loaded, explicit ? options.kids : undefined) : [];
  const both = keys.filter((key) => revoke.includes(key.kid)).map((key) => key.kid);
  if (explicit && both.length) {
    throw new DeploymentError("bad-config", `Key id "${both[0]}" is both to set (--kid) and to revoke (--revoke): pick one`);
  }
  // Without --kid, a kid being revoked is not set again, even when the JWKS still publishes it.
  const toSet = keys.filter((key) => !revoke.includes(key.kid));

  const changes: SigningKeyChange[] = [];
  for (const key of toSet) {
    const held = await heldKey(publicClient, oracle, key.kid);
    if (held.revoked) {
      if (explicit) {
        throw new DeploymentError(
          "revoked-key",
          `Key id "${key.kid}" is revoked on the oracle ${oracle}: revocation is final, so it cannot be set again (the service must publish its new key under a new kid)`,
        );
      }
      changes.push(change(key.kid, "revoked-skipped"));
    } else if (BigInt(held.x) === 0n) changes.push(change(key.kid, "set", key));
    else if (held.x.toLowerCase() === key.x.toLowerCase() && held.y.toLowerCase() === key.y.toLowerCase()) {
      changes.push(change(key.kid, "unchanged", key));
    } else changes.push(change(key.kid, "replace", key, held));
  }
  for (const kid of revoke) {
    const held = await heldKey(publicClient, oracle, kid);
    if (held.revoked) changes.push(change(kid, "already-revoked"));
    else if (BigInt(held.x) === 0n) {
      throw new DeploymentError("unknown-key", `Cannot revoke "${kid}": the oracle ${oracle} holds no key with that id`);
    } else changes.push(change(kid, "revoke"));
  }
  const pending = changes.filter((c) => SENDING.has(c.kind));

  const account = await resolveSender(options, publicClient, oracle, chainId, label, dryRun);
  const sender = account === undefined ? undefined : getAddress(typeof account === "string" ? account : account.address);
  if (sender !== undefined && pending.length > 0) {
    const isAdmin = await publicClient.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "hasRole",
      args: [DEFAULT_ADMIN_ROLE, sender],
    });
    if (!isAdmin) {
      throw new DeploymentError(
        "not-admin",
        `${sender} is not an admin of the AttestedTrustOracle ${oracle} on ${label}: only an account holding DEFAULT_ADMIN_ROLE can set or revoke signing keys`,
        {
          details: `Use the admin's key (${DEPLOYER_KEY_VARIABLE}), or have the admin grant the role: grantRole(${DEFAULT_ADMIN_ROLE}, ${sender}).`,
        },
      );
    }
  }

  log(
    `${dryRun ? "Dry run: signing keys" : "Signing keys"} of the AttestedTrustOracle ${oracle} on ${label}${sender ? ` from ${sender}` : ""}${loaded ? `, JWKS ${loaded.source}` : ""}`,
  );
  if (sender === undefined) log(`No ${DEPLOYER_KEY_VARIABLE}: the sender's admin role is not checked`);

  let clients: AttestedOracleClients | undefined;
  if (!dryRun && pending.length > 0) {
    clients = {
      wallet: createWalletClient({ account: account!, chain: chainOf(chainId, options.network ?? `chain ${chainId}`), transport }),
      public: publicClient,
    };
  }
  let sent = 0;
  const done: SigningKeyChange[] = [];
  for (const item of changes) {
    if (!clients || !SENDING.has(item.kind)) {
      log(describeChange(item, dryRun));
      done.push(item);
      continue;
    }
    let hash: Hash | undefined;
    try {
      if (item.kind === "revoke") hash = (await revokeTrustSigningKeys(clients, oracle, [item.kid]))[0]?.hash;
      else hash = (await setTrustSigningKeys(clients, oracle, [{ kid: item.kid, ...item.key! }]))[0]?.hash;
    } catch (cause) {
      throw new DeploymentError(
        "failed",
        `${item.kind === "revoke" ? "Revoking" : "Setting"} the signing key "${item.kid}" on ${oracle} failed: ${describeWriteError(cause)}`,
        { cause },
      );
    }
    if (hash) sent++;
    const made = { ...item, transactionHash: hash };
    log(describeChange(made, false));
    done.push(made);
  }

  if (dryRun) log(`Dry run: nothing sent; ${pending.length} signing-key change(s) would be made.`);
  else if (sent === 0) log("Signing keys: nothing to change, the oracle already holds them.");
  else log(`Signing keys: ${sent} transaction(s) sent.`);
  return { chainId, oracle, sender, jwks: loaded?.source, dryRun, changes: done, transactionsSent: sent };
}

/**
 * The line that describes a change.
 *
 * @param item - The change.
 * @param dryRun - Whether it is only planned.
 * @returns One line, starting with `+` (set), `~` (replace), `-` (revoke), `=` (nothing to do) or `!` (skipped).
 */
export function describeChange(item: SigningKeyChange, dryRun: boolean): string {
  const would = dryRun ? "would " : "";
  const tx = item.transactionHash ? ` (transaction ${item.transactionHash})` : "";
  switch (item.kind) {
    case "set":
      return `+ ${would}set signing key "${item.kid}" (x ${item.key!.x}, y ${item.key!.y})${tx}`;
    case "replace":
      return `~ ${would}replace signing key "${item.kid}": x ${item.previous!.x} → ${item.key!.x}, y ${item.previous!.y} → ${item.key!.y}${tx}`;
    case "unchanged":
      return `= signing key "${item.kid}" already set with the same coordinates`;
    case "revoked-skipped":
      return `! signing key "${item.kid}" is revoked on this oracle: not set again (revocation is final)`;
    case "revoke":
      return `- ${would}revoke signing key "${item.kid}"${tx}`;
    case "already-revoked":
      return `= signing key "${item.kid}" already revoked`;
  }
}

function change(
  kid: string,
  kind: SigningKeyChangeKind,
  key?: { readonly x: Hex; readonly y: Hex },
  previous?: { readonly x: Hex; readonly y: Hex },
): SigningKeyChange {
  return {
    kid,
    kind,
    key: key ? { x: key.x, y: key.y } : undefined,
    previous: previous ? { x: previous.x, y: previous.y } : undefined,
    transactionHash: undefined,
  };
}

async function heldKey(publicClient: PublicClient, oracle: Address, kid: string): Promise<{ x: Hex; y: Hex; revoked: boolean }> {
  const [x, y, revoked] = await publicClient.readContract({
    address: oracle,
    abi: attestedTrustOracleAbi,
    functionName: "signingKey",
    args: [kid],
  });
  return { x, y, revoked };
}

/** The oracle given, else the one the deployment recorded for this chain. */
async function attestedOracleAddress(publicClient: PublicClient, chainId: number, options: UpdateSigningKeysOptions): Promise<Address> {
  if (options.oracle !== undefined) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(options.oracle)) {
      throw new DeploymentError("bad-config", `The oracle address "${options.oracle}" is not a 0x-prefixed 20-byte hex address`);
    }
    return getAddress(options.oracle);
  }
  if (options.deploymentsDir === undefined) throw new DeploymentError("bad-config", "No oracle: pass --oracle <address>");
  const file = readDeploymentsFile(options.deploymentsDir, chainId, options.network ?? "");
  const path = deploymentsFilePath(options.deploymentsDir, chainId);
  const recorded = file.contracts[ATTESTED_ORACLE];
  if (!recorded) {
    throw new DeploymentError("bad-config", `No --oracle given and ${path} records no ${ATTESTED_ORACLE}: pass --oracle <address>`);
  }
  const genesisHash = (await publicClient.getBlock({ blockNumber: 0n })).hash;
  if (file.genesisHash !== undefined && file.genesisHash !== genesisHash) {
    throw new DeploymentError(
      "untrusted-record",
      `${path} was written for another chain with id ${chainId} (block 0 ${file.genesisHash}; this chain's is ${genesisHash}): pass --oracle <address>`,
    );
  }
  return getAddress(recorded.address);
}

async function assertAttestedOracle(publicClient: PublicClient, oracle: Address, chainId: number): Promise<void> {
  const code = await publicClient.getCode({ address: oracle });
  if (!code || code === "0x") throw new DeploymentError("no-code", `There is no contract at ${oracle} on chain ${chainId}`);
  try {
    await publicClient.readContract({ address: oracle, abi: attestedTrustOracleAbi, functionName: "upstream" });
    await publicClient.readContract({ address: oracle, abi: attestedTrustOracleAbi, functionName: "signingKey", args: ["trustgate"] });
  } catch (cause) {
    throw new DeploymentError(
      "not-attested-oracle",
      `The contract at ${oracle} on chain ${chainId} is not an AttestedTrustOracle (it does not answer upstream() and signingKey(kid))`,
      { cause },
    );
  }
}

async function resolveSender(
  options: UpdateSigningKeysOptions,
  publicClient: PublicClient,
  oracle: Address,
  chainId: number,
  label: string,
  dryRun: boolean,
): Promise<Account | Address | undefined> {
  if (options.account !== undefined) return options.account ?? undefined;
  if (options.local) {
    const accounts = (await options.provider.request({ method: "eth_accounts" })) as Address[];
    if (!accounts[0]) throw new DeploymentError("missing-key", `The local node of ${label} has no unlocked account`);
    for (const candidate of accounts) {
      const isAdmin = await publicClient.readContract({
        address: oracle,
        abi: attestedTrustOracleAbi,
        functionName: "hasRole",
        args: [DEFAULT_ADMIN_ROLE, candidate],
      });
      if (isAdmin) return getAddress(candidate);
    }
    return getAddress(accounts[0]);
  }
  try {
    return privateKeyToAccount(
      resolveDeployerKey(options.network ?? `chain ${chainId}`, chainId, options.env ?? process.env, options.readVar),
    );
  } catch (error) {
    if (!(error instanceof DeploymentError && error.reason === "missing-key")) throw error;
    if (dryRun) return undefined;
    throw new DeploymentError(
      "missing-key",
      `${DEPLOYER_KEY_VARIABLE} is not set: changing the signing keys on ${label} needs the private key of the oracle's admin`,
      {
        details: `Set it in the environment (export ${DEPLOYER_KEY_VARIABLE}=0x…) or with \`npx hardhat vars set ${DEPLOYER_KEY_VARIABLE}\`, or run with --dry-run (no key needed).`,
      },
    );
  }
}

/** A failed write in one line: the contract's custom error with its values when the revert was decoded. */
function describeWriteError(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
      const args = (reverted.data.args ?? []).map((a) => (typeof a === "string" ? JSON.stringify(a) : String(a)));
      return `${reverted.data.errorName}(${args.join(", ")})`;
    }
  }
  return messageOf(error);
}
