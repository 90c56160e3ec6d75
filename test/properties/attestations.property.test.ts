/**
 * Property-based tests of signed attestations and key sets, through the public verification API
 * (`verifyTrustAttestation`, `createJwksResolver`), with real ES256 keys signing exactly as the service does
 * (`src/harness/signing.ts`, via the fixtures of `test/support/attestations.ts`).
 *
 * Input covered: v2, v1 and wallet-not-found `/api/trust-check` bodies (and `/api/wallet-score` and
 * `/api/mcp-attestation` bodies, with their own verifiers), mutated — any signed field replaced by a
 * random value, removed, added, or the fields reordered; bits flipped in the `sig` or in any part of the `jws`
 * (header, payload, signature); the envelope's `kid`, `alg`, `issuer`, `type` replaced; a body field the signature
 * vouches for changed; any value anywhere replaced — and random key sets, held in memory or served by a loopback
 * HTTP server (random JWKs, the real key under another kid or algorithm, junk keys, garbage documents and statuses).
 *
 * Property: verification never throws and always returns a verdict; a refused verdict has a stable reason from
 * `ATTESTATION_FAILURE_REASONS` and a message; nothing verifies unless the signature covers it — a change of the
 * signed block's value (beside the jws, whose payload it must equal by value: a mere reordering of its fields is the
 * same block), a signature, the key id, the algorithm, the issuer or a vouched-for body field never verifies, and a
 * key set verifies only when it holds the service's real key under the right kid.
 */
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import fc from "fast-check";
import type { JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ATTESTATION_FAILURE_REASONS,
  normalizeSybilSeverity,
  createJwksResolver,
  type JwksResolver,
  type TrustAttestationVerification,
  verifyMcpAttestation,
  verifyTrustAttestation,
  verifyWalletScoreAttestation,
} from "../../src/attestation/verify.js";
import { TrustgateError } from "../../src/errors.js";
import { firstJsonDifference } from "../../src/util/json-difference.js";
import {
  buildMcpAttestationResponse,
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  buildWalletScoreResponse,
  clone,
  generateTestKeys,
  jwksOf,
  TEST_ISSUER,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";
import { hostileJsonValue, hostileString, within, replaceAt } from "./support.js";

type Body = Record<string, unknown> & { attestation: Record<string, unknown> & { signed: Record<string, unknown> } };

let keys: TestKeys;
let resolver: JwksResolver;
let bases: { name: string; body: Body }[];

beforeAll(async () => {
  keys = await generateTestKeys();
  resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2, keys.wallet, keys.mcp) });
  bases = [
    { name: "v2", body: (await buildTrustCheckResponse(keys.v2)) as unknown as Body },
    { name: "v1", body: (await buildV1TrustCheckResponse(keys.v1)) as unknown as Body },
    { name: "wallet-not-found", body: (await buildWalletNotFoundResponse(keys.v2)) as unknown as Body },
  ];
  for (const { name, body } of bases) {
    const verdict = await verifyTrustAttestation(body, { jwks: resolver, now: TEST_NOW, verify: "both" });
    if (!verdict.valid) throw new Error(`fixture ${name} does not verify: ${verdict.message}`);
  }
});

/** Verifies, and checks that it neither threw nor hung and that a refusal carries a stable reason. */
async function verdictOf(body: unknown, options: Parameters<typeof verifyTrustAttestation>[1]): Promise<TrustAttestationVerification> {
  let verdict: TrustAttestationVerification;
  try {
    verdict = await within(verifyTrustAttestation(body, options), 10_000, "verifyTrustAttestation");
  } catch (error) {
    return expect.fail(`verification threw: ${String(error)}`);
  }
  expect(typeof verdict.valid).toBe("boolean");
  if (!verdict.valid) {
    expect(ATTESTATION_FAILURE_REASONS).toContain(verdict.reason);
    expect(String(verdict.message).trim()).not.toBe("");
  }
  return verdict;
}

const base = fc.nat({ max: 2 }).map((i) => i);
const policy = fc.constantFrom<"one" | "both">("one", "both");

/** Signed bytes of a body, as the service signs them. */
const signedBytes = (body: Body) => JSON.stringify(body.attestation.signed);

/** Flips one bit of the bytes a base64 or base64url text decodes to, and encodes them back the same way. */
function flipBit(text: string, encoding: "base64" | "base64url", at: number, bit: number): string {
  const bytes = Buffer.from(text, encoding);
  if (bytes.length === 0) return text === "" ? "AA" : "";
  const i = at % bytes.length;
  bytes[i] = bytes[i]! ^ (1 << (bit % 8));
  return bytes.toString(encoding);
}

describe("signed attestations (property)", () => {
  it("a signed field replaced, removed or added: never verifies; the fields reordered beside the jws: the same block, verifies", async () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant("replace" as const), field: fc.nat(), value: hostileJsonValue() }),
      fc.record({ kind: fc.constant("remove" as const), field: fc.nat() }),
      fc.record({
        kind: fc.constant("add" as const),
        name: fc.oneof(hostileString(), fc.constantFrom("__proto__", "score", "pass")),
        value: hostileJsonValue(),
      }),
      fc.record({ kind: fc.constant("reorder" as const), order: fc.array(fc.nat(), { minLength: 2, maxLength: 20 }) }),
    );
    await fc.assert(
      fc.asyncProperty(base, mutation, policy, async (which, m, verify) => {
        const body = clone(bases[which]!.body);
        const signed = body.attestation.signed;
        const names = Object.keys(signed);
        const field = "field" in m ? names[m.field % names.length]! : "";
        if (m.kind === "replace") signed[field] = m.value;
        else if (m.kind === "remove") delete signed[field];
        else if (m.kind === "add")
          Object.defineProperty(signed, m.name, { value: m.value, enumerable: true, writable: true, configurable: true });
        else {
          const entries = Object.entries(signed).sort(
            ([a], [b]) => m.order[a.length % m.order.length]! - m.order[b.length % m.order.length]! || a.localeCompare(b),
          );
          body.attestation.signed = Object.fromEntries(entries);
        }
        const verdict = await verdictOf(body, { jwks: resolver, now: TEST_NOW, verify });
        // The jws is checked first and the signed block compared with its payload by value.
        const sameBlock = firstJsonDifference(body.attestation.signed, bases[which]!.body.attestation.signed) === undefined;
        if (!sameBlock) expect(verdict.valid, `${JSON.stringify(m)} → ${verdict.message}`).toBe(false);
        if (m.kind === "reorder") expect(verdict.valid, `${JSON.stringify(m)} → ${verdict.message}`).toBe(true);
      }),
      { numRuns: 400, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);

  it("a bit flipped in the sig or in any part of the jws: never verifies when every signature present is checked", async () => {
    const flip = fc.record({
      target: fc.constantFrom("sig", "jws-header", "jws-payload", "jws-signature", "sig-and-jws-signature"),
      at: fc.nat(),
      bit: fc.nat({ max: 7 }),
    });
    await fc.assert(
      fc.asyncProperty(base, flip, async (which, { target, at, bit }) => {
        const body = clone(bases[which]!.body);
        const attestation = body.attestation as unknown as { sig: string; jws: string };
        const [header, payload, signature] = attestation.jws.split(".") as [string, string, string];
        if (target === "sig" || target === "sig-and-jws-signature") attestation.sig = flipBit(attestation.sig, "base64", at, bit);
        if (target === "jws-header") attestation.jws = [flipBit(header, "base64url", at, bit), payload, signature].join(".");
        if (target === "jws-payload") attestation.jws = [header, flipBit(payload, "base64url", at, bit), signature].join(".");
        if (target === "jws-signature" || target === "sig-and-jws-signature") {
          attestation.jws = [header, payload, flipBit(signature, "base64url", at, bit)].join(".");
        }
        const verdict = await verdictOf(body, { jwks: resolver, now: TEST_NOW, verify: "both" });
        expect(verdict.valid, `${target} → ${verdict.message}`).toBe(false);
        // With one signature checked, a changed payload or a changed pair of signatures is still refused.
        if (target === "jws-payload" || target === "sig-and-jws-signature") {
          const one = await verdictOf(body, { jwks: resolver, now: TEST_NOW, verify: "one" });
          expect(one.valid, `${target} (one) → ${one.message}`).toBe(false);
        }
      }),
      { numRuns: 300, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);

  it("the envelope's kid, alg, issuer or type replaced, or a vouched-for body field changed: never verifies", async () => {
    const change = fc.record({
      field: fc.constantFrom("kid", "alg", "issuer", "body.score", "body.tier", "body.owner", "body.chain", "body.sybilSeverity"),
      value: fc.oneof(
        hostileJsonValue(),
        fc.constantFrom(
          "rnwy-trust-v1",
          "rnwy-trust-v2",
          "rnwy-wallet-v1",
          "none",
          "HS256",
          "ES384",
          "es256",
          "https://evil.example",
          81,
          83,
          "limited",
          "ethereum",
        ),
      ),
    });
    await fc.assert(
      fc.asyncProperty(base, change, policy, async (which, { field, value }, verify) => {
        const original = bases[which]!.body;
        const body = clone(original);
        const [target, name] = field.startsWith("body.") ? [body as Record<string, unknown>, field.slice(5)] : [body.attestation, field];
        if (!(name in target)) return; // a body without that field
        // A body field is vouched for only when the signed block carries it too (v1 signs no owner): others are unsigned.
        if (field.startsWith("body.") && !(name in original.attestation.signed)) return;
        const before = target[name];
        target[name] = value;
        const verdict = await verdictOf(body, { jwks: resolver, now: TEST_NOW, verify });
        if (!verdict.valid) return;
        // The key is the one the signature names: a kid left out of the envelope is taken from the signed JWS header
        // (documented: missing-kid only when neither names one), never another.
        expect(verdict.kid).toBe(original.attestation.kid);
        if (name === "kid" && (value === null || value === undefined || value === "")) return;
        // What may still verify: the same value, or a spelling the kit documents as the same (did:web names the
        // issuer's host, a sybil severity blank, "none" or null, or in another case, an agent id as a number or a string).
        const same =
          JSON.stringify(value) === JSON.stringify(before) ||
          (name === "issuer" && value === "did:web:rnwy.com" && before === TEST_ISSUER) ||
          (name === "sybilSeverity" && normalizeSybilSeverity(value) === normalizeSybilSeverity(before)) ||
          (name === "owner" && typeof value === "string" && typeof before === "string" && value.toLowerCase() === before.toLowerCase());
        expect(same, `${field}: ${JSON.stringify(before)} → ${JSON.stringify(value)} verified`).toBe(true);
      }),
      { numRuns: 400, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);

  it("any value anywhere in the body replaced: a verdict, and a valid one only over the original signed bytes", async () => {
    await fc.assert(
      fc.asyncProperty(
        base,
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        hostileJsonValue(),
        policy,
        async (which, choices, replacement, verify) => {
          const original = bases[which]!.body;
          const body = replaceAt(original, choices, replacement) as Body;
          const verdict = await verdictOf(body, { jwks: resolver, now: TEST_NOW, verify });
          if (verdict.valid) {
            // What the verdict hands back as signed is what was signed (the JWS payload); a signed block the envelope
            // carries must be that block by value.
            expect(JSON.stringify(verdict.signed)).toBe(signedBytes(original));
            const carried = (body.attestation as { signed?: unknown } | undefined)?.signed;
            if (carried !== undefined && carried !== null)
              expect(firstJsonDifference(carried, original.attestation.signed)).toBeUndefined();
            expect(verdict.kid).toBe(original.attestation.kid);
          }
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);

  it("the envelope's type set to another kind's (it is not signed: the kit refuses a known other kind, and judges the kind by the signed block)", async () => {
    await fc.assert(
      fc.asyncProperty(base, fc.constantFrom("wallet_intelligence"), policy, async (which, type, verify) => {
        const body = clone(bases[which]!.body);
        body.attestation.type = type;
        const verdict = await verdictOf(body, { jwks: resolver, now: TEST_NOW, verify });
        expect(verdict.valid).toBe(false);
        expect(verdict.reason).toBe("type-mismatch");
      }),
      { numRuns: 10 },
    );
  });

  it("a random body: a refused verdict, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(hostileJsonValue(4), async (body) => {
        const verdict = await verdictOf(body, { jwks: resolver, now: TEST_NOW });
        expect(verdict.valid).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

/** Random JWKs: junk, and the real key under another kid, another algorithm or another use. */
function jwkArbitrary(): fc.Arbitrary<unknown> {
  const real = () => keys.v2.publicJwk as JWK;
  return fc.oneof(
    hostileJsonValue(2),
    fc.record(
      {
        kty: fc.oneof(fc.constantFrom("EC", "RSA", "oct", "OKP", ""), hostileString()),
        crv: fc.oneof(fc.constantFrom("P-256", "P-384", "secp256k1", "Ed25519"), hostileString()),
        x: fc.oneof(fc.base64String({ maxLength: 60 }), hostileString()),
        y: fc.oneof(fc.base64String({ maxLength: 60 }), hostileString()),
        kid: fc.oneof(fc.constantFrom("rnwy-trust-v2", "rnwy-trust-v1", ""), hostileString()),
        alg: fc.oneof(fc.constantFrom("ES256", "none", "HS256", "RS256"), hostileString()),
        k: fc.base64String({ maxLength: 40 }),
        use: fc.constantFrom("sig", "enc"),
      },
      { requiredKeys: [] },
    ),
    fc.record({ kid: fc.oneof(hostileString(), fc.constantFrom("rnwy-trust-v1", "rnwy-mcp-v1")) }).map(({ kid }) => ({ ...real(), kid })),
    fc.constantFrom("HS256", "none", "ES384", "RS256").map((alg) => ({ ...real(), alg })),
    fc.constant(null).map(() => ({ ...real(), use: "enc" })),
    fc.constant(null).map(() => ({ ...keys.v1.publicJwk, kid: "rnwy-trust-v2" })),
  );
}

/** Whether a key set holds the v2 key under its kid, usable for ES256 signatures. */
function holdsRealKey(set: unknown): boolean {
  const list = Array.isArray(set) ? set : (set as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return false;
  const real = keys.v2.publicJwk;
  return list.some(
    (k: Record<string, unknown> | null) => k !== null && typeof k === "object" && k.kid === real.kid && k.x === real.x && k.y === real.y,
  );
}

const keySet = fc.oneof(
  fc.array(jwkArbitrary(), { maxLength: 4 }).map((list) => ({ keys: list })),
  fc
    .tuple(fc.array(jwkArbitrary(), { maxLength: 3 }), fc.array(jwkArbitrary(), { maxLength: 3 }))
    .map(([before, after]) => ({ keys: [...before, { ...keys.v2.publicJwk }, ...after] })),
  hostileJsonValue(3),
);

describe("wallet-score and MCP attestations (property)", () => {
  it("any value anywhere replaced: a verdict, valid only with the original signed content and kid", async () => {
    type Verify = (body: unknown) => Promise<{ valid: boolean; reason?: unknown; message?: unknown; signed?: unknown; kid?: unknown }>;
    const options = { jwks: resolver, now: TEST_NOW };
    const kinds: { name: string; body: unknown; verify: Verify }[] = [
      { name: "wallet-score", body: await buildWalletScoreResponse(keys.wallet), verify: (b) => verifyWalletScoreAttestation(b, options) },
      {
        name: "wallet-score jws",
        body: await buildWalletScoreResponse(keys.wallet, { carrier: "jws" }),
        verify: (b) => verifyWalletScoreAttestation(b, options),
      },
      {
        name: "wallet-score not found",
        body: await buildWalletScoreResponse(keys.wallet, { notFound: true }),
        verify: (b) => verifyWalletScoreAttestation(b, options),
      },
      { name: "mcp", body: await buildMcpAttestationResponse(keys.mcp), verify: (b) => verifyMcpAttestation(b, options) },
      {
        name: "mcp server",
        body: await buildMcpAttestationResponse(keys.mcp, { form: "server" }),
        verify: (b) => verifyMcpAttestation(b, options),
      },
    ];
    const baselines = await Promise.all(kinds.map((k) => k.verify(k.body)));
    baselines.forEach((verdict, i) => expect(verdict.valid, `${kinds[i]!.name}: ${String(verdict.message)}`).toBe(true));
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: kinds.length - 1 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        hostileJsonValue(),
        async (which, choices, replacement) => {
          const kind = kinds[which]!;
          const body = replaceAt(kind.body, choices, replacement);
          let verdict: Awaited<ReturnType<Verify>>;
          try {
            verdict = await within(kind.verify(body), 10_000, kind.name);
          } catch (error) {
            return expect.fail(`${kind.name}: verification threw ${String(error)}`);
          }
          if (!verdict.valid) {
            expect(ATTESTATION_FAILURE_REASONS).toContain(verdict.reason);
            return;
          }
          expect(JSON.stringify(verdict.signed), kind.name).toBe(JSON.stringify(baselines[which]!.signed));
          expect(verdict.kid, kind.name).toBe(baselines[which]!.kid);
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);
});

describe("key sets (property)", () => {
  it("a random key set in memory: the resolver is made or refused with a kit error; a verdict is valid only with the real key", async () => {
    await fc.assert(
      fc.asyncProperty(keySet, async (set) => {
        let random: JwksResolver;
        try {
          random = createJwksResolver({ keys: set as never });
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(TrustgateError);
          return;
        }
        const verdict = await verdictOf(bases[0]!.body, { jwks: random, now: TEST_NOW, verify: "both" });
        if (verdict.valid) expect(holdsRealKey(set), JSON.stringify(set)).toBe(true);
      }),
      { numRuns: 300, interruptAfterTimeLimit: 30_000 },
    );
  }, 60_000);

  it("a random JWKS served over HTTP (any status, any body): a verdict, valid only when the document holds the real key", async () => {
    let answer: { status: number; body: string } = { status: 200, body: "" };
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
    });
    server.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            keySet.map((set) => JSON.stringify(set) ?? ""),
            hostileString(),
            fc.constant(null).map(() => JSON.stringify({ keys: [keys.v2.publicJwk] }).slice(0, 40)),
          ),
          fc.constantFrom(200, 200, 200, 204, 301, 404, 500, 503),
          async (body, status) => {
            answer = { status, body };
            const remote = createJwksResolver({ url, timeoutMs: 2_000, failureCooldownMs: 0, cooldownMs: 0 });
            const verdict = await verdictOf(bases[0]!.body, { jwks: remote, now: TEST_NOW, verify: "both" });
            if (verdict.valid) {
              expect(status).toBe(200);
              expect(holdsRealKey(JSON.parse(body))).toBe(true);
            }
          },
        ),
        { numRuns: 100, interruptAfterTimeLimit: 30_000 },
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);
});
