/**
 * The deployment's last step when `attestedOracle.jwks` is configured: the selected keys of that JWKS installed on
 * the attested oracle ({@link updateSigningKeys}), or, in a dry run before that oracle exists, every key listed as
 * one it would set.
 *
 * @packageDocumentation
 */
import type { Account, Address } from "viem";
import { forcedKidWarning, type KeySelection, type LoadedJwks, type SelectedSigningKey } from "./key-selection.js";
import type { DeployProvider } from "./sender.js";
import { ATTESTED_ORACLE } from "./attested-oracle-target.js";
import { describeChange, plannedChange } from "./signing-key-changes.js";
import { type SigningKeysResult, updateSigningKeys } from "./signing-keys.js";

/** What the installation needs. */
export interface KeyInstallation {
  /** The chain. */
  readonly provider: DeployProvider;
  /** Its id. */
  readonly chainId: number;
  /** The network's name, for messages. */
  readonly network: string;
  /** Whether the network is local. */
  readonly local: boolean;
  /** The RPC URL, for messages. */
  readonly rpcUrl: string | undefined;
  /** The attested oracle's address (predicted for a dry run's new oracle). */
  readonly oracle: Address;
  /** True when the attested oracle is not deployed yet (a dry run that would deploy it). */
  readonly oracleIsNew: boolean;
  /** The fetched JWKS. */
  readonly jwks: LoadedJwks;
  /** Its keys to install. */
  readonly keysToInstall: readonly SelectedSigningKey[];
  /** The key selection (kids, forced kids, thumbprints). */
  readonly selection: KeySelection;
  /** The deployer's account; `null` for a dry run without a key. */
  readonly account: Account | Address | null;
  /** The deployer's address. */
  readonly deployer: Address;
  /** Estimate only. */
  readonly dryRun: boolean;
  /** Mainnet confirmed. */
  readonly confirmMainnet: boolean | undefined;
  /** Receives one line per event. */
  readonly log: (line: string) => void;
}

/**
 * Installs (or, in a dry run, lists) the configured signing keys on the attested oracle.
 *
 * @param input - Chain, oracle, JWKS and keys, sender, dry run.
 * @returns The changes made or planned.
 * @throws Those of {@link updateSigningKeys}.
 */
export async function installConfiguredSigningKeys(input: KeyInstallation): Promise<SigningKeysResult> {
  const { log, oracle, jwks, chainId, account } = input;
  if (input.oracleIsNew) {
    // A dry run before the oracle exists: every key would be set on it.
    log(`Dry run: signing keys of the new ${ATTESTED_ORACLE} (predicted at ${oracle}), JWKS ${jwks.source}`);
    for (const key of input.keysToInstall) if (key.forced) log(forcedKidWarning(key.kid));
    const changes = input.keysToInstall.map((key) => plannedChange(key.kid, "set", key));
    for (const change of changes) log(describeChange(change, true));
    log(`Dry run: nothing sent; ${changes.length} signing-key change(s) would be made.`);
    return {
      chainId,
      oracle,
      sender: account === null ? undefined : input.deployer,
      jwks: jwks.source,
      dryRun: input.dryRun,
      changes,
      transactionsSent: 0,
    };
  }
  return updateSigningKeys({
    provider: input.provider,
    oracle,
    jwks,
    ...input.selection,
    dryRun: input.dryRun,
    confirmMainnet: input.confirmMainnet,
    network: input.network,
    expectedChainId: chainId,
    account,
    local: input.local,
    rpcUrl: input.rpcUrl,
    log,
  });
}
