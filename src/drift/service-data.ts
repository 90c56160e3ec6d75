/**
 * What the service says about an agent, as the scan's stages pass it on: its trust data (from a verified
 * attestation or from the unsigned listing) and the outcome of asking it.
 *
 * @packageDocumentation
 */

/** Trust data of an agent as the service states it. */
export interface ServiceData {
  readonly score: number;
  readonly tier: string;
  /** Sybil severity name; `null` when the service has no sybil signal (read as `none`). */
  readonly sybilSeverity: string | null;
  /** Issue time of the data (the verdict's `issuedAt`, or the listing's time). */
  readonly at: Date;
  /**
   * When the service computed the score: the signed `issuedAt` of a v2 attestation, or the listing's
   * `updatedAt`; `null` or absent when unknown (a v1 attestation, a listing without times).
   */
  readonly computedAt?: Date | null;
}

/**
 * Whether a verified attestation can be submitted to an `AttestedTrustOracle` as it is: the call's form (`sig`:
 * `submitAttestation`; `jws`: `submitJwsAttestation`), or the problem.
 */
export type AttestationSubmission = { readonly ok: true; readonly form: "sig" | "jws" } | { readonly ok: false; readonly problem: string };

/** What the service said about an agent. */
export type ServiceOutcome =
  /**
   * A signed attestation that verified; with whether it can be submitted on-chain (`submission`) and its signed
   * expiry (`expiresAt`, `null` when it has none) — absent when not known, and then it is not refreshable.
   */
  | {
      readonly kind: "verified";
      readonly data: ServiceData;
      readonly kid: string;
      readonly submission?: AttestationSubmission;
      readonly expiresAt?: Date | null;
      /** Present when an earlier run fetched and verified it and this run reuses it from the state file. */
      readonly fromState?: { readonly verifiedAt: Date };
    }
  /** The service's unsigned listing (triage decided a signed fetch was not needed). */
  | { readonly kind: "listed"; readonly data: ServiceData }
  /** An attestation that did not verify. */
  | { readonly kind: "invalid"; readonly reason: string; readonly message: string }
  /** The service does not know the agent. */
  | { readonly kind: "missing"; readonly message: string }
  /**
   * The service could not be asked (network, 5xx, rate limit exhausted, malformed body…); `notFetched` when the run
   * stopped before asking (`--max-duration`), and `message` then says so whole.
   */
  | { readonly kind: "error"; readonly message: string; readonly notFetched?: boolean };
