import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TrustCheck } from "../../src/published/index.js";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { JwksUnavailableError } from "../../src/errors.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  generateTestKeys,
  type JwksTestServer,
  jwksOf,
  startJwksServer,
  TEST_NOW,
  type TestKeys,
  unreachableJwksUrl,
} from "../support/attestations.js";

let keys: TestKeys;
let rogueV3: AttestationSigningKey;
let v1Response: TrustCheck;
let v2Response: TrustCheck;
let unknownKidResponse: TrustCheck;
const servers: JwksTestServer[] = [];

async function serve(...signers: AttestationSigningKey[]): Promise<JwksTestServer> {
  const server = await startJwksServer(jwksOf(...signers));
  servers.push(server);
  return server;
}

/** A manual clock for the resolver, so cooldowns are tested without waiting. */
function manualClock(start = 1_700_000_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const verify = (response: unknown, jwks: JwksResolver | string, acceptedKids?: string[]) =>
  verifyTrustAttestation(response, { jwks, now: TEST_NOW, ...(acceptedKids ? { acceptedKids } : {}) });

beforeAll(async () => {
  keys = await generateTestKeys();
  rogueV3 = await generateSigningKey("rnwy-trust-v3");
  v1Response = await buildV1TrustCheckResponse(keys.v1);
  v2Response = await buildTrustCheckResponse(keys.v2);
  unknownKidResponse = await buildTrustCheckResponse(rogueV3);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("remote JWKS over HTTP", () => {
  it("verifies tokens of both keys of a two-key JWKS with one fetch", async () => {
    const server = await serve(keys.v1, keys.v2);
    const resolver = createJwksResolver({ url: server.jwksUrl });
    expect((await verify(v1Response, resolver)).valid).toBe(true);
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    expect(server.hits).toBe(1);
    expect(resolver.stats).toEqual({ fetches: 1, failures: 0 });
    expect(resolver.jwks()?.keys.map((k) => k.kid)).toEqual(["rnwy-trust-v1", "rnwy-trust-v2"]);
  });

  it("shares one fetch between concurrent verifications on a cold cache", async () => {
    const server = await serve(keys.v2);
    const resolver = createJwksResolver({ url: server.jwksUrl });
    const results = await Promise.all(Array.from({ length: 50 }, () => verify(v2Response, resolver)));
    expect(results.every((r) => r.valid)).toBe(true);
    expect(server.hits).toBe(1);
  });

  it("finds a key added by rotation after the cooldown, and never refetches in a loop for unknown kids", async () => {
    const server = await serve(keys.v1);
    const clock = manualClock();
    const resolver = createJwksResolver({ url: server.jwksUrl, cooldownMs: 30_000, cacheMaxAgeMs: 600_000, clock: clock.now });
    const accepted = ["rnwy-trust-v2", "rnwy-trust-v1", "rnwy-trust-v3"];

    expect((await verify(v1Response, resolver)).valid).toBe(true);
    expect(server.hits).toBe(1);
    expect(await verify(v2Response, resolver)).toMatchObject({ valid: false, reason: "key-not-found" });
    expect(server.hits).toBe(1); // within the cooldown: no refetch

    server.setKeys(jwksOf(keys.v1, keys.v2)); // the service rotates in its new key
    clock.advance(10_000);
    const storm = await Promise.all(
      Array.from({ length: 200 }, (_, i) => verify(i % 2 ? v2Response : unknownKidResponse, resolver, accepted)),
    );
    expect(storm.every((r) => !r.valid && r.reason === "key-not-found")).toBe(true);
    expect(server.hits).toBe(1); // still cooling down: 200 unknown-kid tokens caused no fetch

    clock.advance(25_000); // 35 s after the fetch
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    expect(server.hits).toBe(2);
    expect((await verify(v1Response, resolver)).valid).toBe(true); // the old key still verifies

    const storm2 = await Promise.all(Array.from({ length: 200 }, () => verify(unknownKidResponse, resolver, accepted)));
    expect(storm2.every((r) => r.reason === "key-not-found")).toBe(true);
    expect(server.hits).toBe(2);

    clock.advance(31_000); // past the cooldown again: at most one fetch for the whole burst
    await Promise.all(Array.from({ length: 200 }, () => verify(unknownKidResponse, resolver, accepted)));
    expect(server.hits).toBe(3);
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    expect(server.hits).toBe(3); // known kids never fetch while the cache is fresh
  });

  it("finds a rotated-in key after a real (short) cooldown", async () => {
    const server = await serve(keys.v1);
    const resolver = createJwksResolver({ url: server.jwksUrl, cooldownMs: 100 });
    expect(await verify(v2Response, resolver)).toMatchObject({ reason: "key-not-found" });
    server.setKeys(jwksOf(keys.v1, keys.v2));
    expect(await verify(v2Response, resolver)).toMatchObject({ reason: "key-not-found" });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    expect(server.hits).toBe(2);
  });

  it("drops a key removed from the JWKS once the cache is older than cacheMaxAge", async () => {
    const server = await serve(keys.v1, keys.v2);
    const clock = manualClock();
    const resolver = createJwksResolver({ url: server.jwksUrl, cacheMaxAgeMs: 60_000, clock: clock.now });
    expect((await verify(v1Response, resolver)).valid).toBe(true);
    server.setKeys(jwksOf(keys.v2)); // v1 revoked
    clock.advance(30_000);
    expect((await verify(v1Response, resolver)).valid).toBe(true); // cached
    clock.advance(31_000);
    expect(await verify(v1Response, resolver)).toMatchObject({ valid: false, reason: "key-not-found" });
    expect(server.hits).toBe(2);
  });
});

describe("peekKey: the key held now, without fetching", () => {
  it("remote: nothing before the first fetch or for an unknown kid; the key while the cache is fresh; nothing once it is stale", async () => {
    const server = await serve(keys.v1, keys.v2);
    const clock = manualClock();
    const resolver = createJwksResolver({ url: server.jwksUrl, cacheMaxAgeMs: 60_000, clock: clock.now });
    expect(resolver.peekKey?.("rnwy-trust-v2")).toBeUndefined();
    expect(server.hits).toBe(0);
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    expect(resolver.peekKey?.("rnwy-trust-v2")).toMatchObject({ ok: true, key: { kid: "rnwy-trust-v2" } });
    expect(resolver.peekKey?.("rnwy-trust-v3")).toBeUndefined(); // getKey decides whether to refetch
    clock.advance(61_000);
    expect(resolver.peekKey?.("rnwy-trust-v2")).toBeUndefined();
    expect(server.hits).toBe(1);
  });

  it("local: the answer getKey gives", async () => {
    const resolver = createJwksResolver({ keys: jwksOf(keys.v2) });
    expect(resolver.peekKey?.("rnwy-trust-v2")).toEqual(await resolver.getKey("rnwy-trust-v2"));
    expect(resolver.peekKey?.("rnwy-trust-v1")).toEqual(await resolver.getKey("rnwy-trust-v1"));
  });

  it("a resolver without peekKey (written by a program) is asked with getKey", async () => {
    const local = createJwksResolver({ keys: jwksOf(keys.v2) });
    let asked = 0;
    const custom: JwksResolver = {
      source: "custom",
      stats: { fetches: 0, failures: 0 },
      getKey: async (kid) => {
        asked++;
        return local.getKey(kid);
      },
      reload: async () => {},
      jwks: () => undefined,
    };
    expect(await verify(v2Response, custom)).toMatchObject({ valid: true, kid: "rnwy-trust-v2" });
    expect(asked).toBe(1);
  });
});

describe("unavailable JWKS", () => {
  it("gives jwks-unavailable (not valid) when nothing listens", async () => {
    const result = await verify(v2Response, createJwksResolver({ url: await unreachableJwksUrl() }));
    expect(result).toMatchObject({ valid: false, reason: "jwks-unavailable", kid: "rnwy-trust-v2" });
    expect(result.message).toMatch(/unavailable/);
    expect(result.message).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it.each([
    ["a 500", "error", /HTTP 500/],
    ["a non-JSON body", "garbage", /not JSON/],
  ] as const)("gives jwks-unavailable for %s", async (_name, mode, pattern) => {
    const server = await serve(keys.v2);
    server.setMode(mode);
    const result = await verify(v2Response, createJwksResolver({ url: server.jwksUrl }));
    expect(result).toMatchObject({ valid: false, reason: "jwks-unavailable" });
    expect(result.message).toMatch(pattern);
  });

  it("gives jwks-unavailable on timeout", async () => {
    const server = await serve(keys.v2);
    server.setMode("hang");
    const started = Date.now();
    const result = await verify(v2Response, createJwksResolver({ url: server.jwksUrl, timeoutMs: 200 }));
    expect(result).toMatchObject({ valid: false, reason: "jwks-unavailable" });
    expect(result.message).toMatch(/timed out after 200 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("does not follow a redirect (to an attacker's key set)", async () => {
    const attacker = await serve(rogueV3);
    const server = await serve(keys.v2);
    server.setMode("redirect", attacker.jwksUrl);
    const result = await verify(v2Response, createJwksResolver({ url: server.jwksUrl }));
    expect(result).toMatchObject({ valid: false, reason: "jwks-unavailable" });
    expect(result.message).toMatch(/redirect/);
    expect(attacker.hits).toBe(0);
  });

  it("does not retry a failed fetch for every verification, and recovers after the failure cooldown", async () => {
    const server = await serve(keys.v2);
    server.setMode("error");
    const clock = manualClock();
    const resolver = createJwksResolver({ url: server.jwksUrl, failureCooldownMs: 10_000, clock: clock.now });
    const results = await Promise.all(Array.from({ length: 20 }, () => verify(v2Response, resolver)));
    expect(results.every((r) => r.reason === "jwks-unavailable")).toBe(true);
    expect(await verify(v2Response, resolver)).toMatchObject({ reason: "jwks-unavailable" });
    expect(server.hits).toBe(1);
    expect(resolver.stats).toEqual({ fetches: 1, failures: 1 });
    server.setMode("ok");
    clock.advance(10_001);
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    expect(server.hits).toBe(2);
  });

  it("does not use an expired cache when the refetch fails", async () => {
    const server = await serve(keys.v2);
    const clock = manualClock();
    const resolver = createJwksResolver({ url: server.jwksUrl, cacheMaxAgeMs: 60_000, clock: clock.now });
    expect((await verify(v2Response, resolver)).valid).toBe(true);
    server.setMode("error");
    clock.advance(61_000);
    expect(await verify(v2Response, resolver)).toMatchObject({ valid: false, reason: "jwks-unavailable" });
  });

  it("reload() throws JwksUnavailableError when the JWKS is down", async () => {
    const resolver = createJwksResolver({ url: await unreachableJwksUrl() });
    await expect(resolver.reload()).rejects.toBeInstanceOf(JwksUnavailableError);
  });
});

describe("the jwks URL carried by a response is never trusted", () => {
  it("a jwks URL at another origin than the issuer's fails closed (jwks-mismatch), and is never contacted", async () => {
    const issuerServer = await serve(keys.v2);
    const attacker = await serve(rogueV3);
    const impostorKey = await generateSigningKey("rnwy-trust-v2");
    attacker.setKeys(jwksOf(impostorKey));
    const forged = await buildTrustCheckResponse(impostorKey, { agent: { score: 95 } });
    forged.attestation.jwks = attacker.jwksUrl;

    const resolver = createJwksResolver({ url: issuerServer.jwksUrl });
    const result = await verify(forged, resolver);
    expect(result).toMatchObject({ valid: false, reason: "jwks-mismatch", field: "jwks", checked: "none" });
    expect(result.message).toContain(attacker.jwksUrl);
    expect(attacker.hits).toBe(0);
    expect(issuerServer.hits).toBe(0);

    // A genuine attestation pointing elsewhere is refused too: the attestation is not the issuer's as it says.
    const genuine = structuredClone(v2Response);
    genuine.attestation!.jwks = attacker.jwksUrl;
    expect(await verify(genuine, resolver)).toMatchObject({ valid: false, reason: "jwks-mismatch" });
    expect(attacker.hits).toBe(0);
  });

  it("a jwks URL at the issuer's origin is accepted but never fetched: keys come from the configured JWKS", async () => {
    const issuerServer = await serve(keys.v2);
    const attacker = await serve(rogueV3);
    const issuer = issuerServer.origin;
    const genuine = await buildTrustCheckResponse(keys.v2, { issuer });
    genuine.attestation.jwks = `${issuer}/some/other/jwks.json`;
    const result = await verifyTrustAttestation(genuine, { issuer, now: TEST_NOW });
    expect(result.valid).toBe(true);
    expect(issuerServer.hits).toBe(1);

    const impostorKey = await generateSigningKey("rnwy-trust-v2");
    const forged = await buildTrustCheckResponse(impostorKey, { issuer });
    forged.attestation.jwks = attacker.jwksUrl;
    expect(await verifyTrustAttestation(forged, { issuer, now: TEST_NOW })).toMatchObject({ valid: false, reason: "jwks-mismatch" });
    forged.attestation.jwks = `${issuer}/.well-known/jwks.json`;
    expect(await verifyTrustAttestation(forged, { issuer, now: TEST_NOW })).toMatchObject({ valid: false, reason: "bad-jws-signature" });
    expect(attacker.hits).toBe(0);
  });
});
