/**
 * Installs the service's signing keys on a deployed `AttestedTrustOracle`, from its published JWKS (a URL or a
 * saved file), and revokes key ids: the logic of `npm run keys` (`scripts/keys.ts`), also used by the deployment
 * when `attestedOracle.jwks` is configured.
 *
 * What an operator can rely on:
 *
 * - only the trust-check kids the on-chain reader reads are installed unless another is forced by name, and only
 *   EC P-256 keys usable for ES256 (`alg` absent or `ES256`, `use` absent or `sig`); pinned thumbprints must match
 *   (`key-selection.ts`);
 * - a key id names one key for its whole life: a kid held with the same coordinates is left alone, so a second run
 *   sends nothing, and a kid held with other coordinates is an error (rotation is a new kid, then a revocation);
 * - on a mainnet, a JWKS is never fetched over plain http from a host other than this machine;
 * - everything is checked before the first transaction: the node answers and is the configured chain, the address
 *   is an `AttestedTrustOracle`, the JWKS is fetched and its keys valid, each kid asked for exists, no kid to set is
 *   revoked or held with another key on the oracle, each kid to revoke is held, and the sender holds
 *   `DEFAULT_ADMIN_ROLE`;
 * - a dry run reads the oracle, prints what would be set, left alone or revoked (with each key's thumbprint, to pin
 *   it), sends nothing and needs no key;
 * - keys are set before kids are revoked, so a rotation never leaves the oracle without a valid key.
 *
 * The JWKS is read by `jwks-source.ts`, the node and the oracle are reached and checked by
 * `attested-oracle-target.ts`, each key id's change is described by `signing-key-changes.ts`, and the records a key
 * id signed are listed by `key-records.ts`.
 *
 * @packageDocumentation
 */
import { type Account, type Address, createWalletClient, custom, getAddress, type Hash, type Hex, type PublicClient, zeroHash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DeploymentError } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import { type AttestedOracleClients, revokeTrustSigningKeys, setTrustSigningKeys } from "../oracle/attested-oracle.js";
import { describeContractError } from "../oracle/revert-reason.js";
import { assertAttestedOracle, attestedOracleAddress, connectedNode } from "./attested-oracle-target.js";
import { type LoadJwksParameters, loadJwks } from "./jwks-source.js";
import { forcedKidWarning, type KeySelection, keySelectionProblems, type LoadedJwks, selectSigningKeys } from "./key-selection.js";
import { chainOf, DEPLOYER_KEY_VARIABLE, type DeployProvider, MAINNET_CHAIN_IDS, resolveDeployerKey } from "./sender.js";
import { describeChange, plannedChange, SENDING, type SigningKeyChange } from "./signing-key-changes.js";

/** `DEFAULT_ADMIN_ROLE` of OpenZeppelin's `AccessControl`: the role that sets and revokes signing keys. */
export const DEFAULT_ADMIN_ROLE: Hex = zeroHash;

/** Options of {@link updateSigningKeys}. */
export interface UpdateSigningKeysParameters extends KeySelection {
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
   * Key ids of the JWKS to set (see {@link KeySelection}; default: the on-chain trust kids it has). A kid given
   * here (or in `forceKids`) must be in the JWKS, and one revoked on the oracle is an error (without them, revoked
   * kids are skipped and said).
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
  readonly jwksFetch?: LoadJwksParameters | undefined;
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
  /** One change per key id: sets first, then revocations. */
  readonly changes: readonly SigningKeyChange[];
  /** Transactions sent. */
  readonly transactionsSent: number;
}

/**
 * Sets the JWKS's keys on an `AttestedTrustOracle` and revokes key ids, idempotently (see the module notes for
 * every check made before the first transaction).
 *
 * @param options - Node, oracle, JWKS, kids (forced, pinned), revocations, dry run, sender.
 * @returns The changes made (or that a dry run would make).
 * @throws {@link DeploymentError}: `refused-kid` (a kid outside the on-chain trust kids not forced, checked before
 *   the node is asked anything), `unreachable` (the node does not answer), `chain-mismatch`,
 *   `mainnet-not-confirmed`, `no-code` / `not-attested-oracle` (the address), `bad-config` (no oracle given or
 *   recorded, nothing to do, a kid both set and revoked), `insecure-jwks`, `jwks-unavailable`, `bad-jwks`,
 *   `thumbprint-mismatch`, `revoked-key` (a kid asked for is revoked on the oracle), `key-id-reused` (a kid held
 *   with other coordinates), `unknown-key` (a kid to revoke is not held), `missing-key` / `bad-key`, `not-admin`
 *   (the sender lacks `DEFAULT_ADMIN_ROLE`), `failed` (a transaction failed; the contract's error named).
 */
export async function updateSigningKeys(options: UpdateSigningKeysParameters): Promise<SigningKeysResult> {
  const log = options.log ?? (() => {});
  const dryRun = options.dryRun ?? false;
  const revoke = [...new Set(options.revoke ?? [])];
  if (revoke.some((kid) => kid.trim() === "")) throw new DeploymentError("bad-config", "A key id to revoke is empty");
  if (options.jwks === undefined && revoke.length === 0) {
    throw new DeploymentError("bad-config", "Nothing to do: give a JWKS (--jwks <url|file>) and/or key ids to revoke (--revoke <kid>)");
  }
  const explicit = Boolean(options.kids?.length || options.forceKids?.length);
  if (options.jwks === undefined && (explicit || Object.keys(options.thumbprints ?? {}).length > 0)) {
    throw new DeploymentError(
      "bad-config",
      "--kid, --force-kid and --thumbprint are about keys of the JWKS: give the JWKS with --jwks <url|file>",
    );
  }
  const selection: KeySelection = { kids: options.kids, forceKids: options.forceKids, thumbprints: options.thumbprints };
  const refused = keySelectionProblems(selection);
  if (refused.length > 0) throw new DeploymentError("refused-kid", refused[0]!);
  const { publicClient, chainId } = await connectedNode(options);
  const label = `${options.network ?? "the node"} (chain ${chainId})`;
  if (MAINNET_CHAIN_IDS.has(chainId) && !options.confirmMainnet && !dryRun) {
    throw new DeploymentError(
      "mainnet-not-confirmed",
      `Refusing to change signing keys on mainnet (chain ${chainId}) without --confirm-mainnet`,
      { details: "Run with --dry-run first to see what would change, then again with --confirm-mainnet." },
    );
  }

  const oracle = await attestedOracleAddress(publicClient, chainId, options);
  await assertAttestedOracle(publicClient, oracle, chainId);

  const loaded = typeof options.jwks === "string" ? await loadJwks(options.jwks, { ...options.jwksFetch, chainId }) : options.jwks;
  const keys = loaded ? await selectSigningKeys(loaded, selection) : [];
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
      changes.push(plannedChange(key.kid, "revoked-skipped"));
    } else if (BigInt(held.x) === 0n) changes.push(plannedChange(key.kid, "set", key));
    else if (held.x.toLowerCase() === key.x.toLowerCase() && held.y.toLowerCase() === key.y.toLowerCase()) {
      changes.push(plannedChange(key.kid, "unchanged", key));
    } else {
      throw new DeploymentError(
        "key-id-reused",
        `The oracle ${oracle} holds "${key.kid}" as (x ${held.x}, y ${held.y}), but the JWKS publishes it as (x ${key.x}, y ${key.y}): a key id names one key for its whole life, so it cannot be replaced: revoke "${key.kid}" (--revoke ${key.kid}) and install the service's new kid`,
      );
    }
  }
  for (const kid of revoke) {
    const held = await heldKey(publicClient, oracle, kid);
    if (held.revoked) changes.push(plannedChange(kid, "already-revoked"));
    else if (BigInt(held.x) === 0n) {
      throw new DeploymentError("unknown-key", `Cannot revoke "${kid}": the oracle ${oracle} holds no key with that id`);
    } else changes.push(plannedChange(kid, "revoke"));
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
  for (const key of keys) if (key.forced && !revoke.includes(key.kid)) log(forcedKidWarning(key.kid));

  let clients: AttestedOracleClients | undefined;
  if (!dryRun && pending.length > 0) {
    clients = {
      wallet: createWalletClient({
        account: account!,
        chain: chainOf(chainId, options.network ?? `chain ${chainId}`),
        transport: custom(options.provider as { request(args: unknown): Promise<unknown> }),
      }),
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
        `${item.kind === "revoke" ? "Revoking" : "Setting"} the signing key "${item.kid}" on ${oracle} failed: ${describeContractError(cause)}`,
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

async function heldKey(publicClient: PublicClient, oracle: Address, kid: string): Promise<{ x: Hex; y: Hex; revoked: boolean }> {
  const [x, y, revoked] = await publicClient.readContract({
    address: oracle,
    abi: attestedTrustOracleAbi,
    functionName: "signingKey",
    args: [kid],
  });
  return { x, y, revoked };
}

async function resolveSender(
  options: UpdateSigningKeysParameters,
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
