/**
 * Reads the rate limit a service announces in its response headers, generously: the de facto
 * `X-RateLimit-Limit` / `X-RateLimit-Remaining` / `X-RateLimit-Reset`, the IETF draft's earlier
 * `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit-Reset` with `RateLimit-Policy: 100;w=60`, and its later
 * structured form `RateLimit-Policy: "default";q=100;w=60` with `RateLimit: "default";r=50;t=30`.
 *
 * A value that does not parse is left out, never thrown: a garbage header is as good as none. A reset is read as
 * delta seconds, or as a Unix time when it is too large to be a delta (`X-RateLimit-Reset: 1764151200`, seconds
 * or milliseconds), or as an HTTP date.
 *
 * @packageDocumentation
 */

/** The rate limit a response announces; every field is absent when its header is absent or unreadable. */
export interface RateLimitAnnouncement {
  /** Requests allowed per window (`X-RateLimit-Limit`, `RateLimit-Limit`, or a `RateLimit-Policy` quota). */
  limit?: number | undefined;
  /** The window of `limit` in milliseconds, when the service names one (`w=` of a policy). */
  windowMs?: number | undefined;
  /** Requests left in the current window (`X-RateLimit-Remaining`, `RateLimit-Remaining`, `r=` of `RateLimit`). */
  remaining?: number | undefined;
  /** Milliseconds from the response until the quota is restored (`X-RateLimit-Reset`, `RateLimit-Reset`, `t=`). */
  resetMs?: number | undefined;
}

/** Anything with a case-insensitive `get`, like `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Options of {@link parseRateLimitHeaders}. */
export interface ParseRateLimitHeadersOptions {
  /** Current time in ms since the epoch, for a reset given as a Unix time or an HTTP date (default `Date.now()`). */
  now?: number;
  /**
   * Window assumed for a limit announced without one, when several policies are compared (default 60 000: the
   * service documents its limits per minute).
   */
  defaultWindowMs?: number;
}

/** Largest window read, in seconds (31 days): anything longer is not a rate limit a client can pace itself by. */
const MAX_WINDOW_SECONDS = 31 * 86_400;

/** A reset at or above this many seconds is a Unix time in seconds (2001-09-09), not a delta. */
const UNIX_SECONDS_FROM = 1e9;

/** A reset at or above this is a Unix time in milliseconds. */
const UNIX_MILLISECONDS_FROM = 1e12;

/** One quota policy: `limit` requests per `windowMs` (unknown window: undefined). */
interface Policy {
  readonly limit: number;
  readonly windowMs: number | undefined;
}

/**
 * Reads the announced rate limit from response headers.
 *
 * When several policies are announced (`RateLimit-Policy: 10;w=1, 500;w=3600`), the one allowing the fewest
 * requests over time is returned, since a client pacing itself by one window keeps to that one over a long run.
 *
 * @param headers - The response headers.
 * @param options - Clock and the window assumed for a limit without one.
 * @returns What the headers announce; `{}` when nothing readable.
 *
 * @example
 * ```ts
 * parseRateLimitHeaders(new Headers({ "x-ratelimit-limit": "300", "x-ratelimit-remaining": "12", "x-ratelimit-reset": "41" }));
 * // { limit: 300, remaining: 12, resetMs: 41000 }
 * ```
 */
export function parseRateLimitHeaders(headers: HeaderReader, options: ParseRateLimitHeadersOptions = {}): RateLimitAnnouncement {
  const now = options.now ?? Date.now();
  const defaultWindowMs = options.defaultWindowMs ?? 60_000;
  const get = (name: string): string | undefined => {
    try {
      const value = headers.get(name);
      return typeof value === "string" && value.trim() !== "" ? value : undefined;
    } catch {
      return undefined;
    }
  };

  const policies: Policy[] = [];
  for (const name of ["x-ratelimit-limit", "ratelimit-limit"]) {
    const value = get(name);
    if (value !== undefined) {
      const limit = limitHeaderPolicy(value);
      if (limit) policies.push(limit);
    }
  }
  const policyHeader = get("ratelimit-policy");
  if (policyHeader !== undefined) policies.push(...policyHeaderPolicies(policyHeader));

  const announcement: RateLimitAnnouncement = {};
  const chosen = mostRestrictive(policies, defaultWindowMs);
  if (chosen) {
    announcement.limit = chosen.limit;
    if (chosen.windowMs !== undefined) announcement.windowMs = chosen.windowMs;
  }

  let remaining = firstDefined(["x-ratelimit-remaining", "ratelimit-remaining"].map((n) => nonNegativeInteger(get(n))));
  let resetMs = firstDefined(["x-ratelimit-reset", "ratelimit-reset"].map((n) => resetOf(get(n), now)));
  const combined = get("ratelimit");
  if (combined !== undefined) {
    const state = rateLimitFieldState(combined);
    remaining ??= state.remaining;
    resetMs ??= state.resetMs;
  }
  if (remaining !== undefined) announcement.remaining = remaining;
  if (resetMs !== undefined) announcement.resetMs = resetMs;
  return announcement;
}

/** Whether an announcement says anything at all. */
export function isEmptyAnnouncement(announcement: RateLimitAnnouncement): boolean {
  return announcement.limit === undefined && announcement.remaining === undefined && announcement.resetMs === undefined;
}

/**
 * `X-RateLimit-Limit` / `RateLimit-Limit`: `300`, `300;w=60`, or the draft's `300, 300;w=60, 5000;w=3600` (the
 * first member is the limit in force; its window is its own `w`, or that of a policy with the same quota).
 */
function limitHeaderPolicy(value: string): Policy | undefined {
  const members = splitOutside(value, ",").map(parseMember);
  const first = members[0];
  if (!first || first.bare.kind !== "integer") return undefined;
  const limit = positiveInteger(first.bare.value);
  if (limit === undefined) return undefined;
  const window =
    windowOf(first.params.get("w")) ??
    firstDefined(
      members
        .slice(1)
        .map((m) => (m.bare.kind === "integer" && m.bare.value === first.bare.value ? windowOf(m.params.get("w")) : undefined)),
    );
  return { limit, windowMs: window };
}

/** `RateLimit-Policy`: `100;w=60, 1000;w=3600` (earlier drafts) or `"default";q=100;w=60` (later drafts). */
function policyHeaderPolicies(value: string): Policy[] {
  const policies: Policy[] = [];
  for (const member of splitOutside(value, ",").map(parseMember)) {
    const unit = member.params.get("qu");
    if (unit !== undefined && unquote(unit) !== "requests") continue; // a quota of bytes or of cost units: not ours
    const quota = member.params.get("q") ?? (member.bare.kind === "integer" ? member.bare.value : undefined);
    const limit = positiveInteger(quota);
    if (limit === undefined) continue;
    policies.push({ limit, windowMs: windowOf(member.params.get("w")) });
  }
  return policies;
}

/** `RateLimit: "default";r=50;t=30` (later drafts): the fewest remaining over its members, with that member's reset. */
function rateLimitFieldState(value: string): { remaining?: number; resetMs?: number } {
  let best: { remaining?: number; resetMs?: number } = {};
  for (const member of splitOutside(value, ",").map(parseMember)) {
    const remaining = nonNegativeInteger(member.params.get("r"));
    const reset = nonNegativeNumber(member.params.get("t"));
    if (remaining === undefined) continue;
    if (best.remaining === undefined || remaining < best.remaining) {
      best = { remaining, ...(reset === undefined ? {} : { resetMs: Math.ceil(reset * 1000) }) };
    }
  }
  return best;
}

/** The policy with the lowest sustained rate (ties: the shorter window, then one that names its window). */
function mostRestrictive(policies: readonly Policy[], defaultWindowMs: number): Policy | undefined {
  let best: Policy | undefined;
  let bestRate = Infinity;
  let bestWindow = Infinity;
  for (const policy of policies) {
    const window = policy.windowMs ?? defaultWindowMs;
    const rate = policy.limit / window;
    const tie = rate === bestRate && window === bestWindow;
    if (
      rate < bestRate ||
      (rate === bestRate && window < bestWindow) ||
      (tie && best?.windowMs === undefined && policy.windowMs !== undefined)
    ) {
      best = policy;
      bestRate = rate;
      bestWindow = window;
    }
  }
  return best;
}

/** A reset: delta seconds, a Unix time (seconds or milliseconds), or an HTTP date; as ms from `now`. */
function resetOf(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    if (!Number.isFinite(n)) return undefined;
    if (n >= UNIX_MILLISECONDS_FROM) return Math.max(0, Math.ceil(n - now));
    if (n >= UNIX_SECONDS_FROM) return Math.max(0, Math.ceil(n * 1000 - now));
    return Math.ceil(n * 1000);
  }
  if (!/[a-z]/i.test(text)) return undefined; // "-5", "1e3", "": not a delta, not a date
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A structured-field member: its bare item and its parameters (`;name=value`), both as raw text. */
interface Member {
  readonly bare: { kind: "integer" | "other"; value: string };
  readonly params: ReadonlyMap<string, string>;
}

function parseMember(text: string): Member {
  const [head = "", ...rest] = splitOutside(text, ";");
  const bareText = head.trim();
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name !== "" && !params.has(name)) params.set(name, eq < 0 ? "?1" : part.slice(eq + 1).trim());
  }
  return { bare: { kind: /^\d+$/.test(bareText) ? "integer" : "other", value: bareText }, params };
}

/** Splits on `separator` outside double quotes. */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' && text[i - 1] !== "\\") quoted = !quoted;
    if (c === separator && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts.filter((p) => p.trim() !== "");
}

function unquote(text: string): string {
  const t = text.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

function windowOf(value: string | undefined): number | undefined {
  const seconds = positiveInteger(value);
  return seconds !== undefined && seconds <= MAX_WINDOW_SECONDS ? seconds * 1000 : undefined;
}

function positiveInteger(value: string | undefined): number | undefined {
  const n = nonNegativeInteger(value);
  return n !== undefined && n >= 1 ? n : undefined;
}

function nonNegativeInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

function nonNegativeNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d{1,15}(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

function firstDefined<T>(values: readonly (T | undefined)[]): T | undefined {
  return values.find((v) => v !== undefined);
}
