/**
 * Fault injection for the local service, so that clients and the drift job can be tested against the ways
 * a real service fails: 5xx, malformed JSON, slowness, tampered signatures, unknown signing keys, rate
 * limiting and dropped connections.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../../errors.js";

/** The kinds of fault the service can inject. */
export const FAULT_KINDS = [
  "status-500",
  "malformed-json",
  "slow",
  "tampered-signature",
  "unknown-kid",
  "rate-limit",
  "drop-connection",
] as const;

/** A kind of fault. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * A fault to inject.
 *
 * - `status-500`: answers 500 with the error body (code `internal`).
 * - `malformed-json`: answers 200, `Content-Type: application/json`, with the body cut in half.
 * - `slow`: waits `delayMs` before handling the request normally.
 * - `tampered-signature`: changes a signed value after signing (the score, or another field where there is
 *   none) in `signed` and in the JWS payload, and the matching top-level field, so neither `sig` nor `jws`
 *   verifies.
 * - `unknown-kid`: signs with a key that is not in the JWKS (kid `rnwy-trust-v3`, or `rnwy-mcp-v2`).
 * - `rate-limit`: answers 429 with `Retry-After` and the error body.
 * - `drop-connection`: destroys the socket without answering.
 */
export interface FaultSpec {
  /** The fault. */
  readonly kind: FaultKind;
  /** Path prefix the fault applies to (for example `/api/trust-check`). Default: every `/api/` path. */
  readonly path?: string;
  /** How many times it applies before it clears itself. Default: until {@link FaultInjector.clear}. */
  readonly times?: number;
  /** Delay of a `slow` fault, in milliseconds. Default 2000. */
  readonly delayMs?: number;
  /** `Retry-After` of a `rate-limit` fault, in seconds. Default 1. */
  readonly retryAfterSeconds?: number;
}

/** Default delay of a `slow` fault, in milliseconds. */
export const DEFAULT_SLOW_DELAY_MS = 2000;

interface ActiveFault {
  readonly spec: FaultSpec;
  remaining: number;
}

/** The set of active faults of a running service. */
export class FaultInjector {
  #active: ActiveFault[] = [];

  /**
   * Adds a fault. Faults apply in the order they were injected.
   *
   * @param spec - The fault.
   * @throws {@link InvalidArgumentError} for an unknown kind or a bad `path`, `times`, `delayMs` or `retryAfterSeconds`.
   */
  inject(spec: FaultSpec): void {
    if (!(FAULT_KINDS as readonly string[]).includes(spec.kind)) {
      throw new InvalidArgumentError(`Unknown fault kind "${String(spec.kind)}"`, { details: `Known: ${FAULT_KINDS.join(", ")}` });
    }
    if (spec.path !== undefined && !spec.path.startsWith("/")) {
      throw new InvalidArgumentError(`Fault path must start with "/", got "${spec.path}"`);
    }
    const positive = (name: string, value: number | undefined, min: number): void => {
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= min)) {
        throw new InvalidArgumentError(`Fault ${name} must be an integer ≥ ${min}, got ${value}`);
      }
    };
    positive("times", spec.times, 1);
    positive("delayMs", spec.delayMs, 0);
    positive("retryAfterSeconds", spec.retryAfterSeconds, 0);
    this.#active.push({ spec: { ...spec }, remaining: spec.times ?? Infinity });
  }

  /** Removes every fault. */
  clear(): void {
    this.#active = [];
  }

  /** The faults still active, in injection order. */
  active(): readonly FaultSpec[] {
    return this.#active.map((f) => f.spec);
  }

  /**
   * Takes the first active fault of one of `kinds` that applies to `path`, counting one use of it.
   *
   * @param kinds - Kinds wanted.
   * @param path - Request path.
   * @returns The fault, or `undefined` when none applies.
   */
  take(kinds: readonly FaultKind[], path: string): FaultSpec | undefined {
    const index = this.#active.findIndex((f) => kinds.includes(f.spec.kind) && faultApplies(f.spec, path));
    if (index < 0) return undefined;
    const fault = this.#active[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#active.splice(index, 1);
    return fault.spec;
  }

  /**
   * Whether a fault of one of `kinds` applies to `path`, without using it.
   *
   * @param kinds - Kinds wanted.
   * @param path - Request path.
   * @returns `true` when one applies.
   */
  has(kinds: readonly FaultKind[], path: string): boolean {
    return this.#active.some((f) => kinds.includes(f.spec.kind) && faultApplies(f.spec, path));
  }
}

/**
 * Whether a fault applies to a path: its `path` is a prefix of it, or, without one, it is an `/api/` path.
 *
 * @param spec - The fault.
 * @param path - Request path.
 * @returns `true` when it applies.
 */
export function faultApplies(spec: FaultSpec, path: string): boolean {
  return path.startsWith(spec.path ?? "/api/");
}
