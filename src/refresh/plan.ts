/**
 * The refresh plan: which rows of a drift report an attested oracle should be sent a fresh attestation for, why, and
 * in which batches. A pure function of the report, the clock and the push rules, so that `--dry-run` prints exactly
 * what a real run then sends.
 *
 * The push rules, in the manner of Pyth's price pusher (a feed is pushed when it is missing on the target, older than
 * its time limit, or has moved by more than its deviation), with the gate's decision as one more rule:
 *
 * | reason | the row is due when |
 * |---|---|
 * | `decision-flip` | the gate's decision on the attested data differs from its decision on the on-chain record (`row.decision.flipped`) |
 * | `missing` | the oracle holds no record for the agent (`row.onchain` is `null`) |
 * | `stale` | the on-chain record is older than `maxAgeSeconds` at the plan's clock |
 * | `score-change` | the attested score differs from the on-chain one by more than `minChange` points |
 *
 * Never a no-op: only a row whose refresh assessment says a signed attestation can refresh it (`row.refresh.possible`:
 * it is newer than the record, its kid is installed, its chain accepted) is ever due. A row blocked only because the
 * attestation the drift run saw has expired is due as well: the run fetches a fresh one before sending. Every other
 * assessed row is skipped with the blocker that stands in its way; a refreshable row that meets no rule is skipped as
 * `not-due`.
 *
 * Batches are filled greedily in the order of the rules above (flips first, then missing, stale, moved; report order
 * within each), each under `gasLimit` by the estimate of {@link REFRESH_GAS_ESTIMATE}. The sender estimates every
 * batch again on the chain before sending it.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import type { DriftStatus, RefreshBlocker } from "../drift/types.js";
import type { RefreshInputReport, RefreshInputRow } from "./report-input.js";

/** Why a row is due (see the module notes for each rule). */
export type RefreshReason = "decision-flip" | "missing" | "stale" | "score-change";

/** Every {@link RefreshReason}, in the order batches are filled. */
export const REFRESH_REASONS: readonly RefreshReason[] = ["decision-flip", "missing", "stale", "score-change"];

/**
 * Why a row is not due: the refresh assessment's blocker (`not-newer`, `kid-revoked`, …), `no-attestation` (the row
 * has no signed attestation that verified, so nothing can be pushed), or `not-due` (it could be refreshed but meets no
 * push rule).
 */
export type RefreshSkip = Exclude<RefreshBlocker, "expired"> | "no-attestation" | "not-due";

/**
 * Transaction gas of the cap Base enforces since Azul (EIP-7825): a transaction may use at most 2^24 gas. A batch's
 * gas limit must be under it.
 */
export const TRANSACTION_GAS_CAP = 16_777_216;

/** Default gas limit of one batch: half the transaction cap, so that an estimate that falls short still fits. */
export const DEFAULT_REFRESH_BATCH_GAS = 8_000_000;

/** Default `minChange`: a score move of more than 5 points is pushed even when it flips no decision. */
export const DEFAULT_REFRESH_MIN_CHANGE = 5;

/**
 * The gas the plan counts for a `submitJwsAttestations` batch, rounded up from what batches used on the devnet
 * (`test/refresh/refresh-devnet.test.ts`, an attested oracle over the reference oracle, P256VERIFY at Base's price):
 * about 48,000 for the transaction and the call, 66,000 a record newer than the upstream's (the attested oracle's
 * first own record for the agent: a fresh storage slot), 82,000 a record for an agent no oracle holds. A record that
 * replaces one the attested oracle holds costs less (`npm run bench`: about 50,600 in a batch), so the estimate is an
 * upper bound there. The sender checks each batch with `eth_estimateGas` before sending it.
 */
export const REFRESH_GAS_ESTIMATE = {
  /** The transaction itself and the batch call, without its records. */
  transaction: 50_000,
  /** One record for an agent an oracle (this one or its upstream) already holds a record of. */
  newerRecord: 70_000,
  /** One record for an agent the oracle answers no record for. */
  firstRecord: 90_000,
} as const;

/** The push rules and the batch size (every field optional: {@link planRefresh} documents the defaults). */
export interface RefreshPlanOptions {
  /** The clock the staleness rule reads; default now. */
  readonly now?: Date;
  /** Staleness limit in seconds (`--max-age`); default the drift report's own `maxAgeSeconds`. */
  readonly maxAgeSeconds?: number;
  /** Score move, in points, past which a record is pushed (`--min-change`); default {@link DEFAULT_REFRESH_MIN_CHANGE}. */
  readonly minChange?: number;
  /** Gas limit of one batch (`--gas-limit`), under {@link TRANSACTION_GAS_CAP}; default {@link DEFAULT_REFRESH_BATCH_GAS}. */
  readonly gasLimit?: number;
}

/** One row the plan pushes. */
export interface RefreshPlanEntry {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  readonly chain: string;
  readonly chainId: number | null;
  readonly agentId: string;
  readonly registry: string;
  /** The row's status in the drift report. */
  readonly status: DriftStatus;
  /** Every rule it meets, in the order of {@link REFRESH_REASONS} (never empty). */
  readonly reasons: readonly RefreshReason[];
  /** One sentence: the rules met, with the values. */
  readonly detail: string;
  /** The key id of the attestation the drift run verified. */
  readonly kid: string;
  /** Whether the oracle holds no record yet (a first record costs more gas). */
  readonly firstRecord: boolean;
  /** The gas the plan counts for it ({@link REFRESH_GAS_ESTIMATE}). */
  readonly estimatedGas: number;
  /** Index of its batch in {@link RefreshPlan.batches}. */
  readonly batch: number;
}

/** One row the plan does not push, and why. */
export interface RefreshPlanSkip {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The row's status in the drift report. */
  readonly status: DriftStatus;
  /** Why it is not pushed. */
  readonly skip: RefreshSkip;
  /** One sentence: the refresh assessment's reason, or why no rule applies. */
  readonly detail: string;
}

/** One transaction of the plan: a `submitJwsAttestations` call. */
export interface RefreshPlanBatch {
  /** Its index, from 0. */
  readonly index: number;
  /** Its agents, `chain:id:registry`, in the order they are sent. */
  readonly agents: readonly string[];
  /** The gas the plan counts for it: the transaction and its records, at most the batch gas limit. */
  readonly estimatedGas: number;
}

/** What {@link planRefresh} returns: the JSON `trustgate refresh --dry-run --json` prints under `plan`. */
export interface RefreshPlan {
  /** When the plan was made (its clock). */
  readonly plannedAt: string;
  /** The drift report it was made from. */
  readonly from: {
    readonly generatedAt: string;
    readonly chainId: number;
    readonly blockNumber: string | null;
    /** The attested oracle the drift run read; `null` when it read none (kids were not checked). */
    readonly attestedOracle: string | null;
  };
  /** The push rules and batch size in force, defaults filled in. */
  readonly settings: { readonly maxAgeSeconds: number; readonly minChange: number; readonly gasLimit: number };
  /** Rows to push, in the order they are sent. */
  readonly due: readonly RefreshPlanEntry[];
  /** Assessed rows not pushed, with why (in-sync rows are counted in `totals.inSync`, not listed). */
  readonly skipped: readonly RefreshPlanSkip[];
  /** The transactions. */
  readonly batches: readonly RefreshPlanBatch[];
  readonly totals: {
    readonly due: number;
    readonly skipped: number;
    /** Rows in sync in the report. */
    readonly inSync: number;
    readonly batches: number;
    /** Sum of the batches' estimates. */
    readonly estimatedGas: number;
    /** Due rows by reason (a row counts under each rule it meets). */
    readonly byReason: Readonly<Record<RefreshReason, number>>;
  };
}

/**
 * Plans a refresh from a drift report: which rows are due under the push rules, which are skipped and why, and the
 * batches under the gas limit (see the module notes).
 *
 * @param report - The drift report (`readRefreshInputReport`, or a `DriftReport` from `runDrift`).
 * @param options - Clock, `maxAgeSeconds` (default the report's), `minChange` (default 5 points) and `gasLimit`
 *   (default 8,000,000; at least one record's estimate, under 2^24).
 * @returns The plan.
 * @throws {@link InvalidArgumentError} for a limit out of range.
 */
export function planRefresh(report: RefreshInputReport, options: RefreshPlanOptions = {}): RefreshPlan {
  const now = options.now ?? new Date();
  const maxAgeSeconds = options.maxAgeSeconds ?? report.maxAgeSeconds;
  const minChange = options.minChange ?? DEFAULT_REFRESH_MIN_CHANGE;
  const gasLimit = options.gasLimit ?? DEFAULT_REFRESH_BATCH_GAS;
  checkSettings(maxAgeSeconds, minChange, gasLimit);

  const candidates: Omit<RefreshPlanEntry, "batch">[] = [];
  const skipped: RefreshPlanSkip[] = [];
  let inSync = 0;
  for (const row of report.agents) {
    const agent = `${row.chain}:${row.agentId}:${row.registry}`;
    if (row.status === "in-sync") {
      inSync++;
      continue;
    }
    const refresh = row.refresh;
    if (refresh === null) {
      skipped.push({
        agent,
        status: row.status,
        skip: "no-attestation",
        detail: `no signed attestation verified for it (status ${row.status}): there is nothing to push`,
      });
      continue;
    }
    if (!refresh.possible && refresh.blocker !== "expired") {
      skipped.push({ agent, status: row.status, skip: refresh.blocker ?? "not-submittable", detail: refresh.reason });
      continue;
    }
    const met = reasonsOf(row, now, maxAgeSeconds, minChange);
    if (met.length === 0) {
      skipped.push({
        agent,
        status: row.status,
        skip: "not-due",
        detail: `refreshable, but no push rule applies: no decision flip, a record younger than ${maxAgeSeconds} s, a score move of at most ${minChange}`,
      });
      continue;
    }
    const firstRecord = row.onchain === null;
    candidates.push({
      agent,
      chain: row.chain,
      chainId: row.chainId,
      agentId: row.agentId,
      registry: row.registry,
      status: row.status,
      reasons: met.map((m) => m.reason),
      detail: met.map((m) => m.detail).join("; "),
      kid: refresh.kid,
      firstRecord,
      estimatedGas: firstRecord ? REFRESH_GAS_ESTIMATE.firstRecord : REFRESH_GAS_ESTIMATE.newerRecord,
    });
  }

  const ordered = candidates
    .map((entry, position) => ({ entry, position, rank: REFRESH_REASONS.indexOf(entry.reasons[0]!) }))
    .sort((a, b) => a.rank - b.rank || a.position - b.position)
    .map(({ entry }) => entry);
  const due: RefreshPlanEntry[] = [];
  const batches: { index: number; agents: string[]; estimatedGas: number }[] = [];
  for (const entry of ordered) {
    let current = batches.at(-1);
    if (current === undefined || current.estimatedGas + entry.estimatedGas > gasLimit) {
      current = { index: batches.length, agents: [], estimatedGas: REFRESH_GAS_ESTIMATE.transaction };
      batches.push(current);
    }
    current.agents.push(entry.agent);
    current.estimatedGas += entry.estimatedGas;
    due.push({ ...entry, batch: current.index });
  }

  const byReason = Object.fromEntries(REFRESH_REASONS.map((reason) => [reason, 0])) as Record<RefreshReason, number>;
  for (const entry of due) for (const reason of entry.reasons) byReason[reason]++;
  return {
    plannedAt: now.toISOString(),
    from: {
      generatedAt: report.generatedAt,
      chainId: report.source.chainId,
      blockNumber: report.source.blockNumber,
      attestedOracle: report.source.attestedOracle?.address ?? null,
    },
    settings: { maxAgeSeconds, minChange, gasLimit },
    due,
    skipped,
    batches,
    totals: {
      due: due.length,
      skipped: skipped.length,
      inSync,
      batches: batches.length,
      estimatedGas: batches.reduce((sum, batch) => sum + batch.estimatedGas, 0),
      byReason,
    },
  };
}

function reasonsOf(row: RefreshInputRow, now: Date, maxAgeSeconds: number, minChange: number): { reason: RefreshReason; detail: string }[] {
  const met: { reason: RefreshReason; detail: string }[] = [];
  const { decision, onchain } = row;
  if (decision.flipped) {
    met.push({
      reason: "decision-flip",
      detail: `the gate ${decision.onchain ? "admits" : "refuses"} it on-chain and would ${decision.attested ? "admit" : "refuse"} it on the attested data`,
    });
  }
  if (onchain === null) {
    met.push({ reason: "missing", detail: "the oracle holds no record for it" });
  } else {
    const ageSeconds = Math.floor((now.getTime() - Date.parse(onchain.updatedAt)) / 1000);
    if (ageSeconds > maxAgeSeconds) {
      met.push({ reason: "stale", detail: `its record of ${onchain.updatedAt} is ${ageSeconds} s old, over ${maxAgeSeconds} s` });
    }
  }
  if (row.scoreDelta !== null && Math.abs(row.scoreDelta) > minChange) {
    met.push({
      reason: "score-change",
      detail: `the attested score moved by ${row.scoreDelta > 0 ? "+" : ""}${row.scoreDelta}, more than ${minChange}`,
    });
  }
  return met;
}

function checkSettings(maxAgeSeconds: number, minChange: number, gasLimit: number): void {
  if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds <= 0) {
    throw new InvalidArgumentError(`maxAgeSeconds must be a whole number of seconds above 0, not ${maxAgeSeconds}`);
  }
  if (!Number.isFinite(minChange) || minChange < 0) {
    throw new InvalidArgumentError(`minChange must be a number of score points of 0 or more, not ${minChange}`);
  }
  const smallest = REFRESH_GAS_ESTIMATE.transaction + REFRESH_GAS_ESTIMATE.firstRecord;
  if (!Number.isSafeInteger(gasLimit) || gasLimit < smallest || gasLimit >= TRANSACTION_GAS_CAP) {
    throw new InvalidArgumentError(
      `gasLimit must be a whole amount of gas from ${smallest} (one first record) to under ${TRANSACTION_GAS_CAP} (2^24, the per-transaction cap of EIP-7825), not ${gasLimit}`,
    );
  }
}
