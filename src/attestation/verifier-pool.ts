/**
 * Verification of `/api/trust-check` responses on worker threads, for programs that verify many at once (the
 * drift job). A verdict from the pool is the verdict {@link verifyTrustAttestation} gives in process, field for
 * field: the worker runs that same function on the response, with the key the caller's resolver found.
 *
 * How a job goes:
 *
 * - on this thread, the key id is read from the attestation (its JWS header, else `attestation.kid`) and looked
 *   up with the caller's {@link JwksResolver}, so that its cache, cooldowns and key rotation work exactly as in
 *   process; a key that cannot be found sends the response to in-process verification, which gives the
 *   refusal (`key-not-found`, `jwks-unavailable`, or whatever comes first) as it always would;
 * - the worker receives the response (structured clone of the parsed JSON), the public JWK of that key, the
 *   resolver's `source` (named in a warning) and the options, verifies, and returns the verdict; a verdict that
 *   asked for a key the worker was not given, a worker error or a worker that died is redone in process;
 * - the jobs given to a worker in one turn of the event loop travel in one message, and their verdicts in one
 *   message back: a message costs this thread about what a verification costs the worker.
 *
 * The worker is `verify-worker.js` next to this file: in the built package (`dist/attestation/`), loaded as is;
 * in a source checkout (tsx, vitest), `verify-worker.ts`, loaded through tsx's `tsImport` when tsx can be
 * found. When no worker can start, {@link startVerifierPool} says why, and callers verify in process.
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { JSONWebKeySet, JWK } from "jose";
import { TRUST_ATTESTATION_KIDS } from "../config/service.js";
import type { JwksKeyLookup, JwksResolver, JwksResolverStats } from "./jwks.js";
import { readAttestationEnvelope } from "./envelope.js";
import { readCompactJws } from "./jws.js";
import { importVerificationKey, type VerificationKey } from "./public-key.js";
import type { TrustAttestationVerification } from "./result.js";
import { isRecord } from "../util/is-record.js";
import { resolveNow } from "./time.js";
import { verifyTrustAttestation, type VerifyTrustAttestationOptions } from "./verify.js";

/** Options of a pool verification: those of {@link verifyTrustAttestation}, with the keys as a resolver. */
export type PoolVerifyOptions = Omit<VerifyTrustAttestationOptions, "jwks"> & { readonly jwks: JwksResolver };

/** Verifies trust-check responses on worker threads. Create one with {@link startVerifierPool}. */
export interface VerifierPool {
  /** Worker threads running. */
  readonly threads: number;
  /** Verdicts given so far: by a worker, and in process (no key found, a worker failed, or the pool closed). */
  readonly stats: { readonly onWorkers: number; readonly inProcess: number };
  /**
   * Verifies a response on a worker; the verdict equals `verifyTrustAttestation(response, options)`.
   *
   * @param response - The parsed response body (untrusted, any shape).
   * @param options - As for `verifyTrustAttestation`, with `jwks` a resolver.
   * @throws {@link InvalidArgumentError} for bad options only, as `verifyTrustAttestation` does.
   */
  verify(response: unknown, options: PoolVerifyOptions): Promise<TrustAttestationVerification>;
  /** Stops the workers; verifications asked for afterwards run in process. */
  close(): Promise<void>;
}

/** Outcome of {@link startVerifierPool}. */
export type VerifierPoolStart = { ok: true; pool: VerifierPool } | { ok: false; problem: string };

/** Options of {@link startVerifierPool}. */
export interface VerifierPoolOptions {
  /** Worker threads to start (at least 1). */
  readonly threads: number;
  /** Time allowed for the workers to load, in ms (default 60,000: a source checkout compiles on the way). */
  readonly startTimeoutMs?: number;
  /** The worker module, for tests; default `verify-worker.js` (or `.ts`) next to this module. */
  readonly workerUrl?: URL;
}

/** A job sent to a worker. */
export interface VerifyJob {
  readonly id: number;
  readonly response: unknown;
  /** The public JWK of the attestation's key, when this thread found it. */
  readonly jwk: JWK | undefined;
  /** The `source` of the caller's resolver (named in the warning about a foreign JWKS URL). */
  readonly source: string;
  /** The options, with `now` resolved to ms and without `jwks`. */
  readonly options: Omit<VerifyTrustAttestationOptions, "jwks" | "now"> & { readonly now: number };
}

/** A worker's answer to a {@link VerifyJob}. */
export type VerifyJobAnswer =
  { readonly id: number; readonly verdict: TrustAttestationVerification } | { readonly id: number; readonly error: string };

/** Reasons a worker's verdict can owe to its one-key resolver: such verdicts are redone in process. */
const KEY_REASONS: ReadonlySet<string> = new Set(["key-not-found", "jwks-unavailable"]);

const imported = new Map<string, VerificationKey>();

/**
 * Runs one job: what a worker does with each message (exported so that it can run, and be tested, in process).
 *
 * @param job - The job.
 * @returns The answer. Never throws.
 */
export async function runVerifyJob(job: VerifyJob): Promise<VerifyJobAnswer> {
  try {
    let key: VerificationKey | undefined;
    if (job.jwk !== undefined) {
      const cacheKey = `${job.jwk.kid}|${job.jwk.x}|${job.jwk.y}`;
      key = imported.get(cacheKey);
      if (key === undefined) {
        const result = importVerificationKey(job.jwk);
        if (result.ok) {
          key = result.key;
          if (imported.size > 64) imported.clear();
          imported.set(cacheKey, key);
        }
      }
    }
    const verdict = await verifyTrustAttestation(job.response, { ...job.options, jwks: new OneKeyResolver(job.source, key) });
    return { id: job.id, verdict };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A resolver holding the one key the caller's resolver found, under the caller's resolver's name. */
class OneKeyResolver implements JwksResolver {
  readonly stats: JwksResolverStats = { fetches: 0, failures: 0 };
  constructor(
    readonly source: string,
    readonly key: VerificationKey | undefined,
  ) {}

  async getKey(kid: string): Promise<JwksKeyLookup> {
    return this.peekKey(kid);
  }

  peekKey(kid: string): JwksKeyLookup {
    if (this.key !== undefined && this.key.kid === kid) return { ok: true, key: this.key };
    return { ok: false, reason: "key-not-found", message: `no key "${kid}" was handed to the worker` };
  }

  async reload(): Promise<void> {}

  jwks(): JSONWebKeySet | undefined {
    return this.key ? { keys: [this.key.jwk] } : undefined;
  }
}

/**
 * The key id verification will look up for a response, read the way `verifyTrustAttestation` reads it (the
 * attestation it verifies, its JWS header's `kid`, else `attestation.kid`); `undefined` when there is none to
 * read (verification will refuse it before any key is needed, or in-process verification will decide).
 *
 * @param response - A response body.
 * @returns The key id, if any.
 */
export function keyIdOf(response: unknown): string | undefined {
  if (!isRecord(response)) return undefined;
  const attestation =
    response.attestation === undefined && response.attestationV1 !== undefined ? response.attestationV1 : response.attestation;
  const read = readAttestationEnvelope(attestation);
  if (!read.ok) return undefined;
  const first = read.envelope.jwss[0];
  if (first === undefined) return read.envelope.kid;
  const jws = readCompactJws(first.value);
  return jws.ok ? jws.jws.header.kid : undefined;
}

/** Where the worker module is, and how to load it. */
type WorkerEntry = { ok: true; url: URL; tsxApi: string | undefined } | { ok: false; problem: string };

function findWorkerEntry(given: URL | undefined): WorkerEntry {
  const candidates = given ? [given] : [new URL("./verify-worker.js", import.meta.url), new URL("./verify-worker.ts", import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (!existsSync(path)) continue;
    if (!path.endsWith(".ts")) return { ok: true, url, tsxApi: undefined };
    const tsxApi = findTsxApi(path);
    if (tsxApi === undefined)
      return { ok: false, problem: `${path} is TypeScript and tsx, which could load it in a worker, is not installed` };
    return { ok: true, url, tsxApi };
  }
  return { ok: false, problem: `no worker module at ${candidates.map((url) => fileURLToPath(url)).join(" or ")}` };
}

/**
 * The file URL of tsx's ES-module API (`tsx/esm/api`), looked for from a source checkout: only there is the
 * worker TypeScript, and tsx, a development dependency, the way to run it. The built package never gets here.
 */
function findTsxApi(from: string): string | undefined {
  try {
    const manifest = createRequire(from).resolve("tsx/package.json");
    const exports = (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: Record<string, unknown> }).exports;
    const entry = exports?.["./esm/api"] as { import?: string | { default?: string } } | undefined;
    const file = typeof entry?.import === "string" ? entry.import : entry?.import?.default;
    return file === undefined ? undefined : pathToFileURL(join(dirname(manifest), file)).href;
  } catch {
    return undefined;
  }
}

/** Loads the worker module through tsx in a worker (CommonJS evaluated code; tsx's API is an ES module). */
const TSX_BOOTSTRAP = `const { workerData } = require("node:worker_threads");
import(workerData.tsxApi)
  .then((api) => api.tsImport(workerData.entry, workerData.entry))
  .catch((error) => setImmediate(() => { throw error; }));`;

interface PoolWorker {
  readonly worker: Worker;
  readonly pending: Map<number, (answer: VerifyJobAnswer | undefined) => void>;
  /** Jobs not sent yet: the jobs of one turn of the event loop go in one message. */
  readonly outbox: VerifyJob[];
  alive: boolean;
}

/**
 * Starts worker threads that verify trust-check responses. Never throws: when a worker cannot start (no worker
 * module, TypeScript sources without tsx, a worker that fails to load or does not answer in time), it says why,
 * and the caller verifies in process.
 *
 * @param options - Thread count, start time-out.
 * @returns The pool, or why there is none.
 */
export async function startVerifierPool(options: VerifierPoolOptions): Promise<VerifierPoolStart> {
  const threads = Math.max(1, Math.floor(options.threads));
  const entry = findWorkerEntry(options.workerUrl);
  if (!entry.ok) return { ok: false, problem: entry.problem };
  const workers: PoolWorker[] = [];
  const started: Promise<string | undefined>[] = [];
  for (let i = 0; i < threads; i++) {
    let worker: Worker;
    try {
      worker =
        entry.tsxApi === undefined
          ? new Worker(entry.url)
          : new Worker(TSX_BOOTSTRAP, { eval: true, workerData: { tsxApi: entry.tsxApi, entry: entry.url.href } });
    } catch (error) {
      await Promise.all(workers.map((w) => w.worker.terminate()));
      return { ok: false, problem: `a worker cannot start: ${(error as Error).message}` };
    }
    const member: PoolWorker = { worker, pending: new Map(), outbox: [], alive: true };
    workers.push(member);
    started.push(waitUntilReady(worker, options.startTimeoutMs ?? 60_000));
  }
  const problems = (await Promise.all(started)).filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) {
    await Promise.all(workers.map((w) => w.worker.terminate()));
    return { ok: false, problem: `a worker did not start: ${problems[0]}` };
  }
  for (const member of workers) watch(member);
  return { ok: true, pool: new WorkerVerifierPool(workers) };
}

function waitUntilReady(worker: Worker, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      resolve(problem);
    };
    const onMessage = (message: unknown) => {
      if (isRecord(message) && message.type === "ready") done(undefined);
    };
    const onError = (error: Error) => done(error.message.split("\n")[0]);
    const onExit = (code: number) => done(`it exited with code ${code}`);
    const timer = setTimeout(() => done(`it did not load within ${timeoutMs} ms`), timeoutMs);
    worker.on("message", onMessage);
    worker.once("error", onError);
    worker.once("exit", onExit);
  });
}

/**
 * Sends a worker the jobs of its outbox in one message (a message costs about as much on this thread as a
 * verification does on the worker, so they are batched). A batch that cannot be cloned is sent job by job, and
 * a job that cannot be is handed back.
 */
function flush(member: PoolWorker): void {
  const batch = member.outbox.splice(0);
  if (batch.length === 0) return;
  if (!member.alive) {
    for (const job of batch) settleBack(member, job.id);
    return;
  }
  try {
    member.worker.postMessage(batch);
  } catch {
    for (const job of batch) {
      try {
        member.worker.postMessage([job]);
      } catch {
        settleBack(member, job.id);
      }
    }
  }
}

/** Hands a job back to its caller, who verifies it in process. */
function settleBack(member: PoolWorker, id: number): void {
  const settle = member.pending.get(id);
  member.pending.delete(id);
  if (member.pending.size === 0) member.worker.unref();
  settle?.(undefined);
}

/** Routes a worker's answers to their jobs; a worker that fails hands its jobs back (to in-process verification). */
function watch(member: PoolWorker): void {
  const { worker, pending } = member;
  worker.unref();
  const giveBack = () => {
    member.alive = false;
    for (const settle of pending.values()) settle(undefined);
    pending.clear();
  };
  worker.on("message", (answers: VerifyJobAnswer[]) => {
    for (const answer of answers) {
      const settle = pending.get(answer.id);
      if (settle === undefined) continue;
      pending.delete(answer.id);
      settle(answer);
    }
    if (pending.size === 0) worker.unref();
  });
  worker.on("error", giveBack);
  worker.on("exit", giveBack);
}

class WorkerVerifierPool implements VerifierPool {
  readonly #workers: PoolWorker[];
  readonly #stats = { onWorkers: 0, inProcess: 0 };
  #nextId = 0;
  #closed = false;

  constructor(workers: PoolWorker[]) {
    this.#workers = workers;
  }

  get stats(): { readonly onWorkers: number; readonly inProcess: number } {
    return { ...this.#stats };
  }

  get threads(): number {
    return this.#workers.filter((w) => w.alive).length;
  }

  async verify(response: unknown, options: PoolVerifyOptions): Promise<TrustAttestationVerification> {
    const inProcess = () => {
      this.#stats.inProcess++;
      return verifyTrustAttestation(response, options);
    };
    const member = this.#pick();
    if (member === undefined) return inProcess();

    const kid = keyIdOf(response);
    const accepted = options.acceptedKids ?? TRUST_ATTESTATION_KIDS;
    let jwk: JWK | undefined;
    if (kid !== undefined && accepted.includes(kid)) {
      const found = options.jwks.peekKey?.(kid) ?? (await options.jwks.getKey(kid));
      if (!found.ok) return inProcess();
      jwk = found.key.jwk;
    }
    const { jwks, now, ...rest } = options;
    const job: VerifyJob = { id: this.#nextId++, response, jwk, source: jwks.source, options: { ...rest, now: resolveNow(now) } };

    const answer = await new Promise<VerifyJobAnswer | undefined>((settle) => {
      if (member.pending.size === 0) member.worker.ref();
      member.pending.set(job.id, settle);
      if (member.outbox.push(job) === 1) setImmediate(flush, member);
    });
    if (answer === undefined || "error" in answer) return inProcess();
    if (answer.verdict.valid === false && KEY_REASONS.has(answer.verdict.reason)) return inProcess();
    this.#stats.onWorkers++;
    return answer.verdict;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      this.#workers.map(async (member) => {
        member.alive = false;
        await member.worker.terminate();
      }),
    );
  }

  /** The live worker with the fewest jobs in flight. */
  #pick(): PoolWorker | undefined {
    let best: PoolWorker | undefined;
    for (const member of this.#workers) {
      if (member.alive && (best === undefined || member.pending.size < best.pending.size)) best = member;
    }
    return best;
  }
}
