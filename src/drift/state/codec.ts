/**
 * The drift state file's lines and the scan's values, each into the other: the serialized lines, the on-chain record
 * and the service's outcomes as the state keeps them and back, and the fingerprint of the inputs an answer was asked
 * on (a resumed run reuses an answer only when it is the same).
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import type { TrustRecordResult } from "../../oracle/records.js";
import type { ServiceData, ServiceOutcome } from "../service-data.js";
import type {
  DriftStateEntry,
  DriftStateHeader,
  DriftStateOutcomeLine,
  DriftStateRunLine,
  DriftStateStopLine,
  StoredAttestation,
  StoredOutcome,
  StoredRecord,
} from "./schema.js";

/** One line of the file, serialized (with its end of line). */
export const stateLine = {
  header: (header: DriftStateHeader): string => `${JSON.stringify(header)}\n`,
  agent: (entry: DriftStateEntry): string => `${JSON.stringify({ type: "agent", ...entry })}\n`,
  run: (run: DriftStateRunLine): string => `${JSON.stringify({ type: "run", ...run })}\n`,
  outcome: (outcome: DriftStateOutcomeLine): string => `${JSON.stringify({ type: "outcome", ...outcome })}\n`,
  stop: (stop: DriftStateStopLine): string => `${JSON.stringify({ type: "stop", ...stop })}\n`,
};

/**
 * The on-chain record as the state keeps it.
 *
 * @param record - An oracle read.
 * @returns Its codes and time, `null` for no record, `undefined` when the read failed (nothing seen).
 */
export function storedRecordOf(record: TrustRecordResult): StoredRecord | null | undefined {
  if (!record.ok) return undefined;
  if (!record.hasScore) return null;
  return {
    score: record.score,
    tierCode: record.tier,
    sybilSeverityCode: record.sybilSeverity,
    updatedAt: record.updatedAt,
  };
}

/**
 * A service outcome as the journal keeps it (the unsigned listing is never kept).
 *
 * @param outcome - A fetched outcome.
 * @returns Its stored form, or `null` for a `listed` outcome.
 */
export function storedOutcomeOf(outcome: ServiceOutcome): StoredOutcome | null {
  switch (outcome.kind) {
    case "verified":
      return { kind: "verified", attestation: storedAttestationOf(outcome) };
    case "invalid":
      return { kind: "invalid", reason: outcome.reason, message: outcome.message };
    case "missing":
      return { kind: "missing", message: outcome.message };
    case "error":
      return { kind: "error", message: outcome.message };
    default:
      return null;
  }
}

/**
 * The signed fields of a verified outcome as the state keeps them.
 *
 * @param outcome - A verified outcome.
 * @returns Its stored form.
 */
export function storedAttestationOf(outcome: Extract<ServiceOutcome, { kind: "verified" }>): StoredAttestation {
  const { data } = outcome;
  return {
    score: data.score,
    tier: data.tier,
    sybilSeverity: data.sybilSeverity,
    at: data.at.toISOString(),
    computedAt: data.computedAt ? data.computedAt.toISOString() : null,
    kid: outcome.kid,
    expiresAt: outcome.expiresAt ? outcome.expiresAt.toISOString() : null,
    submission: outcome.submission ?? null,
  };
}

/**
 * A stored outcome back as the scan's outcome.
 *
 * @param stored - The stored form.
 * @returns The outcome.
 */
export function outcomeOfStored(stored: StoredOutcome): ServiceOutcome {
  switch (stored.kind) {
    case "verified":
      return verifiedOutcomeOf(stored.attestation);
    case "invalid":
      return { kind: "invalid", reason: stored.reason, message: stored.message };
    case "missing":
      return { kind: "missing", message: stored.message };
    case "error":
      return { kind: "error", message: stored.message };
  }
}

/**
 * A stored attestation as a verified outcome.
 *
 * @param stored - The stored attestation.
 * @returns The outcome (`submission` absent when not known).
 */
export function verifiedOutcomeOf(stored: StoredAttestation): Extract<ServiceOutcome, { kind: "verified" }> {
  return {
    kind: "verified",
    kid: stored.kid,
    ...(stored.submission ? { submission: stored.submission } : {}),
    expiresAt: stored.expiresAt === null ? null : new Date(stored.expiresAt),
    data: storedData(stored),
  };
}

/**
 * The trust data of a stored attestation.
 *
 * @param stored - The stored attestation.
 * @returns Its score, tier, sybil severity and times.
 */
export function storedData(stored: StoredAttestation): ServiceData {
  return {
    score: stored.score,
    tier: stored.tier,
    sybilSeverity: stored.sybilSeverity,
    at: new Date(stored.at),
    computedAt: stored.computedAt === null ? null : new Date(stored.computedAt),
  };
}

/**
 * A fingerprint of what an agent's signed attestation was asked for on: its listing entry and its on-chain record. A
 * resumed run reuses an answer from the journal only when the fingerprint is the same (nothing changed since).
 *
 * @param listed - The listing's entry (`null`: not listed; `undefined`: no listing).
 * @param record - The oracle read.
 * @returns 32 hexadecimal digits.
 */
export function inputFingerprint(listed: Partial<ServiceData> | null | undefined, record: TrustRecordResult): string {
  const listing =
    listed === undefined
      ? "none"
      : listed === null
        ? "unlisted"
        : [listed.score, listed.tier, listed.sybilSeverity, listed.at?.getTime() ?? null, listed.computedAt?.getTime() ?? null];
  const onchain = storedRecordOf(record);
  return createHash("sha256")
    .update(JSON.stringify([listing, onchain === undefined ? "unread" : onchain]))
    .digest("hex")
    .slice(0, 32);
}
