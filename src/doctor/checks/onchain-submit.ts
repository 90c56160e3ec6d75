/**
 * `onchain-submit`: whether a live trust-check attestation is accepted by `AttestedTrustOracle.submitJwsAttestation`
 * (or, for an answer without a JWS, `submitAttestation` with its raw `sig`), in an `eth_call` against a local chain:
 * Hardhat's in-process network, or a local fork of `--rpc`, with the kit's `AttestedTrustOracle` deployed (no
 * upstream, so that every submission is verified, never answered as a no-op), the service's JWKS keys installed and
 * the block time set to now. Holds when the oracle accepts each attestation; differs when it refuses one (its custom
 * error with its values); could not check without Hardhat, keys or an attestation.
 *
 * @packageDocumentation
 */
import type { Hex } from "viem";
import { decodeLegacySignature } from "../../attestation/legacy-signature.js";
import { messageOf } from "../../errors.js";
import { type JwksObservation, keyOfKid } from "../jwks-probe.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import type { OracleSubmission, StartSubmissionSimulator, SubmissionOutcome } from "../submission-simulator.js";
import { signedBytesOfSig } from "./sig-bytes.js";
import { compactJwsOf, type LiveAttestation, type LiveAttestations, noAttestationReason } from "./trust-check-attestations.js";

/** The check's id. */
export const ONCHAIN_SUBMIT_CHECK = "onchain-submit";

/** Where the local chain comes from: a starter, or why there is none (Hardhat not installed). */
export type SubmissionSimulatorSource = { readonly start: StartSubmissionSimulator } | { readonly unavailable: string };

/** What the check needs besides the attestations. */
export interface OnchainSubmitOptions {
  /** The local chain. */
  readonly simulator: SubmissionSimulatorSource;
  /** The key set to install. */
  readonly jwks: JwksObservation;
  /** The block time. */
  readonly now: Date;
  /** Fork this chain (`--rpc`) instead of starting an empty one. */
  readonly forkUrl?: string;
  /** Time limit of the first request to the chain to fork. */
  readonly timeoutMs?: number;
}

/** What the oracle did with one attestation. */
export interface SubmitFinding {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The function called. */
  readonly call: "submitJwsAttestation" | "submitAttestation";
  /** What the oracle did. */
  readonly outcome: SubmissionOutcome;
}

/**
 * Runs the check.
 *
 * @param live - The trust-checks' attestations.
 * @param options - Local chain, keys, clock, fork.
 * @returns The result.
 */
export async function checkOnchainSubmit(live: LiveAttestations, options: OnchainSubmitOptions): Promise<CheckResult> {
  return (await submitLiveAttestations(live, options)).result;
}

/** The check's result, with what the oracle did with each attestation submitted (absent when none was). */
export interface OnchainSubmitRun {
  /** The check's result. */
  readonly result: CheckResult;
  /** What the oracle did with each attestation submitted. */
  readonly findings?: readonly SubmitFinding[];
}

/**
 * Runs the check, and hands back its findings too (the `time-forms` check reads which time the oracle refused).
 *
 * @param live - The trust-checks' attestations.
 * @param options - Local chain, keys, clock, fork.
 * @returns The result and the findings.
 */
export async function submitLiveAttestations(live: LiveAttestations, options: OnchainSubmitOptions): Promise<OnchainSubmitRun> {
  const notChecked = (reason: string): OnchainSubmitRun => ({ result: couldNotCheck(ONCHAIN_SUBMIT_CHECK, reason) });
  if ("unavailable" in options.simulator) return notChecked(options.simulator.unavailable);
  if (live.attestations.length === 0) return notChecked(noAttestationReason(live));
  if (!options.jwks.ok) return notChecked(`no keys to install: ${options.jwks.reason}`);
  const submissions: { agent: string; submission: OracleSubmission }[] = [];
  const skipped: string[] = [];
  for (const attestation of live.attestations) {
    const submission = submissionOf(attestation, options.jwks);
    if ("problem" in submission) skipped.push(`${attestation.agent}: ${submission.problem}`);
    else submissions.push({ agent: attestation.agent, submission });
  }
  if (submissions.length === 0) return notChecked(skipped.join("; "));

  let simulator;
  try {
    simulator = await options.simulator.start({
      keys: options.jwks.keys,
      now: options.now,
      ...(options.forkUrl ? { forkUrl: options.forkUrl } : {}),
    });
  } catch (error) {
    return notChecked(`the local chain could not be started: ${messageOf(error)}`);
  }
  const findings: SubmitFinding[] = [];
  try {
    for (const { agent, submission } of submissions) {
      const call = submission.form === "jws" ? "submitJwsAttestation" : "submitAttestation";
      findings.push({ agent, call, outcome: await simulator.submit(submission) });
    }
  } catch (error) {
    return notChecked(`the simulation failed: ${messageOf(error)}`);
  } finally {
    await simulator.close().catch(() => undefined);
  }
  const observed = { chain: simulator.chain, findings, ...(skipped.length > 0 ? { skipped } : {}) };
  const refused = findings.find((f) => !f.outcome.accepted);
  if (refused && !refused.outcome.accepted) {
    return {
      result: differs(
        ONCHAIN_SUBMIT_CHECK,
        `${refused.call} refused ${refused.agent}: ${refused.outcome.error} (${simulator.chain})`,
        observed,
      ),
      findings,
    };
  }
  const first = findings[0]!;
  const record = first.outcome.accepted ? first.outcome.record : undefined;
  const stored = record ? `: score ${record.score}, tier code ${record.tier}, sybil code ${record.sybilSeverity}` : "";
  return {
    result: holds(
      ONCHAIN_SUBMIT_CHECK,
      `${first.call} accepted ${findings.length} live attestation${findings.length === 1 ? "" : "s"}${stored} (${simulator.chain})`,
      observed,
    ),
    findings,
  };
}

/**
 * The call for an attestation: its JWS as issued when it has one, else its raw `sig` with the bytes it verifies over
 * (`JSON.stringify(signed)` or the sorted-key form; the former when it verifies over neither, for the oracle to
 * refuse).
 */
function submissionOf(attestation: LiveAttestation, jwks: JwksObservation): OracleSubmission | { problem: string } {
  const { kid, sig, signed } = attestation;
  if (kid === undefined) return { problem: "the attestation has no kid" };
  const jws = compactJwsOf(attestation);
  if (jws !== undefined) return { form: "jws", kid, jws };
  if (sig === undefined) return { problem: "the attestation has neither a jws nor a sig" };
  if (signed === null || signed === undefined) return { problem: "a raw sig without a signed block" };
  const decoded = decodeLegacySignature(sig);
  if (!decoded.ok) return { problem: decoded.problem };
  const key = keyOfKid(jwks, kid);
  if (!key.ok) return { problem: key.reason };
  const { bytes } = signedBytesOfSig(signed, sig, key.key);
  return { form: "sig", kid, signedJson: toHex(bytes), signature: toHex(decoded.bytes) };
}

function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}
