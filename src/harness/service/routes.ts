/**
 * The local service's route table: path → handler per method, and the look-up that tells an unknown path
 * (404) from a wrong method (405).
 *
 * @packageDocumentation
 */
import { JWKS_PATH } from "../../config/service.js";
import { ok, type ServiceHandler } from "./context.js";
import { publishedJwks } from "./deviations.js";
import {
  handleAddressAges,
  handleCompare,
  handleEntity,
  handleReviewer,
  handleReviewerAnalysis,
  handleRiskTerms,
} from "./endpoints/intelligence.js";
import { handleAgents, handleExplorer, handleStats } from "./endpoints/listing.js";
import { handleMcp } from "./endpoints/mcp.js";
import { handleMcpAttestation, handleWalletScore } from "./endpoints/signed-lookups.js";
import { handleTrustCheck } from "./endpoints/trust-check.js";
import { ServiceHttpError } from "./http-error.js";

/** Handlers of one path, by HTTP method. */
export type RouteMethods = Readonly<Partial<Record<"GET" | "POST", ServiceHandler>>>;

/** `GET /.well-known/jwks.json`. */
const handleJwks: ServiceHandler = async (_request, context) => ({
  ...ok(publishedJwks(context.signer.jwks(), context.deviations)),
  headers: { "Cache-Control": "public, max-age=300" },
});

/** Every route of the service. */
export const ROUTES: Readonly<Record<string, RouteMethods>> = {
  [JWKS_PATH]: { GET: handleJwks },
  "/api/trust-check": { GET: handleTrustCheck },
  "/api/agents": { GET: handleAgents },
  "/api/explorer": { GET: handleExplorer },
  "/api/stats": { GET: handleStats },
  "/api/reviewer-analysis": { GET: handleReviewerAnalysis },
  "/api/compare": { GET: handleCompare },
  "/api/reviewer": { GET: handleReviewer },
  "/api/entity": { GET: handleEntity },
  "/api/mcp-attestation": { GET: handleMcpAttestation },
  "/api/risk-terms": { POST: handleRiskTerms },
  "/api/address-ages": { GET: handleAddressAges },
  "/api/wallet-score": { GET: handleWalletScore },
  "/api/mcp": { POST: handleMcp },
};

/**
 * The handler of a request, or the error to answer with: 404 for an unknown path, 405 (with `Allow`) for a
 * method the path does not serve. `HEAD` is served as `GET`.
 *
 * @param method - HTTP method.
 * @param path - Request path (a trailing slash is ignored).
 * @returns The handler.
 * @throws {@link ServiceHttpError} for an unknown path or a wrong method.
 */
export function routeRequest(method: string, path: string): ServiceHandler {
  const normalized = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const route = Object.hasOwn(ROUTES, normalized) ? ROUTES[normalized] : undefined;
  if (!route) throw new ServiceHttpError("not-found", `No endpoint at ${path}`);
  const handler = route[(method === "HEAD" ? "GET" : method) as "GET" | "POST"];
  if (!handler) {
    const allow = Object.keys(route).join(", ");
    throw new ServiceHttpError("method-not-allowed", `Method ${method} is not allowed on ${normalized}; use ${allow}`, { Allow: allow });
  }
  return handler;
}
