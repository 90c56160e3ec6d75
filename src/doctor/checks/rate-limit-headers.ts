/**
 * `rate-limit-headers`: whether the service announces its rate limits in its answers (`X-RateLimit-Limit`, the IETF
 * draft's `RateLimit-Policy`, `Retry-After`…) and whether the limits it announces are the ones the kit assumes: 30
 * requests per minute anonymous, 300 with an API key, and apart from those `POST /api/risk-terms` at 5 and 60. The
 * kit's client follows whatever is announced; the assumed figures only matter where nothing is. Holds when every
 * answer announces the assumed limit of its path; differs when none announces anything, or a limit differs.
 *
 * @packageDocumentation
 */
import { parseRateLimitHeaders } from "../../api/rate-limit-headers.js";
import { RATE_LIMITS, RISK_TERMS_RATE_LIMITS } from "../../config/service.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import type { ServiceAnswer, ServiceObservations } from "../service-probe.js";

/** The check's id. */
export const RATE_LIMIT_HEADERS_CHECK = "rate-limit-headers";

/** What one answer announced. */
interface Announced {
  readonly endpoint: string;
  /** Requests per minute announced, if any. */
  readonly perMinute: number | undefined;
  /** The rate-limit headers, as served. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Runs the check.
 *
 * @param service - What the service answered.
 * @param hasApiKey - Whether the requests carried an API key (the assumed limits depend on it).
 * @returns The result.
 */
export function checkRateLimitHeaders(service: ServiceObservations, hasApiKey: boolean): CheckResult {
  const answers = [service.listing, ...service.trustChecks, ...service.endpoints.values()].filter((o): o is ServiceAnswer => o.ok);
  if (answers.length === 0) return couldNotCheck(RATE_LIMIT_HEADERS_CHECK, "the service answered no request");
  const announced = answers.map(announcementOf);
  const assumed = {
    general: hasApiKey ? RATE_LIMITS.withApiKey : RATE_LIMITS.anonymous,
    riskTerms: hasApiKey ? RISK_TERMS_RATE_LIMITS.withApiKey : RISK_TERMS_RATE_LIMITS.anonymous,
  };
  const observed = { assumedPerMinute: assumed, apiKey: hasApiKey, answers: announced };
  if (announced.every((a) => Object.keys(a.headers).length === 0)) {
    return differs(
      RATE_LIMIT_HEADERS_CHECK,
      `the service announces no rate limit (no X-RateLimit-*, RateLimit-* or Retry-After header on ${answers.length} answers): the kit keeps to its assumed ${assumed.general}/min`,
      observed,
    );
  }
  const problems: string[] = [];
  for (const group of ["general", "riskTerms"] as const) {
    const members = announced.filter((a) => (a.endpoint === "risk-terms") === (group === "riskTerms"));
    if (members.length === 0) continue;
    const expected = assumed[group];
    const label = group === "riskTerms" ? "risk-terms" : "the other endpoints";
    const silent = members.filter((a) => a.perMinute === undefined).map((a) => a.endpoint);
    const values = [...new Set(members.flatMap((a) => (a.perMinute === undefined ? [] : [a.perMinute])))];
    if (silent.length > 0) problems.push(`no limit announced on ${[...new Set(silent)].join(", ")}`);
    const other = values.filter((v) => v !== expected);
    if (other.length > 0) problems.push(`${label} announce ${other.map(formatRate).join(" and ")}/min, the kit assumes ${expected}/min`);
  }
  const seen = [
    ...new Set(
      announced.flatMap((a) =>
        a.perMinute === undefined ? [] : [`${a.endpoint === "risk-terms" ? "risk-terms " : ""}${formatRate(a.perMinute)}/min`],
      ),
    ),
  ];
  if (problems.length === 0) return holds(RATE_LIMIT_HEADERS_CHECK, `announced ${seen.join(", ")}, as assumed`, observed);
  return differs(RATE_LIMIT_HEADERS_CHECK, problems.join("; "), observed);
}

function announcementOf(answer: ServiceAnswer): Announced {
  const headers = answer.headers;
  const parsed = parseRateLimitHeaders({ get: (name) => headers[name.toLowerCase()] ?? null });
  const perMinute = parsed.limit === undefined ? undefined : (parsed.limit * 60_000) / (parsed.windowMs ?? 60_000);
  return { endpoint: answer.endpoint, perMinute, headers };
}

function formatRate(perMinute: number): string {
  return Number.isInteger(perMinute) ? String(perMinute) : perMinute.toFixed(2);
}
