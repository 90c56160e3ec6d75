/**
 * Labels for people of the badge ids the local service awards (explorer profiles carry `{id, type, label}`).
 *
 * @packageDocumentation
 */

const LABELS: Readonly<Record<string, string>> = {
  verified_reviews: "Verified reviews",
  high_volume: "High volume",
  long_standing: "Long standing",
  original_owner: "Original owner",
  established_wallet: "Established wallet",
  low_history_reviewers: "Low-history reviewers",
  ghost_reviewers: "Ghost reviewers",
  recently_registered: "Recently registered",
  transferred: "Transferred",
  sybil_heavy: "Heavy sybil activity",
  sybil_elevated: "Elevated sybil activity",
  incomplete_data: "Incomplete data",
};

/**
 * The label of a badge id.
 *
 * @param id - Badge id (snake_case).
 * @returns Its label, or the id with underscores as spaces for an id without one.
 */
export function badgeLabel(id: string): string {
  return LABELS[id] ?? id.replace(/_/g, " ");
}
