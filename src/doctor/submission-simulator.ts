/**
 * What the `onchain-submit` check needs of a local chain: an `AttestedTrustOracle` deployed there with the service's
 * JWKS keys installed and the block time set to now, to which an attestation is submitted in an `eth_call` (nothing
 * is sent, nothing is kept). The harness provides one (`startSubmissionSimulator` of `trustgate/harness`, on
 * Hardhat's in-process network, or a local fork of `--rpc`); the kit only describes it here, so that it never loads
 * Hardhat itself.
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import type { Hex } from "viem";

/** A submission to the attested oracle. */
export type OracleSubmission =
  /** `submitJwsAttestation(kid, jws)`: the compact JWS as issued. */
  | { readonly form: "jws"; readonly kid: string; readonly jws: string }
  /** `submitAttestation(kid, signedJson, signature)`: the raw `sig` and the bytes it covers. */
  | { readonly form: "sig"; readonly kid: string; readonly signedJson: Hex; readonly signature: Hex };

/** The record an accepted submission would store, as the oracle returns it. */
export interface SimulatedRecord {
  /** Score, 0–100. */
  readonly score: number;
  /** Tier code. */
  readonly tier: number;
  /** Sybil severity code. */
  readonly sybilSeverity: number;
  /** Unix seconds. */
  readonly updatedAt: number;
}

/** What the oracle did with a submission. */
export type SubmissionOutcome =
  | { readonly accepted: true; readonly record: SimulatedRecord }
  /** `error`: the oracle's custom error with its values (`JwsHeaderMemberRefused("jku", 23)`), or the revert. */
  | { readonly accepted: false; readonly error: string };

/** A local chain holding an attested oracle, ready to simulate submissions. */
export interface SubmissionSimulator {
  /** What the chain is, for the report (`Hardhat's in-process network`, `a local fork of http://…`). */
  readonly chain: string;
  /**
   * Submits in an `eth_call` from an account of the chain.
   *
   * @param submission - The call.
   * @returns Accepted with the record, or refused with the error. Never throws for a refusal.
   */
  submit(submission: OracleSubmission): Promise<SubmissionOutcome>;
  /** Stops the chain. */
  close(): Promise<void>;
}

/** Options of a {@link StartSubmissionSimulator}. */
export interface SubmissionSimulatorOptions {
  /** The service's JWKS entries; each usable ES256 key is installed under its kid. */
  readonly keys: readonly JWK[];
  /** The block time to set (the doctor's clock). */
  readonly now: Date;
  /** Fork this chain instead of starting an empty one (`--rpc`, http or https). */
  readonly forkUrl?: string;
  /** Time limit of the first request to the chain to fork (whether it answers at all), in milliseconds. */
  readonly timeoutMs?: number;
}

/** Starts a {@link SubmissionSimulator}. */
export type StartSubmissionSimulator = (options: SubmissionSimulatorOptions) => Promise<SubmissionSimulator>;
