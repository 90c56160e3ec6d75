/**
 * The local chain of `trustgate doctor`'s `onchain-submit` check: Hardhat's in-process network (chain id 8453), or a
 * local fork of a given chain, with the kit's `AttestedTrustOracle` deployed (from its embedded creation code; no
 * upstream, so that every submission is verified rather than answered as a no-op), the service's JWKS keys
 * installed, and the block time set to the caller's now. Submissions are `eth_call`s: nothing is mined, so each
 * sees the same oracle. The command line loads it from `trustgate/harness`, like `--demo`'s environment.
 *
 * Needs the optional peer dependency `hardhat`.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, zeroAddress } from "viem";
import { signingKeyArgsOf } from "../../attestation/onchain-keys.js";
import type {
  OracleSubmission,
  SubmissionOutcome,
  SubmissionSimulator,
  SubmissionSimulatorOptions,
} from "../../doctor/submission-simulator.js";
import { ConfigurationError, DevnetError } from "../../errors.js";
import { attestedTrustOracleAbi } from "../../generated/abis.js";
import { ATTESTED_TRUST_ORACLE_CREATION_CODE } from "../../generated/creation-bytecode.js";
import { parseAddress } from "../../inputs/address.js";
import { redactUrl } from "../../security/redact-url.js";
import { BASE_SIMULATION_CHAIN_ID } from "./base-simulation.js";
import type { HardhatConfigSource } from "./hardhat-network.js";
import { startLocalChain } from "./local-chain.js";
import { describeContractError, revertDecodingTransport } from "./revert-transport.js";

/** Options of {@link startSubmissionSimulator}. */
export interface StartSubmissionSimulatorParameters extends SubmissionSimulatorOptions {
  /** Where the Hardhat network configuration comes from; default `standalone` (no project file read). */
  readonly hardhatConfig?: HardhatConfigSource;
}

/**
 * Starts the chain, deploys the oracle, installs the keys and sets the time (see the module notes).
 *
 * @param options - Keys (every usable ES256 entry is installed; others are skipped), block time, chain to fork and
 *   the time limit of the first request to it.
 * @returns The simulator; close it when done.
 * @throws `ConfigurationError` when Hardhat is not installed; {@link DevnetError} when the fork, the deployment or
 *   a key installation fails.
 */
export async function startSubmissionSimulator(options: StartSubmissionSimulatorParameters): Promise<SubmissionSimulator> {
  if (options.forkUrl !== undefined) await checkForkable(options.forkUrl, options.timeoutMs ?? DEFAULT_FORK_PROBE_TIMEOUT_MS);
  const local = await startLocalChain({
    chainId: BASE_SIMULATION_CHAIN_ID,
    hardhatConfig: options.hardhatConfig ?? "standalone",
    fork: options.forkUrl === undefined ? undefined : { url: options.forkUrl },
  }).catch((error: unknown) => {
    if (options.forkUrl === undefined || error instanceof ConfigurationError) throw error;
    throw new DevnetError(`Forking ${redactUrl(options.forkUrl)} failed`, { cause: error, details: (error as Error)?.message });
  });
  try {
    const request = (method: string, params: unknown[] = []) => local.provider.request({ method, params });
    const [admin] = ((await request("eth_accounts")) as string[]).map((a) => parseAddress(a));
    if (!admin) throw new DevnetError("The local chain has no unlocked account to deploy from");
    const chain = defineChain({
      id: local.chainId,
      name: `Local chain ${local.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [] } },
    });
    const transport = revertDecodingTransport(local.provider);
    const wallet = createWalletClient({ account: admin, chain, transport });
    const reader = createPublicClient({ chain, transport, pollingInterval: 20 });

    const deployment = await wallet.deployContract({
      abi: attestedTrustOracleAbi,
      bytecode: ATTESTED_TRUST_ORACLE_CREATION_CODE,
      args: [admin, zeroAddress],
    });
    const receipt = await reader.waitForTransactionReceipt({ hash: deployment });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new DevnetError("Deploying AttestedTrustOracle failed");
    const oracle: Address = receipt.contractAddress;

    for (const jwk of options.keys) {
      let key;
      try {
        key = signingKeyArgsOf(jwk);
      } catch {
        continue; // not an ES256 P-256 key: the oracle could not hold it
      }
      try {
        const hash = await wallet.writeContract({
          address: oracle,
          abi: attestedTrustOracleAbi,
          functionName: "setSigningKey",
          args: [key.kid, key.x, key.y],
        });
        await reader.waitForTransactionReceipt({ hash });
      } catch (error) {
        throw new DevnetError(`Installing the key "${key.kid}" failed: ${describeContractError(error)}`, { cause: error });
      }
    }

    const latest = await reader.getBlock({ blockTag: "latest" });
    const target = Math.max(Math.floor(options.now.getTime() / 1000), Number(latest.timestamp) + 1);
    await request("evm_setNextBlockTimestamp", [target]);
    await request("evm_mine");

    const description = options.forkUrl !== undefined ? `a local fork of ${redactUrl(options.forkUrl)}` : "Hardhat's in-process network";
    return {
      chain: description,
      async submit(submission: OracleSubmission): Promise<SubmissionOutcome> {
        try {
          const { result } =
            submission.form === "jws"
              ? await reader.simulateContract({
                  address: oracle,
                  abi: attestedTrustOracleAbi,
                  functionName: "submitJwsAttestation",
                  args: [submission.kid, toHex(submission.jws)],
                  account: admin,
                })
              : await reader.simulateContract({
                  address: oracle,
                  abi: attestedTrustOracleAbi,
                  functionName: "submitAttestation",
                  args: [submission.kid, submission.signedJson, submission.signature],
                  account: admin,
                });
          return {
            accepted: true,
            record: { score: result.score, tier: result.tier, sybilSeverity: result.sybilSeverity, updatedAt: Number(result.updatedAt) },
          };
        } catch (error) {
          return { accepted: false, error: describeContractError(error) };
        }
      },
      close: () => local.close(),
    };
  } catch (error) {
    await local.close();
    throw error;
  }
}

/** Default time limit of the first request to a chain to fork: 15 s. */
export const DEFAULT_FORK_PROBE_TIMEOUT_MS = 15_000;

/**
 * Checks that a chain can be forked before Hardhat tries (it retries an unreachable node for a long time): an
 * http(s) URL whose node answers `eth_chainId` within the time limit.
 *
 * @throws {@link DevnetError} naming the URL redacted and the reason.
 */
async function checkForkable(url: string, timeoutMs: number): Promise<void> {
  const shown = redactUrl(url);
  if (!/^https?:/i.test(url)) throw new DevnetError(`Cannot fork ${shown}: Hardhat forks an http(s) JSON-RPC URL only`);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    const reason = (error as Error)?.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : describeFailure(error);
    throw new DevnetError(`Cannot fork ${shown}: ${reason}`, { cause: error });
  }
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof cause === "string" ? `${message} (${cause})` : message;
}

/** The ASCII bytes of a compact JWS, as `bytes`. */
function toHex(jws: string): Hex {
  return `0x${Buffer.from(jws, "ascii").toString("hex")}`;
}
