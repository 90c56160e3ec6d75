/**
 * Reads a drift job's JSON report (`trustgate drift --json report.json`) as the input of `trustgate refresh --from`:
 * only the fields the refresh plan uses, each checked, the rest ignored (a newer report with more fields reads the
 * same). Read generously, trust strictly: a field the plan needs that is missing or of the wrong type is a clear
 * error naming the field and the row, never a row silently left out.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import type { DriftRow, DriftStatus } from "../drift/types.js";
import { DRIFT_STATUSES } from "../drift/types.js";
import { REFRESH_BLOCKERS } from "../drift/types.js";
import { parseJsonReport } from "./json-report.js";

/** The part of one report row the refresh plan reads. */
export type RefreshInputRow = Pick<
  DriftRow,
  "chain" | "chainId" | "agentId" | "registry" | "status" | "onchain" | "scoreDelta" | "decision" | "refresh"
>;

/** The part of a drift report the refresh plan reads. */
export interface RefreshInputReport {
  /** When the drift run wrote the report (ISO 8601). */
  readonly generatedAt: string;
  /** The chain, the oracle read and, with `--attested-oracle`, the attested oracle. */
  readonly source: {
    readonly chainId: number;
    readonly blockNumber: string | null;
    readonly attestedOracle?: { readonly address: string };
  };
  /** The drift run's staleness limit, in seconds (the plan's default `maxAgeSeconds`). */
  readonly maxAgeSeconds: number;
  /** Its rows. */
  readonly agents: readonly RefreshInputRow[];
}

const isoTime = z.string().refine((text) => Number.isFinite(Date.parse(text)), "an ISO-8601 time");
const status = z.enum(DRIFT_STATUSES as [DriftStatus, ...DriftStatus[]]);

/** A chain slug or registry name: what the service writes, and nothing a terminal would act on. */
const name = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "1 to 64 letters, digits, '_', '.' or '-'");

const rowSchema = z.object({
  chain: name,
  chainId: z.number().int().nonnegative().nullable(),
  agentId: z.string().regex(/^\d+$/, "a decimal agent id"),
  registry: name,
  status,
  onchain: z.object({ score: z.number(), tier: z.string(), sybilSeverity: z.string(), updatedAt: isoTime }).nullable(),
  scoreDelta: z.number().nullable(),
  decision: z.object({ onchain: z.boolean().nullable(), attested: z.boolean().nullable(), flipped: z.boolean() }),
  refresh: z
    .object({
      possible: z.boolean(),
      blocker: z.enum(REFRESH_BLOCKERS as [string, ...string[]]).optional(),
      reason: z.string(),
      kid: z.string(),
      keyStatus: z.enum(["installed", "not-installed", "revoked", "mismatch", "unreadable", "unchecked"]),
      expiresAt: isoTime.nullable(),
      call: z.object({ function: z.enum(["submitAttestation", "submitJwsAttestation"]), form: z.enum(["sig", "jws"]) }).optional(),
    })
    .nullable(),
});

const reportSchema = z.object({
  version: z.literal(1),
  generatedAt: isoTime,
  source: z.object({
    chainId: z.number().int().positive(),
    blockNumber: z.string().nullable(),
    attestedOracle: z.object({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address") }).optional(),
  }),
  maxAgeSeconds: z.number().int().positive(),
  agents: z.array(rowSchema),
});

/**
 * Reads the text of a drift JSON report into what the refresh plan needs.
 *
 * @param text - The report file's text.
 * @param source - Where it came from, for the messages (`report.json`).
 * @returns The report's source, staleness limit and rows.
 * @throws `InvalidArgumentError` when the text is not JSON, not a drift report of version 1 (a report written
 *   with `--json -` on a terminal, or a Markdown report, for instance), or a field the plan reads is missing or
 *   wrong: the message names the field (`agents[3].refresh.kid`).
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { readRefreshInputReport } from "trustgate/refresh";
 *
 * const report = readRefreshInputReport(readFileSync("report.json", "utf8"), "report.json");
 * const refreshable = report.agents.filter((row) => row.refresh?.possible === true);
 * console.log(`${refreshable.length} of ${report.agents.length} rows could be refreshed on chain ${report.source.chainId}`);
 * ```
 */
export function readRefreshInputReport(text: string, source: string): RefreshInputReport {
  return parseJsonReport(text, source, reportSchema, {
    what: "a drift JSON report the refresh can read",
    writer: "trustgate drift --json",
  }) as RefreshInputReport;
}
