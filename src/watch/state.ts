/**
 * The watch's state file: what a restart needs to resume without re-alerting and without missing or re-reading a
 * block. One JSON document (UTF-8, pretty-printed, ending with a newline):
 *
 * ```json
 * {
 *   "format": "trustgate-watch-state",
 *   "version": 1,
 *   "setup": { "chainId": 8453, "oracle": "0x…", "attestedOracle": null },
 *   "position": { "last": { "number": "44000000", "hash": "0x…", "timestamp": 1764384000 }, "recent": [{ "number": "43999999", "hash": "0x…" }] },
 *   "alerts": [{ "condition": { … }, "since": "…", "lastSentAt": "…" }],
 *   "lastWrite": { "at": "2026-11-29T03:00:12.000Z", "blockNumber": "43998000" },
 *   "audit": { "cursor": 1200 },
 *   "queue": ["base:16907:erc8004"],
 *   "savedAt": "2026-11-29T10:00:00.000Z"
 * }
 * ```
 *
 * Block numbers are decimal strings (uint256: beyond a JSON number's exact range); times are ISO-8601. The file is
 * written whole through a temporary file renamed over it, so it is always either the old state or the new one. The
 * reader checks every field and refuses a file of another format or version, one that is not JSON, and one of another
 * chain or oracle ({@link checkWatchStateSetup}) with an error naming the file and the problem.
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync } from "node:fs";
import { type Address, getAddress, type Hex, isAddress } from "viem";
import { z } from "zod";
import { type AgentRef, formatAgentRef, parseAgentRef } from "../agent/agent-ref.js";
import { writeDriftStateAtomically } from "../drift/state/atomic-write.js";
import { ConfigurationError, InvalidArgumentError } from "../errors.js";
import type { FollowerPosition, OutstandingAlert } from "./types.js";

/** The `format` of a watch state file. */
export const WATCH_STATE_FORMAT = "trustgate-watch-state";

/** The version of the watch state format this kit writes and reads. */
export const WATCH_STATE_VERSION = 1;

/** What the watch keeps between runs (see the module notes for the file's form). */
export interface WatchState {
  readonly version: 1;
  /** What the state is valid for: a state of another chain or oracle is refused ({@link checkWatchStateSetup}). */
  readonly setup: { readonly chainId: number; readonly oracle: Address; readonly attestedOracle: Address | null };
  /** The chain follower's position, or `null` before it processed a block. */
  readonly position: FollowerPosition | null;
  /** The alerts outstanding (raised, not resolved), as the alert book snapshots them. */
  readonly alerts: readonly OutstandingAlert[];
  /** The oracle's own time of its last write (ISO-8601), and the block it was in, when known. */
  readonly lastWrite: { readonly at: string; readonly blockNumber: string | null } | null;
  /** Where the slow audit is in the population. */
  readonly audit: { readonly cursor: number };
  /** The agents named by changes and not checked yet (a restart checks them first). */
  readonly queue: readonly AgentRef[];
  /** When the state was saved (ISO-8601). */
  readonly savedAt: string;
}

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "expected an ISO-8601 time");
const blockNumber = z.string().regex(/^(0|[1-9][0-9]*)$/, "expected a block number in decimal");
const address = z.string().refine((s) => isAddress(s, { strict: false }), "expected a 20-byte hex address");
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "expected a 32-byte hex hash");
const nullableString = z.string().nullable();

const onchainSide = z.object({ score: z.number(), tier: z.string(), sybilSeverity: z.string(), updatedAt: z.string() });
const attestedSide = z.object({
  score: z.number(),
  tier: z.string(),
  sybilSeverity: z.string(),
  attestedAt: z.string(),
  kid: nullableString,
  fromState: z.object({ verifiedAt: z.string() }).optional(),
});

const condition = z.object({
  kind: z.enum([
    "pass-to-fail",
    "fail-to-pass",
    "invalid-attestation",
    "oracle-silent",
    "record-stale",
    "service-unhealthy",
    "signing-key-revoked",
  ]),
  id: z.string().min(1),
  agent: nullableString,
  summary: z.string(),
  before: onchainSide.nullable(),
  after: attestedSide.nullable(),
  decision: z.object({ onchain: z.boolean().nullable(), attested: z.boolean().nullable() }).nullable(),
  evidence: z.object({
    blockNumber: blockNumber.nullable(),
    transactionHash: hash.nullable(),
    kid: nullableString,
    issuedAt: nullableString,
    expiresAt: nullableString,
    recordUpdatedAt: nullableString,
    details: z.array(z.string()),
  }),
});

const fileSchema = z.object({
  format: z.string(),
  version: z.number(),
  setup: z.object({ chainId: z.number().int().positive(), oracle: address, attestedOracle: address.nullable() }),
  position: z
    .object({
      last: z.object({ number: blockNumber, hash, timestamp: z.number().int().nonnegative() }),
      recent: z.array(z.object({ number: blockNumber, hash })),
    })
    .nullable(),
  alerts: z.array(z.object({ condition, since: isoTime, lastSentAt: isoTime })),
  lastWrite: z.object({ at: isoTime, blockNumber: blockNumber.nullable() }).nullable(),
  audit: z.object({ cursor: z.number().int().nonnegative() }),
  queue: z.array(z.string()),
  savedAt: isoTime,
});

/**
 * Reads a watch state file.
 *
 * @param path - The file.
 * @returns The state, or `undefined` when the file does not exist.
 * @throws {@link ConfigurationError} naming the file when it is not JSON (a cut-off or corrupt file), is of another
 *   format or version (a drift state file, say), or a field is missing or of the wrong shape.
 */
export function readWatchState(path: string): WatchState | undefined {
  if (!existsSync(path)) return undefined;
  const refuse = (problem: string): never => {
    throw new ConfigurationError(`The watch state file ${path} cannot be read: ${problem}`, {
      details: "Fix or remove the file (the watch then starts from the block given, with no alert outstanding)",
    });
  };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return refuse(`it is not JSON (${(error as Error).message})`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== WATCH_STATE_FORMAT) return refuse(`its format is ${JSON.stringify(format ?? null)}, not "${WATCH_STATE_FORMAT}"`);
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    return refuse(parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; "));
  }
  const file = parsed.data;
  if (file.version !== WATCH_STATE_VERSION)
    return refuse(`its format version is ${file.version}, not ${WATCH_STATE_VERSION}, the one this kit reads`);
  return {
    version: WATCH_STATE_VERSION,
    setup: {
      chainId: file.setup.chainId,
      oracle: getAddress(file.setup.oracle),
      attestedOracle: file.setup.attestedOracle === null ? null : getAddress(file.setup.attestedOracle),
    },
    position:
      file.position === null
        ? null
        : {
            last: {
              number: BigInt(file.position.last.number),
              hash: file.position.last.hash as Hex,
              timestamp: file.position.last.timestamp,
            },
            recent: file.position.recent.map((block) => ({ number: BigInt(block.number), hash: block.hash as Hex })),
          },
    alerts: file.alerts as readonly OutstandingAlert[],
    lastWrite: file.lastWrite,
    audit: file.audit,
    queue: file.queue.map((text, index) => {
      try {
        return parseAgentRef(text);
      } catch (error) {
        return refuse(`queue[${index}]: ${(error as Error).message}`);
      }
    }),
    savedAt: file.savedAt,
  };
}

/**
 * Writes a watch state file atomically: into a temporary file next to it, flushed to disk, then renamed over it.
 *
 * @param path - The file.
 * @param state - The state.
 */
export function writeWatchState(path: string, state: WatchState): void {
  const { position } = state;
  const file = {
    format: WATCH_STATE_FORMAT,
    version: state.version,
    setup: state.setup,
    position:
      position === null
        ? null
        : {
            last: { number: position.last.number.toString(), hash: position.last.hash, timestamp: position.last.timestamp },
            recent: position.recent.map((block) => ({ number: block.number.toString(), hash: block.hash })),
          },
    alerts: state.alerts,
    lastWrite: state.lastWrite,
    audit: state.audit,
    queue: state.queue.map((agent) => formatAgentRef(agent)),
    savedAt: state.savedAt,
  };
  writeDriftStateAtomically(path, [`${JSON.stringify(file, null, 2)}\n`]);
}

/**
 * Checks that a state read is the one of this watch: the same chain, oracle and attested oracle.
 *
 * @param state - The state read.
 * @param setup - This watch's chain and oracles.
 * @throws {@link InvalidArgumentError} naming what differs (resuming another chain's position would skip or re-read
 *   blocks; another oracle's alerts are not this one's).
 */
export function checkWatchStateSetup(state: WatchState, setup: WatchState["setup"]): void {
  const differences: string[] = [];
  if (state.setup.chainId !== setup.chainId) differences.push(`chain ${state.setup.chainId}, not ${setup.chainId}`);
  if (getAddress(state.setup.oracle) !== getAddress(setup.oracle)) differences.push(`oracle ${state.setup.oracle}, not ${setup.oracle}`);
  const saved = state.setup.attestedOracle === null ? null : getAddress(state.setup.attestedOracle);
  const wanted = setup.attestedOracle === null ? null : getAddress(setup.attestedOracle);
  if (saved !== wanted) differences.push(`attested oracle ${saved ?? "none"}, not ${wanted ?? "none"}`);
  if (differences.length > 0) {
    throw new InvalidArgumentError(`The watch state is of another setup: ${differences.join("; ")}`, {
      details: "Give the state file of this chain and oracle, or another path to start a new one",
    });
  }
}
