/**
 * The drift job's state file (`--state <file>`): its format, line by line, as schemas and the types read from them.
 * What the last runs verified is kept between nights, and the journal of the run in progress, so that a run killed at
 * any point can be started again and continue where it was.
 *
 * **Format**: JSON Lines (one JSON object per line, UTF-8, each line ending with `\n`), so that it can be read line by
 * line and appended to. In order:
 *
 * 1. one `header` line: the format (`trustgate-drift-state`) and its version (1), and what the state is valid for —
 *    the oracle, the attested oracle read instead (or `null`), the chain id, the API URL, the issuer, the decision
 *    rule and the tier/sybil encoding — plus when it was written, the last run that completed, and the history of
 *    the last completed runs (each one's counts per status, flips, signed fetches and exit code; the last 60), and
 *    the last completed night's problems (flips and invalid attestations, each with the nights in a row it was seen);
 * 2. one `agent` line per agent that a run asked the service about: the last verified attestation's signed fields
 *    (`verified`: score, tier, sybil severity, `computedAt` — the signed `issuedAt` —, kid, signed expiry, whether it
 *    can be submitted on-chain) and when the run verified it (`verifiedAt`), or, when the last answer did not verify,
 *    what it was (`unverified`); and the on-chain record seen then (`onchain`: score, tier and sybil codes,
 *    `updatedAt` in Unix seconds, or `null` for no record) at `block`;
 * 3. the journal of the run in progress (absent after a run that completed): a `run` line when it starts (its id,
 *    seed, whether `--full`), an `outcome` line for every signed attestation asked for as the answer arrives (the
 *    agent, a fingerprint of the listing entry and on-chain record it was asked for, the outcome), and a `stop` line
 *    when it stopped early on purpose (`--max-duration`).
 *
 * A run that completes rewrites the file (header and `agent` lines, the journal folded in) through a temporary file
 * renamed over it, so the file is always either the old state or the new one; while it runs it only appends. A kill
 * loses at most the requests in flight; a last line cut short by a crash is ignored (and reported), and cut off before
 * anything is appended. Any other line that does not parse is an error naming the file and the line.
 *
 * The reader is `read.ts`, the whole-file writer `atomic-write.ts`, the appender `journal.ts`, and the conversions
 * between the scan's values and the lines `codec.ts`.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import type { DriftNightSummary } from "../types.js";

/** The `format` of a state file's header. */
export const DRIFT_STATE_FORMAT = "trustgate-drift-state";

/** The version of the state file format this kit writes and reads. */
export const DRIFT_STATE_VERSION = 1;

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "expected an ISO-8601 time");

const countSchema = z.number().int().nonnegative();

const nightSchema: z.ZodType<DriftNightSummary> = z.object({
  startedAt: isoTime,
  finishedAt: isoTime,
  exitCode: z.union([z.literal(0), z.literal(3), z.literal(4)]),
  statuses: z.object({
    "invalid-attestation": countSchema,
    error: countSchema,
    drifted: countSchema,
    "stale-onchain": countSchema,
    "missing-onchain": countSchema,
    "missing-attestation": countSchema,
    "in-sync": countSchema,
  }),
  flips: z.object({ passToFail: countSchema, failToPass: countSchema }),
  signedFetches: countSchema,
});

/**
 * One problem of the last completed night (a decision flip or an invalid attestation), kept so that the next night
 * can say what is new, persisting or resolved: the agent (its `agentKey`), the problem, when the first of the
 * consecutive nights it was seen started, and how many nights in a row.
 */
const problemSchema = z.object({
  agent: z.string().min(1),
  problem: z.enum(["pass-to-fail", "fail-to-pass", "invalid-attestation"]),
  since: isoTime,
  nights: z.number().int().positive(),
});

/** The nights a state file keeps in its history (the last ones; older nights are dropped). */
export const DRIFT_STATE_HISTORY_NIGHTS = 60;

/** The `header` line: the format, and what the state is valid for. */
export const headerSchema = z.object({
  type: z.literal("header"),
  format: z.string(),
  version: z.number(),
  oracle: z.string(),
  attestedOracle: z.string().nullable(),
  chainId: z.number().int(),
  api: z.string(),
  issuer: z.string(),
  rule: z.string(),
  encoding: z.object({ tiers: z.array(z.string()), sybilSeverities: z.array(z.string()) }),
  writtenAt: isoTime,
  lastRun: z
    .object({ run: z.string(), seed: z.number(), startedAt: isoTime, finishedAt: isoTime, blockNumber: z.string().nullable() })
    .nullable(),
  /** The last completed runs' summaries, oldest first (absent in files written before the kit kept them). */
  history: z.array(nightSchema).optional(),
  /** The problems of the last completed night (absent in files written before the kit kept them: every problem is then new). */
  problems: z.array(problemSchema).optional(),
});

const submissionSchema = z.union([
  z.object({ ok: z.literal(true), form: z.enum(["sig", "jws"]) }),
  z.object({ ok: z.literal(false), problem: z.string() }),
]);

const attestationSchema = z.object({
  score: z.number(),
  tier: z.string(),
  sybilSeverity: z.string().nullable(),
  at: isoTime,
  computedAt: isoTime.nullable(),
  kid: z.string(),
  expiresAt: isoTime.nullable(),
  submission: submissionSchema.nullable(),
});

const unverifiedSchema = z.object({
  kind: z.enum(["invalid", "missing", "error"]),
  reason: z.string().optional(),
  message: z.string(),
});

const recordSchema = z.object({
  score: z.number().int(),
  tierCode: z.number().int(),
  sybilSeverityCode: z.number().int(),
  updatedAt: z.number().int(),
});

/** An `agent` line: one agent's last verified attestation (or why the last answer did not verify) and the record seen. */
export const agentSchema = z.object({
  type: z.literal("agent"),
  agent: z.string().min(1),
  verified: attestationSchema.nullable(),
  unverified: unverifiedSchema.nullable(),
  verifiedAt: isoTime,
  onchain: recordSchema.nullable(),
  block: z.string().nullable(),
});

const storedOutcomeSchema = z.union([
  z.object({ kind: z.literal("verified"), attestation: attestationSchema }),
  z.object({ kind: z.literal("invalid"), reason: z.string(), message: z.string() }),
  z.object({ kind: z.literal("missing"), message: z.string() }),
  z.object({ kind: z.literal("error"), message: z.string() }),
]);

/** The journal's `run` line: the start of a run. */
export const runSchema = z.object({
  type: z.literal("run"),
  run: z.string().min(1),
  startedAt: isoTime,
  seed: z.number(),
  full: z.boolean(),
  blockNumber: z.string().nullable(),
  resumes: z.string().nullable(),
});

/** The journal's `outcome` line: one answer of the service. */
export const outcomeSchema = z.object({
  type: z.literal("outcome"),
  run: z.string(),
  agent: z.string().min(1),
  fp: z.string(),
  at: isoTime,
  outcome: storedOutcomeSchema,
});

/** The journal's `stop` line: a run that stopped early on purpose. */
export const stopSchema = z.object({ type: z.literal("stop"), run: z.string(), at: isoTime, reason: z.string() });

/** The header of a state file: the format, and what the state is valid for. */
export type DriftStateHeader = z.infer<typeof headerSchema>;
/** A verified attestation as the state keeps it: its signed fields, times ISO-8601. */
export type StoredAttestation = z.infer<typeof attestationSchema>;
/** An on-chain record as the state keeps it (`updatedAt` in Unix seconds). */
export type StoredRecord = z.infer<typeof recordSchema>;
/** One agent's line: its last verified attestation (or why the last answer did not verify) and the record seen. */
export type DriftStateEntry = Omit<z.infer<typeof agentSchema>, "type">;
/** An answer of the service as the journal keeps it. */
export type StoredOutcome = z.infer<typeof storedOutcomeSchema>;
/** The journal's line for the start of a run. */
export type DriftStateRunLine = Omit<z.infer<typeof runSchema>, "type">;
/** The journal's line for one answer of the service. */
export type DriftStateOutcomeLine = Omit<z.infer<typeof outcomeSchema>, "type">;
/** The journal's line for a run that stopped early on purpose. */
export type DriftStateStopLine = Omit<z.infer<typeof stopSchema>, "type">;

/** A problem of the last completed night, as the header keeps it. */
export type StoredProblem = z.infer<typeof problemSchema>;

/** What the header must say for the state to be used by a run (everything but the times, the last run and what it found). */
export type DriftStateScope = Omit<DriftStateHeader, "type" | "format" | "version" | "writtenAt" | "lastRun" | "history" | "problems">;
