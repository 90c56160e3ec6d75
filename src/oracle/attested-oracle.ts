/**
 * Writing to an `AttestedTrustOracle` with viem: submitting a `/api/trust-check` attestation (pull model: whoever
 * needs fresh data brings the signed update), installing the service's signing keys and revoking key ids. Each write is simulated
 * first, so a refusal surfaces as the contract's custom error (decoded by viem, with its values) before any gas is
 * spent.
 *
 * @packageDocumentation
 */
import type { Account, Address, Chain, Hash, PublicClient, Transport, WalletClient } from "viem";
import { type AttestationCallVerdict, toAttestationCall } from "../attestation/onchain-call.js";
import type { SigningKeyArgs } from "../attestation/onchain-keys.js";
import { OracleWriteError } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";

/** A wallet client with an account, and a public client of the same chain (to simulate and wait). */
export interface AttestedOracleClients {
  readonly wallet: WalletClient<Transport, Chain | undefined, Account>;
  readonly public: PublicClient;
}

/**
 * Submits a trust-check attestation to an `AttestedTrustOracle` in the form {@link toAttestationCall} chose:
 * `submitJwsAttestation(kid, jws)` (the JWS as issued, verified over its own bytes) for form `jws`, else
 * `submitAttestation(kid, signedJson, signature)` for a response that has only a raw `sig`. An attestation not newer
 * than the record the oracle answers is a no-op on-chain (the transaction succeeds and stores nothing).
 *
 * @param clients - Wallet (sender) and public client.
 * @param oracle - The attested oracle's address.
 * @param response - The `/api/trust-check` response body (or its `attestation`).
 * @param verdict - Its verdict from `verifyTrustAttestation`, so that a raw `sig` is submitted over the bytes it
 *   verified over (without it, a `sig` alone is taken to cover the insertion order).
 * @returns The transaction hash, once the transaction is mined with status success.
 * @throws The contract's custom error (viem's `ContractFunctionExecutionError`, with the error's name and values) when
 *   the oracle refuses the attestation; `InvalidArgumentError` when the response carries no usable attestation;
 *   {@link OracleWriteError} when a mined transaction reverted.
 *
 * @example
 * ```ts
 * import { createPublicClient, createWalletClient, http } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { base } from "viem/chains";
 * import { createTrustApiClient, submitTrustAttestation, verifyTrustAttestation } from "trustgate";
 *
 * const transport = http(process.env.BASE_RPC_URL);
 * const account = privateKeyToAccount(process.env.SUBMITTER_KEY as `0x${string}`);
 * const clients = { wallet: createWalletClient({ account, chain: base, transport }), public: createPublicClient({ transport }) };
 * const check = await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * const verdict = await verifyTrustAttestation(check); // optional: the form that verified is the one sent
 * const hash = await submitTrustAttestation(clients, "0xYourAttestedOracle", check, verdict); // simulated first
 * ```
 */
export async function submitTrustAttestation(
  clients: AttestedOracleClients,
  oracle: Address,
  response: unknown,
  verdict?: AttestationCallVerdict,
): Promise<Hash> {
  const call = toAttestationCall(response, verdict);
  const account = clients.wallet.account;
  if (call.form === "sig") {
    const { request } = await clients.public.simulateContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "submitAttestation",
      args: [call.kid, call.signedJson, call.signature],
      account,
    });
    return confirm(clients, await clients.wallet.writeContract(request));
  }
  const { request } = await clients.public.simulateContract({
    address: oracle,
    abi: attestedTrustOracleAbi,
    functionName: "submitJwsAttestation",
    args: [call.kid, call.jws!],
    account,
  });
  return confirm(clients, await clients.wallet.writeContract(request));
}

/**
 * Installs signing keys on an `AttestedTrustOracle` (admin only), skipping keys it already holds with the same
 * coordinates. The oracle accepts a trust record signed under any kid it holds: give it only the trust-check kids
 * (`signingKeyArgsOfJwks(jwks, ONCHAIN_TRUST_ATTESTATION_KIDS)`; `npm run keys` enforces it). A key id names one
 * key for its whole life: a kid held with other coordinates is refused by the contract.
 *
 * @param clients - Wallet (the oracle's admin) and public client.
 * @param oracle - The attested oracle's address.
 * @param keys - Keys to install (`signingKeyArgsOfJwks` makes them from the service's JWKS).
 * @returns For each key, `set` with the transaction hash or `unchanged`.
 * @throws The contract's custom error (e.g. AccessControl's `AccessControlUnauthorizedAccount`, a revoked kid, or
 *   a kid held with another key); {@link OracleWriteError} when a mined transaction reverted.
 *
 * @example
 * ```ts
 * import { createPublicClient, createWalletClient, http } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { base } from "viem/chains";
 * import { setTrustSigningKeys, signingKeyArgsOfJwks } from "trustgate";
 *
 * const transport = http(process.env.BASE_RPC_URL);
 * const account = privateKeyToAccount(process.env.ADMIN_KEY as `0x${string}`); // holds the oracle's admin role
 * const clients = { wallet: createWalletClient({ account, chain: base, transport }), public: createPublicClient({ transport }) };
 * const jwks = (await (await fetch("https://rnwy.com/.well-known/jwks.json")).json()) as Parameters<typeof signingKeyArgsOfJwks>[0];
 * const outcomes = await setTrustSigningKeys(clients, "0xYourAttestedOracle", signingKeyArgsOfJwks(jwks, ["rnwy-trust-v2"]));
 * for (const { kid, outcome } of outcomes) console.log(kid, outcome); // "set", or "unchanged" when already held
 * ```
 */
export async function setTrustSigningKeys(
  clients: AttestedOracleClients,
  oracle: Address,
  keys: readonly SigningKeyArgs[],
): Promise<{ readonly kid: string; readonly outcome: "set" | "unchanged"; readonly hash?: Hash }[]> {
  const results: { kid: string; outcome: "set" | "unchanged"; hash?: Hash }[] = [];
  for (const key of keys) {
    const held = await clients.public.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "signingKey",
      args: [key.kid],
    });
    const [x, y] = held as readonly [string, string, ...unknown[]];
    if (x.toLowerCase() === key.x.toLowerCase() && y.toLowerCase() === key.y.toLowerCase()) {
      results.push({ kid: key.kid, outcome: "unchanged" });
      continue;
    }
    const { request } = await clients.public.simulateContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "setSigningKey",
      args: [key.kid, key.x, key.y],
      account: clients.wallet.account,
    });
    results.push({ kid: key.kid, outcome: "set", hash: await confirm(clients, await clients.wallet.writeContract(request)) });
  }
  return results;
}

/**
 * Revokes signing key ids on an `AttestedTrustOracle` (admin only), skipping key ids it already holds as revoked.
 * Revocation is final: the oracle refuses attestations under a revoked kid, and the kid can never be set again.
 *
 * @param clients - Wallet (the oracle's admin) and public client.
 * @param oracle - The attested oracle's address.
 * @param kids - Key ids to revoke.
 * @returns For each kid, `revoked` with the transaction hash or `unchanged` (it was already revoked).
 * @throws The contract's custom error (`UnknownSigningKey` for a kid never set, AccessControl's
 *   `AccessControlUnauthorizedAccount`); {@link OracleWriteError} when a mined transaction reverted.
 *
 * @example
 * ```ts
 * import { createPublicClient, createWalletClient, http } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { base } from "viem/chains";
 * import { revokeTrustSigningKeys } from "trustgate";
 *
 * const transport = http(process.env.BASE_RPC_URL);
 * const account = privateKeyToAccount(process.env.ADMIN_KEY as `0x${string}`);
 * const clients = { wallet: createWalletClient({ account, chain: base, transport }), public: createPublicClient({ transport }) };
 * // final: the oracle refuses the kid's attestations from then on, and its records read as absent
 * const outcomes = await revokeTrustSigningKeys(clients, "0xYourAttestedOracle", ["rnwy-trust-v1"]);
 * ```
 */
export async function revokeTrustSigningKeys(
  clients: AttestedOracleClients,
  oracle: Address,
  kids: readonly string[],
): Promise<{ readonly kid: string; readonly outcome: "revoked" | "unchanged"; readonly hash?: Hash }[]> {
  const results: { kid: string; outcome: "revoked" | "unchanged"; hash?: Hash }[] = [];
  for (const kid of kids) {
    const [, , revoked] = await clients.public.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "signingKey",
      args: [kid],
    });
    if (revoked) {
      results.push({ kid, outcome: "unchanged" });
      continue;
    }
    const { request } = await clients.public.simulateContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "revokeSigningKey",
      args: [kid],
      account: clients.wallet.account,
    });
    results.push({ kid, outcome: "revoked", hash: await confirm(clients, await clients.wallet.writeContract(request)) });
  }
  return results;
}

async function confirm(clients: AttestedOracleClients, hash: Hash): Promise<Hash> {
  const receipt = await clients.public.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new OracleWriteError(hash, "The oracle write was mined but reverted");
  return hash;
}
