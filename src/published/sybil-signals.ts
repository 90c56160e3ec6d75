/**
 * The sybil signal ids the service writes (in a trust-check's `sybilSignals`, a reviewer's `sybil_signals`, the
 * explorer's `reviewerSybil.signals.by_signal`), and the spellings its sources disagree on.
 *
 * - insumer spec v1.2 §3.3 and §3.3.1 (2026-09-02): `common_funder`, `inhuman_velocity`, `sweep_pattern`,
 *   `score_clustering`, `coordination` (the last an agent-level modifier).
 * - rnwy-sdk 0.3.0 `src/types.ts` `SybilSignalBreakdown` (types "derived from live API responses"):
 *   `common_funder`, `inhuman_velocity`, `spray_pattern`, `score_clustering`.
 *
 * The spec's `sweep_pattern` ("reviewers spread across hundreds of agents without returning") and the SDK's
 * `spray_pattern` name the same signal. The kit reads both as one ({@link canonicalSybilSignal}); the local
 * service writes the spec's id in signed blocks and the SDK's key in `by_signal`, where the SDK is the only source.
 *
 * @packageDocumentation
 */

/** The sybil signal ids of insumer spec v1.2 §3.3.1, the kit's canonical spellings. */
export const SYBIL_SIGNALS = ["common_funder", "inhuman_velocity", "sweep_pattern", "score_clustering", "coordination"] as const;

/** A canonical sybil signal id. */
export type SybilSignalId = (typeof SYBIL_SIGNALS)[number];

/**
 * Other published spellings of a signal, each with the canonical id it stands for: rnwy-sdk 0.3.0 writes
 * `spray_pattern` where the spec writes `sweep_pattern`.
 */
export const SYBIL_SIGNAL_ALIASES: Readonly<Record<string, SybilSignalId>> = { spray_pattern: "sweep_pattern" };

/**
 * A sybil signal id in the kit's spelling: an alias ({@link SYBIL_SIGNAL_ALIASES}) becomes the spec's id; any
 * other id, known or not, is kept as written (ids are exact snake_case strings, compared as written).
 *
 * @param id - The id as the service wrote it.
 * @returns The canonical id.
 */
export function canonicalSybilSignal(id: string): string {
  return Object.hasOwn(SYBIL_SIGNAL_ALIASES, id) ? SYBIL_SIGNAL_ALIASES[id]! : id;
}
