/**
 * The doctor's report: one result per check (holds, differs, could not check), what was looked at, and the exit
 * code. Its JSON form (`trustgate doctor --json`) is meant to be attached to a bug report: field names and status
 * values are pinned (other programs parse them); new fields may be added.
 *
 * @packageDocumentation
 */

/** The outcome of one check. */
export type CheckStatus =
  /** What the kit assumes is what the live service or chain does. */
  | "holds"
  /** The live service or chain does something else; `summary` says what it saw. */
  | "differs"
  /** The check could not be made (what it needs is absent or failed); `summary` says why. */
  | "could-not-check";

/** Every status, in the order a summary counts them. */
export const CHECK_STATUSES: readonly CheckStatus[] = ["holds", "differs", "could-not-check"];

/** Ids of the checks about signatures, signed times, keys and limits (the `fields:<endpoint>` checks come on top). */
export const SIGNATURE_CHECK_IDS = ["sig-bytes", "jws-header", "jws-payload", "jwks-kids", "rate-limit-headers", "time-forms"] as const;

/** Ids of the checks that read a chain. */
export const ONCHAIN_CHECK_IDS = ["onchain-encodings", "onchain-p256", "onchain-submit"] as const;

/**
 * A check id: one of {@link SIGNATURE_CHECK_IDS}, `fields:<endpoint>` (one per endpoint the kit reads, named
 * after its path: `fields:trust-check`, `fields:explorer-profile`…), or one of {@link ONCHAIN_CHECK_IDS}.
 */
export type CheckId = (typeof SIGNATURE_CHECK_IDS)[number] | (typeof ONCHAIN_CHECK_IDS)[number] | `fields:${string}`;

/** The result of one check. */
export interface CheckResult {
  /** The check. */
  readonly id: CheckId;
  /** Its outcome. */
  readonly status: CheckStatus;
  /**
   * One line: what was seen (holds, differs) or why nothing could be (could not check). Short enough for a
   * table cell; `observed` has the detail.
   */
  readonly summary: string;
  /** What the check saw, as data (header members, key ids, limits, field lists…); free-form per check. */
  readonly observed?: Readonly<Record<string, unknown>>;
}

/** What the doctor looked at (secrets never appear: URLs are redacted, the API key is only said to be there). */
export interface DoctorTarget {
  /** The service's base URL, redacted. */
  readonly api: string;
  /** The issuer the attestations are expected to name. */
  readonly issuer: string;
  /** Where the keys came from: the JWKS URL (redacted), or `file`. */
  readonly jwks: string;
  /** Whether an API key was sent (its value is never written). */
  readonly apiKey: boolean;
  /** The chain's RPC URL, redacted, when `--rpc` was given. */
  readonly rpc?: string;
  /** The oracle read on that chain. */
  readonly oracle?: string;
}

/** Counts of the results by status. */
export interface DoctorSummary {
  /** Checks that hold. */
  readonly holds: number;
  /** Checks that differ. */
  readonly differs: number;
  /** Checks that could not be made. */
  readonly couldNotCheck: number;
  /** The exit code of `trustgate doctor` for this report ({@link doctorExitCode}). */
  readonly exitCode: DoctorExitCode;
}

/** The doctor's report. */
export interface DoctorReport {
  /** Always `trustgate doctor`. */
  readonly tool: "trustgate doctor";
  /** The kit's version. */
  readonly version: string;
  /** When the checks ran (ISO 8601). */
  readonly generatedAt: string;
  /** What was checked. */
  readonly target: DoctorTarget;
  /** Requests sent to the service (the JWKS included). */
  readonly requests: number;
  /** Counts and exit code. */
  readonly summary: DoctorSummary;
  /** One result per check, in a fixed order. */
  readonly checks: readonly CheckResult[];
}

/**
 * Exit codes of `trustgate doctor`, in the command line's numbering: 0 every check holds; 3 at least one check
 * differs (wins over 4: a difference is what a bug report needs); 4 nothing differs but at least one check could
 * not be made; 2 a usage or configuration error before any check; 1 an unexpected failure.
 */
export const DOCTOR_EXIT_CODES = { allHold: 0, unexpected: 1, usage: 2, differs: 3, couldNotCheck: 4 } as const;

/** An exit code a report can have. */
export type DoctorExitCode = typeof DOCTOR_EXIT_CODES.allHold | typeof DOCTOR_EXIT_CODES.differs | typeof DOCTOR_EXIT_CODES.couldNotCheck;

/**
 * The exit code of a set of results (see {@link DOCTOR_EXIT_CODES}).
 *
 * @param checks - The results.
 * @returns 3 when one differs, else 4 when one could not be checked, else 0.
 */
export function doctorExitCode(checks: readonly CheckResult[]): DoctorExitCode {
  if (checks.some((c) => c.status === "differs")) return DOCTOR_EXIT_CODES.differs;
  if (checks.some((c) => c.status === "could-not-check")) return DOCTOR_EXIT_CODES.couldNotCheck;
  return DOCTOR_EXIT_CODES.allHold;
}

/**
 * Counts results by status, with the exit code.
 *
 * @param checks - The results.
 * @returns The summary.
 */
export function summarizeChecks(checks: readonly CheckResult[]): DoctorSummary {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  return { holds: count("holds"), differs: count("differs"), couldNotCheck: count("could-not-check"), exitCode: doctorExitCode(checks) };
}

/**
 * A result that holds.
 *
 * @param id - The check.
 * @param summary - What was seen.
 * @param observed - The detail.
 * @returns The result.
 */
export function holds(id: CheckId, summary: string, observed?: Record<string, unknown>): CheckResult {
  return { id, status: "holds", summary, ...(observed ? { observed } : {}) };
}

/**
 * A result that differs.
 *
 * @param id - The check.
 * @param summary - What was seen instead of the assumption.
 * @param observed - The detail.
 * @returns The result.
 */
export function differs(id: CheckId, summary: string, observed?: Record<string, unknown>): CheckResult {
  return { id, status: "differs", summary, ...(observed ? { observed } : {}) };
}

/**
 * A result that could not be checked.
 *
 * @param id - The check.
 * @param reason - Why.
 * @param observed - What is known anyway.
 * @returns The result.
 */
export function couldNotCheck(id: CheckId, reason: string, observed?: Record<string, unknown>): CheckResult {
  return { id, status: "could-not-check", summary: reason, ...(observed ? { observed } : {}) };
}
