/**
 * What a drift run needs, resolved: where the chain and the service are, which agents, which decision rule,
 * and the limits. The command line (`src/cli/`) and programs build this; `runDrift` consumes it.
 *
 * @packageDocumentation
 */

import type { DriftBaseline } from "./baseline.js";
import type { AgentRef } from "../agent/agent-ref.js";
import type { TrustEncoding } from "../config/encodings.js";
import { type AuditPlan, checkAuditPlan, DEFAULT_AUDIT_CONFIDENCE, DEFAULT_AUDIT_LIE_RATE } from "./audit.js";
import type { ErrorLimit } from "./error-limit.js";

/** Which agents a run covers. */
export type AgentScope =
  /** An explicit list. */
  | { readonly kind: "list"; readonly agents: readonly AgentRef[] }
  /** Every agent the service lists, with triage deciding which signed attestations to fetch. */
  | {
      readonly kind: "all";
      readonly chain?: string;
      /**
       * Size the audit sample to catch, with this probability (0–1 exclusive), a listing that lies about at least
       * `auditLieRate` of the agents compared with it (`--audit-confidence`; default {@link DEFAULT_AUDIT_CONFIDENCE}).
       */
      readonly auditConfidence?: number;
      /** The share of lying listing entries the audit is sized to catch (`--audit-lie-rate`; default 0.01). */
      readonly auditLieRate?: number;
      /**
       * Seed of the audit sample (`--seed`). Absent: the seed of the run being continued (`state`), else a fresh
       * cryptographically random one; the report prints it (`summary.triage.seed`) so that a run can be reproduced.
       */
      readonly seed?: number;
      /**
       * Also replay the oracle's `RecordAdded`/`RecordRemoved` events, to find on-chain records of agents the
       * listing lacks (the reference oracle emits them; the live oracle's events are not published, so there
       * this finds nothing): from this block, or `"auto"` — from the oracle's deployment block when it can be
       * found and the span is at most `ONCHAIN_ENUMERATION_MAX_BLOCKS` (see `onchain-enumeration.ts`).
       * Absent: not looked for, and the report says so in its notes.
       */
      readonly eventsFromBlock?: bigint | "auto";
    };

/** A resolved drift configuration. */
export interface DriftConfig {
  /** JSON-RPC URL of the chain hosting the oracle. */
  readonly rpcUrl: string;
  /** The oracle address (the Base oracle; with `attestedOracle`, the upstream it is expected to fall back on). */
  readonly oracle: `0x${string}`;
  /**
   * An `AttestedTrustOracle` to read the records from instead of `oracle`: it answers each read with the fresher of
   * its own record (from submitted signed attestations) and its upstream's. The run checks that the address holds
   * one (`upstream()` answers), warns in the report's notes when its upstream is not `oracle`, replays the events of
   * both for `--all`, and checks each refreshable row's kid against its keys (`row.refresh`).
   */
  readonly attestedOracle?: `0x${string}`;
  /** Base URL of the trust API. */
  readonly apiUrl: string;
  /** API key (raises the rate limit), if any. */
  readonly apiKey?: string;
  /** Issuer attestations must name: the API's origin unless overridden. */
  readonly issuer: string;
  /**
   * The name the state file (`state`) records for the trust service, as its API and issuer, instead of `apiUrl` and
   * `issuer`: for a service whose address changes from run to run while it stays the same service (the embedded
   * one takes a free loopback port each time). Default: the URL and the issuer.
   */
  readonly serviceIdentity?: string;
  /** JWKS: a URL, or a file's parsed content. Default `<api>/.well-known/jwks.json`. */
  readonly jwks: string | { readonly keys: readonly Record<string, unknown>[] };
  /**
   * Key ids the attestations may be signed under; default the kit's trust kids (`TRUST_ATTESTATION_KIDS`). After the
   * service rotates its key, add its next kid (`--accept-kid`).
   */
  readonly acceptedKids?: readonly string[];
  readonly scope: AgentScope;
  /** `score >= threshold`; with `gate`, overrides the gate's `minScore`. */
  readonly threshold?: number;
  /** A deployed `TrustGated` whose policy decides. */
  readonly gate?: `0x${string}`;
  /** On-chain records older than this are stale, seconds. */
  readonly maxAgeSeconds: number;
  /** Service requests in flight at most. */
  readonly concurrency: number;
  /**
   * Records read per `eth_call` (one Multicall3 `aggregate3`), 1–5,000. Default 500 (`DEFAULT_CHUNK_SIZE` of the
   * oracle reader): few round trips to a remote node. A node in the job's own process wants fewer: Hardhat 2's
   * in-process chain keeps memory in proportion to each call's EVM steps (the embedded `--demo` chain names its own).
   */
  readonly readChunkSize?: number;
  /** Client-side limit, requests per minute (default by key presence: 30 or 300). */
  readonly ratePerMinute?: number;
  readonly encoding: TrustEncoding;
  /**
   * Time-out of one request, in ms: each JSON-RPC request (viem's HTTP transport), each attempt of a service
   * request (the API client's `timeoutMs`) and the JWKS fetch. Default: 30 s for RPC, 15 s for the service.
   */
  readonly timeoutMs?: number;
  /**
   * Agents that may go unverified (status `error` or `missing-attestation`) before the run fails with exit 4:
   * a count or a percentage of the scanned agents. Default `DEFAULT_ERROR_LIMIT` (1 %).
   */
  readonly maxErrors?: ErrorLimit;
  /**
   * State file kept between runs (`--state`, `--all` only): what earlier runs verified, so that a run fetches a signed
   * attestation only where something could have changed (see `stages/triage.ts`), and the journal of the run in
   * progress, so that a run killed or stopped continues where it was when started again. Created when missing.
   */
  readonly state?: string;
  /**
   * Ignore what the state holds and triage as a first run would (`--full`); the state is still written. Also starts
   * over a state written for another oracle, chain, API, rule or encoding (refused otherwise). Needs `state`.
   */
  readonly full?: boolean;
  /**
   * Start no signed fetch once this many seconds have passed since the run started (`--max-duration`): requests in
   * flight finish, the agents left are `error` rows, the report is partial (`summary.partial`, exit 4), and with
   * `state` the next run continues where this one stopped.
   */
  readonly maxDurationSeconds?: number;
  /**
   * Known problems accepted for a while (`--accept <file>`, read by `parseBaseline`): each still reported, in
   * `sinceLastNight.accepted`; with `failOn: "new"` they no longer make the run exit 3. Needs `state`.
   */
  readonly baseline?: DriftBaseline;
  /**
   * Which problems make the run exit 3 (`--fail-on`): `any` (the default: every decision flip and invalid
   * attestation) or `new` (only those not seen the night before and not accepted). `new` needs `state`. A run that
   * could not verify enough still exits 4.
   */
  readonly failOn?: "new" | "any";
  /**
   * Consecutive network failures (a connection refused or reset, a request timed out) of the service, or of the RPC,
   * after which the run stops asking it (`--max-network-failures`): the agents left are `error` rows with that one
   * cause, the report is partial (`summary.partial`, exit 4), and with `state` the next run continues where this one
   * stopped. Default `DEFAULT_MAX_NETWORK_FAILURES` (5); 0 never stops asking.
   */
  readonly maxNetworkFailures?: number;
}

/**
 * Decision threshold used when neither `--threshold` nor `--gate` is given: the `developing` tier.
 *
 * @example
 * ```ts
 * import { DEFAULT_DECISION_THRESHOLD } from "trustgate/drift";
 *
 * // without threshold or gate, a drift run decides with score >= 51 (the developing tier)
 * const passes = (score: number) => score >= DEFAULT_DECISION_THRESHOLD;
 * ```
 */
export const DEFAULT_DECISION_THRESHOLD = 51;
/**
 * Default staleness limit: 36 hours, one nightly refresh plus 12 hours. The service recomputes every score nightly at
 * 03:00 UTC and holds its data current for 24 h (crosswalk `refresh_hint`, `max_age_seconds: 86400`), but does not
 * publish when the night's write reaches the oracle: a 24 h limit would call every record stale each night until that
 * write lands, while 36 h reports a missed night by the following afternoon. `--max-age 24h` holds records to the
 * service's own 24 h.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_AGE_SECONDS } from "trustgate/drift";
 *
 * // an on-chain record older than 36 hours is stale-onchain: a nightly refresh was missed
 * const stale = (updatedAt: Date, now = new Date()) => now.getTime() - updatedAt.getTime() > DEFAULT_MAX_AGE_SECONDS * 1000;
 * ```
 */
export const DEFAULT_MAX_AGE_SECONDS = 36 * 3600;

export { DEFAULT_AUDIT_CONFIDENCE, DEFAULT_AUDIT_LIE_RATE } from "./audit.js";

/**
 * The audit plan of an `--all` scope: a sample sized by confidence (`auditConfidence`, `auditLieRate`, each defaulted).
 *
 * @param scope - The scope.
 * @returns The plan, checked.
 * @throws `InvalidArgumentError` for a value out of range.
 */
export function auditPlanOf(scope: Extract<AgentScope, { kind: "all" }>): AuditPlan {
  return checkAuditPlan({
    confidence: scope.auditConfidence ?? DEFAULT_AUDIT_CONFIDENCE,
    lieRate: scope.auditLieRate ?? DEFAULT_AUDIT_LIE_RATE,
  });
}
