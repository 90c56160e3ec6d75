/**
 * The devnet the refresh tests push to: the embedded local Base chain served over HTTP on loopback, with the reference
 * oracle holding last night's snapshot (one chain's records days old, one agent registered since) and the kit's local
 * signing service; clients of the chain for its publisher account; a deployer of real `AttestedTrustOracle`s over the
 * reference oracle, and the installer of the service's signing key on one.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Abi, type Address, createPublicClient, createWalletClient, getAddress, type Hex, http, type PublicClient } from "viem";
import { signingKeyArgsOfJwks } from "../../src/attestation/onchain-keys";
import {
  type EmbeddedDriftEnvironment,
  type EmbeddedDriftParameters,
  startEmbeddedDriftEnvironment,
} from "../../src/harness/devnet/embedded-drift";
import { type AttestedOracleClients, setTrustSigningKeys } from "../../src/oracle/attested-oracle";

const ROOT = resolve(__dirname, "../..");

/** What {@link startRefreshDevnet} gives. */
export interface RefreshDevnet {
  readonly env: EmbeddedDriftEnvironment;
  /** The publisher's wallet client and a public client, on chain 8453. */
  readonly clients: AttestedOracleClients;
  /** Deploys an `AttestedTrustOracle` over the reference oracle, owned by the publisher. */
  deployAttestedOracle(): Promise<Address>;
  /** Installs the service's signing key (`rnwy-trust-v2`, from its JWKS) on an attested oracle. */
  installServiceKey(oracle: Address): Promise<void>;
  /** Gives an account 100 ETH. */
  fund(address: Address): Promise<void>;
}

/**
 * Starts the devnet: by default 30 agents on Base and Polygon (Polygon's records stale), one registered since the
 * snapshot.
 *
 * @param population - What to change of that population (size, chains, the stale chain, the snapshot's time).
 * @returns The devnet; close it with `env.close()`.
 */
export async function startRefreshDevnet(
  population: Pick<EmbeddedDriftParameters, "size" | "chains" | "staleChain" | "snapshotAt"> = {},
): Promise<RefreshDevnet> {
  const env = await startEmbeddedDriftEnvironment({
    size: 30,
    chains: ["base", "polygon"],
    registries: ["erc8004"],
    staleChain: "polygon",
    delisted: 0,
    faults: false,
    advance: { changedFraction: 0, newAgents: 1 },
    ...population,
  });
  const artifact = JSON.parse(
    readFileSync(resolve(ROOT, "artifacts/contracts/oracle/AttestedTrustOracle.sol/AttestedTrustOracle.json"), "utf8"),
  ) as { abi: Abi; bytecode: Hex };
  const chain = {
    id: 8453,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [env.rpcUrl] } },
  } as const;
  const transport = http(env.rpcUrl);
  const clients: AttestedOracleClients = {
    wallet: createWalletClient({ account: env.simulation.publisher, chain, transport }),
    public: createPublicClient({ chain, transport }) as PublicClient,
  };
  return {
    env,
    clients,
    async deployAttestedOracle() {
      const hash = await clients.wallet.deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args: [clients.wallet.account.address, env.oracle],
        account: clients.wallet.account,
        chain: clients.wallet.chain,
      });
      return getAddress((await clients.public.waitForTransactionReceipt({ hash })).contractAddress!);
    },
    async installServiceKey(oracle) {
      const jwks = (await (await fetch(env.jwksUrl)).json()) as Parameters<typeof signingKeyArgsOfJwks>[0];
      await setTrustSigningKeys(clients, oracle, signingKeyArgsOfJwks(jwks, ["rnwy-trust-v2"]));
    },
    async fund(address) {
      await clients.public.request({ method: "hardhat_setBalance" as "eth_chainId", params: [address, "0x56BC75E2D63100000"] as never });
    },
  };
}
