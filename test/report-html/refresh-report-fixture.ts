/**
 * A refresh report as `trustgate refresh --json` writes it, for the page's tests: three due agents (one stored, one
 * refused with a contract error carrying hostile text, one not fetched), one skipped agent whose name is hostile text,
 * and a field the page does not read.
 */

/** Text that would be markup if the page wrote it unescaped. */
export const HOSTILE = "</td><img src=x onerror=alert(1)><script>alert(2)</script>";

/** The hash of the report's one transaction. */
export const TRANSACTION = `0x${"ab".repeat(32)}`;

/** A refresh report as `trustgate refresh --json` writes it (the fields the page reads, and one it does not). */
export function refreshReport(overrides: { mode?: "dry-run" | "sent"; dueCount?: number } = {}) {
  const mode = overrides.mode ?? "sent";
  const extra = Array.from({ length: overrides.dueCount ?? 0 }, (_, i) => `base:${1000 + i}:erc8004`);
  const due = ["base:1:erc8004", "base:2:erc8004", "base:3:erc8004", ...extra];
  return {
    version: 1,
    mode,
    exitCode: mode === "sent" ? 3 : 0,
    plan: {
      plannedAt: "2026-11-22T04:40:00.000Z",
      settings: { maxAgeSeconds: 129600, minChange: 5, gasLimit: 8000000 },
      due: due.map((agent, i) => ({ agent, reasons: i === 0 ? ["decision-flip", "score-change"] : ["stale"], batch: 0 })),
      skipped: [{ agent: `base:9:${HOSTILE}`, status: "in-sync", skip: "not-due", detail: "no push rule applies" }],
      batches: [{ index: 0, agents: due, estimatedGas: 260000 }],
      totals: { due: due.length, skipped: 1, batches: 1 },
    },
    ...(mode === "sent"
      ? {
          sent: {
            attestedOracle: "0x1111111111111111111111111111111111111111",
            attestations: [
              { agent: "base:1:erc8004", batch: 0, outcome: "stored", transaction: TRANSACTION },
              { agent: "base:2:erc8004", batch: 0, outcome: "refused", error: `RevokedSigningKey("rnwy-trust-v1") ${HOSTILE}` },
              { agent: "base:3:erc8004", batch: 0, outcome: "not-fetched", error: "the service answered HTTP 503" },
              ...extra.map((agent) => ({ agent, batch: 0, outcome: "stored", transaction: TRANSACTION })),
            ],
            transactions: [{ batch: 0, hash: TRANSACTION }],
            totals: { stored: 1 + extra.length, refused: 1, transactions: 1, gasUsed: "123456", costWei: "1500000000000000" },
          },
        }
      : {}),
  };
}
