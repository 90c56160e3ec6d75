/**
 * The drift report: what `trustgate drift` prints as JSON. Field names and status values are pinned (other
 * programs parse them); new fields may be added.
 *
 * @packageDocumentation
 */

import type { OracleReaderMode } from "../oracle/reader-mode.js";

/** Status of one agent's row, from the most to the least alarming family. */
export type DriftStatus =
  "in-sync" | "drifted" | "stale-onchain" | "missing-onchain" | "missing-attestation" | "invalid-attestation" | "error";

/**
 * Every status, in report order of severity (worst first).
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { DRIFT_STATUSES, type DriftReport } from "trustgate/drift";
 *
 * const report = JSON.parse(readFileSync("report.json", "utf8")) as DriftReport;
 * for (const status of DRIFT_STATUSES) console.log(status, report.summary.byStatus[status]);
 * ```
 */
export const DRIFT_STATUSES: readonly DriftStatus[] = [
  "invalid-attestation",
  "error",
  "drifted",
  "stale-onchain",
  "missing-onchain",
  "missing-attestation",
  "in-sync",
];

/**
 * What each status means, in one line: the `--help` of `trustgate drift`, the Markdown report's legend and the
 * page read it from here.
 *
 * @example
 * ```ts
 * import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES } from "trustgate/drift";
 *
 * for (const status of DRIFT_STATUSES) console.log(`${status}: ${DRIFT_STATUS_MEANINGS[status]}`); // a legend for a report
 * ```
 */
export const DRIFT_STATUS_MEANINGS: Readonly<Record<DriftStatus, string>> = {
  "invalid-attestation": "the signed attestation does not verify (signature, key, fields or times)",
  error: "the record or the attestation could not be read (RPC or service failure, bad body)",
  drifted: "score, tier or sybil severity differ between the chain and the attestation",
  "stale-onchain": "the on-chain record is older than --max-age",
  "missing-onchain": "the service knows the agent, the oracle holds no record for it",
  "missing-attestation": "the oracle holds a record, the service has no attestation (404)",
  "in-sync": "the chain and the signed attestation agree",
};

/**
 * What to do about each status, in one sentence: who to tell and what to run. The terminal summary, the JSON report
 * (`actions`, and each entry of `sinceLastNight`), the Markdown report and the page read it from here.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { DRIFT_STATUS_ACTIONS, DRIFT_STATUSES, type DriftReport } from "trustgate/drift";
 *
 * const report = JSON.parse(readFileSync("report.json", "utf8")) as DriftReport;
 * for (const status of DRIFT_STATUSES) {
 *   if (status !== "in-sync" && report.summary.byStatus[status] > 0) console.log(`${status}: ${DRIFT_STATUS_ACTIONS[status]}`);
 * }
 * ```
 */
export const DRIFT_STATUS_ACTIONS: Readonly<Record<DriftStatus, string>> = {
  "invalid-attestation":
    "tell the service's operator, with the row's reason and kid; run trustgate doctor --api <url> to check its keys and signed bytes",
  error:
    "tell whoever runs the RPC or the service when many rows share one cause; run the same command again (with --state it fetches only what failed)",
  drifted:
    "tell the oracle's publisher that its next refresh must carry the service's data; where REFRESH says yes, submit the signed attestation to an AttestedTrustOracle",
  "stale-onchain":
    "tell the oracle's publisher that its nightly write is missing; where REFRESH says yes, submit the signed attestation to an AttestedTrustOracle",
  "missing-onchain":
    "tell the oracle's publisher that the agent has no record; where REFRESH says yes, submit the signed attestation to an AttestedTrustOracle",
  "missing-attestation": "tell the service's operator that it answers 404 for an agent the oracle holds; nothing to run until it signs one",
  "in-sync": "nothing to do",
};

/**
 * A problem of a row, what makes a run exit 3: a decision flip in either direction (`pass-to-fail`, `fail-to-pass`,
 * whatever the row's status), or an invalid attestation (`invalid-attestation`). Every other status is not a
 * problem here: `error` and `missing-attestation` count against `--max-errors` (exit 4), and staleness, drift and
 * missing records without a flip change no gate decision.
 */
export type DriftProblem = "pass-to-fail" | "fail-to-pass" | "invalid-attestation";

/** One problem in `sinceLastNight`: which agent, which problem, its status tonight and what to do about it. */
export interface SinceLastNightProblem {
  /** The agent, `chain:id:registry` (`base:357:erc8004`). */
  readonly agent: string;
  /** The problem. */
  readonly problem: DriftProblem;
  /** The row's status tonight (for a resolved problem: what it is now; `null`: no row for the agent tonight). */
  readonly status: DriftStatus | null;
  /** What to do about that status ({@link DRIFT_STATUS_ACTIONS}; without a row tonight, the action of `error`). */
  readonly action: string;
}

/** A problem seen on consecutive nights. */
export interface PersistingProblem extends SinceLastNightProblem {
  /** Completed nights in a row it was seen, tonight included (2 or more for `persisting`). */
  readonly nights: number;
  /** When the first of those nights started (ISO-8601). */
  readonly since: string;
}

/** A problem a baseline (`--accept`) covers, with its reason and the end of the acceptance. */
export interface AcceptedProblem extends PersistingProblem {
  /** Why it is accepted, as the baseline says. */
  readonly reason: string;
  /** Until when (ISO-8601 time the acceptance ends). */
  readonly until: string;
}

/** A baseline entry whose end has passed: it accepts nothing any more. */
export interface ExpiredAcceptance {
  readonly agent: string;
  readonly problem: DriftProblem;
  readonly reason: string;
  /** When it ended (ISO-8601). */
  readonly until: string;
}

/**
 * What changed since the previous night (`sinceLastNight` in the JSON, with `--state`; `null` without it: there is
 * no previous night to compare with). Each problem of tonight is in exactly one of `new`, `persisting` and
 * `accepted`; `resolved` holds last night's problems that tonight's verified rows no longer show. The key and the
 * four lists' names are pinned.
 */
export interface SinceLastNight {
  /** When the night compared with started (ISO-8601); `null` when the state records none (every problem is new). */
  readonly previousNight: string | null;
  /** `--fail-on`: `any` (every problem exits 3) or `new` (only those in `new`). */
  readonly failOn: "new" | "any";
  /** Problems not seen the night before (and not accepted). */
  readonly new: readonly PersistingProblem[];
  /** Problems seen the night before too (and not accepted), with the nights in a row. */
  readonly persisting: readonly PersistingProblem[];
  /** Last night's problems gone tonight, with tonight's status and how many nights they had lasted. */
  readonly resolved: readonly PersistingProblem[];
  /** Problems of tonight a baseline entry covers (new or not), with its reason and end. */
  readonly accepted: readonly AcceptedProblem[];
  /**
   * Last night's problems whose agent tonight could not be verified (`error`, `missing-attestation`, or no row):
   * neither resolved nor persisting; kept for the next night, their nights not counted on.
   */
  readonly unverified: readonly PersistingProblem[];
  /** Baseline entries whose end has passed: they accept nothing (the problems they name are new or persisting). */
  readonly expired: readonly ExpiredAcceptance[];
}

/** The on-chain side of a row. */
export interface OnchainSide {
  readonly score: number;
  /** Tier name under the encoding in use, or `code:<n>` when the code is outside it. */
  readonly tier: string;
  /** Sybil severity name under the encoding in use, or `code:<n>`. */
  readonly sybilSeverity: string;
  /** ISO-8601 time of the record. */
  readonly updatedAt: string;
}

/** The attested side of a row (from a verified signed attestation, or the service's listing in triage). */
export interface AttestedSide {
  readonly score: number;
  readonly tier: string;
  /** Sybil severity name; the service's `null` (no sybil signal) is shown as `none`. */
  readonly sybilSeverity: string;
  /** ISO-8601 time the service signed (or listed) the data. */
  readonly attestedAt: string;
  /** Key id that signed it; `null` when the data comes from the unsigned listing. */
  readonly kid: string | null;
  /**
   * Present when this run did not fetch the signed attestation but reused the one an earlier run fetched and verified
   * (the state file, `--state`: the listing and the chain said nothing had changed since): when that run verified it.
   */
  readonly fromState?: { readonly verifiedAt: string };
}

/** The gate decision on each side and whether it flips. */
export interface DecisionPair {
  /** Whether the gate admits the agent on its on-chain record now (`null` when unknown). */
  readonly onchain: boolean | null;
  /** Whether the gate would admit it on the attested data (`null` when unknown). */
  readonly attested: boolean | null;
  /** True when both are known and differ. */
  readonly flipped: boolean;
}

/**
 * Why a verified attestation could not refresh the on-chain record (`RowRefresh.blocker`), checked in this order:
 *
 * | blocker | meaning |
 * |---|---|
 * | `not-submittable` | the attestation cannot be submitted as it is: it is not a v2 signed block (v1 carries no `issuedAt`/`expiry`), or `toAttestationCall` refuses it (a JWS header the oracle refuses by its general rules, signed bytes its reader refuses) |
 * | `expired` | its signed `expiry` is more than the clock skew (60 s, the oracle's `MAX_CLOCK_SKEW`) in the past (the oracle refuses it: `AttestationExpired`) |
 * | `kid-not-installed` | the attested oracle holds no key under its kid (`UnknownSigningKey`) |
 * | `kid-revoked` | the attested oracle revoked its kid (`RevokedSigningKey`) |
 * | `key-mismatch` | the attested oracle holds another key under its kid than the JWKS publishes (`InvalidAttestationSignature`) |
 * | `key-unreadable` | the attested oracle's key, or the JWKS entry, could not be read, so it is not known |
 * | `chain-not-accepted` | the attested oracle maps the agent's chain slug to no chain id, or to another one (`UnknownChainSlug`); with no attested oracle named, the slug is not one of the table an oracle is deployed with (`ORACLE_CHAIN_SLUGS`) |
 * | `not-newer` | its signed `issuedAt` is not after the record read: submitting it would change nothing |
 */
export type RefreshBlocker =
  | "not-submittable"
  | "expired"
  | "kid-not-installed"
  | "kid-revoked"
  | "key-mismatch"
  | "key-unreadable"
  | "chain-not-accepted"
  | "not-newer";

/**
 * Every {@link RefreshBlocker}, in the order they are checked.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { type DriftReport, REFRESH_BLOCKERS } from "trustgate/drift";
 *
 * const report = JSON.parse(readFileSync("report.json", "utf8")) as DriftReport;
 * const blocked = new Map(REFRESH_BLOCKERS.map((blocker) => [blocker, 0]));
 * for (const row of report.agents) {
 *   const blocker = row.refresh?.blocker; // why a fresh attestation cannot refresh the record, if it cannot
 *   if (blocker) blocked.set(blocker, (blocked.get(blocker) ?? 0) + 1);
 * }
 * ```
 */
export const REFRESH_BLOCKERS: readonly RefreshBlocker[] = [
  "not-submittable",
  "expired",
  "kid-not-installed",
  "kid-revoked",
  "key-mismatch",
  "key-unreadable",
  "chain-not-accepted",
  "not-newer",
];

/**
 * What the attested oracle holds under an attestation's kid (`RowRefresh.keyStatus`): `installed` (the JWKS's key),
 * `not-installed`, `revoked`, `mismatch` (another key), `unreadable` (the read or the JWKS entry failed), or
 * `unchecked` when the run named no attested oracle (`--attested-oracle`).
 */
export type RefreshKeyStatus = "installed" | "not-installed" | "revoked" | "mismatch" | "unreadable" | "unchecked";

/**
 * Whether the service's signed attestation could refresh a stale, missing or drifted on-chain record through an
 * `AttestedTrustOracle` (`submitAttestation` or `submitJwsAttestation`). Assessed only for rows whose attested
 * data comes from a signed attestation that verified: never for the unsigned listing, never for an invalid one.
 */
export interface RowRefresh {
  /**
   * True when submitting the attestation would make the oracle answer it: it can be submitted as it is, it has not
   * expired, its kid's key is installed on the attested oracle (or `keyStatus` is `unchecked`: no attested oracle
   * was named), the oracle accepts the agent's chain slug (when checked), and its signed `issuedAt` is after the
   * `updatedAt` of the record read (any time, when there is none).
   */
  readonly possible: boolean;
  /** The first thing that stands in the way, when `possible` is false; absent when it is true. */
  readonly blocker?: RefreshBlocker;
  /** One sentence: why it is possible (and how), or what stands in the way (naming the kid, the times, the oracle). */
  readonly reason: string;
  /** Key id that signed the attestation (`attestation.kid`). */
  readonly kid: string;
  /** What the attested oracle holds under that kid; `unchecked` without an attested oracle. */
  readonly keyStatus: RefreshKeyStatus;
  /** ISO-8601 time of the attestation's signed `expiry` (submit before it); `null` when it has none. */
  readonly expiresAt: string | null;
  /**
   * The oracle function to call, when `possible`: `submitJwsAttestation(kid, jws)` for a response that carries a
   * JWS (form `jws`, the first choice), `submitAttestation(kid, signedJson, signature)` for one with only a raw
   * `sig` (form `sig`). The
   * arguments are not in the report (they expire within a day): `toAttestationCall(response)` makes them from a
   * fresh `/api/trust-check` response, and `submitTrustAttestation(clients, oracle, response)` submits it.
   */
  readonly call?: { readonly function: "submitAttestation" | "submitJwsAttestation"; readonly form: "sig" | "jws" };
}

/** The `AttestedTrustOracle` a run read the records from (`--attested-oracle`). */
export interface AttestedOracleSource {
  /** Its address: the records were read from it (each the fresher of its own record and its upstream's). */
  readonly address: string;
  /** Its upstream oracle (`upstream()`), the zero address when it has none. */
  readonly upstream: string;
  /** Whether that upstream is `source.oracle`; when false, the report's `notes` warn (UPSTREAM MISMATCH). */
  readonly upstreamIsOracle: boolean;
}

/** One agent's row. */
export interface DriftRow {
  readonly chain: string;
  readonly chainId: number | null;
  readonly agentId: string;
  readonly registry: string;
  readonly status: DriftStatus;
  readonly onchain: OnchainSide | null;
  readonly attested: AttestedSide | null;
  /**
   * ISO-8601 time the service computed the attested score: the signed `issuedAt` of a v2 attestation, or the
   * listing's `updatedAt` for a row compared with the listing (`attested.kid` null); `null` when unknown (no
   * attested data, a v1 attestation, a listing without times).
   */
  readonly attestedComputedAt: string | null;
  /**
   * Whether the attested score was computed after the on-chain record's `updatedAt` (the last nightly
   * refresh), in whole seconds: `true` means a difference is a change since the last refresh; `false` means
   * the chain should already carry that computation, so a difference is a disagreement about the same
   * computation; `null` when either time is unknown.
   */
  readonly computedAfterRefresh: boolean | null;
  /** attested score − on-chain score, when both are known. */
  readonly scoreDelta: number | null;
  readonly decision: DecisionPair;
  /**
   * Whether the service's signed attestation could refresh the on-chain record through an `AttestedTrustOracle`;
   * `null` unless the row is `stale-onchain`, `missing-onchain` or `drifted` with a signed attestation that
   * verified. Informational: it never changes the status or the exit code.
   */
  readonly refresh: RowRefresh | null;
  /** Why the row is not in sync, or what went wrong. */
  readonly reason?: string;
}

/** Counts of decision flips in each direction. */
export interface DecisionFlips {
  /** The gate admits the agent on-chain, but would refuse it on the service's current data. */
  readonly passToFail: number;
  /** The gate refuses the agent on-chain, but would admit it on the service's current data. */
  readonly failToPass: number;
}

/**
 * Whether on-chain codes agree with the encoding in use: (score, tier code) pairs with the tier encoding (the
 * top-level fields), and sybil codes with the severity the service states (`sybil`).
 */
export interface EncodingCheck {
  /** The tier names by code that were assumed. */
  readonly tiers: readonly string[];
  /** The sybil severity names by code that were assumed. */
  readonly sybilSeverities: readonly string[];
  /** Records checked (those with a record). */
  readonly checked: number;
  /** Records whose tier code, decoded, is not the tier of their score (or is outside the encoding). */
  readonly contradictions: number;
  /** True when no checked record contradicts the tier encoding. */
  readonly consistent: boolean;
  /** Up to five contradicting records, `chain:id:registry score=… tierCode=…`. */
  readonly examples: readonly string[];
  /** Tier codes observed for each score-derived tier, e.g. `{ established: [3] }`. */
  readonly observed: Readonly<Record<string, readonly number[]>>;
  /** The sybil codes against the service's severities. */
  readonly sybil: SybilEncodingCheck;
}

/**
 * Whether on-chain sybil codes agree with the sybil severity the service states for the same agent, under the
 * encoding in use. A score says nothing of the severity, so a record is checked only against a statement of the
 * same computation, as far as the kit can tell: a verified attestation or listing entry with the record's score,
 * computed not after the record was written (or at an unknown time).
 */
export interface SybilEncodingCheck {
  /** Records checked: those with a record and such a statement. */
  readonly checked: number;
  /** Records whose sybil code is not the code of the stated severity (or the severity has no code). */
  readonly contradictions: number;
  /** True when no checked record contradicts the sybil encoding. */
  readonly consistent: boolean;
  /** Up to five contradicting records, `chain:id:registry score=… sybilCode=… (stated heavy, code 4; attestation)`. */
  readonly examples: readonly string[];
  /** Sybil codes observed for each stated severity (`null` read as `none`), e.g. `{ none: [0], heavy: [4] }`. */
  readonly observed: Readonly<Record<string, readonly number[]>>;
}

/** What triage did in an `--all` scan. */
export interface TriageSummary {
  /** Agents listed by the service. */
  readonly listed: number;
  /** Signed attestations fetched (selected by triage: asked for, or taken from the journal of the run continued). */
  readonly signedFetches: number;
  /**
   * Of those, the ones that brought no answer (`error` rows: a network failure, or not asked because the run stopped at
   * `--max-duration` or when the service stopped answering); absent when every one was answered.
   */
  readonly signedNotAnswered?: number;
  /** Signed fetches avoided (listed agents compared with the listing only). */
  readonly fetchesSaved: number;
  /** Why agents were fetched: count per reason. */
  readonly reasons: Readonly<Record<string, number>>;
  /**
   * Fetches a run without evidence would have made but this one did not, per reason (`mismatch`, `stale-onchain`,
   * `missing-onchain`, `near-threshold`, `policy-edge`): the state held a current verified attestation the listing and
   * the chain agree with, or, at a decision edge, the on-chain record holds the computation the listing states.
   */
  readonly avoided?: Readonly<Record<string, number>>;
  /** Of the avoided fetches, how many the state made unnecessary, and how many the on-chain record did. */
  readonly avoidedBy?: { readonly state: number; readonly chain: number };
  /** Share of the agents eligible for the audit (compared with the listing or the state) that it fetched. */
  readonly auditFraction: number;
  /** How the audit sample was sized and what it guarantees. */
  readonly audit?: TriageAudit;
  /** Seed of the audit sample: `--seed` with it draws the same sample from the same agents. */
  readonly seed?: number;
  /** The state file (`--state`): what it holds after this run, and what it stood in for. */
  readonly state?: DriftStateSummary;
  /** Listed scores that a signed attestation then contradicted (a listing that lies). */
  readonly listingContradictions: number;
  /**
   * The search for on-chain records the listing lacks (`--events-from`, default `auto`): the first block
   * replayed (`null` when not looked for), the records the oracle's events say it holds, how many of those the
   * listing lacks (`notListed`), `error` when the replay failed, `skipped` (why) when nothing was replayed.
   */
  readonly onchainEnumeration?: {
    readonly fromBlock: string | null;
    readonly records: number;
    readonly notListed?: number;
    readonly error?: string;
    readonly skipped?: string;
    /**
     * Each oracle whose events were replayed or skipped, when there were several (`--attested-oracle`: the
     * attested oracle's own records, and its upstream's): its address, its part (`attested-oracle`, `upstream`),
     * and the same fields as above for it alone. The fields above then sum them up: the earliest block replayed,
     * the records of all of them (each key once), and, prefixed with the oracle, their errors and skip reasons.
     */
    readonly sources?: readonly OnchainEnumerationSource[];
  };
}

/**
 * How the audit sample of an `--all` scan was sized: by confidence (`confidence`, `lieRate`), and what follows
 * (`liesAtLeast`, `detectionProbability`).
 */
export interface TriageAudit {
  /** Asked probability of catching a listing that lies about at least `lieRate` of the eligible agents. */
  readonly confidence: number;
  /** The share of lying entries the sample is sized to catch. */
  readonly lieRate: number;
  /** Agents the audit could pick: those compared with the listing, or with an attestation from the state. */
  readonly eligible: number;
  /** Agents it fetched. */
  readonly sampleSize: number;
  /** The fewest lying entries a listing lying about `lieRate` of the eligible agents tells: ⌈lieRate × eligible⌉. */
  readonly liesAtLeast: number;
  /** The probability that the sample holds at least one of those (hypergeometric), at least `confidence`. */
  readonly detectionProbability: number;
}

/**
 * One completed run of a state file ("a night"), as the state keeps it in its history and the report shows it in
 * `state.history`. Field names are pinned.
 */
export interface DriftNightSummary {
  /** When the run started (a run continued after a kill or `--max-duration`: when the first part started). */
  readonly startedAt: string;
  /** When it completed. */
  readonly finishedAt: string;
  /** Its exit code. */
  readonly exitCode: 0 | 3 | 4;
  /** Rows per status. */
  readonly statuses: Readonly<Record<DriftStatus, number>>;
  /** Decision flips in each direction. */
  readonly flips: DecisionFlips;
  /** Signed attestations it asked the service for (triage's selection). */
  readonly signedFetches: number;
}

/** The state file's history in the report (`report.state`), present with `--state`. */
export interface DriftStateHistory {
  /**
   * The last completed runs of the state file, oldest first, at most 60, this run last when it completed (a run
   * stopped by `--max-duration` joins the history when the run continuing it completes).
   */
  readonly history: readonly DriftNightSummary[];
}

/** The state file of a run (`--state`), in the report. */
export interface DriftStateSummary {
  /** The file, as given. */
  readonly file: string;
  /** Agents it holds after this run (each with its last verified attestation, or why the last answer did not verify). */
  readonly entries: number;
  /** Rows whose service data is a signed attestation an earlier run verified, reused from the state. */
  readonly fromState: number;
  /** Whether the run ignored the state (`--full`): it fetched as a first run would, and wrote a new state. */
  readonly full: boolean;
  /**
   * Present when the completed run could not rewrite the file (a full disk, a path removed): why, in one line. The file
   * still holds the state of the nights before and this run's journal, which the next run continues.
   */
  readonly notSaved?: string;
  /**
   * The oldest verified attestation the state holds after this run: its agent, when the service computed it (its
   * signed `issuedAt`, `null` when unknown) and when a run verified it; `null` when the state holds none.
   */
  readonly oldestAttestation: { readonly agent: string; readonly computedAt: string | null; readonly verifiedAt: string } | null;
  /** The number of the state file's last line when it was cut short (a crash while writing it) and ignored. */
  readonly truncatedLine?: number;
}

/**
 * A run that stopped before it fetched every signed attestation triage selected (`--max-duration`, or an endpoint that
 * stopped answering): it is partial, and `exitCodeOf` makes it exit 4 whatever else the report says. The agents not
 * fetched are `error` rows.
 */
export interface PartialRun {
  /**
   * Why it stopped: `max-duration` (the time limit passed), or `endpoint-stopped` (the service or the RPC failed
   * `--max-network-failures` times in a row, and the run stopped asking it; `stopped` says which, when and why).
   */
  readonly reason: "max-duration" | "endpoint-stopped";
  /** The time limit, in seconds (`max-duration`; absent for `endpoint-stopped`). */
  readonly maxDurationSeconds?: number;
  /** The endpoint that stopped answering (`endpoint-stopped`). */
  readonly stopped?: {
    /** `service` or `rpc`. */
    readonly endpoint: "service" | "rpc";
    /** When the first of the failures that stopped the run came (ISO 8601): when the endpoint stopped answering. */
    readonly at: string;
    /** The consecutive network failures. */
    readonly failures: number;
    /** The last failure's cause, in one line (`connect ECONNREFUSED 127.0.0.1:8787`). */
    readonly cause: string;
  };
  /** Selected signed attestations that were not fetched (their rows are `error`). */
  readonly notFetched: number;
  /** Whether a state file holds the run's progress, so that running it again continues where it stopped. */
  readonly resumable: boolean;
}

/** One oracle's part of the search for on-chain records the listing lacks. */
export interface OnchainEnumerationSource {
  /** The oracle whose events were replayed (or skipped). */
  readonly oracle: string;
  /** `oracle` (the oracle read), `attested-oracle` (the attested oracle read) or `upstream` (its upstream). */
  readonly role: "oracle" | "attested-oracle" | "upstream";
  /** The first block replayed; `null` when skipped. */
  readonly fromBlock: string | null;
  /** Records its events say it holds. */
  readonly records: number;
  /** Why the replay failed, if it did. */
  readonly error?: string;
  /** Why it was not replayed, if it was not. */
  readonly skipped?: string;
}

/** The verdict of a report: its exit code and why, in one sentence (`report.verdict` in the JSON; `verdictOf`). */
export interface DriftVerdict {
  /** 0, 3 or 4 (see `exitCodeOf`). */
  readonly exitCode: 0 | 3 | 4;
  /** Why, in one plain sentence without a final period, e.g. `2 gate decisions flip`. */
  readonly reason: string;
}

/** The JSON report. */
export interface DriftReport {
  /** Report format version. */
  readonly version: 1;
  readonly generatedAt: string;
  /** The exit code the report calls for and its reason in one sentence (`verdictOf`). */
  readonly verdict: DriftVerdict;
  readonly source: {
    readonly rpc: string;
    readonly oracle: string;
    readonly api: string;
    readonly issuer: string;
    readonly chainId: number;
    readonly blockNumber: string | null;
    /**
     * The `AttestedTrustOracle` the records were read from (`--attested-oracle`), with its upstream; absent when
     * they were read from `oracle` itself.
     */
    readonly attestedOracle?: AttestedOracleSource;
    /**
     * How the oracle was read: `multicall3`, or on a chain without it `deployless-multicall3` or `eth-call`
     * (then `notes` says so). Absent in reports built without reading a chain.
     */
    readonly readerMode?: OracleReaderMode;
  };
  /** The decision rule, e.g. `score >= 51`. */
  readonly decisionRule: string;
  readonly maxAgeSeconds: number;
  readonly summary: {
    readonly agents: number;
    readonly byStatus: Readonly<Record<DriftStatus, number>>;
    readonly flips: DecisionFlips;
    readonly oldestUpdatedAt: string | null;
    readonly newestUpdatedAt: string | null;
    readonly encoding: EncodingCheck;
    readonly triage?: TriageSummary;
    /**
     * Agents the run could not verify (`error` or `missing-attestation`) against the `--max-errors` limit;
     * `exceeded` makes the run exit 4 (see `exitCodeOf`).
     */
    readonly unverified: UnverifiedSummary;
    /**
     * Rows whose record the service's signed attestation could refresh through an `AttestedTrustOracle`
     * (`refresh.possible`); it does not change the exit code.
     */
    readonly refreshable: number;
    /** Present when the run stopped before fetching everything it selected (`--max-duration`): it exits 4. */
    readonly partial?: PartialRun;
  };
  /**
   * What changed since the previous night (pinned: `new`, `persisting`, `resolved`, `accepted`), with `--state`;
   * `null` without a state file, where there is no previous night to compare with.
   */
  readonly sinceLastNight?: SinceLastNight | null;
  /** What to do about each status that has rows ({@link DRIFT_STATUS_ACTIONS}). */
  readonly actions?: Readonly<Partial<Record<DriftStatus, string>>>;
  /**
   * Things about the run itself that a reader of the report should know, one sentence each (for example that
   * Multicall3 is not deployed on the chain and how the oracle was read instead). Absent when there are none.
   */
  readonly notes?: readonly string[];
  /**
   * What the signed fetches were projected to cost before they started (pinned): how many triage selected and how
   * long they take at the client's rate limit in force then. Absent in reports built without a scan.
   */
  readonly projection?: FetchProjection;
  /** With `--state`: the state file's history of nights. */
  readonly state?: DriftStateHistory;
  /** Where the run's time went (not a pinned field: informational). */
  readonly runtime?: DriftRuntime;
  /** Rows, most severe first (flips first). */
  readonly agents: readonly DriftRow[];
}

/**
 * A report without its rows: what a run returns when its rows were handed to `onRow` and not kept
 * (`runDrift(config, { onRow, keepRows: false })`). Its summary still counts every row.
 */
export type DriftReportHead = Omit<DriftReport, "agents">;

/**
 * The projected cost of a run's signed fetches, computed once triage has chosen them and before the first is sent
 * (`report.projection`; `trustgate drift` prints it on stderr). Field names are pinned.
 *
 * The duration is the fetches divided by the rate: the client's limiter grants at most `ratePerMinute` requests in
 * any minute, so at the service's limits (30 a minute without an API key, 300 with one) the rate, not the
 * concurrency or the service's speed, sets how long the stage takes. It leaves out the requests already made (the
 * listing) and retries.
 */
export interface FetchProjection {
  /** Signed `/api/trust-check` attestations the run was about to fetch (triage's selection; every agent of a list). */
  readonly signedFetches: number;
  /**
   * Requests a minute the client's rate limiter allowed when the fetches started (the limit in force: `--rate`, or
   * the service's documented limit by API key, or what the service announced); `null` when the client had no
   * limiter.
   */
  readonly ratePerMinute: number | null;
  /** `signedFetches ÷ ratePerMinute`, in seconds, rounded up; `null` when `ratePerMinute` is. */
  readonly projectedSeconds: number | null;
  /** Whether the requests carried an API key. */
  readonly apiKey: boolean;
  /**
   * What an API key would change: the rate the service grants a key (300 a minute) and the duration at it. Only for a
   * run without a key whose rate was not set by hand (`--rate`) and is below that rate; `null` otherwise.
   */
  readonly withApiKey: { readonly ratePerMinute: number; readonly projectedSeconds: number } | null;
}

/** Where a run's time went, in milliseconds, and how many trust-check requests it made. */
export interface DriftRuntime {
  readonly totalMs: number;
  readonly listingMs: number;
  readonly onchainMs: number;
  /** Wall time of the attestation stage (requests and verification, overlapped). */
  readonly attestationsMs: number;
  /** Summed time of trust-check requests (concurrent requests overlap). */
  readonly requestMs: number;
  /** Summed time of attestation verification. */
  readonly verifyMs: number;
  readonly serviceRequests: number;
  /**
   * When the run continued one that was killed or stopped (same `--state`): answers reused from that run's journal
   * instead of being fetched again.
   */
  readonly resumedOutcomes?: number;
}

/** The largest number of agents a run may leave unverified: a count, or a percentage of the scanned agents. */
export type ErrorLimit =
  /** At most `value` unverified agents. */
  | { readonly kind: "count"; readonly value: number }
  /** At most `value` % of the scanned agents (0–100, at most six decimals). */
  | { readonly kind: "percent"; readonly value: number };

/** What the report says about the agents a run could not verify (`summary.unverified` in the JSON). */
export interface UnverifiedSummary {
  /** Rows in status `error` or `missing-attestation`. */
  readonly count: number;
  /** `count` divided by the scanned agents; `null` when no agent was scanned. */
  readonly fraction: number | null;
  /** The limit applied. */
  readonly limit: ErrorLimit;
  /** The largest `count` the limit allows for this many scanned agents (a percentage rounds down). */
  readonly allowed: number;
  /**
   * True when the run fails for lack of verification: `count > allowed`, or no agent was scanned at all
   * (then nothing was verified, whatever the limit).
   */
  readonly exceeded: boolean;
}
