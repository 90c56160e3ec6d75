/**
 * `runWatch`: the loop of `trustgate watch`. Each tick —
 *
 * 1. polls the chain follower: the confirmed blocks since the last tick, the oracle's changes in them, a reorg;
 * 2. queues the agents those changes (and a reorg's dropped changes) name, coalesced by agent;
 * 3. checks the queued agents at the newest confirmed block with the drift job's pipeline, as many as one batch holds,
 *    then — once the follower has caught up and the queue is empty — the agents the slow audit's share of the rate
 *    allows;
 * 4. turns each check into conditions raised and cleared, the oracle's silence and the service's health into theirs,
 *    and hands the alert book's messages (firing, reminder, resolved) to delivery;
 * 5. saves the state: the follower's position, the queue, the outstanding alerts, the oracle's last write, the audit's
 *    cursor.
 *
 * An abort (SIGTERM, SIGINT) lets the tick's checks and deliveries in flight finish, saves the state and returns: a
 * restart resumes from the position with the queue as it was and the alerts outstanding, so no block is missed and
 * no alert sent twice. A failure of the chain or the service in a tick is logged and counted by cause, and the next tick
 * tries again; it never ends the process.
 *
 * @packageDocumentation
 */
import { getAddress } from "viem";
import { type AgentRef, agentKey, isEvmAgent } from "../agent/agent-ref.js";
import { systemSleep, type Sleep } from "../api/rate-limiter.js";
import { TRUST_ATTESTATION_KIDS } from "../config/service.js";
import { messageOf } from "../errors.js";
import { ratePerMinuteOf } from "../drift/projection.js";
import { recordKeyHash, recordKeyOf } from "../oracle/record-key.js";
import { createAlertBook, type AlertBook } from "./alert-book.js";
import { type AuditWalk, createAuditWalk, DEFAULT_AUDIT_SHARE, listAuditPopulation } from "./audit-walk.js";
import { conditionsOfCheck, createAgentChecker } from "./check.js";
import type { WatchServiceConfig } from "./config.js";
import { connectWatch, type WatchConnection } from "./connect.js";
import { type ChainFollower, createChainFollower } from "./follow.js";
import { type NewHeads, watchNewHeads } from "./new-heads.js";
import { DEFAULT_WRITE_CADENCE, findLastWrite, recordUpdatedAt, silenceCondition } from "./heartbeat.js";
import { requestOutcome, type WatchMetrics } from "./metrics.js";
import { checkServiceHealth, serviceCondition } from "./service-health.js";
import { checkWatchStateSetup, readWatchState, type WatchState, writeWatchState } from "./state.js";
import type { AgentCheck, AlertMessage, CheckTrigger, Condition, DeliveryResult, FollowStep, OracleChange, WriteCadence } from "./types.js";

/** Default of `--confirmations`: blocks a change waits for before it is believed. */
export const DEFAULT_WATCH_CONFIRMATIONS = 2;
/** Default of `--poll-interval`, ms: Base makes a block every 2 s. */
export const DEFAULT_POLL_INTERVAL_MS = 4_000;
/** Default of `--reminder`: a persisting problem is sent again after this long, seconds. */
export const DEFAULT_REMINDER_SECONDS = 6 * 3600;
/** Default of `--health-interval`: how often the service's answers and keys are checked, seconds. */
export const DEFAULT_HEALTH_INTERVAL_SECONDS = 300;
/** Default look-back for the oracle's last write at start: two days of Base blocks (2 s each). */
export const DEFAULT_HEARTBEAT_LOOKBACK_BLOCKS = 86_400n;
/** The audit's rate, requests per minute, against a service client with no limiter (a local service). */
const UNLIMITED_AUDIT_RATE = 600;

/** Agents checked per tick at most (the limiter paces their requests). */
export const DEFAULT_CHECK_BATCH = 16;

/** What `runWatch` needs: the drift job's chain, service and rule settings, and the watch's own. */
export interface WatchConfig extends WatchServiceConfig {
  /** Blocks a change waits for before it is believed (`--confirmations`, default {@link DEFAULT_WATCH_CONFIRMATIONS}). */
  readonly confirmations?: number;
  /** Time between polls when caught up, ms (`--poll-interval`, default {@link DEFAULT_POLL_INTERVAL_MS}). */
  readonly pollIntervalMs?: number;
  /** The state file (`--state`): the position, the queue and the alerts outstanding, so that a restart resumes. */
  readonly state?: string;
  /** The first block to follow when there is no state (`--from-block`); default the first one confirmed after start. */
  readonly fromBlock?: bigint;
  /** Replay `RecordAdded` from this block at start to name the agents of later updates (`--events-from`). */
  readonly keysFromBlock?: bigint;
  /** When the oracle is expected to write (`--expect-write`, `--max-silence`); default {@link DEFAULT_WRITE_CADENCE}. */
  readonly cadence?: WriteCadence;
  /** Blocks searched back at start for the oracle's last write (default {@link DEFAULT_HEARTBEAT_LOOKBACK_BLOCKS}). */
  readonly heartbeatLookbackBlocks?: bigint;
  /** The share of the rate the slow audit may spend (`--audit-share`, 0 for none; default the audit walk's). */
  readonly auditShare?: number;
  /** The audit's chain (`--audit-chain`): only that chain's agents; default every EVM chain the service lists. */
  readonly auditChain?: string;
  /** A persisting problem is sent again after this long, seconds (`--reminder`; 0: never). */
  readonly reminderIntervalSeconds?: number;
  /** How often the service's health is checked, seconds (`--health-interval`). */
  readonly healthIntervalSeconds?: number;
  /** A link or path to the night's drift report, put on each alert (`--report-link`). */
  readonly report?: string;
  /** Agents checked per tick at most (default {@link DEFAULT_CHECK_BATCH}). */
  readonly checkBatch?: number;
  /**
   * A WebSocket endpoint of the chain (`--ws`): its new heads wake the loop at once instead of at the next poll
   * interval. Polling goes on (the wake-up only shortens a wait); a subscription that fails is logged and made again a
   * minute later.
   */
  readonly newHeadsUrl?: string;
}

/** One structured log event of the watch (`--log-format json` prints it as a line of JSON). */
export interface WatchLogEvent {
  readonly level: "info" | "warn" | "error";
  /** A stable name of the event (`started`, `block`, `check`, `alert`, `reorg`, `tick-failed`, `stopped`, …). */
  readonly event: string;
  /** One line a person reads. */
  readonly message: string;
  /** The event's facts. */
  readonly fields?: Readonly<Record<string, string | number | boolean | null>>;
}

/** What the loop is handed besides its configuration: delivery, metrics, the log, the clock and the stop signal. */
export interface WatchHooks {
  /** Delivers an alert (the webhook sender's `send`); absent: alerts are only logged. */
  readonly deliver?: (message: AlertMessage, signal?: AbortSignal) => Promise<DeliveryResult>;
  /** The metrics the loop updates. */
  readonly metrics?: WatchMetrics;
  /** Receives each log event. */
  readonly log?: (event: WatchLogEvent) => void;
  /** Aborting it drains: checks and deliveries in flight finish, the state is saved, `runWatch` resolves. */
  readonly signal?: AbortSignal;
  /** Clock; default the system clock. */
  readonly now?: () => Date;
  /** Waits between polls; default a timer (woken early by the signal). */
  readonly sleep?: Sleep;
  /** Called after each tick, with what it did (tests and the bench follow the loop through it). */
  readonly onTick?: (tick: WatchTick) => void;
  /** Called once connected, ready to follow. */
  readonly onReady?: (status: WatchStatus) => void;
  /** The connection to use instead of connecting (a program that already holds one). */
  readonly connection?: WatchConnection;
}

/** What one tick did. */
export interface WatchTick {
  /** The follower's step, or `null` when the poll failed. */
  readonly step: FollowStep | null;
  /** The agents checked, with their rows. */
  readonly checks: readonly AgentCheck[];
  /** The messages handed to delivery, with their results. */
  readonly alerts: readonly { readonly message: AlertMessage; readonly result: DeliveryResult | null }[];
  /** Agents waiting to be checked after this tick. */
  readonly queued: number;
  /** Why the tick failed, when it did (the next one tries again). */
  readonly failure: string | null;
}

/** Where the watch stands: what `/readyz` and the final summary say. */
export interface WatchStatus {
  /** The chain's id. */
  readonly chainId: number;
  /** The last block processed. */
  readonly lastBlock: bigint | null;
  /** Whether the follower has processed every confirmed block. */
  readonly caughtUp: boolean;
  /** Alerts outstanding. */
  readonly outstanding: number;
  /** Agents waiting to be checked. */
  readonly queued: number;
}

/** What `runWatch` resolves with once drained. */
export interface WatchSummary extends WatchStatus {
  /** Ticks run. */
  readonly ticks: number;
  /** Agents checked. */
  readonly checked: number;
  /** Messages handed to delivery, and how many of them were not delivered (they are in the dead-letter file). */
  readonly alerts: { readonly sent: number; readonly failed: number };
}

/** An agent waiting to be checked, and what named it. */
interface Queued {
  readonly agent: AgentRef;
  readonly trigger: CheckTrigger;
}

/**
 * Runs the watch until `hooks.signal` aborts.
 *
 * @param config - The chain, the service, the rule, and the watch's settings.
 * @param hooks - Delivery, metrics, the log, the clock and the stop signal.
 * @returns What it did, once drained and its state saved.
 * @throws {@link ConfigurationError} when the chain or the service cannot be reached at start, and
 *   {@link InvalidArgumentError} for a state file written for another chain or oracle: before the loop starts.
 */
export async function runWatch(config: WatchConfig, hooks: WatchHooks = {}): Promise<WatchSummary> {
  const now = hooks.now ?? (() => new Date());
  const log = hooks.log ?? (() => {});
  const metrics = hooks.metrics;
  const signal = hooks.signal;
  const connection =
    hooks.connection ??
    (await connectWatch(config, {
      now,
      ...(metrics ? { rpcFetch: timedFetch((seconds, outcome) => metrics.rpcRequest(seconds, outcome)) } : {}),
      ...(metrics ? { apiFetch: timedFetch((seconds, outcome) => metrics.apiRequest(seconds, outcome)) } : {}),
    }));
  const limiter = connection.api.transport.rateLimiter;
  if (limiter) metrics?.limiterQueue(() => limiter.state().waiting);
  const setup: WatchState["setup"] = {
    chainId: connection.chainId,
    oracle: config.oracle,
    attestedOracle: config.attestedOracle ?? null,
  };
  const saved = config.state === undefined ? undefined : readWatchState(config.state);
  if (saved) checkWatchStateSetup(saved, setup);
  const confirmations = config.confirmations ?? DEFAULT_WATCH_CONFIRMATIONS;
  // The heartbeat is the oracle's: the service's nightly recompute writes it; an attested oracle's records come from
  // pushes of signed attestations, on no cadence.
  const oracle = config.oracle;
  const follower = await createChainFollower({
    client: connection.chain,
    oracle: config.oracle,
    ...(config.attestedOracle ? { attestedOracle: config.attestedOracle } : {}),
    confirmations,
    start: saved?.position ?? { fromBlock: config.fromBlock ?? confirmedAfter(connection.blockNumber, confirmations) },
    ...(config.keysFromBlock !== undefined ? { keysFromBlock: config.keysFromBlock } : {}),
    ...(signal ? { signal } : {}),
  });
  const book = createAlertBook(
    { reminderIntervalSeconds: config.reminderIntervalSeconds ?? DEFAULT_REMINDER_SECONDS, report: config.report ?? null, now },
    saved?.alerts,
  );
  const checker = createAgentChecker(connection, {
    onCheck: (_check, latency) => {
      if (latency.failure) metrics?.error(latency.failure);
    },
  });
  const queue = new Map<string, Queued>();
  // Agents a change named before the last stop: checked first, their triggering change not kept (its transaction
  // is not in their alerts' evidence).
  for (const agent of saved?.queue ?? []) queue.set(agentKey(agent), { agent, trigger: { kind: "audit" } });
  let lastWrite = saved?.lastWrite ? { at: new Date(saved.lastWrite.at), blockNumber: toBlock(saved.lastWrite.blockNumber) } : null;
  let silentSince: Date | undefined;
  if (lastWrite === null) {
    const found = await findLastWrite(connection.chain, oracle, {
      toBlock: connection.blockNumber,
      lookbackBlocks: config.heartbeatLookbackBlocks ?? DEFAULT_HEARTBEAT_LOOKBACK_BLOCKS,
    });
    if (found) lastWrite = found;
    else silentSince = await lookbackStart(connection, config.heartbeatLookbackBlocks ?? DEFAULT_HEARTBEAT_LOOKBACK_BLOCKS);
  }
  if (lastWrite) metrics?.oracleWrite(lastWrite.at);
  const cadence = config.cadence ?? DEFAULT_WRITE_CADENCE;
  const acceptedKids = config.acceptedKids ?? TRUST_ATTESTATION_KIDS;
  const healthEvery = (config.healthIntervalSeconds ?? DEFAULT_HEALTH_INTERVAL_SECONDS) * 1000;
  const audit = new AuditRunner(connection, config, saved?.audit.cursor ?? 0, now, log);
  const pollInterval = config.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const sleep = hooks.sleep ?? systemSleep;
  const batch = config.checkBatch ?? DEFAULT_CHECK_BATCH;

  const wakeUps = new WakeUps(config.newHeadsUrl, now, log, metrics);

  let ticks = 0;
  let checked = 0;
  let caughtUp = false;
  let nextHealth = 0;
  const sent = { sent: 0, failed: 0 };
  const status = (): WatchStatus => ({
    chainId: connection.chainId,
    lastBlock: follower.position()?.last.number ?? null,
    caughtUp,
    outstanding: book.outstanding().length,
    queued: queue.size,
  });
  const deliver = async (message: AlertMessage): Promise<DeliveryResult | null> => {
    log({
      level: message.state === "resolved" ? "info" : "warn",
      event: "alert",
      message: `${message.state} ${message.kind}: ${message.summary}`,
      fields: { id: message.id, kind: message.kind, state: message.state, agent: message.agent },
    });
    if (!hooks.deliver) return null;
    // On a stop, an attempt in flight finishes and no retry waits: a message not delivered goes to the dead-letter file.
    const result = await hooks.deliver(message, signal);
    metrics?.alert(message.kind, message.state, result.delivered);
    if (result.delivered) sent.sent += 1;
    else {
      sent.failed += 1;
      log({
        level: "error",
        event: "alert-failed",
        message: `alert ${message.id} not delivered: ${result.reason}`,
        fields: { id: message.id },
      });
    }
    return result;
  };
  const apply = (raised: readonly Condition[], cleared: readonly string[]): AlertMessage[] => {
    const messages: AlertMessage[] = [];
    for (const condition of raised) {
      const message = book.raise(condition);
      if (message) messages.push(message);
    }
    for (const id of cleared) {
      const message = book.clear(id);
      if (message) messages.push(message);
    }
    return messages;
  };
  const save = (position: WatchState["position"]) => {
    if (config.state === undefined) return;
    writeWatchState(config.state, {
      version: 1,
      setup,
      position,
      alerts: book.outstanding(),
      lastWrite: lastWrite ? { at: lastWrite.at.toISOString(), blockNumber: lastWrite.blockNumber?.toString() ?? null } : null,
      audit: { cursor: audit.cursor },
      queue: [...queue.values()].map((entry) => entry.agent),
      savedAt: now().toISOString(),
    });
  };

  log({
    level: "info",
    event: "started",
    message: `watching ${config.attestedOracle ? `${config.attestedOracle} over ${oracle}` : oracle} on chain ${connection.chainId} from block ${String(follower.position()?.last.number ?? "next")}`,
    fields: { chainId: connection.chainId, oracle, confirmations, resumed: saved !== undefined, queued: queue.size },
  });
  hooks.onReady?.(status());

  while (!signal?.aborted) {
    ticks += 1;
    const before = follower.position();
    let step: FollowStep | null = null;
    let failure: string | null = null;
    const checks: AgentCheck[] = [];
    const messages: AlertMessage[] = [];
    let interrupted = false;
    try {
      step = await follower.poll(signal);
      caughtUp = step.caughtUp;
      if (step.confirmed) metrics?.block(step.confirmed.number, step.head);
      if (step.reorg) {
        metrics?.reorg(step.reorg.depth);
        log({
          level: "warn",
          event: "reorg",
          message: `reorg: ${step.reorg.depth} block(s) dropped after block ${step.reorg.commonAncestor}; their ${step.reorg.dropped.length} change(s) are checked again`,
          fields: { depth: step.reorg.depth, commonAncestor: step.reorg.commonAncestor.toString() },
        });
        for (const change of step.reorg.dropped) if (change.agent) enqueue(queue, change.agent, { kind: "reorg", reorg: step.reorg });
      }
      for (const change of step.changes) {
        const write = writeOf(change, oracle);
        if (write && (lastWrite === null || write > lastWrite.at)) {
          lastWrite = { at: write, blockNumber: change.block.number };
          metrics?.oracleWrite(write);
        }
        messages.push(...keyEventMessages(change, book));
        if (change.kind === "signing-key-set" || change.kind === "signing-key-revoked") continue;
        if (change.agent) enqueue(queue, change.agent, { kind: "change", change });
        else if (change.kind !== "record-removed") {
          metrics?.error("unknown-key");
          log({
            level: "warn",
            event: "unknown-key",
            message: `${change.kind} of key ${change.key} in block ${change.block.number} (tx ${change.transactionHash}): no RecordAdded seen names its agent (give --events-from to replay them), so it is not checked now; the audit checks it when the service lists the agent`,
            fields: { key: change.key, block: change.block.number.toString(), transaction: change.transactionHash },
          });
        }
      }
      const at = follower.position()?.last.number ?? connection.blockNumber;
      // The queue first (what changed), then — caught up, nothing queued — the audit's share.
      const due = [...queue.values()].slice(0, batch);
      const audited = due.length === 0 && caughtUp ? audit.next(follower) : [];
      const groups: Queued[] = [...due, ...audited.map((agent) => ({ agent, trigger: { kind: "audit" } as const }))];
      for (const group of groupByTrigger(groups)) {
        const trigger = group[0]!.trigger;
        if (trigger.kind !== "audit") {
          log({
            level: "info",
            event: "checking",
            message: `checking ${group.length} agent(s) at block ${at} (${trigger.kind === "change" ? `${trigger.change.kind} in block ${trigger.change.block.number}` : "a reorg"})`,
            fields: { agents: group.length, block: at.toString(), trigger: trigger.kind },
          });
        }
        const results = await checker.check(
          group.map((entry) => entry.agent),
          trigger,
          at,
        );
        for (const check of results) {
          checks.push(check);
          queue.delete(agentKey(check.agent));
          observeCheck(metrics, check, now());
          const { raise, clear } = conditionsOfCheck(check, { maxAgeSeconds: config.maxAgeSeconds });
          messages.push(...apply(raise, clear));
        }
      }
      checked += checks.length;
    } catch (error) {
      if (signal?.aborted) interrupted = true;
      else {
        failure = messageOf(error);
        metrics?.error(requestOutcome(error));
        log({ level: "error", event: "tick-failed", message: `tick failed, the next one tries again: ${failure}` });
      }
    }
    // The heartbeat and the service: every tick (the silence) and every health interval (the service).
    const silence = silenceCondition({
      oracle,
      lastWrite: lastWrite?.at ?? null,
      ...(silentSince && lastWrite === null ? { knownSilentSince: silentSince } : {}),
      cadence,
      now: now(),
    });
    messages.push(...(silence ? apply([silence], []) : apply([], [`oracle-silent:${getAddress(oracle)}`])));
    if (now().getTime() >= nextHealth && !signal?.aborted) {
      nextHealth = now().getTime() + healthEvery;
      try {
        const health = await checkServiceHealth({
          api: connection.api,
          jwks: connection.jwks,
          acceptedKids,
          ...(signal ? { signal } : {}),
        });
        const condition = serviceCondition(health, config.apiUrl);
        messages.push(...(condition ? apply([condition], []) : apply([], [serviceConditionId(config.apiUrl)])));
      } catch (error) {
        if (!signal?.aborted) metrics?.error("service-health");
      }
    }
    messages.push(...book.dueReminders());
    const alerts: { message: AlertMessage; result: DeliveryResult | null }[] = [];
    for (const message of messages) alerts.push({ message, result: await deliver(message) });
    metrics?.outstandingAlerts(book.outstanding().length);
    metrics?.auditPosition(audit.cursor, audit.size);
    // A tick stopped in its checks keeps the position it started from: the restart reads those blocks again, and the
    // alert book (restored) sends nothing twice.
    save(interrupted ? before : follower.position());
    hooks.onTick?.({ step, checks, alerts, queued: queue.size, failure });
    if (signal?.aborted) break;
    // Caught up with nothing queued, or a failed tick (the chain or the service down): wait a poll interval.
    if (failure !== null || ((step?.caughtUp ?? true) && queue.size === 0)) await wakeUps.sleep(sleep, pollInterval, signal);
  }
  await wakeUps.close();
  await audit.idle();
  log({ level: "info", event: "stopped", message: `stopped after ${ticks} tick(s); state ${config.state ?? "not kept (no --state)"}` });
  return { ...status(), ticks, checked, alerts: sent };
}

/**
 * A `fetch` that reports each request's duration and outcome (`ok`, `http-<status>`, `timeout`, `network-error`) to the
 * metrics: the chain's and the service's latency histograms.
 */
function timedFetch(observe: (seconds: number, outcome: string) => void): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const response = await fetch(input, init);
      observe(seconds(), response.ok ? "ok" : `http-${response.status}`);
      return response;
    } catch (error) {
      observe(
        seconds(),
        (error as { name?: unknown }).name === "TimeoutError" || (error as { name?: unknown }).name === "AbortError"
          ? "timeout"
          : "network-error",
      );
      throw error;
    }
  };
}

/** The first block to process when none is saved: the newest confirmed one after the head read at start. */
function confirmedAfter(head: bigint, confirmations: number): bigint {
  const confirmed = head - BigInt(confirmations);
  return confirmed < 0n ? 0n : confirmed + 1n;
}

/** Queues an agent: in the order agents were first named, with the trigger that named it last. */
function enqueue(queue: Map<string, Queued>, agent: AgentRef, trigger: CheckTrigger): void {
  queue.set(agentKey(agent), { agent, trigger });
}

/** Groups queued agents by trigger, in order, so that each check call carries the trigger of its agents. */
function groupByTrigger(entries: readonly Queued[]): Queued[][] {
  const groups: Queued[][] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && last[0]!.trigger === entry.trigger) last.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

/** The oracle's own time of a record it stored (`record-added`, `record-updated`); `null` for other events and contracts. */
function writeOf(change: OracleChange, oracle: string): Date | null {
  if (change.record === null || change.contract.toLowerCase() !== oracle.toLowerCase()) return null;
  return recordUpdatedAt(change.record);
}

/** The id of the service's condition, as `serviceCondition` names it. */
function serviceConditionId(apiUrl: string): string {
  return `service-unhealthy:${new URL(apiUrl).origin}`;
}

/** A key revoked on the attested oracle raises an alert; the same kid set again resolves it. */
function keyEventMessages(change: OracleChange, book: AlertBook): AlertMessage[] {
  if (change.kid === null) return [];
  const id = `signing-key-revoked:${change.contract}:${change.kid}`;
  if (change.kind === "signing-key-set") {
    const message = book.clear(id);
    return message ? [message] : [];
  }
  if (change.kind !== "signing-key-revoked") return [];
  const message = book.raise({
    kind: "signing-key-revoked",
    id,
    agent: null,
    summary: `the attested oracle ${change.contract} revoked signing key ${change.kid}: records it stored no longer refresh under it`,
    before: null,
    after: null,
    decision: null,
    evidence: {
      blockNumber: change.block.number.toString(),
      transactionHash: change.transactionHash,
      kid: change.kid,
      issuedAt: null,
      expiresAt: null,
      recordUpdatedAt: null,
      details: [],
    },
  });
  return message ? [message] : [];
}

/** Counts a check in the metrics (the attestation's age by the loop's clock). */
function observeCheck(metrics: WatchMetrics | undefined, check: AgentCheck, now: Date): void {
  if (!metrics) return;
  metrics.recordChecked(check.row.status, check.trigger.kind);
  if (check.problem === "pass-to-fail" || check.problem === "fail-to-pass") metrics.flip(check.problem);
  const attestedAt = check.row.attested?.attestedAt;
  if (attestedAt) metrics.attestationAge(Math.max(0, (now.getTime() - Date.parse(attestedAt)) / 1000));
}

/** A block number saved as text, or `null`. */
function toBlock(text: string | null): bigint | null {
  return text === null ? null : BigInt(text);
}

/** The time of the first block of the heartbeat's look-back: the oracle wrote nothing since then. */
async function lookbackStart(connection: WatchConnection, lookback: bigint): Promise<Date> {
  const number = connection.blockNumber > lookback ? connection.blockNumber - lookback : 0n;
  const block = await connection.chain.getBlock({ blockNumber: number });
  return new Date(Number(block.timestamp) * 1000);
}

/**
 * The loop's waits between polls, cut short by a new head when a WebSocket endpoint is given. The subscription is made
 * at the first wait, and again a minute after it fails.
 */
class WakeUps {
  private heads: NewHeads | undefined;
  private retryAt = 0;
  private wake: AbortController | undefined;
  constructor(
    private readonly url: string | undefined,
    private readonly now: () => Date,
    private readonly log: (event: WatchLogEvent) => void,
    private readonly metrics: WatchMetrics | undefined,
  ) {}

  /** Waits `ms`, or until a new head, or until `signal` aborts. */
  async sleep(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
    this.subscribe();
    const wake = new AbortController();
    this.wake = wake;
    const signals = signal ? [signal, wake.signal] : [wake.signal];
    await sleep(ms, AbortSignal.any(signals)).catch(() => {});
    this.wake = undefined;
  }

  /** Ends the subscription. */
  async close(): Promise<void> {
    await this.heads?.close();
    this.heads = undefined;
  }

  private subscribe(): void {
    if (this.url === undefined || this.heads !== undefined || this.now().getTime() < this.retryAt) return;
    this.heads = watchNewHeads({
      url: this.url,
      onHead: () => this.wake?.abort(),
      onError: (error) => {
        this.heads = undefined;
        this.retryAt = this.now().getTime() + 60_000;
        this.metrics?.error("new-heads");
        this.log({ level: "warn", event: "new-heads-failed", message: `${error.message}; polling goes on, subscribing again in a minute` });
      },
    });
  }
}

/**
 * The slow audit: the population is listed once (again a minute after a failure), in the background so that the loop
 * goes on following the chain meanwhile, then walked at the audit's share of the rate. Every agent listed is also
 * named to the follower, so that updates of its record are checked.
 */
class AuditRunner {
  private walk: AuditWalk | undefined;
  private listing: Promise<void> | undefined;
  private retryAt = 0;
  constructor(
    private readonly connection: WatchConnection,
    private readonly config: WatchConfig,
    private readonly startCursor: number,
    private readonly now: () => Date,
    private readonly log: (event: WatchLogEvent) => void,
  ) {}

  get cursor(): number {
    return this.walk?.cursor ?? this.startCursor;
  }

  get size(): number {
    return this.walk?.size ?? 0;
  }

  /** The agents to audit now: none while the population is being listed. */
  next(follower: ChainFollower): AgentRef[] {
    const share = this.config.auditShare ?? DEFAULT_AUDIT_SHARE;
    if (share <= 0) return [];
    if (this.walk) return this.walk.next(this.now());
    if (this.listing === undefined && this.now().getTime() >= this.retryAt) this.listing = this.list(follower, share);
    return [];
  }

  /** Waits for a listing in flight (the loop's drain). */
  async idle(): Promise<void> {
    await this.listing;
  }

  private async list(follower: ChainFollower, share: number): Promise<void> {
    try {
      const population = await listAuditPopulation(this.connection, this.config.auditChain ? { chain: this.config.auditChain } : {});
      for (const agent of population) if (isEvmAgent(agent)) follower.learn(recordKeyHash(recordKeyOf(agent)), agent);
      this.walk = createAuditWalk(population, {
        ratePerMinute: ratePerMinuteOf(this.connection.api.transport.rateLimiter) ?? UNLIMITED_AUDIT_RATE,
        share,
        cursor: this.startCursor,
        now: this.now(),
      });
      this.log({
        level: "info",
        event: "audit-listed",
        message: `audit: ${population.length} agent(s) listed, walked from ${this.startCursor}`,
      });
    } catch (error) {
      this.retryAt = this.now().getTime() + 60_000;
      this.log({
        level: "warn",
        event: "audit-list-failed",
        message: `audit: the service's listing failed, tried again in a minute: ${messageOf(error)}`,
      });
    } finally {
      this.listing = undefined;
    }
  }
}
