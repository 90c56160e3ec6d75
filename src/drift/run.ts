/**
 * A whole drift run from a resolved configuration: check that the chain, the oracle (and gate) and the
 * service are reachable, choose once how to read the oracle (Multicall3, or deployless Multicall3 or one
 * `eth_call` per record where it is not deployed; the report says so), run the scan pipeline for the scope
(`scan.ts` or `scan-all.ts`, both `runScan` in `pipeline.ts`), and hand its result to the report stage. Problems
 * found before the scan are {@link ConfigurationError}s; once the scan runs, a failure on one agent is a row,
 * never a throw.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { getBlockNumber, getChainId, getCode } from "viem/actions";
import { createTrustApiClient } from "../api/client.js";
import { createJwksResolver, type JwksResolver } from "../attestation/jwks.js";
import { ConfigurationError, messageOf } from "../errors.js";
import { readGatePolicy } from "../oracle/gate.js";
import { detectReaderMode, type ReaderModeDetection } from "../oracle/reader-mode.js";
import { DEFAULT_DECISION_THRESHOLD, type DriftConfig } from "./config.js";
import { type DecisionRule, describeRule } from "./decision.js";
import { checkErrorLimit } from "./error-limit.js";
import { onchainEnumerationNote, planOnchainEnumeration } from "./onchain-enumeration.js";
import type { ScanResult } from "./pipeline.js";
import type { ScanProgress } from "./progress.js";
import { readerModeNote } from "./reader-mode-note.js";
import { scanAgents } from "./scan.js";
import { scanAllAgents } from "./scan-all.js";
import { newServiceStats } from "./stages/fetch-verify.js";
import { reportScan } from "./stages/report.js";
import type { DriftReport } from "./types.js";

/** Optional hooks of {@link runDrift}. */
export interface DriftHooks {
  /** Progress of the scan's stages. */
  readonly onProgress?: (progress: ScanProgress) => void;
  /** Clock (default the system clock). */
  readonly now?: () => Date;
}

/**
 * Runs the drift job.
 *
 * @param config - Endpoints, agents, decision rule and limits.
 * @param hooks - Progress and clock.
 * @returns The report.
 * @throws {@link ConfigurationError} when the RPC or API is unreachable, or the oracle or gate address has no
 *   contract, before any agent is scanned; an `InvalidArgumentError` for an invalid `maxErrors`, before too.
 *   A chain without Multicall3 is not refused: the report's `source.readerMode` and `notes` say how it was
 *   read instead.
 */
export async function runDrift(config: DriftConfig, hooks: DriftHooks = {}): Promise<DriftReport> {
  if (config.maxErrors) checkErrorLimit(config.maxErrors);
  const now = hooks.now ?? (() => new Date());
  const started = performance.now();
  const chain = createPublicClient({
    transport: http(config.rpcUrl, { retryCount: 2, timeout: config.timeoutMs ?? 30_000 }),
  }) as PublicClient;
  const { chainId, blockNumber, reader } = await checkChain(chain, config.rpcUrl, config.oracle);
  const rule = await decisionRule(chain, config, blockNumber);
  const jwks = await checkService(config);
  const api = createTrustApiClient({
    baseUrl: config.apiUrl,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.ratePerMinute ? { rateLimit: config.ratePerMinute } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  });

  const stats = newServiceStats();
  const common = {
    chain,
    oracle: config.oracle,
    api,
    attestations: {
      issuer: config.issuer,
      jwks,
      now,
      stats,
      ...(config.verifyWorkers !== undefined ? { verifyWorkers: config.verifyWorkers } : {}),
    },
    rule,
    maxAgeSeconds: config.maxAgeSeconds,
    encoding: config.encoding,
    concurrency: config.concurrency,
    blockNumber,
    readerMode: reader.mode,
    now,
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
  };
  const scope = config.scope;
  const enumeration =
    scope.kind === "all" ? await planOnchainEnumeration(chain, config.oracle, scope.eventsFromBlock, blockNumber) : undefined;
  const result: ScanResult =
    scope.kind === "list"
      ? await scanAgents(scope.agents, common)
      : await scanAllAgents({
          ...common,
          auditFraction: scope.auditFraction,
          seed: scope.seed,
          ...(scope.chain ? { chainFilter: scope.chain } : {}),
          ...(enumeration?.kind === "replay" ? { enumerateOnchainFrom: enumeration.fromBlock } : {}),
          ...(enumeration?.kind === "skipped" ? { enumerationSkipped: enumeration.reason } : {}),
        });

  return reportScan(result, {
    source: {
      rpc: redactUrl(config.rpcUrl),
      oracle: config.oracle,
      api: config.apiUrl,
      issuer: config.issuer,
      chainId,
      blockNumber: blockNumber.toString(),
      readerMode: reader.mode,
    },
    decisionRule: describeRule(rule),
    maxAgeSeconds: config.maxAgeSeconds,
    encoding: config.encoding,
    notes: [readerModeNote(reader, chainId), onchainEnumerationNote(result.triage)].filter((note): note is string => note !== null),
    runtime: { totalMs: performance.now() - started, service: stats },
    generatedAt: now(),
    ...(config.maxErrors ? { errorLimit: config.maxErrors } : {}),
  });
}

async function checkChain(
  chain: PublicClient,
  rpcUrl: string,
  oracle: Address,
): Promise<{ chainId: number; blockNumber: bigint; reader: ReaderModeDetection }> {
  let chainId: number;
  let blockNumber: bigint;
  try {
    [chainId, blockNumber] = await Promise.all([getChainId(chain), getBlockNumber(chain)]);
  } catch (error) {
    throw new ConfigurationError(`Cannot reach the RPC at ${redactUrl(rpcUrl)}`, { cause: error, details: messageOf(error) });
  }
  // Read mode chosen once, at the pinned block: Multicall3 where deployed, else deployless, else eth_call.
  const [oracleCode, reader] = await Promise.all([
    getCode(chain, { address: oracle, blockNumber }),
    detectReaderMode(chain, { blockNumber }),
  ]).catch((error: unknown) => {
    throw new ConfigurationError(`Cannot read code from the RPC at ${redactUrl(rpcUrl)}`, { cause: error, details: messageOf(error) });
  });
  if (!oracleCode || oracleCode === "0x") throw new ConfigurationError(`No contract at the oracle address ${oracle} on chain ${chainId}`);
  return { chainId, blockNumber, reader };
}

async function decisionRule(chain: PublicClient, config: DriftConfig, blockNumber: bigint): Promise<DecisionRule> {
  if (!config.gate) return { kind: "threshold", threshold: config.threshold ?? DEFAULT_DECISION_THRESHOLD };
  try {
    const gate = await readGatePolicy(chain, config.gate, { blockNumber });
    const policy = config.threshold === undefined ? gate.policy : { ...gate.policy, minScore: config.threshold };
    return { kind: "gate", gate: gate.gate, policy };
  } catch (error) {
    throw new ConfigurationError(`Cannot read the policy of the gate ${config.gate}`, { cause: error, details: messageOf(error) });
  }
}

async function checkService(config: DriftConfig): Promise<JwksResolver> {
  if (typeof config.jwks !== "string") {
    return createJwksResolver({ keys: config.jwks as Parameters<typeof createJwksResolver>[0]["keys"] & object });
  }
  const resolver = createJwksResolver({ url: config.jwks, ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}) });
  try {
    await resolver.reload();
  } catch (error) {
    throw new ConfigurationError(`Cannot fetch the service's JWKS at ${config.jwks}`, { cause: error, details: messageOf(error) });
  }
  return resolver;
}

/** The URL without credentials, query or path secrets (RPC URLs often carry an API key in the path). */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 1 ? "/…" : "";
    return `${parsed.protocol}//${parsed.host}${path}`;
  } catch {
    return "<invalid URL>";
  }
}
