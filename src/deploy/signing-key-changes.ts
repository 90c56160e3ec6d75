/**
 * What the keys command does, or would do, to each key id on an `AttestedTrustOracle`: the kinds of change, a
 * planned change, and the line that describes one.
 *
 * @packageDocumentation
 */
import type { Hash, Hex } from "viem";
import type { SelectedSigningKey } from "./key-selection.js";

/**
 * What happens (or would happen) to one key id:
 *
 * - `set`: not held yet, set;
 * - `unchanged`: held with the same coordinates, left alone;
 * - `revoked-skipped`: in the JWKS but revoked on the oracle, not set again (revocation is final);
 * - `revoke`: revoked;
 * - `already-revoked`: asked to revoke, already revoked.
 *
 * A kid held with other coordinates has no change kind: a key id names one key for its whole life, so that is an
 * error before any transaction (`key-id-reused`).
 */
export type SigningKeyChangeKind = "set" | "unchanged" | "revoked-skipped" | "revoke" | "already-revoked";

/** One key id's change. */
export interface SigningKeyChange {
  /** The key id. */
  readonly kid: string;
  /** What happens to it. */
  readonly kind: SigningKeyChangeKind;
  /** The coordinates to hold (`set`, `unchanged`). */
  readonly key: { readonly x: Hex; readonly y: Hex } | undefined;
  /** The key's RFC 7638 JWK thumbprint (`set`, `unchanged`), to pin it in the configuration. */
  readonly thumbprint: string | undefined;
  /** The transaction that made the change; none in a dry run or when nothing was sent for it. */
  readonly transactionHash: Hash | undefined;
}

/** The kinds of change that send a transaction. */
export const SENDING: ReadonlySet<SigningKeyChangeKind> = new Set(["set", "revoke"]);

/**
 * The line that describes a change.
 *
 * @param item - The change.
 * @param dryRun - Whether it is only planned.
 * @returns One line, starting with `+` (set), `-` (revoke), `=` (nothing to do) or `!` (skipped); a key's line
 *   names its thumbprint.
 */
export function describeChange(item: SigningKeyChange, dryRun: boolean): string {
  const would = dryRun ? "would " : "";
  const tx = item.transactionHash ? ` (transaction ${item.transactionHash})` : "";
  switch (item.kind) {
    case "set":
      return `+ ${would}set signing key "${item.kid}" (x ${item.key!.x}, y ${item.key!.y}, thumbprint ${item.thumbprint})${tx}`;
    case "unchanged":
      return `= signing key "${item.kid}" already set with the same coordinates (thumbprint ${item.thumbprint})`;
    case "revoked-skipped":
      return `! signing key "${item.kid}" is revoked on this oracle: not set again (revocation is final)`;
    case "revoke":
      return `- ${would}revoke signing key "${item.kid}"${tx}`;
    case "already-revoked":
      return `= signing key "${item.kid}" already revoked`;
  }
}

/**
 * A change not made yet.
 *
 * @param kid - The key id.
 * @param kind - What happens to it.
 * @param key - The key to hold, for `set` and `unchanged`.
 * @returns The change, without a transaction.
 */
export function plannedChange(kid: string, kind: SigningKeyChangeKind, key?: SelectedSigningKey): SigningKeyChange {
  return { kid, kind, key: key ? { x: key.x, y: key.y } : undefined, thumbprint: key?.thumbprint, transactionHash: undefined };
}
