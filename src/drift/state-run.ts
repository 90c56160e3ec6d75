/**
 * One run's use of the state file (`--state`, see `state/schema.ts` for the format): check that the state was written
 * for this oracle, chain, service, rule and encoding; give triage what earlier runs verified; continue a run that was
 * killed or stopped (same seed, its answers reused where the inputs did not change); checkpoint each answer as it
 * arrives; and, when the run completes, fold its answers into the state and rewrite the file atomically.
 *
 * `--full` ignores what the state holds (triage as a first run) but still checkpoints, and the state it writes keeps
 * the entries of agents the run did not ask about; a state written for another setup is refused unless `--full` is
 * given, and then started over; so is, with `--full`, a file that cannot be read at all, keeping the nights' history
 * when its header line is readable and of this setup (`state/salvage.ts`).
 *
 * @packageDocumentation
 */
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { agentKey } from "../agent/agent-ref.js";
import { ConfigurationError } from "../errors.js";
import { randomAuditSeed } from "./audit.js";
import type { ScanCheckpoint, ScanResult, ScanStateSource } from "./pipeline.js";
import { writeDriftStateAtomically } from "./state/atomic-write.js";
import { outcomeOfStored, stateLine, storedAttestationOf, storedOutcomeOf, storedRecordOf, verifiedOutcomeOf } from "./state/codec.js";
import { stateHeader, stateScopeMismatches } from "./state/header.js";
import { DriftStateJournal } from "./state/journal.js";
import type { LoadedDriftState } from "./state/read.js";
import type { RecoveredDriftState } from "./state/salvage.js";
import {
  DRIFT_STATE_HISTORY_NIGHTS,
  type DriftStateEntry,
  type DriftStateHeader,
  type DriftStateRunLine,
  type DriftStateScope,
  type StoredProblem,
} from "./state/schema.js";
import type { TriageEvidence } from "./stages/triage.js";
import { failureWithCause } from "../util/network-cause.js";
import type { DriftNightSummary, DriftStateSummary } from "./types.js";

/** What a completed run adds to the state's history besides its times. */
export type DriftNightOutcome = Omit<DriftNightSummary, "startedAt" | "finishedAt">;

/** What {@link openDriftStateRun} needs. */
export interface DriftStateRunOptions {
  /** The state file. */
  readonly path: string;
  /** What was read from it (`readDriftState`), `null` when it does not exist yet. */
  readonly loaded: LoadedDriftState | null;
  /** What this run is: oracle, attested oracle, chain id, API, issuer, rule, encoding. */
  readonly scope: DriftStateScope;
  /** `--full`: ignore what the state holds (and start over a state written for another setup, or one it cannot read). */
  readonly full: boolean;
  /** Present when `--full` could not read the file (`readStateFileForRun`): the history kept, what was dropped. */
  readonly recovered?: RecoveredDriftState | undefined;
  /** `--seed`, if given: it wins over the seed of a run being continued. */
  readonly seed?: number;
  /** The run's clock. */
  readonly now: () => Date;
}

/** A run's handle on its state file. */
export interface DriftStateRun {
  /** The audit seed: `--seed`, else the continued run's, else a fresh random one. */
  readonly seed: number;
  /** What triage may use; `undefined` with `--full`. */
  readonly source: ScanStateSource | undefined;
  /** Where answers are found again and checkpointed. */
  readonly checkpoint: ScanCheckpoint;
  /** Sentences for the report's notes (a continued run, a last line cut short, a state started over). */
  readonly notes: readonly string[];
  /**
   * The last completed night the state records, to compare tonight with: its start and its problems; `null` when
   * there is none (a new state, one started over, or one written before the problems were kept).
   */
  readonly previousNight: { readonly startedAt: string; readonly problems: readonly StoredProblem[] } | null;
  /** When this night started: now, or, for a run that continues one killed or stopped, when that one started. */
  readonly startedAt: Date;
  /**
   * Writes the run's first line (creating the file, or starting it over, when needed).
   *
   * @param blockNumber - The block the run reads at.
   */
  begin(blockNumber: bigint | null): void;
  /**
   * Ends the run: a complete run folds its answers into the state and rewrites the file; a partial one appends a
   * `stop` line and leaves its journal for the next run to continue.
   *
   * @param result - The scan.
   * @param blockNumber - The block read at.
   * @param night - What the run found (counts, flips, signed fetches, exit code), for the state's history.
   * @param problems - Tonight's problems with their nights in a row, kept for the next night to compare with.
   * @returns The state's part of the report.
   */
  finish(result: ScanResult, blockNumber: bigint | null, night: DriftNightOutcome, problems?: readonly StoredProblem[]): DriftStateSummary;
  /** The state's history of nights, oldest first: after {@link finish}, with this run last when it completed. */
  history(): readonly DriftNightSummary[];
  /** Closes the journal without ending the run (it was abandoned or failed): the next run continues it. */
  abandon(): void;
  /**
   * Records that the run was interrupted on purpose (Ctrl-C, an abort): a `stop` line, written and flushed at once,
   * then the journal is closed. The next run continues it, and its note says the run was interrupted, not killed.
   */
  interrupted(): void;
}

/**
 * Prepares a run's use of its state file (nothing is written before {@link DriftStateRun.begin}).
 *
 * @param options - The file, what was read from it, the run's scope, `--full`, `--seed` and clock.
 * @returns The handle.
 * @throws {@link ConfigurationError} when the state was written for another oracle, attested oracle, chain, API,
 *   issuer, rule or encoding, and `full` is not set.
 */
export function openDriftStateRun(options: DriftStateRunOptions): DriftStateRun {
  const { path, loaded, scope, full, now } = options;
  const notes: string[] = [];
  const mismatches = loaded ? stateScopeMismatches(loaded.header, scope) : [];
  if (mismatches.length > 0 && !full) {
    throw new ConfigurationError(`The state file ${path} was written for another setup: ${mismatches.join("; ")}`, {
      details: "Give --full to start the state over for this setup, or another --state file",
    });
  }
  const usable = loaded !== null && mismatches.length === 0 ? loaded : null;
  if (loaded && !usable)
    notes.push(`STATE STARTED OVER: ${path} was written for another setup (${mismatches.join("; ")}); --full replaced it`);
  const kept = options.recovered ? recoveredHistory(options.recovered, scope) : undefined;
  if (options.recovered) notes.push(recoveredNote(path, options.recovered, kept));
  if (usable?.truncatedLine !== undefined) {
    notes.push(
      `The state file's last line (line ${usable.truncatedLine}) was cut short, probably by a crash while it was written: it was ignored (its answer is fetched again)`,
    );
  }
  const entries = new Map(usable?.entries ?? []);
  const journalRuns = usable?.journal.runs ?? [];
  const continued = journalRuns[0];
  const seed = options.seed ?? continued?.seed ?? randomAuditSeed();
  const runId = randomBytes(8).toString("hex");
  const startedAt = continued ? new Date(continued.startedAt) : now();
  if (continued) {
    const reused = usable!.journal.outcomes.size;
    const stopped = howItEnded(usable!.journal);
    notes.push(
      `Continued the run started ${continued.startedAt} that ${stopped}: seed ${seed}${options.seed !== undefined && options.seed !== continued.seed ? " (--seed, not the run's own)" : ""}; its ${reused} checkpointed answers are reused where the listing and the record did not change`,
    );
  }

  const source: ScanStateSource | undefined = full
    ? undefined
    : {
        evidence: (key) => evidenceOf(entries.get(key)),
        attestation: (key) => {
          const entry = entries.get(key);
          if (!entry?.verified) return undefined;
          return { ...verifiedOutcomeOf(entry.verified), fromState: { verifiedAt: new Date(entry.verifiedAt) } };
        },
      };

  let journal: DriftStateJournal | undefined;
  let notSaved: string | undefined;
  const checkpoint: ScanCheckpoint = {
    resumed: (key, fingerprint) => {
      const line = usable?.journal.outcomes.get(key);
      if (!line || line.fp !== fingerprint) return undefined;
      return outcomeOfStored(line.outcome);
    },
    record: (key, fingerprint, outcome) => {
      const stored = storedOutcomeOf(outcome);
      if (!stored || !journal) return;
      journal.append(stateLine.outcome({ run: runId, agent: key, fp: fingerprint, at: now().toISOString(), outcome: stored }));
    },
  };

  let history: readonly DriftNightSummary[] = (usable?.header.history ?? kept?.history ?? []).slice(-DRIFT_STATE_HISTORY_NIGHTS);
  const lastNight = usable?.header.lastRun;
  const previousNight =
    lastNight && usable?.header.problems !== undefined ? { startedAt: lastNight.startedAt, problems: usable.header.problems } : null;
  const header = (lastRun: DriftStateHeader["lastRun"], problems?: readonly StoredProblem[]) =>
    stateHeader(scope, now(), lastRun, history, problems);
  const runLine = (blockNumber: bigint | null): DriftStateRunLine => ({
    run: runId,
    startedAt: now().toISOString(),
    seed,
    full,
    blockNumber: blockNumber === null ? null : blockNumber.toString(),
    resumes: journalRuns.at(-1)?.run ?? null,
  });

  return {
    seed,
    source,
    checkpoint,
    notes,
    previousNight,
    startedAt,
    begin(blockNumber) {
      if (usable) {
        journal = DriftStateJournal.open(path, usable.validLength);
        journal.append(stateLine.run(runLine(blockNumber)));
        return;
      }
      writeDriftStateAtomically(path, [stateLine.header(header(null)), stateLine.run(runLine(blockNumber))]);
      journal = DriftStateJournal.open(path, statSync(path).size);
    },
    history: () => history,
    finish(result, blockNumber, night, problems) {
      const verifiedAt = startedAt.toISOString();
      const next = foldAnswers(entries, result, verifiedAt);
      if (result.partial) {
        journal?.append(stateLine.stop({ run: runId, at: now().toISOString(), reason: result.partial.reason }));
        journal?.close();
      } else {
        journal?.close();
        const lastRun = {
          run: continued?.run ?? runId,
          seed,
          startedAt: verifiedAt,
          finishedAt: now().toISOString(),
          blockNumber: blockNumber === null ? null : blockNumber.toString(),
        };
        history = [...history, { startedAt: lastRun.startedAt, finishedAt: lastRun.finishedAt, ...night }].slice(
          -DRIFT_STATE_HISTORY_NIGHTS,
        );
        try {
          writeDriftStateAtomically(path, stateLines(header(lastRun, problems), next));
        } catch (error) {
          // The scan's verdict must not be lost to a failed write: the report says so, and the file keeps the journal.
          notSaved = failureWithCause(error);
          notes.push(
            `STATE NOT SAVED: ${path} could not be rewritten (${notSaved}); it still holds the nights before and this run's journal, which the next run continues`,
          );
        }
      }
      const fromState = (result.scanned?.outcomes ?? []).filter((o) => o?.kind === "verified" && o.fromState).length;
      return {
        file: path,
        entries: next.size,
        fromState,
        full,
        ...(notSaved !== undefined ? { notSaved } : {}),
        oldestAttestation: oldestAttestation(next),
        ...(usable?.truncatedLine !== undefined ? { truncatedLine: usable.truncatedLine } : {}),
      };
    },
    abandon() {
      journal?.close();
    },
    interrupted() {
      if (!journal?.open) return;
      journal.append(stateLine.stop({ run: runId, at: now().toISOString(), reason: INTERRUPTED_STOP_REASON }));
      journal.close();
    },
  };
}

/**
 * The history `--full` keeps of a file it could not read: the readable header's, when that header was written for this
 * setup (the nights of another setup are not this one's); otherwise none, and why.
 */
function recoveredHistory(
  recovered: RecoveredDriftState,
  scope: DriftStateScope,
): { readonly history: readonly DriftNightSummary[] } | { readonly history?: undefined; readonly why: string } {
  if (recovered.header === null) return { why: "its header line could not be read either" };
  const mismatches = stateScopeMismatches(recovered.header, scope);
  if (mismatches.length > 0) return { why: `it was written for another setup (${mismatches.join("; ")})` };
  return { history: recovered.header.history ?? [] };
}

/** The note of a state `--full` started over because it could not read it: what was kept, what was dropped. */
function recoveredNote(path: string, recovered: RecoveredDriftState, kept: ReturnType<typeof recoveredHistory> | undefined): string {
  const nights = kept?.history?.length ?? 0;
  const history =
    kept?.history !== undefined
      ? `kept the history of ${nights} night${nights === 1 ? "" : "s"} from its header`
      : `dropped its history: ${kept && "why" in kept ? kept.why : "unreadable"}`;
  const agents = `${recovered.droppedAgents} agent entr${recovered.droppedAgents === 1 ? "y" : "ies"}`;
  const lines = recovered.droppedLines > 0 ? ` and ${recovered.droppedLines} other line${recovered.droppedLines === 1 ? "" : "s"}` : "";
  return `STATE STARTED OVER: ${path} could not be read (${recovered.problem}); --full started it over: ${history}; dropped ${agents}${lines} (their agents are fetched again)`;
}

/** The stop reason of a run interrupted cleanly (Ctrl-C), as its `stop` line records it. */
export const INTERRUPTED_STOP_REASON = "interrupted";

/**
 * How the last run of a journal ended, for the note of the run continuing it: the reason its `stop` line gives (the
 * time limit, an endpoint that stopped answering, Ctrl-C), or, without one, that it did not complete (a kill or a
 * crash leaves no line).
 */
function howItEnded(journal: LoadedDriftState["journal"]): string {
  const last = journal.runs.at(-1)?.run;
  const stop = [...journal.stops].reverse().find((line) => line.run === last);
  if (!stop) return "did not complete (killed?)";
  if (stop.reason === INTERRUPTED_STOP_REASON) return "was interrupted (Ctrl-C)";
  if (stop.reason.includes("--max-duration")) return "stopped at its --max-duration";
  return `stopped: ${stop.reason.replace(/^not fetched: /, "").replace(/; run it again.*$/, "")}`;
}

/** What an entry tells triage. */
function evidenceOf(entry: DriftStateEntry | undefined): TriageEvidence | undefined {
  if (!entry) return undefined;
  return {
    verified: entry.verified
      ? {
          score: entry.verified.score,
          tier: entry.verified.tier,
          sybilSeverity: entry.verified.sybilSeverity,
          computedAt: entry.verified.computedAt === null ? null : new Date(entry.verified.computedAt),
        }
      : null,
    onchain:
      entry.onchain === undefined || entry.onchain === null
        ? entry.onchain
        : { score: entry.onchain.score, tier: entry.onchain.tierCode, sybilSeverity: entry.onchain.sybilSeverityCode },
  };
}

/**
 * The state after a run: each agent the run asked about gets its answer (a verified attestation, or why it did not
 * verify), the record read and the run's start as `verifiedAt`; each agent whose service data came from the state gets the record read; every other
 * entry is kept as it was.
 */
function foldAnswers(entries: ReadonlyMap<string, DriftStateEntry>, result: ScanResult, verifiedAt: string): Map<string, DriftStateEntry> {
  const next = new Map(entries);
  const scanned = result.scanned;
  if (!scanned) return next;
  const block = (i: number) => {
    const record = result.records[i];
    return record?.ok && record.blockNumber !== undefined ? record.blockNumber.toString() : null;
  };
  scanned.candidates.forEach((candidate, i) => {
    const key = agentKey(candidate.agent);
    const outcome = scanned.outcomes[i];
    // A hole: neither fetched nor taken from the state (the listing stood in); the entry stays as it was.
    if (outcome === undefined) return;
    const seen = storedRecordOf(result.records[i]!);
    if (scanned.fetched.has(i)) {
      const old = entries.get(key);
      const onchain = seen === undefined ? (old?.onchain ?? null) : seen;
      if (outcome.kind === "verified") {
        next.set(key, { agent: key, verified: storedAttestationOf(outcome), unverified: null, verifiedAt, onchain, block: block(i) });
      } else if (outcome.kind !== "listed" && !(outcome.kind === "error" && outcome.notFetched)) {
        const unverified =
          outcome.kind === "invalid"
            ? { kind: outcome.kind, reason: outcome.reason, message: outcome.message }
            : { kind: outcome.kind, message: outcome.message };
        next.set(key, { agent: key, verified: null, unverified, verifiedAt, onchain, block: block(i) });
      }
      return;
    }
    if (outcome.kind === "verified" && outcome.fromState && seen !== undefined) {
      const old = entries.get(key);
      if (old) next.set(key, { ...old, onchain: seen, block: block(i) });
    }
  });
  return next;
}

function* stateLines(header: DriftStateHeader, entries: ReadonlyMap<string, DriftStateEntry>): Generator<string> {
  yield stateLine.header(header);
  for (const entry of entries.values()) yield stateLine.agent(entry);
}

/** The verified attestation in the state whose verification is oldest (then whose computation is). */
function oldestAttestation(entries: ReadonlyMap<string, DriftStateEntry>): DriftStateSummary["oldestAttestation"] {
  let oldest: DriftStateEntry | undefined;
  const rank = (e: DriftStateEntry) => [Date.parse(e.verifiedAt), e.verified?.computedAt ? Date.parse(e.verified.computedAt) : -Infinity];
  for (const entry of entries.values()) {
    if (!entry.verified) continue;
    if (!oldest) {
      oldest = entry;
      continue;
    }
    const [a1, a2] = rank(entry);
    const [b1, b2] = rank(oldest);
    if (a1! < b1! || (a1 === b1 && a2! < b2!)) oldest = entry;
  }
  if (!oldest) return null;
  return { agent: oldest.agent, computedAt: oldest.verified!.computedAt, verifiedAt: oldest.verifiedAt };
}
