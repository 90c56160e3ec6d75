/**
 * How `trustgate refresh` connects a run that sends: the chain of `--rpc` with the sender's key from `--keystore`
 * (an encrypted keystore) or `DEPLOYER_PRIVATE_KEY` (never printed), the attested oracle (`--attested-oracle`, else the one the drift report
 * read), the service of `--api` with its issuer and JWKS (by the drift command's defaults: the origin of `--api`, and
 * `<api>/.well-known/jwks.json`); then `sendRefreshPlan`, and the outcome as text and JSON.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, createWalletClient, getAddress, type Hex, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createTrustApiClient } from "../api/client.js";
import { createJwksResolver } from "../attestation/jwks.js";
import { JWKS_PATH } from "../config/service.js";
import { chainOf, resolveDeployerKey } from "../deploy/sender.js";
import { readFile } from "node:fs/promises";
import { decryptKeystore } from "../deploy/keystore.js";
import { ConfigurationError, messageOf } from "../errors.js";
import { promptPassword } from "./password-prompt.js";
import { estimateRefreshCost, type RefreshCostEstimate } from "../refresh/fees.js";
import type { RefreshPlan } from "../refresh/plan.js";
import { type RefreshSendOutcome, sendRefreshPlan } from "../refresh/send.js";
import type { RefreshRunArgs } from "./refresh-args.js";

/** What a run that sends reports: each due attestation's outcome and each transaction (`src/refresh/send.ts`). */
export interface RefreshSendResult {
  /**
   * 0 when every due attestation was stored or is already current, 3 when some was not pushed, 4 when the fee ceiling
   * or the budget stopped the run.
   */
  readonly exitCode: 0 | 3 | 4;
  /** The outcome's lines for people (each ending with a newline). */
  readonly text: string;
  /** The outcome as JSON (the report's `sent`). */
  readonly json: unknown;
}

/** Sends a plan ({@link sendFromArgs}: connects, then `sendRefreshPlan`; replaceable in tests). */
export type SendRefreshFunction = (
  plan: RefreshPlan,
  args: RefreshRunArgs,
  env?: Readonly<Record<string, string | undefined>>,
) => Promise<RefreshSendResult>;

/**
 * Connects to the chain and the service named on the command line, sends the plan, and words the outcome.
 *
 * @param plan - The plan.
 * @param args - The run's arguments (endpoints, `--confirm-mainnet`).
 * @param env - The environment (`DEPLOYER_PRIVATE_KEY`).
 * @returns Exit code 0 when every due attestation is stored or already current, else 3; the text and JSON.
 * @throws {@link ConfigurationError} without an attested oracle, without a key, or on a mainnet without
 *   `--confirm-mainnet`.
 */
export const sendFromArgs: SendRefreshFunction = async (plan, args, env = process.env) => {
  const endpoints = args.endpoints;
  if (!endpoints) throw new ConfigurationError("A refresh that sends needs --rpc and --api");
  const oracle = endpoints.attestedOracle ?? plan.from.attestedOracle;
  if (!oracle) {
    throw new ConfigurationError(
      "No attested oracle to push to: give --attested-oracle <address> (the drift report read none: run drift with --attested-oracle)",
    );
  }
  const attestedOracle: Address = getAddress(oracle);
  const chain = chainOf(plan.from.chainId, `chain ${plan.from.chainId}`);
  const transport = http(endpoints.rpcUrl);
  const account = privateKeyToAccount(await senderKey(args, plan.from.chainId, env));
  const clients = {
    wallet: createWalletClient({ account, chain, transport }),
    public: createPublicClient({ chain, transport }) as PublicClient,
  };
  const issuer = endpoints.issuer ?? new URL(endpoints.apiUrl).origin;
  const jwks =
    typeof endpoints.jwks === "object"
      ? createJwksResolver({ keys: endpoints.jwks as Parameters<typeof createJwksResolver>[0]["keys"] & object })
      : createJwksResolver({ url: endpoints.jwks ?? `${endpoints.apiUrl}${JWKS_PATH}` });
  const api = createTrustApiClient({ baseUrl: endpoints.apiUrl, ...(endpoints.apiKey ? { apiKey: endpoints.apiKey } : {}) });
  const outcome = await sendRefreshPlan(plan, {
    clients,
    attestedOracle,
    api,
    issuer,
    jwks,
    ...(endpoints.acceptedKids !== undefined ? { acceptedKids: endpoints.acceptedKids } : {}),
    confirmMainnet: args.confirmMainnet,
    ...args.sending,
  });
  return resultOf(outcome);
};

/** Name of the environment variable holding the password of `--keystore`. */
export const KEYSTORE_PASSWORD_VARIABLE = "KEYSTORE_PASSWORD";

/**
 * The sender's private key: decrypted from `--keystore` (its password from `KEYSTORE_PASSWORD`, else asked for on
 * the terminal), else `DEPLOYER_PRIVATE_KEY`. Never printed.
 *
 * @param args - The run's arguments.
 * @param chainId - The chain, for the messages.
 * @param env - The environment.
 * @returns The key.
 * @throws {@link ConfigurationError} for an unreadable keystore or a wrong password; the deployment's error without
 *   a key.
 */
export async function senderKey(args: RefreshRunArgs, chainId: number, env: Readonly<Record<string, string | undefined>>): Promise<Hex> {
  const file = args.key.keystore;
  if (file === undefined) return resolveDeployerKey(`chain ${chainId}`, chainId, env);
  let json: string;
  try {
    json = await readFile(file, "utf8");
  } catch (error) {
    throw new ConfigurationError(`--keystore ${file}: cannot read it (${messageOf(error)})`);
  }
  const password =
    env[KEYSTORE_PASSWORD_VARIABLE] ??
    (await promptPassword(
      `Password of ${file}: `,
      `--keystore ${file} needs its password: set ${KEYSTORE_PASSWORD_VARIABLE}, or run on a terminal to be asked for it`,
    ));
  return decryptKeystore(json, password, `--keystore ${file}`);
}

/** Prices a plan at the chain's current fee ({@link estimateCostFromArgs}; replaceable in tests). */
export type EstimateRefreshCostFunction = (plan: RefreshPlan, args: RefreshRunArgs) => Promise<RefreshCostEstimate>;

/**
 * The dry run's cost at the current fee: reads the fees of the chain of `--rpc` (which must be the drift report's),
 * sends nothing and needs no key.
 *
 * @param plan - The plan.
 * @param args - The run's arguments (`--rpc`, `--max-fee-per-gas`).
 * @returns The figures and a line for people.
 * @throws {@link ConfigurationError} without `--rpc`, or for another chain than the drift report's.
 */
export const estimateCostFromArgs: EstimateRefreshCostFunction = async (plan, args) => {
  if (args.rpcUrl === undefined) throw new ConfigurationError("The cost at the current fee needs --rpc");
  const client = createPublicClient({ chain: chainOf(plan.from.chainId, `chain ${plan.from.chainId}`), transport: http(args.rpcUrl) });
  const chainId = await client.getChainId();
  if (chainId !== plan.from.chainId) {
    throw new ConfigurationError(
      `The chain of the RPC is ${chainId}, the drift report's is ${plan.from.chainId}: price the plan on its chain`,
    );
  }
  return estimateRefreshCost(client as PublicClient, plan.totals.estimatedGas, args.sending.maxFeePerGas);
};

/**
 * Words a send outcome for people and picks the exit code.
 *
 * @param outcome - What `sendRefreshPlan` returned.
 * @returns The result the command prints and writes.
 */
export function resultOf(outcome: RefreshSendOutcome): RefreshSendResult {
  let text = "";
  for (const result of outcome.attestations) {
    if (result.outcome === "stored" || result.outcome === "already-current" || result.outcome === "stopped") continue;
    text += `${result.agent}: ${result.outcome}${result.error ? `: ${result.error}` : ""}\n`;
  }
  for (const t of outcome.transactions) {
    const status =
      t.status === "success" || t.status === "reverted" ? `, gas ${BigInt(t.gasUsed).toLocaleString("en-US")}` : ` (${t.status})`;
    const replacements = t.sent.length > 1 ? `, replaced ${t.sent.length - 1}×` : "";
    const earlier = t.fromJournal ? " (sent by an earlier run of the journal)" : "";
    text += `batch ${t.batch}: ${t.hash} nonce ${t.nonce}, ${t.stored} of ${t.attestations} stored${status}${replacements}${earlier}\n`;
  }
  const { totals } = outcome;
  text += `Sent: ${totals.transactions} transaction${totals.transactions === 1 ? "" : "s"} to ${outcome.attestedOracle} (chain ${outcome.chainId}); stored ${totals.stored}, already current ${totals["already-current"]}, no-op ${totals["no-op"]}, refused ${totals.refused}, not fetched ${totals["not-fetched"]}, replaced ${totals.replaced}, stopped ${totals.stopped}; gas ${BigInt(totals.gasUsed).toLocaleString("en-US")}, cost ${totals.costWei} wei\n`;
  if (outcome.stopped !== undefined) {
    const stoppedAgents = outcome.attestations.filter((r) => r.outcome === "stopped").map((r) => r.agent);
    text += `Stopped by the ${outcome.stopped.reason === "budget" ? "budget" : "fee ceiling"} (stopped: ${outcome.stopped.reason}): ${outcome.stopped.detail}. Not sent: ${stoppedAgents.length} attestation${stoppedAgents.length === 1 ? "" : "s"}${stoppedAgents.length > 0 ? ` (${stoppedAgents.join(", ")})` : ""}\n`;
  }
  if (outcome.journal !== undefined) text += `Journal: ${outcome.journal} (a rerun with it resumes without pushing twice)\n`;
  const exitCode = outcome.stopped !== undefined ? 4 : totals.refused + totals["not-fetched"] + totals.replaced > 0 ? 3 : 0;
  return { exitCode, text, json: outcome };
}
