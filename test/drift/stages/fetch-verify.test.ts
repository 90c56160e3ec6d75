import { describe, expect, it } from "vitest";
import type { TrustApiClient } from "../../../src/api/client";
import { createJwksResolver } from "../../../src/attestation/jwks";
import { compareCandidates } from "../../../src/drift/stages/compare";
import type { Candidate } from "../../../src/drift/stages/enumerate";
import { fetchAndVerify, listingOutcome, newServiceStats } from "../../../src/drift/stages/fetch-verify";
import { HttpRequestError, TimeoutError } from "../../../src/errors";
import { buildTrustCheckResponse, generateTestKeys, jwksOf, TEST_ISSUER, TEST_NOW } from "../../support/attestations";
import { agent, context, listed, record } from "./fixtures";

describe("fetch and verify: every failure becomes an outcome, then a row with a reason", () => {
  it("verified, invalid, unknown to the service, transport failure, unparseable body — and nothing throws", async () => {
    const keys = await generateTestKeys();
    const other = await generateTestKeys();
    const good = await buildTrustCheckResponse(keys.v2, { agent: { agentId: "1", score: 60, tier: "developing", sybilSeverity: null } });
    const forged = await buildTrustCheckResponse(other.v2, { agent: { agentId: "2", score: 60, tier: "developing", sybilSeverity: null } });
    const answers: Record<string, () => unknown> = {
      "1": () => good,
      "2": () => forged,
      "3": () => {
        throw new HttpRequestError({ status: 404, method: "GET", url: "http://svc/api/trust-check", errorMessage: "Unknown agent 3" });
      },
      "4": () => {
        throw new TimeoutError({ method: "GET", url: "http://svc/api/trust-check", timeoutMs: 30_000 });
      },
      "5": () => ({ hello: "world" }),
    };
    const api = {
      trustCheck: async ({ id }: { id: bigint }) => answers[id.toString()]!(),
    } as unknown as TrustApiClient;
    const candidates: Candidate[] = [1, 2, 3, 4, 5].map((id) => ({ agent: agent(id) }));
    const stats = newServiceStats();
    const outcomes = await fetchAndVerify(
      candidates,
      { fetch: [0, 1, 2, 3, 4], reasons: {} },
      {
        api,
        attestations: {
          issuer: TEST_ISSUER,
          jwks: createJwksResolver({ keys: jwksOf(keys.v1, keys.v2).keys as never }),
          now: () => TEST_NOW,
          stats,
        },
        concurrency: 2,
      },
    );
    expect(outcomes.map((o) => o.kind)).toEqual(["verified", "invalid", "missing", "error", "invalid"]);
    expect(stats.requests).toBe(5);

    const rows = compareCandidates(
      candidates,
      candidates.map(() => record(60)),
      outcomes,
      [],
      context,
    );
    expect(rows.map((r) => [r.agentId, r.status])).toEqual([
      ["1", "in-sync"],
      ["2", "invalid-attestation"],
      ["3", "missing-attestation"],
      ["4", "error"],
      ["5", "invalid-attestation"],
    ]);
    for (const row of rows.slice(1)) expect(row.reason, row.agentId).toMatch(/\S/);
  });

  it("a candidate triage did not select keeps what the listing said", async () => {
    const api = {
      trustCheck: async () => {
        throw new Error("must not be asked");
      },
    } as unknown as TrustApiClient;
    const candidates: Candidate[] = [
      { agent: agent(1), listed: listed(60) },
      { agent: agent(2), listed: null },
      { agent: agent(3), listed: { score: 60 } },
    ];
    const outcomes = await fetchAndVerify(
      candidates,
      { fetch: [], reasons: {} },
      { api, attestations: { issuer: TEST_ISSUER, jwks: createJwksResolver({ keys: [] as never }) }, concurrency: 1 },
    );
    expect(outcomes).toEqual([
      { kind: "listed", data: { score: 60, tier: "developing", sybilSeverity: null, at: new Date(0), computedAt: null } },
      { kind: "missing", message: "not in the service's listing" },
      { kind: "error", message: "the listing entry is incomplete" },
    ]);
    expect(listingOutcome(undefined).kind).toBe("error");
  });
});
