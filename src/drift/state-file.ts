/**
 * The drift job's state file (`--state <file>`): what the last runs verified, kept between nights, and the journal of
 * the run in progress, so that a run killed at any point can be started again and continue where it was.
 *
 * **Format**: JSON Lines (one JSON object per line, UTF-8, each line ending with `\n`), so that it can be read line by
 * line and appended to. In order:
 *
 * 1. one `header` line: the format (`trustgate-drift-state`) and its version (1), and what the state is valid for —
 *    the oracle, the attested oracle read instead (or `null`), the chain id, the API URL, the issuer, the decision
 *    rule and the tier/sybil encoding — plus when it was written, the last run that completed, and the history of
 *    the last completed runs (each one's counts per status, flips, signed fetches and exit code; the last 60);
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
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, unlinkSync, writeSync } from "node:fs";
import { z } from "zod";
import { ConfigurationError } from "../errors.js";
import type { TrustRecordResult } from "../oracle/records.js";
import { redactUrl } from "../security/redact-url.js";
import type { ServiceData, ServiceOutcome } from "./service-data.js";
import type { DriftNightSummary } from "./types.js";

/** The `format` of a state file's header. */
const DRIFT_STATE_FORMAT = "trustgate-drift-state";

/** The version of the state file format this kit writes and reads. */
const DRIFT_STATE_VERSION = 1;

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

/** The nights a state file keeps in its history (the last ones; older nights are dropped). */
export const DRIFT_STATE_HISTORY_NIGHTS = 60;

const headerSchema = z.object({
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

const agentSchema = z.object({
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

const runSchema = z.object({
  type: z.literal("run"),
  run: z.string().min(1),
  startedAt: isoTime,
  seed: z.number(),
  full: z.boolean(),
  blockNumber: z.string().nullable(),
  resumes: z.string().nullable(),
});

const outcomeSchema = z.object({
  type: z.literal("outcome"),
  run: z.string(),
  agent: z.string().min(1),
  fp: z.string(),
  at: isoTime,
  outcome: storedOutcomeSchema,
});

const stopSchema = z.object({ type: z.literal("stop"), run: z.string(), at: isoTime, reason: z.string() });

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

/** What the header must say for the state to be used by a run (everything but the times and the last run). */
export type DriftStateScope = Omit<DriftStateHeader, "type" | "format" | "version" | "writtenAt" | "lastRun" | "history">;

/** A state file, read. */
export interface LoadedDriftState {
  readonly path: string;
  readonly header: DriftStateHeader;
  /** The `agent` lines, by agent key. */
  readonly entries: Map<string, DriftStateEntry>;
  /** The journal of a run that did not complete (empty after a run that completed). */
  readonly journal: {
    readonly runs: readonly DriftStateRunLine[];
    /** The latest answer per agent key. */
    readonly outcomes: ReadonlyMap<string, DriftStateOutcomeLine>;
    readonly stops: readonly DriftStateStopLine[];
  };
  /** The number of the last line, when it was cut short (a crash while writing it) and ignored. */
  readonly truncatedLine?: number;
  /** Bytes of the file up to the end of its last complete line (where appending resumes). */
  readonly validLength: number;
}

/**
 * Reads a state file.
 *
 * @param path - The file.
 * @returns The state, or `null` when the file does not exist or is empty.
 * @throws {@link ConfigurationError} naming the file and the line for a line that is not JSON (other than the last),
 *   an unknown line type, a line of the wrong shape, a first line that is not a header, a header of another format
 *   or version, or `agent` lines after the journal began.
 */
export function readDriftState(path: string): LoadedDriftState | null {
  if (!existsSync(path)) return null;
  const buffer = readFileSync(path);
  if (buffer.length === 0) return null;
  const lines: { text: string; number: number; end: number; complete: boolean }[] = [];
  let start = 0;
  let number = 0;
  while (start < buffer.length) {
    const newline = buffer.indexOf(0x0a, start);
    number++;
    const end = newline < 0 ? buffer.length : newline + 1;
    lines.push({ text: buffer.toString("utf8", start, newline < 0 ? buffer.length : newline), number, end, complete: newline >= 0 });
    start = end;
  }
  const fail = (line: number, problem: string): never => {
    throw new ConfigurationError(`The state file ${path} is malformed at line ${line}: ${problem}`, {
      details: "Fix or remove the file, or give --full to start the state over",
    });
  };

  let header: DriftStateHeader | undefined;
  const entries = new Map<string, DriftStateEntry>();
  const runs: DriftStateRunLine[] = [];
  const outcomes = new Map<string, DriftStateOutcomeLine>();
  const stops: DriftStateStopLine[] = [];
  let truncatedLine: number | undefined;
  let validLength = 0;
  for (const [index, line] of lines.entries()) {
    const last = index === lines.length - 1;
    if (line.text.trim() === "") {
      if (line.complete) validLength = line.end;
      continue;
    }
    let value: unknown;
    try {
      if (!line.complete) throw new Error("no end of line");
      value = JSON.parse(line.text);
    } catch (error) {
      // A crash while writing the last line leaves it cut short: ignore it (it is cut off before appending).
      if (last && header !== undefined) {
        truncatedLine = line.number;
        break;
      }
      fail(line.number, line.complete ? `not JSON (${(error as Error).message})` : "cut short (no end of line)");
    }
    validLength = line.end;
    const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
    if (header === undefined) {
      if (type !== "header") fail(line.number, 'the first line must be the header ({"type":"header",…})');
      const parsed = headerSchema.safeParse(value);
      if (!parsed.success) fail(line.number, `header: ${describeIssues(parsed.error)}`);
      const h = parsed.data!;
      if (h.format !== DRIFT_STATE_FORMAT) fail(line.number, `format "${h.format}" is not ${DRIFT_STATE_FORMAT}`);
      if (h.version !== DRIFT_STATE_VERSION)
        fail(line.number, `format version ${h.version} is not ${DRIFT_STATE_VERSION}, the one this kit reads`);
      header = h;
      continue;
    }
    switch (type) {
      case "agent": {
        if (runs.length > 0) fail(line.number, "an agent line after the journal began (a run line)");
        const parsed = agentSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `agent: ${describeIssues(parsed.error)}`);
        const { type: _type, ...entry } = parsed.data!;
        entries.set(entry.agent, entry);
        break;
      }
      case "run": {
        const parsed = runSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `run: ${describeIssues(parsed.error)}`);
        const { type: _type, ...run } = parsed.data!;
        runs.push(run);
        break;
      }
      case "outcome": {
        const parsed = outcomeSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `outcome: ${describeIssues(parsed.error)}`);
        const { type: _type, ...outcome } = parsed.data!;
        if (runs.length === 0) fail(line.number, "an outcome line before any run line");
        outcomes.set(outcome.agent, outcome);
        break;
      }
      case "stop": {
        const parsed = stopSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `stop: ${describeIssues(parsed.error)}`);
        const { type: _type, ...stop } = parsed.data!;
        stops.push(stop);
        break;
      }
      default:
        fail(line.number, `unknown line type ${JSON.stringify(type)} (expected header, agent, run, outcome or stop)`);
    }
  }
  if (header === undefined) fail(1, "no header");
  return {
    path,
    header: header!,
    entries,
    journal: { runs, outcomes, stops },
    ...(truncatedLine !== undefined ? { truncatedLine } : {}),
    validLength,
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(line)"}: ${issue.message}`)
    .join("; ");
}

/**
 * What differs between the scope a state was written for and a run's.
 *
 * @param header - The state's header.
 * @param scope - The run's.
 * @returns One phrase per difference (`oracle 0xA… in the state, 0xB… in this run`); empty when the state applies.
 */
export function stateScopeMismatches(header: DriftStateHeader, scope: DriftStateScope): string[] {
  const lower = (s: string | null) => (s === null ? "none" : s.toLowerCase());
  // Compared, and named, redacted: a state written with the URL whole and one written redacted agree.
  const api = (s: string) => redactUrl(s.replace(/\/+$/, ""));
  const encoding = (e: DriftStateScope["encoding"]) => `tiers ${e.tiers.join(",")}; sybil ${e.sybilSeverities.join(",")}`;
  const checks: [string, string, string][] = [
    ["oracle", lower(header.oracle), lower(scope.oracle)],
    ["attested oracle", lower(header.attestedOracle), lower(scope.attestedOracle)],
    ["chain id", String(header.chainId), String(scope.chainId)],
    ["API", api(header.api), api(scope.api)],
    ["issuer", header.issuer, scope.issuer],
    ["decision rule", header.rule, scope.rule],
    ["encoding", encoding(header.encoding), encoding(scope.encoding)],
  ];
  return checks.filter(([, a, b]) => a !== b).map(([what, a, b]) => `${what} ${a} in the state, ${b} in this run`);
}

/**
 * The header line of a state.
 *
 * @param scope - What it is valid for.
 * @param writtenAt - When.
 * @param lastRun - The last run that completed, if any.
 * @param history - The completed runs' summaries, oldest first; only the last {@link DRIFT_STATE_HISTORY_NIGHTS} are kept.
 * @returns The header.
 */
export function stateHeader(
  scope: DriftStateScope,
  writtenAt: Date,
  lastRun: DriftStateHeader["lastRun"],
  history: readonly DriftNightSummary[] = [],
): DriftStateHeader {
  return {
    type: "header",
    format: DRIFT_STATE_FORMAT,
    version: DRIFT_STATE_VERSION,
    ...scope,
    writtenAt: writtenAt.toISOString(),
    lastRun,
    history: history.slice(-DRIFT_STATE_HISTORY_NIGHTS),
  };
}

/** One line of the file, serialized (with its end of line). */
export const stateLine = {
  header: (header: DriftStateHeader): string => `${JSON.stringify(header)}\n`,
  agent: (entry: DriftStateEntry): string => `${JSON.stringify({ type: "agent", ...entry })}\n`,
  run: (run: DriftStateRunLine): string => `${JSON.stringify({ type: "run", ...run })}\n`,
  outcome: (outcome: DriftStateOutcomeLine): string => `${JSON.stringify({ type: "outcome", ...outcome })}\n`,
  stop: (stop: DriftStateStopLine): string => `${JSON.stringify({ type: "stop", ...stop })}\n`,
};

/**
 * Writes a whole state file atomically: into a temporary file next to it, flushed to disk, then renamed over it.
 *
 * @param path - The file.
 * @param lines - Its lines, each with its end of line.
 */
export function writeDriftStateAtomically(path: string, lines: Iterable<string>): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    let chunk = "";
    for (const line of lines) {
      chunk += line;
      if (chunk.length >= 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    if (chunk) writeSync(fd, chunk);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // nothing left to clean up
    }
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
}

/** Appends lines to a state file as a run goes, each written to the file at once (synchronously). */
export class DriftStateJournal {
  #fd: number | undefined;

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /**
   * Opens a state file for appending, first cutting off anything after `validLength` (a last line cut short).
   *
   * @param path - The file.
   * @param validLength - Bytes to keep.
   * @returns The journal.
   */
  static open(path: string, validLength: number): DriftStateJournal {
    truncateSync(path, validLength);
    return new DriftStateJournal(openSync(path, "a"));
  }

  /** Whether lines are still written. */
  get open(): boolean {
    return this.#fd !== undefined;
  }

  /**
   * Appends a line (ignored once closed).
   *
   * @param line - The line, with its end of line.
   */
  append(line: string): void {
    if (this.#fd !== undefined) writeSync(this.#fd, line);
  }

  /** Flushes to disk and closes; later appends are ignored. */
  close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The on-chain record as the state keeps it.
 *
 * @param record - An oracle read.
 * @returns Its codes and time, `null` for no record, `undefined` when the read failed (nothing seen).
 */
export function storedRecordOf(record: TrustRecordResult): StoredRecord | null | undefined {
  if (!record.ok) return undefined;
  if (!record.hasScore) return null;
  return {
    score: record.score,
    tierCode: record.tier,
    sybilSeverityCode: record.sybilSeverity,
    updatedAt: record.updatedAt,
  };
}

/**
 * A service outcome as the journal keeps it (the unsigned listing is never kept).
 *
 * @param outcome - A fetched outcome.
 * @returns Its stored form, or `null` for a `listed` outcome.
 */
export function storedOutcomeOf(outcome: ServiceOutcome): StoredOutcome | null {
  switch (outcome.kind) {
    case "verified":
      return { kind: "verified", attestation: storedAttestationOf(outcome) };
    case "invalid":
      return { kind: "invalid", reason: outcome.reason, message: outcome.message };
    case "missing":
      return { kind: "missing", message: outcome.message };
    case "error":
      return { kind: "error", message: outcome.message };
    default:
      return null;
  }
}

/**
 * The signed fields of a verified outcome as the state keeps them.
 *
 * @param outcome - A verified outcome.
 * @returns Its stored form.
 */
export function storedAttestationOf(outcome: Extract<ServiceOutcome, { kind: "verified" }>): StoredAttestation {
  const { data } = outcome;
  return {
    score: data.score,
    tier: data.tier,
    sybilSeverity: data.sybilSeverity,
    at: data.at.toISOString(),
    computedAt: data.computedAt ? data.computedAt.toISOString() : null,
    kid: outcome.kid,
    expiresAt: outcome.expiresAt ? outcome.expiresAt.toISOString() : null,
    submission: outcome.submission ?? null,
  };
}

/**
 * A stored outcome back as the scan's outcome.
 *
 * @param stored - The stored form.
 * @returns The outcome.
 */
export function outcomeOfStored(stored: StoredOutcome): ServiceOutcome {
  switch (stored.kind) {
    case "verified":
      return verifiedOutcomeOf(stored.attestation);
    case "invalid":
      return { kind: "invalid", reason: stored.reason, message: stored.message };
    case "missing":
      return { kind: "missing", message: stored.message };
    case "error":
      return { kind: "error", message: stored.message };
  }
}

/**
 * A stored attestation as a verified outcome.
 *
 * @param stored - The stored attestation.
 * @returns The outcome (`submission` absent when not known).
 */
export function verifiedOutcomeOf(stored: StoredAttestation): Extract<ServiceOutcome, { kind: "verified" }> {
  return {
    kind: "verified",
    kid: stored.kid,
    ...(stored.submission ? { submission: stored.submission } : {}),
    expiresAt: stored.expiresAt === null ? null : new Date(stored.expiresAt),
    data: storedData(stored),
  };
}

/**
 * The trust data of a stored attestation.
 *
 * @param stored - The stored attestation.
 * @returns Its score, tier, sybil severity and times.
 */
export function storedData(stored: StoredAttestation): ServiceData {
  return {
    score: stored.score,
    tier: stored.tier,
    sybilSeverity: stored.sybilSeverity,
    at: new Date(stored.at),
    computedAt: stored.computedAt === null ? null : new Date(stored.computedAt),
  };
}

/**
 * A fingerprint of what an agent's signed attestation was asked for on: its listing entry and its on-chain record. A
 * resumed run reuses an answer from the journal only when the fingerprint is the same (nothing changed since).
 *
 * @param listed - The listing's entry (`null`: not listed; `undefined`: no listing).
 * @param record - The oracle read.
 * @returns 32 hexadecimal digits.
 */
export function inputFingerprint(listed: Partial<ServiceData> | null | undefined, record: TrustRecordResult): string {
  const listing =
    listed === undefined
      ? "none"
      : listed === null
        ? "unlisted"
        : [listed.score, listed.tier, listed.sybilSeverity, listed.at?.getTime() ?? null, listed.computedAt?.getTime() ?? null];
  const onchain = storedRecordOf(record);
  return createHash("sha256")
    .update(JSON.stringify([listing, onchain === undefined ? "unread" : onchain]))
    .digest("hex")
    .slice(0, 32);
}
