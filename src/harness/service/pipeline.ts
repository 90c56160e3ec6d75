/**
 * The local service's request pipeline: count the request, apply the rate limit and the injected faults,
 * read the body, route, run the handler, and write the JSON answer with the rate-limit headers (the limit of
 * the caller on that path — `/api/risk-terms` has its own —, what remains, when the window frees one).
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceContext, ServiceRequest, ServiceResponse } from "./context.js";
import { servedBody } from "./deviations.js";
import { DEFAULT_SLOW_DELAY_MS, type FaultInjector } from "./faults.js";
import { errorBody, ServiceHttpError } from "./http-error.js";
import { type RateLimitDecision, rateLimitHeaders, type SlidingWindowRateLimiter } from "./rate-limit.js";
import { routeRequest } from "./routes.js";

/** The path with its own rate limit. */
export const RISK_TERMS_PATH = "/api/risk-terms";

/** Largest request body accepted, in bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Request counters of a running service. */
export interface RequestStats {
  /** Requests received. */
  requests: number;
  /** Requests received, by path. */
  byPath: Record<string, number>;
  /** Requests answered 429 (by the limit or by a `rate-limit` fault). */
  rateLimited: number;
}

/** What the pipeline needs. */
export interface PipelineDeps {
  /** Service state for handlers (set once the server listens). */
  readonly context: () => ServiceContext;
  /** The rate limiter of every `/api/` path but `POST /api/risk-terms`; `undefined` when disabled. */
  readonly limiter: SlidingWindowRateLimiter | undefined;
  /** The separate rate limiter of `/api/risk-terms` (5/min anonymous, 60/min keyed); `undefined` when disabled. */
  readonly riskTermsLimiter?: SlidingWindowRateLimiter | undefined;
  /** Active faults. */
  readonly faults: FaultInjector;
  /** Counters, updated in place. */
  readonly stats: RequestStats;
  /** Aborted when the service closes (ends `slow` waits). */
  readonly closing: AbortSignal;
}

/**
 * Creates the `request` listener of the service's HTTP server.
 *
 * @param deps - State and collaborators.
 * @returns The listener.
 */
export function createRequestListener(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) {
        writeJson(res, "GET", { status: 500, body: errorBody("internal", "Internal error") }, undefined);
      } else {
        res.destroy();
      }
    });
  };
}

async function handle(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://service.local");
  } catch {
    url = new URL("http://service.local/");
  }
  const path = url.pathname;
  deps.stats.requests += 1;
  deps.stats.byPath[path] = (deps.stats.byPath[path] ?? 0) + 1;

  const authorization = req.headers.authorization;
  const client = req.socket.remoteAddress ?? "unknown";
  let rate: RateLimitDecision | undefined;
  const limiter = isRiskTermsPath(path) && deps.riskTermsLimiter ? deps.riskTermsLimiter : deps.limiter;
  if (limiter) {
    rate = path.startsWith("/api/") ? limiter.consume(authorization, client) : limiter.peek(authorization, client);
    if (!rate.allowed) {
      deps.stats.rateLimited += 1;
      const message = `Rate limit of ${rate.limit} requests per minute exceeded; retry after ${rate.retryAfterSeconds} s`;
      writeJson(res, method, tooManyRequests(message, rate.retryAfterSeconds), rate);
      return;
    }
  }

  const slow = deps.faults.take(["slow"], path);
  if (slow) {
    const completed = await delay(slow.delayMs ?? DEFAULT_SLOW_DELAY_MS, deps.closing);
    if (!completed || res.destroyed) {
      req.socket.destroy();
      return;
    }
  }
  const fault = deps.faults.take(["drop-connection", "status-500", "rate-limit"], path);
  if (fault?.kind === "drop-connection") {
    req.socket.destroy();
    return;
  }
  if (fault?.kind === "status-500") {
    writeJson(res, method, { status: 500, body: errorBody("internal", "Internal error (injected fault)") }, rate);
    return;
  }
  if (fault?.kind === "rate-limit") {
    deps.stats.rateLimited += 1;
    writeJson(res, method, tooManyRequests("Rate limit exceeded (injected fault)", fault.retryAfterSeconds ?? 1), rate);
    return;
  }

  let response: ServiceResponse;
  try {
    const handler = routeRequest(method, path);
    const body = await readBody(req);
    const request: ServiceRequest = { method, path, query: url.searchParams, headers: req.headers, body, ...(rate ? { rate } : {}) };
    const context = deps.context();
    const answer = await handler(request, context);
    response =
      answer.status >= 200 && answer.status < 300 ? { ...answer, body: servedBody(context.deviations, path, answer.body) } : answer;
  } catch (error) {
    response =
      error instanceof ServiceHttpError
        ? { status: error.status, body: error.body, headers: error.headers }
        : { status: 500, body: errorBody("internal", "Internal error") };
  }
  if (res.destroyed) return;
  const truncate =
    response.status >= 200 &&
    response.status < 300 &&
    response.body !== undefined &&
    deps.faults.take(["malformed-json"], path) !== undefined;
  writeJson(res, method, response, rate, truncate);
}

/** Whether a path is `/api/risk-terms` (with or without a trailing slash), which has its own limit. */
function isRiskTermsPath(path: string): boolean {
  return path === RISK_TERMS_PATH || path === `${RISK_TERMS_PATH}/`;
}

function tooManyRequests(message: string, retryAfterSeconds: number): ServiceResponse {
  return {
    status: 429,
    body: errorBody("rate-limited", message),
    headers: { "Retry-After": String(retryAfterSeconds) },
  };
}

/** Writes a JSON answer (no body for HEAD or an empty body), cut in half when `truncate`. */
function writeJson(
  res: ServerResponse,
  method: string,
  response: ServiceResponse,
  rate: RateLimitDecision | undefined,
  truncate = false,
): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { "Cache-Control": "no-store", ...response.headers };
  if (rate) Object.assign(headers, rateLimitHeaders(rate));
  if (response.body === undefined) {
    res.writeHead(response.status, { ...headers, "Content-Length": "0" });
    res.end();
    return;
  }
  let text = JSON.stringify(response.body);
  if (truncate) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  const bytes = Buffer.from(text, "utf8");
  res.writeHead(truncate ? 200 : response.status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(bytes.length),
  });
  res.end(method === "HEAD" ? undefined : bytes);
}

/** Reads the request body as UTF-8, answering 400 past {@link MAX_BODY_BYTES}. */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ServiceHttpError("bad-request", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Waits `ms`; resolves `false` early when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
