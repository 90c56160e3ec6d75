/**
 * Verification on worker threads (`verifier-pool.ts`) gives the verdicts of in-process verification, field for
 * field, over a mixed set of responses; keys still come from the caller's resolver; and when a worker cannot
 * start or dies, verification falls back to this thread without losing a verdict. From the sources, the worker is
 * the TypeScript module loaded through tsx (the built package's `.js` worker is exercised by
 * test/package/esm-distribution.test.ts).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyIdOf, startVerifierPool, type VerifierPool } from "../../src/attestation/verifier-pool.js";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { generateSigningKey, signPayload } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  clone,
  flipChar,
  generateTestKeys,
  jwksOf,
  makeHighS,
  startJwksServer,
  TEST_ISSUER,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";

const HOUR_MS = 3_600_000;
let keys: TestKeys;
let resolver: JwksResolver;
let pool: VerifierPool;
let mixed: { name: string; response: unknown }[];

beforeAll(async () => {
  keys = await generateTestKeys();
  resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2, keys.wallet, keys.mcp) });
  const started = await startVerifierPool({ threads: 2 });
  if (!started.ok) throw new Error(`the pool did not start: ${started.problem}`);
  pool = started.pool;

  const v2 = await buildTrustCheckResponse(keys.v2);
  const v1 = await buildV1TrustCheckResponse(keys.v1);
  const highS = clone(v2);
  makeHighS(highS.attestation);
  const highSv1 = clone(v1);
  makeHighS(highSv1.attestation);
  const tamperedSig = clone(v2);
  tamperedSig.attestation.sig = flipChar(tamperedSig.attestation.sig!);
  const tamperedSigOnly = clone(tamperedSig);
  delete tamperedSigOnly.attestation.jws;
  const sortedSigOnly = await buildTrustCheckResponse(keys.v2, { signing: { sigSerialization: "sorted" } });
  delete sortedSigOnly.attestation.jws;
  const typedSortedJws = await buildTrustCheckResponse(keys.v2, {
    signing: { jwsSerialization: "sorted", jwsHeader: { typ: "JWT", kid: keys.v2.kid, alg: "ES256" } },
  });
  const tamperedJws = clone(v2);
  tamperedJws.attestation.jws = flipChar(tamperedJws.attestation.jws!);
  const tamperedBlock = clone(v2);
  tamperedBlock.attestation.signed.score = 99;
  tamperedBlock.score = 99;
  const otherBytes = clone(v2);
  otherBytes.attestation.jws = (await signPayload({ ...v2.attestation.signed, score: 20 }, keys.v2)).jws;
  const rogue = await generateSigningKey("rnwy-trust-v9");
  const impostor = await generateSigningKey("rnwy-trust-v2");
  const kidMismatch = clone(v2);
  kidMismatch.attestation.kid = "rnwy-trust-v1";
  const foreignJwks = clone(v2) as unknown as { attestation: Record<string, unknown> };
  foreignJwks.attestation.jwks = "https://attacker.example/jwks.json";
  const jwsOnly = clone(v2);
  delete jwsOnly.attestation.sig;
  const migration = { ...clone(v1), attestation: undefined, attestationV1: clone(v1).attestation };
  mixed = [
    { name: "valid v2", response: v2 },
    { name: "valid v1", response: v1 },
    { name: "valid v2 as JSON text", response: JSON.parse(JSON.stringify(v2)) },
    { name: "high-S v2", response: highS },
    { name: "high-S v1", response: highSv1 },
    { name: "jws only", response: jwsOnly },
    { name: "attestationV1 only (kid migration)", response: migration },
    { name: "wallet owns no agent", response: await buildWalletNotFoundResponse(keys.v2) },
    { name: "tampered sig beside a jws (not checked by default)", response: tamperedSig },
    { name: "tampered sig alone", response: tamperedSigOnly },
    { name: "sig over sorted keys", response: sortedSigOnly },
    { name: "jws over sorted keys, typ header", response: typedSortedJws },
    { name: "tampered jws", response: tamperedJws },
    { name: "tampered signed block", response: tamperedBlock },
    { name: "jws over other bytes", response: otherBytes },
    { name: "kid not accepted", response: await buildTrustCheckResponse(rogue) },
    { name: "another key under the same kid", response: await buildTrustCheckResponse(impostor) },
    { name: "kid mismatch", response: kidMismatch },
    { name: "MCP key", response: await buildTrustCheckResponse(keys.mcp) },
    { name: "expired", response: await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() - 30 * HOUR_MS) }) },
    {
      name: "issued in the future",
      response: await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() + HOUR_MS) }),
    },
    { name: "field mismatch", response: { ...clone(v2), score: 12 } },
    { name: "foreign JWKS URL (refused)", response: foreignJwks },
    { name: "not an object", response: "hello" },
    { name: "no attestation", response: { agentId: 1 } },
  ];
}, 120_000);

afterAll(async () => {
  await pool?.close();
});

describe("verification on worker threads", () => {
  it("starts the TypeScript worker from the sources (through tsx)", () => {
    expect(pool.threads).toBe(2);
  });

  it("equals in-process verification over a mixed set, for both signature policies and an expected subject", async () => {
    const before = pool.stats;
    const optionSets = [
      { jwks: resolver, now: TEST_NOW },
      { jwks: resolver, now: TEST_NOW, verify: "both" as const },
      { jwks: resolver, now: TEST_NOW, expected: { agentId: 1487, chain: "base" } },
    ];
    for (const options of optionSets) {
      const onWorkers = await Promise.all(mixed.map(({ response }) => pool.verify(response, options)));
      for (const [i, { name, response }] of mixed.entries()) {
        const inProcess = await verifyTrustAttestation(response, options);
        expect(onWorkers[i], name).toEqual(inProcess);
      }
    }
    const verdicts = await Promise.all(mixed.map(({ response }) => pool.verify(response, optionSets[0]!)));
    expect(verdicts.filter((v) => v.valid).length).toBeGreaterThanOrEqual(8);
    expect(verdicts.map((v) => v.reason)).toEqual(
      expect.arrayContaining([
        "bad-legacy-signature",
        "payload-mismatch",
        "kid-not-accepted",
        "expired",
        "field-mismatch",
        "malformed",
        "jwks-mismatch",
      ]),
    );
    // Every verdict came from a worker: the keys were all in the resolver.
    expect(pool.stats.onWorkers - before.onWorkers).toBe(4 * mixed.length);
    expect(pool.stats.inProcess).toBe(before.inProcess);
  });

  it("takes keys from the caller's resolver: a kid it lacks is refused in process, with the resolver's own message", async () => {
    const partial = createJwksResolver({ keys: jwksOf(keys.v1) });
    const response = await buildTrustCheckResponse(keys.v2);
    const before = pool.stats.inProcess;
    const verdict = await pool.verify(response, { jwks: partial, now: TEST_NOW });
    expect(verdict).toEqual(await verifyTrustAttestation(response, { jwks: partial, now: TEST_NOW }));
    expect(verdict).toMatchObject({ valid: false, reason: "key-not-found" });
    expect(pool.stats.inProcess).toBe(before + 1);
  });

  it("follows a key rotation of a remote JWKS, as in-process verification does", async () => {
    const server = await startJwksServer(jwksOf(keys.v1));
    try {
      const remote = createJwksResolver({ url: server.jwksUrl, cooldownMs: 0 });
      const response = await buildTrustCheckResponse(keys.v2);
      expect(await pool.verify(response, { jwks: remote, now: TEST_NOW })).toMatchObject({ valid: false, reason: "key-not-found" });
      server.setKeys(jwksOf(keys.v1, keys.v2));
      expect(await pool.verify(response, { jwks: remote, now: TEST_NOW })).toMatchObject({ valid: true, kid: "rnwy-trust-v2" });
    } finally {
      await server.close();
    }
  });

  it("reads the key id as verification does", async () => {
    const v2 = await buildTrustCheckResponse(keys.v2);
    expect(keyIdOf(v2)).toBe("rnwy-trust-v2");
    const sigOnly = clone(v2);
    delete sigOnly.attestation.jws;
    expect(keyIdOf(sigOnly)).toBe("rnwy-trust-v2");
    expect(keyIdOf({ attestationV1: (await buildV1TrustCheckResponse(keys.v1)).attestation })).toBe("rnwy-trust-v1");
    expect(keyIdOf(null)).toBeUndefined();
  });

  it("throws for bad options, as verifyTrustAttestation does", async () => {
    await expect(pool.verify(mixed[0]!.response, { jwks: resolver, clockSkewSeconds: -1 })).rejects.toThrow(/clockSkewSeconds/);
  });
});

describe("when workers cannot verify", () => {
  const dir = mkdtempSync(join(tmpdir(), "verifier-pool-"));

  it("says why no pool starts: no worker module, a module that fails to load, one that never says it is ready", async () => {
    const missing = await startVerifierPool({ threads: 2, workerUrl: pathToFileURL(join(dir, "absent.mjs")) });
    expect(missing).toMatchObject({ ok: false, problem: expect.stringMatching(/no worker module/) });
    const broken = join(dir, "broken.mjs");
    writeFileSync(broken, 'throw new Error("cannot load");\n');
    expect(await startVerifierPool({ threads: 2, workerUrl: pathToFileURL(broken) })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/cannot load/),
    });
    const silent = join(dir, "silent.mjs");
    writeFileSync(silent, "setInterval(() => {}, 1000);\n");
    expect(await startVerifierPool({ threads: 1, workerUrl: pathToFileURL(silent), startTimeoutMs: 300 })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/did not load within 300 ms/),
    });
  });

  it("a worker that dies hands its jobs back: every verdict is still given, in process", async () => {
    const dying = join(dir, "dying.mjs");
    writeFileSync(
      dying,
      'import { parentPort } from "node:worker_threads";\nparentPort.postMessage({ type: "ready" });\nparentPort.on("message", () => process.exit(3));\n',
    );
    const started = await startVerifierPool({ threads: 2, workerUrl: pathToFileURL(dying) });
    if (!started.ok) throw new Error(started.problem);
    const options = { jwks: resolver, now: TEST_NOW };
    const verdicts = await Promise.all(mixed.map(({ response }) => started.pool.verify(response, options)));
    for (const [i, { name, response }] of mixed.entries()) {
      expect(verdicts[i], name).toEqual(await verifyTrustAttestation(response, options));
    }
    expect(started.pool.threads).toBe(0);
    expect(started.pool.stats).toEqual({ onWorkers: 0, inProcess: mixed.length });
    await started.pool.close();
  });

  it("after close, verifies in process", async () => {
    const started = await startVerifierPool({ threads: 1 });
    if (!started.ok) throw new Error(started.problem);
    await started.pool.close();
    const options = { jwks: resolver, now: TEST_NOW, issuer: TEST_ISSUER };
    expect(await started.pool.verify(mixed[0]!.response, options)).toEqual(await verifyTrustAttestation(mixed[0]!.response, options));
    expect(started.pool.stats).toEqual({ onWorkers: 0, inProcess: 1 });
  });
});
