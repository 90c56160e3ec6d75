/**
 * The oracle's heartbeat: when its last write was, by the oracle's own time (the `updatedAt` of the record written,
 * when the service computed it), and whether the next one is overdue against a cadence. Keying on the oracle's own
 * time, not the block's, means a write that lands late but carries the night's computation is the night's write,
 * and a chain that pauses does not make a silence of its own (the lesson of Pyth's staleness alerts, PR #319).
 *
 * Two cadences: a daily write at a time of day (UTC) with a grace (`--expect-write "03:00 UTC daily +6h"`), and a
 * longest silence (`--max-silence 26h`, parsed by the command line). The default is the service's own: the
 * crosswalk (`rnwy/agent-governance-vocabulary`, `crosswalk/rnwy.yaml`, `refresh_hint.schedule: "nightly 03:00 UTC"`)
 * recomputes every score nightly at 03:00 UTC.
 *
 * @packageDocumentation
 */
import { type Address, getAbiItem, getAddress } from "viem";
import { getLogs } from "viem/actions";
import { InvalidArgumentError } from "../errors.js";
import { trustScoreOracleAbi } from "../oracle/abi.js";
import type { AnyClient } from "../oracle/client.js";
import { systemCondition } from "./system-condition.js";
import type { Condition, WriteCadence } from "./types.js";

const DAY_SECONDS = 86_400;

/** The default cadence's grace, also that of a `--expect-write` that names none (see {@link DEFAULT_WRITE_CADENCE}). */
const DEFAULT_GRACE_SECONDS = 6 * 3600;

/**
 * The crosswalk's nightly recompute: daily at 03:00 UTC, with a grace of 6 hours. The service does not publish when
 * the night's records reach the oracle after the recompute starts (150,000 agents computed, then published in
 * batches), so the grace lets a slow night land; 6 hours still alerts the same morning (09:00 UTC), six hours before
 * the drift job's 36-hour `--max-age` calls the night before's records stale (15:00 UTC). A write up to the grace before 03:00 counts
 * for that night too (a recompute that starts early).
 */
export const DEFAULT_WRITE_CADENCE: WriteCadence = { kind: "daily", atSecondOfDayUtc: 3 * 3600, graceSeconds: DEFAULT_GRACE_SECONDS };

/** The accepted forms of `--expect-write`, for the error of one that is not. */
const EXPECT_WRITE_FORMS = `"HH:MM UTC daily" (e.g. "03:00 UTC daily", a grace of ${DEFAULT_GRACE_SECONDS / 3600}h) or "HH:MM UTC daily +<grace>" (e.g. "03:00 UTC daily +2h", "+90m", "+1h30m")`;

/**
 * Reads `--expect-write`: a daily write at a time of day (UTC), with a grace.
 *
 * @param text - `"03:00 UTC daily"` (the default grace, {@link DEFAULT_WRITE_CADENCE}'s) or `"03:00 UTC daily +2h"`
 *   (a grace in hours and/or minutes: `+2h`, `+90m`, `+1h30m`, `+0m`); case and spacing are free.
 * @returns The cadence.
 * @throws {@link InvalidArgumentError} naming the accepted forms, for any other text.
 */
export function parseExpectWrite(text: string): WriteCadence {
  const match = /^\s*(\d{1,2}):(\d{2})\s+utc\s+daily(?:\s+\+\s*(?:(\d+)h)?\s*(?:(\d+)m)?)?\s*$/i.exec(text);
  const [, hours, minutes, graceHours, graceMinutes] = match ?? [];
  const hasPlus = /\+/.test(text);
  if (!match || Number(hours) > 23 || Number(minutes) > 59 || (hasPlus && graceHours === undefined && graceMinutes === undefined)) {
    throw new InvalidArgumentError(`--expect-write ${JSON.stringify(text)} is not a cadence: use ${EXPECT_WRITE_FORMS}`);
  }
  const graceSeconds = hasPlus ? Number(graceHours ?? 0) * 3600 + Number(graceMinutes ?? 0) * 60 : DEFAULT_GRACE_SECONDS;
  if (graceSeconds >= DAY_SECONDS) {
    throw new InvalidArgumentError(`--expect-write ${JSON.stringify(text)}: the grace must be under 24h (the next write is due by then)`);
  }
  return { kind: "daily", atSecondOfDayUtc: Number(hours) * 3600 + Number(minutes) * 60, graceSeconds };
}

/**
 * When the oracle's silence after a write becomes an alert. Daily: the write covers the latest scheduled time not
 * after it plus the grace (a write up to the grace early counts for that night), and the next write is due by the
 * following scheduled time plus the grace. Max-silence: the write's time plus the longest silence.
 *
 * @param lastWrite - The oracle's own time of its last write (the record's `updatedAt`).
 * @param cadence - The cadence.
 * @returns The deadline: a time later than it, without a newer write, is a silence.
 */
export function writeDeadline(lastWrite: Date, cadence: WriteCadence): Date {
  const written = Math.floor(lastWrite.getTime() / 1000);
  if (cadence.kind === "max-silence") return new Date((written + cadence.seconds) * 1000);
  const reach = written + cadence.graceSeconds;
  const dayStart = Math.floor(reach / DAY_SECONDS) * DAY_SECONDS;
  let covered = dayStart + cadence.atSecondOfDayUtc;
  if (covered > reach) covered -= DAY_SECONDS;
  return new Date((covered + DAY_SECONDS + cadence.graceSeconds) * 1000);
}

/**
 * The oracle's silence, as a condition, while its next write is overdue (id `oracle-silent:<oracle>`).
 *
 * @param input - The oracle; its last write (`null`: none found within the lookback); since when the watch has known
 *   it silent when no write was found (the time of the lookback's first block, or the watch's start: the deadline is
 *   counted from then; absent: the silence is an alert at once); the cadence; the time now.
 * @returns The condition while the deadline has passed; `null` otherwise.
 */
export function silenceCondition(input: {
  readonly oracle: Address;
  readonly lastWrite: Date | null;
  readonly knownSilentSince?: Date;
  readonly cadence: WriteCadence;
  readonly now: Date;
}): Condition | null {
  const { lastWrite, cadence, now } = input;
  const since = lastWrite ?? input.knownSilentSince;
  const deadline = since === undefined ? null : writeDeadline(since, cadence);
  if (deadline !== null && now.getTime() <= deadline.getTime()) return null;
  const oracle = getAddress(input.oracle);
  const summary =
    lastWrite === null
      ? `the oracle ${oracle} has no write the watch can find${input.knownSilentSince ? ` since ${input.knownSilentSince.toISOString()}` : ""}: ${describeCadence(cadence)} is overdue`
      : `the oracle ${oracle} has not written since ${lastWrite.toISOString()} (its own time): ${describeCadence(cadence)} was due by ${deadline!.toISOString()}`;
  return systemCondition({
    kind: "oracle-silent",
    id: `oracle-silent:${oracle}`,
    summary,
    recordUpdatedAt: lastWrite?.toISOString() ?? null,
    details: [
      `cadence: ${describeCadence(cadence)}`,
      ...(deadline
        ? [`deadline: ${deadline.toISOString()}`, `overdue by ${Math.floor((now.getTime() - deadline.getTime()) / 1000)} s`]
        : []),
      ...(lastWrite === null ? ["no RecordAdded or RecordUpdated found within the lookback"] : []),
    ],
  });
}

/** A cadence in words: `the daily write at 03:00 UTC (grace 6h)`, `a write every 26h at most`. */
function describeCadence(cadence: WriteCadence): string {
  if (cadence.kind === "max-silence") return `a write every ${formatSeconds(cadence.seconds)} at most`;
  const hh = String(Math.floor(cadence.atSecondOfDayUtc / 3600)).padStart(2, "0");
  const mm = String(Math.floor((cadence.atSecondOfDayUtc % 3600) / 60)).padStart(2, "0");
  return `the daily write at ${hh}:${mm} UTC (grace ${formatSeconds(cadence.graceSeconds)})`;
}

/** Seconds as `26h`, `1h30m`, `90s`. */
function formatSeconds(seconds: number): string {
  if (seconds % 60 !== 0 || seconds === 0) return `${seconds}s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${h > 0 ? `${h}h` : ""}${m > 0 ? `${m}m` : ""}`;
}

/** Bits of the packed record's `updatedAt` (uint40, from bit 24: `score | tier << 8 | sybil << 16 | updatedAt << 24`). */
const UPDATED_AT_SHIFT = 24n;
const UPDATED_AT_MASK = (1n << 40n) - 1n;

/**
 * The oracle's own time of a packed record (the word `RecordAdded`/`RecordUpdated` carry:
 * `score | tier << 8 | sybil << 16 | updatedAt << 24`, bits above the record ignored).
 *
 * @param record - The packed record.
 * @returns Its `updatedAt`.
 */
export function recordUpdatedAt(record: bigint): Date {
  return new Date(Number((record >> UPDATED_AT_SHIFT) & UPDATED_AT_MASK) * 1000);
}

const recordAdded = getAbiItem({ abi: trustScoreOracleAbi, name: "RecordAdded" });
const recordUpdated = getAbiItem({ abi: trustScoreOracleAbi, name: "RecordUpdated" });

/** Default most blocks per `eth_getLogs` request of {@link findLastWrite} (a common node limit). */
const DEFAULT_MAX_BLOCK_RANGE = 10_000n;

/**
 * The oracle's last write before `toBlock`: the newest RecordAdded/RecordUpdated within `lookbackBlocks`, with the
 * record's own updatedAt (the latest of the records written in that block). `null` when none within the lookback.
 *
 * The range is read backwards from `toBlock` in windows that start at one block and double up to `maxBlockRange`,
 * so that the newest write is found with few requests and a night's bulk write is read no further than its last
 * blocks; a window the node refuses is read in halves.
 *
 * @param client - A client of the oracle's chain.
 * @param oracle - The oracle (the reference oracle or an `AttestedTrustOracle`: both emit these events).
 * @param options - The last block to look at (inclusive), how many blocks to look back, and the largest request.
 * @returns The write's time (the oracle's) and block, or `null`.
 * @throws The node's error for a single block it cannot serve; {@link InvalidArgumentError} for a negative lookback
 *   or a range under one block.
 */
export async function findLastWrite(
  client: AnyClient,
  oracle: Address,
  options: { readonly toBlock: bigint; readonly lookbackBlocks: bigint; readonly maxBlockRange?: bigint },
): Promise<{ readonly at: Date; readonly blockNumber: bigint } | null> {
  const maxRange = options.maxBlockRange ?? DEFAULT_MAX_BLOCK_RANGE;
  if (options.lookbackBlocks < 0n) throw new InvalidArgumentError(`lookbackBlocks must be >= 0, got ${options.lookbackBlocks}`);
  if (maxRange < 1n) throw new InvalidArgumentError(`maxBlockRange must be at least 1, got ${maxRange}`);
  const lowest = options.toBlock - options.lookbackBlocks + 1n > 0n ? options.toBlock - options.lookbackBlocks + 1n : 0n;
  let to = options.toBlock;
  let width = 1n;
  while (to >= lowest && options.lookbackBlocks > 0n) {
    const from = to - width + 1n > lowest ? to - width + 1n : lowest;
    const found = await newestWrite(client, oracle, from, to);
    if (found) return found;
    to = from - 1n;
    width = width * 2n > maxRange ? maxRange : width * 2n;
  }
  return null;
}

/** The newest write in `[from, to]`, reading halves (newer first) when the node refuses the range. */
async function newestWrite(
  client: AnyClient,
  oracle: Address,
  from: bigint,
  to: bigint,
): Promise<{ at: Date; blockNumber: bigint } | null> {
  let logs: { readonly blockNumber: bigint | null; readonly args: { readonly record?: bigint } }[];
  try {
    logs = await getLogs(client, { address: oracle, events: [recordAdded, recordUpdated], fromBlock: from, toBlock: to });
  } catch (error) {
    if (from === to) throw error;
    const middle = from + (to - from) / 2n;
    return (await newestWrite(client, oracle, middle + 1n, to)) ?? (await newestWrite(client, oracle, from, middle));
  }
  let blockNumber: bigint | null = null;
  let latest = 0n;
  for (const log of logs) {
    if (log.blockNumber === null || log.args.record === undefined) continue;
    if (blockNumber === null || log.blockNumber > blockNumber) {
      blockNumber = log.blockNumber;
      latest = 0n;
    }
    if (log.blockNumber === blockNumber) {
      const at = (log.args.record >> UPDATED_AT_SHIFT) & UPDATED_AT_MASK;
      if (at > latest) latest = at;
    }
  }
  return blockNumber === null ? null : { at: new Date(Number(latest) * 1000), blockNumber };
}
