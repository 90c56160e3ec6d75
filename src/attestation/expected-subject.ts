/**
 * The subject a caller asked the service about, to check that an attestation is about it: a valid
 * attestation of another agent, wallet or MCP server must not be replayable in its place.
 *
 * @packageDocumentation
 */

/** What the caller asked about. Each kind of attestation checks the fields that name its subject. */
export interface ExpectedSubject {
  /** Agent id asked for (trust-check). */
  agentId?: number | string | bigint;
  /** Chain asked for: slug, alias or chain id (trust-check). */
  chain?: string | number;
  /** Registry asked for (trust-check; an attestation that names none is `erc8004`). */
  registry?: string;
  /**
   * Wallet asked for: the owner of a trust-check `?wallet=` answer, the wallet of a signed `found: false`,
   * or the wallet of a wallet-score attestation.
   */
  wallet?: string;
  /** MCP server asked for by `canonical_id` (`<owner>/<name>`). */
  canonicalId?: string;
  /** MCP server asked for by `server`. */
  server?: string;
}
