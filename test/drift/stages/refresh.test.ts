// The refresh assessment's parts without a chain: whether a verified attestation can be submitted as it is
// (real ES256 signatures, verified by fetchServiceOutcome), and each blocker of assessRefresh in its order.
// The same logic against a real AttestedTrustOracle: test/drift/attested-oracle.test.ts.
import { describe, expect, it } from "vitest";
import type { TrustApiClient } from "../../../src/api/client";
import { createJwksResolver } from "../../../src/attestation/jwks";
import { DEFAULT_CLOCK_SKEW_SECONDS } from "../../../src/attestation/options";
import type { ServiceOutcome } from "../../../src/drift/service-data";
import { compareAgent } from "../../../src/drift/stages/compare";
import { fetchServiceOutcome, VERIFIER_FAILED } from "../../../src/drift/stages/fetch-verify";
import { type AttestedOracleFacts, assessRefresh, submissionOf } from "../../../src/drift/stages/refresh";
import { REFRESH_BLOCKERS } from "../../../src/drift/types";
import { signCompactJws } from "../../../src/harness/signing";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  generateTestKeys,
  jwksOf,
  type TestKeys,
  TEST_ISSUER,
  TEST_NOW,
} from "../../support/attestations";
import { agent, context, noRecord, record } from "./fixtures";

const HOUR_MS = 3_600_000;
const ATTESTED = "0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" as const;

async function outcomeOf(body: unknown, keys: TestKeys, now = TEST_NOW): Promise<ServiceOutcome> {
  const api = { trustCheck: async () => body } as unknown as TrustApiClient;
  return fetchServiceOutcome(
    api,
    { chain: "base", agentId: 1487n, registry: "erc8004" },
    { issuer: TEST_ISSUER, jwks: createJwksResolver({ keys: jwksOf(keys.v1, keys.v2).keys as never }), now: () => now },
  );
}

function verifiedOf(outcome: ServiceOutcome): Extract<ServiceOutcome, { kind: "verified" }> {
  if (outcome.kind !== "verified") throw new Error(`expected a verified outcome, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const facts = (keyStatus: "installed" | "not-installed" | "revoked" | "mismatch" | "unreadable", chainId = 8453): AttestedOracleFacts => ({
  address: ATTESTED,
  keys: new Map([["rnwy-trust-v2", keyStatus === "unreadable" ? { status: keyStatus, detail: "RPC down" } : { status: keyStatus }]]),
  chainIds: new Map([["base", chainId]]),
});

describe("submissionOf: can the verified attestation be submitted as it is", () => {
  it("a v2 response with a jws: the jws form, whether a sig is beside it or not; a sig alone: the sig form", async () => {
    const keys = await generateTestKeys();
    const body = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() - 2 * HOUR_MS) });
    expect(verifiedOf(await outcomeOf(body, keys)).submission).toEqual({ ok: true, form: "jws" });
    const sigOnly = structuredClone(body);
    delete (sigOnly.attestation as { jws?: string }).jws;
    expect(verifiedOf(await outcomeOf(sigOnly, keys)).submission).toEqual({ ok: true, form: "sig" });
    delete (body.attestation as { sig?: string }).sig;
    expect(verifiedOf(await outcomeOf(body, keys)).submission).toEqual({ ok: true, form: "jws" });
  });

  it("a jws header by the general rules (typ, any member order, another member skipped): submittable in the jws form", async () => {
    const keys = await generateTestKeys();
    for (const header of [
      { alg: "ES256", kid: "rnwy-trust-v2", typ: "JWT" },
      { typ: "JOSE", kid: "rnwy-trust-v2", alg: "ES256" },
      { kid: "rnwy-trust-v2", x5t: "abc", alg: "ES256" },
    ]) {
      const body = await buildTrustCheckResponse(keys.v2, { signing: { jwsHeader: header, jwsSerialization: "sorted" } });
      expect(verifiedOf(await outcomeOf(body, keys)).submission, JSON.stringify(header)).toEqual({ ok: true, form: "jws" });
    }
  });

  it("a sig over sorted keys alone: the sig form over the bytes that verified", async () => {
    const keys = await generateTestKeys();
    const body = await buildTrustCheckResponse(keys.v2, { signing: { sigSerialization: "sorted" } });
    delete (body.attestation as { jws?: string }).jws;
    expect(verifiedOf(await outcomeOf(body, keys)).submission).toEqual({ ok: true, form: "sig" });
  });

  it("never submittable with a header the oracle refuses; such a response does not verify either", async () => {
    const keys = await generateTestKeys();
    const body = await buildTrustCheckResponse(keys.v2);
    const attestation = body.attestation as { sig?: string; jws?: string; signed: unknown };
    attestation.jws = await signCompactJws(
      { alg: "ES256", kid: "rnwy-trust-v2", jku: "https://attacker.example/jwks.json" },
      new TextEncoder().encode(JSON.stringify(attestation.signed)),
      keys.v2,
    );
    expect(await outcomeOf(body, keys)).toMatchObject({ kind: "invalid", reason: "unsupported-header" });
    expect(submissionOf(body, { version: "v2", source: "attestation", kid: "rnwy-trust-v2", sigBytes: undefined })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"jku"'),
    });
  });

  it("a v1 attestation verifies but cannot be submitted: the oracle reads v2 blocks only", async () => {
    const keys = await generateTestKeys();
    const body = await buildV1TrustCheckResponse(keys.v1, { agent: { agentId: 1487 } });
    const outcome = verifiedOf(await outcomeOf(body, keys));
    expect(outcome.submission).toEqual({ ok: false, problem: expect.stringContaining("a v1 signed block") });
    const v2Body = await buildTrustCheckResponse(keys.v2);
    expect(submissionOf(v2Body, { version: "v2", source: "attestation", kid: "rnwy-trust-v9", sigBytes: undefined })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('verified under "rnwy-trust-v9"'),
    });
  });
});

describe("fetchServiceOutcome: a verifier that fails is a row with a reason", () => {
  it("a verifier throw (here, options it refuses) becomes an invalid outcome naming it, not a stopped run", async () => {
    const keys = await generateTestKeys();
    const body = await buildTrustCheckResponse(keys.v2);
    const api = { trustCheck: async () => body } as unknown as TrustApiClient;
    const outcome = await fetchServiceOutcome(
      api,
      { chain: "base", agentId: 1487n, registry: "erc8004" },
      { issuer: TEST_ISSUER, jwks: createJwksResolver({ keys: jwksOf(keys.v2).keys as never }), acceptedKids: [] },
    );
    expect(outcome).toMatchObject({ kind: "invalid", reason: VERIFIER_FAILED, message: expect.stringContaining("acceptedKids") });
    const row = compareAgent(agent(1487), noRecord, outcome, { ...context, now: TEST_NOW });
    expect(row).toMatchObject({ status: "invalid-attestation", reason: expect.stringContaining(VERIFIER_FAILED) });
  });
});

describe("assessRefresh: the first blocker, in order", () => {
  it("lists its blockers in the order it checks them", () => {
    expect(REFRESH_BLOCKERS).toEqual([
      "not-submittable",
      "expired",
      "kid-not-installed",
      "kid-revoked",
      "key-mismatch",
      "key-unreadable",
      "chain-not-accepted",
      "not-newer",
    ]);
  });

  it("each blocker, and possible only when none applies", async () => {
    const keys = await generateTestKeys();
    const issuedAt = new Date(TEST_NOW.getTime() - 2 * HOUR_MS);
    const service = verifiedOf(await outcomeOf(await buildTrustCheckResponse(keys.v2, { issuedAt, verifiedAt: TEST_NOW }), keys));
    const issuedS = Math.floor(issuedAt.getTime() / 1000);
    const base = { chain: "base", chainId: 8453, service, now: TEST_NOW, onchainUpdatedAtSeconds: issuedS - 3600 };
    const blockerOf = (input: Partial<Parameters<typeof assessRefresh>[0]>) => assessRefresh({ ...base, ...input }).blocker;

    expect(assessRefresh({ ...base, attestedOracle: facts("installed") })).toMatchObject({
      possible: true,
      keyStatus: "installed",
      call: { function: "submitJwsAttestation", form: "jws" },
      expiresAt: new Date(TEST_NOW.getTime() + 24 * HOUR_MS).toISOString(),
    });
    expect(blockerOf({ service: { ...service, submission: { ok: false, problem: "x" } } })).toBe("not-submittable");
    expect(blockerOf({ service: { ...service, submission: undefined } })).toBe("not-submittable");
    // Expired: one second past the signed expiry plus the skew (the oracle refuses block.timestamp > expiry + 60),
    // not at that second.
    const expiry = service.expiresAt!.getTime();
    const skewMs = DEFAULT_CLOCK_SKEW_SECONDS * 1000;
    expect(blockerOf({ now: new Date(expiry + skewMs + 1000), attestedOracle: facts("not-installed") })).toBe("expired");
    expect(blockerOf({ now: new Date(expiry + skewMs) })).toBeUndefined();
    expect(blockerOf({ now: new Date(expiry + 1000) })).toBeUndefined();
    expect(blockerOf({ attestedOracle: facts("not-installed") })).toBe("kid-not-installed");
    expect(blockerOf({ attestedOracle: facts("revoked") })).toBe("kid-revoked");
    expect(blockerOf({ attestedOracle: facts("mismatch") })).toBe("key-mismatch");
    const unreadable = assessRefresh({ ...base, attestedOracle: facts("unreadable") });
    expect(unreadable).toMatchObject({ blocker: "key-unreadable", reason: 'kid "rnwy-trust-v2" could not be checked: RPC down' });
    expect(blockerOf({ attestedOracle: { ...facts("installed"), keys: new Map() } })).toBe("key-unreadable");
    expect(assessRefresh({ ...base, attestedOracle: facts("installed", 0) }).reason).toContain('accepts no chain slug "base"');
    expect(assessRefresh({ ...base, attestedOracle: facts("installed", 1) })).toMatchObject({ blocker: "chain-not-accepted" });
    // Not newer: the record read is as new as the signed issuedAt (whole seconds), or newer.
    expect(blockerOf({ onchainUpdatedAtSeconds: issuedS })).toBe("not-newer");
    expect(blockerOf({ onchainUpdatedAtSeconds: issuedS - 1 })).toBeUndefined();
    expect(blockerOf({ onchainUpdatedAtSeconds: null })).toBeUndefined();
    // Without an attested oracle: possible, the kid unchecked, and said so.
    const unchecked = assessRefresh(base);
    expect(unchecked).toMatchObject({ possible: true, keyStatus: "unchecked" });
    expect(unchecked.reason).toContain('kid "rnwy-trust-v2" not checked');
    // Without an attested oracle, a chain slug outside the table an oracle is deployed with is not accepted either.
    expect(assessRefresh({ ...base, chain: "solana", chainId: null })).toMatchObject({
      blocker: "chain-not-accepted",
      reason: expect.stringContaining('"solana" is not one an attested oracle is deployed with') as string,
    });
    expect(blockerOf({ chain: "base", chainId: 1 })).toBe("chain-not-accepted");
    expect(blockerOf({ chain: "ethereum", chainId: 1 })).toBeUndefined();
  });

  it("compareAgent assesses only stale, missing or drifted rows with a verified attestation", async () => {
    const keys = await generateTestKeys();
    const issuedAt = new Date(TEST_NOW.getTime() - 2 * HOUR_MS);
    const service = verifiedOf(
      await outcomeOf(
        await buildTrustCheckResponse(keys.v2, {
          agent: { score: 82, tier: "established", sybilSeverity: "low" },
          issuedAt,
          verifiedAt: TEST_NOW,
        }),
        keys,
      ),
    );
    const at = { ...context, now: TEST_NOW };
    const nowS = TEST_NOW.getTime() / 1000;
    const fresh = {
      ...(record(82, { sybilCode: 1 }) as object),
      updatedAt: nowS - 9 * 3600,
    };
    const old = { ...fresh, updatedAt: nowS - 72 * 3600 };
    expect(compareAgent(agent(1487), fresh as never, service, at)).toMatchObject({ status: "in-sync", refresh: null });
    expect(compareAgent(agent(1487), old as never, service, at)).toMatchObject({ status: "stale-onchain", refresh: { possible: true } });
    expect(compareAgent(agent(1487), noRecord, service, at)).toMatchObject({ status: "missing-onchain", refresh: { possible: true } });
    const listedOutcome: ServiceOutcome = { kind: "listed", data: service.data };
    expect(compareAgent(agent(1487), old as never, listedOutcome, at)).toMatchObject({ status: "stale-onchain", refresh: null });
    const invalid: ServiceOutcome = { kind: "invalid", reason: "bad-jws-signature", message: "x" };
    expect(compareAgent(agent(1487), old as never, invalid, at)).toMatchObject({ status: "invalid-attestation", refresh: null });
  });
});
