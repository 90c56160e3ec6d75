import { describe, expect, it } from "vitest";
import type { TrustApiClient } from "../../../src/api/client";
import { createJwksResolver } from "../../../src/attestation/jwks";
import { compareCandidates } from "../../../src/drift/stages/compare";
import type { Candidate } from "../../../src/drift/stages/enumerate";
import { fetchAndVerify, listingOutcome, newServiceStats } from "../../../src/drift/stages/fetch-verify";
import { HttpRequestError, TimeoutError } from "../../../src/errors";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  clone,
  flipChar,
  generateTestKeys,
  jwksOf,
  makeHighS,
  TEST_ISSUER,
  TEST_NOW,
} from "../../support/attestations";
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

describe("fetch and verify: the verifier's verdicts", () => {
  it("gives each response's verdict (valid v1/v2, high-S, tampered, wrong kid, expired)", async () => {
    const keys = await generateTestKeys();
    const other = await generateTestKeys();
    const responses = new Map<string, unknown>();
    const v2 = await buildTrustCheckResponse(keys.v2, { agent: { agentId: "1", score: 60, tier: "developing", sybilSeverity: null } });
    responses.set("1", v2);
    responses.set("2", await buildV1TrustCheckResponse(keys.v1, { agent: { agentId: 2, score: 80, tier: "established" } }));
    const highS = clone(v2);
    makeHighS(highS.attestation);
    responses.set("3", { ...highS, agentId: 3 }); // a valid high-S attestation of agent 1 in agent 3's body
    // A sig that no longer verifies, alone (beside a jws, the jws is the signature checked by default).
    const tampered = clone(v2);
    tampered.attestation.sig = flipChar(tampered.attestation.sig!);
    delete tampered.attestation.jws;
    responses.set("4", tampered);
    responses.set("5", await buildTrustCheckResponse(other.v2, { agent: { agentId: "5" } }));
    responses.set("6", await buildTrustCheckResponse(keys.mcp, { agent: { agentId: "6" } }));
    responses.set(
      "7",
      await buildTrustCheckResponse(keys.v2, { agent: { agentId: "7" }, issuedAt: new Date(TEST_NOW.getTime() - 48 * 3_600_000) }),
    );
    const high = await buildTrustCheckResponse(keys.v2, { agent: { agentId: "8", score: 90, tier: "established" } });
    makeHighS(high.attestation);
    responses.set("8", high);
    const api = { trustCheck: async ({ id }: { id: bigint }) => responses.get(id.toString()) } as unknown as TrustApiClient;
    const candidates: Candidate[] = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => ({ agent: agent(id) }));
    const jwks = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2, keys.mcp) });
    const stats = newServiceStats();
    const outcomes = await fetchAndVerify(
      candidates,
      { fetch: candidates.map((_, i) => i), reasons: {} },
      { api, attestations: { issuer: TEST_ISSUER, jwks, now: () => TEST_NOW, stats }, concurrency: 4 },
    );
    expect(outcomes.map((o) => o.kind)).toEqual([
      "verified",
      "verified",
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "verified",
    ]);
    expect(outcomes.map((o) => (o.kind === "invalid" ? o.reason : o.kind))).toEqual([
      "verified",
      "verified",
      "field-mismatch",
      "bad-legacy-signature",
      "bad-jws-signature",
      "kid-not-accepted",
      "expired",
      "verified",
    ]);
    expect(stats.requests).toBe(8);
  });
});
