/**
 * `time-forms`: how the live service writes each signed time of its trust-check attestations (`issuedAt`, `verifiedAt`,
 * `expiry`: `Z` or a numeric offset, how many fraction digits), and whether both readers take it as an instant — the
 * TypeScript reader (`signedTimeSeconds`, the RFC 3339 grammar of `src/attestation/time.ts`) and the on-chain one
 * (`AttestedTrustOracle`'s, judged by the submissions of the `onchain-submit` check on its local chain: an accepted
 * submission took all three times, an `AttestationFieldInvalid` names the one refused). Holds when every time is
 * accepted by the readers that could judge it; differs when a reader refuses one; the on-chain half could not be
 * checked without that local chain, and the summary says so.
 *
 * @packageDocumentation
 */
import { signedTimeSeconds } from "../../attestation/time.js";
import { TRUST_V2_READ_FIELDS } from "../../attestation/trust-signed-block.js";
import { isRecord } from "../../util/is-record.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import type { SubmitFinding } from "./onchain-submit.js";
import { compactJwsOf, type LiveAttestation, type LiveAttestations, noAttestationReason } from "./trust-check-attestations.js";

/** The check's id. */
export const TIME_FORMS_CHECK = "time-forms";

/** The signed times of a v2 block. */
export const SIGNED_TIME_FIELDS = ["issuedAt", "verifiedAt", "expiry"] as const;

/** What the on-chain half has to go on: the `onchain-submit` findings, or why there are none. */
export type OnchainTimeEvidence = { readonly findings: readonly SubmitFinding[] } | { readonly unavailable: string };

/** What a reader made of one signed time. */
export type TimeVerdict = "accepted" | "refused" | "not-judged";

/** One signed time of one attestation. */
export interface TimeFormObservation {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The field. */
  readonly field: (typeof SIGNED_TIME_FIELDS)[number];
  /** The value as signed (a string, a number, …; `null` when absent). */
  readonly value: unknown;
  /** Its form: `Z, 3 fraction digits`, `+00:00, 3 fraction digits`, `a number`, `absent`, `other`. */
  readonly form: string;
  /** The TypeScript reader: accepted (with the Unix second) or refused (with why). */
  readonly typescript:
    { readonly verdict: "accepted"; readonly seconds: number } | { readonly verdict: "refused"; readonly problem: string };
  /** The on-chain reader. */
  readonly onchain: TimeVerdict;
}

/**
 * Runs the check.
 *
 * @param live - The trust-checks' attestations.
 * @param onchain - The `onchain-submit` findings (by agent), or why there are none.
 * @returns The result.
 */
export function checkTimeForms(live: LiveAttestations, onchain: OnchainTimeEvidence): CheckResult {
  const blocks = live.attestations.map((attestation) => ({ agent: attestation.agent, block: signedBlockOf(attestation) }));
  const readable = blocks.filter((b): b is { agent: string; block: Record<string, unknown> } => b.block !== undefined);
  if (readable.length === 0) return couldNotCheck(TIME_FORMS_CHECK, noAttestationReason(live));

  const observations: TimeFormObservation[] = [];
  for (const { agent, block } of readable) {
    const finding = "findings" in onchain ? onchain.findings.find((f) => f.agent === agent) : undefined;
    for (const field of SIGNED_TIME_FIELDS) {
      const value = block[field];
      const seconds = typeof value === "string" ? signedTimeSeconds(value) : "not a string";
      observations.push({
        agent,
        field,
        value: value ?? null,
        form: formOf(value),
        typescript: typeof seconds === "number" ? { verdict: "accepted", seconds } : { verdict: "refused", problem: seconds },
        onchain: onchainVerdict(finding, field),
      });
    }
  }
  const onchainNote = "unavailable" in onchain ? `; on-chain reader: could not check (${onchain.unavailable})` : "";
  const observed = { times: observations, ...("unavailable" in onchain ? { onchain: onchain.unavailable } : {}) };
  const refusedTs = observations.find((o) => o.typescript.verdict === "refused");
  if (refusedTs && refusedTs.typescript.verdict === "refused") {
    return differs(
      TIME_FORMS_CHECK,
      `${refusedTs.agent} ${refusedTs.field} ${JSON.stringify(refusedTs.value)} (${refusedTs.form}): the TypeScript reader refuses it (${refusedTs.typescript.problem})${onchainNote}`,
      observed,
    );
  }
  const refusedOnchain = observations.find((o) => o.onchain === "refused");
  if (refusedOnchain) {
    return differs(
      TIME_FORMS_CHECK,
      `${refusedOnchain.agent} ${refusedOnchain.field} ${JSON.stringify(refusedOnchain.value)} (${refusedOnchain.form}): the on-chain reader refuses it`,
      observed,
    );
  }
  const forms = SIGNED_TIME_FIELDS.map(
    (field) => `${field} ${[...new Set(observations.filter((o) => o.field === field).map((o) => o.form))].join(" / ")}`,
  );
  const judged = "unavailable" in onchain ? "the TypeScript reader accepts them" : "both readers accept them";
  return holds(
    TIME_FORMS_CHECK,
    `${forms.join(", ")}: ${judged} (${readable.length} trust-check${readable.length === 1 ? "" : "s"})${onchainNote}`,
    observed,
  );
}

/** The signed block of an attestation: the JWS payload when it carries a JWS, else `signed`. */
function signedBlockOf(attestation: LiveAttestation): Record<string, unknown> | undefined {
  const jws = compactJwsOf(attestation);
  if (jws !== undefined) {
    try {
      const payload = JSON.parse(Buffer.from(jws.split(".")[1] ?? "", "base64url").toString("utf8")) as unknown;
      return isRecord(payload) ? payload : undefined;
    } catch {
      return undefined;
    }
  }
  return isRecord(attestation.signed) ? attestation.signed : undefined;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.(\d*))?(Z|z|[+-]\d{2}:?\d{2})?$/;

/**
 * The form a signed time is written in.
 *
 * @param value - The signed value.
 * @returns `Z, 3 fraction digits`, `+00:00, no fraction`, `no offset, …`, `a number`, `absent` or `other`.
 */
export function formOf(value: unknown): string {
  if (value === undefined || value === null) return "absent";
  if (typeof value === "number") return "a number";
  if (typeof value !== "string") return "other";
  const match = DATE_TIME.exec(value);
  if (!match) return "other";
  const digits = match[1] === undefined ? "no fraction" : `${match[1].length} fraction digit${match[1].length === 1 ? "" : "s"}`;
  const zone = match[2] === undefined ? "no offset" : match[2].toUpperCase();
  const separator = value[10] === " " ? ", a space for T" : "";
  return `${zone}, ${digits}${separator}`;
}

/** What the submission of an attestation says of one of its times. */
function onchainVerdict(finding: SubmitFinding | undefined, field: (typeof SIGNED_TIME_FIELDS)[number]): TimeVerdict {
  if (finding === undefined) return "not-judged";
  if (finding.outcome.accepted) return "accepted";
  const invalid = /^AttestationField(?:Invalid|Missing)\((\d+)/.exec(finding.outcome.error);
  if (invalid && TRUST_V2_READ_FIELDS[Number(invalid[1])] === field) return "refused";
  return "not-judged";
}
