import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../src/errors.js";
import { createPopulation, startTrustService } from "../../../src/harness/service/index.js";
import { generateSigningKey } from "../../../src/harness/signing.js";
import { fetchJwks, getJson, verifyJws, verifySig } from "./support.js";

const population = createPopulation({ seed: 66, size: 30 });
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trustgate-keys-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("signing keys", () => {
  it("creates the key file on first start and reuses the same keys on the next start", async () => {
    const keyFile = join(dir, "nested", "keys.json");
    const first = await startTrustService({ population, keyFile, rateLimit: false });
    const jwks1 = await fetchJwks(first.url);
    await first.close();

    const saved = JSON.parse(await readFile(keyFile, "utf8"));
    expect(saved.keys.map((k: { kid: string }) => k.kid)).toEqual(["rnwy-trust-v2", "rnwy-trust-v1", "rnwy-wallet-v1", "rnwy-mcp-v1"]);
    expect(typeof saved.keys[0].d).toBe("string");
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

    const second = await startTrustService({ population, keyFile, rateLimit: false });
    try {
      const jwks2 = await fetchJwks(second.url);
      expect(jwks2).toEqual(jwks1);
      // An attestation from the second start verifies against the first start's JWKS.
      const agent = population.agents[0]!;
      const res = await getJson(`${second.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
      expect(await verifySig(res.body.attestation, jwks1)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("rejects a corrupt key file", async () => {
    const keyFile = join(dir, "corrupt.json");
    await writeFile(keyFile, "{ not json");
    await expect(startTrustService({ population, keyFile })).rejects.toBeInstanceOf(InvalidArgumentError);
    await writeFile(keyFile, JSON.stringify({ keys: [{ kty: "EC", crv: "P-256", x: "a", y: "b", kid: "no-d" }] }));
    await expect(startTrustService({ population, keyFile })).rejects.toThrow(/invalid key/);
  });

  it("signs with the first given key and publishes every key (plus generated wallet and MCP keys)", async () => {
    const active = await generateSigningKey("custom-v9");
    const legacy = await generateSigningKey("rnwy-trust-v1");
    const service = await startTrustService({ population, signingKeys: [active, legacy], rateLimit: false });
    try {
      const jwks = await fetchJwks(service.url);
      expect(jwks.keys.map((k) => k.kid)).toEqual(["custom-v9", "rnwy-trust-v1", "rnwy-wallet-v1", "rnwy-mcp-v1"]);
      const agent = population.agents[1]!;
      const res = await getJson(`${service.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
      expect(res.body.attestation.kid).toBe("custom-v9");
      expect((await verifyJws(res.body.attestation, { keys: [{ ...active.publicJwk }] })).kid).toBe("custom-v9");
    } finally {
      await service.close();
    }
  });

  it("refuses signingKeys together with keyFile, and duplicate kids", async () => {
    const key = await generateSigningKey("rnwy-trust-v2");
    await expect(startTrustService({ signingKeys: [key], keyFile: join(dir, "x.json") })).rejects.toThrow(/not both/);
    await expect(startTrustService({ signingKeys: [key, key] })).rejects.toThrow(/share the kid/);
  });

  it("uses the issuer option in attestations and validates it", async () => {
    const service = await startTrustService({ population, issuer: "https://rnwy.example", rateLimit: false });
    try {
      const agent = population.agents[2]!;
      const res = await getJson(`${service.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
      expect(service.issuer).toBe("https://rnwy.example");
      expect(res.body.attestation.issuer).toBe("https://rnwy.example");
      expect(res.body.attestation.jwks).toBe("https://rnwy.example/.well-known/jwks.json");
    } finally {
      await service.close();
    }
    await expect(startTrustService({ issuer: "not a url" })).rejects.toThrow(/issuer/);
    await expect(startTrustService({ issuer: "ftp://rnwy.example" })).rejects.toThrow(/issuer/);
    const did = await startTrustService({ population, issuer: "did:web:rnwy.com", rateLimit: false });
    try {
      const agent = population.agents[2]!;
      const res = await getJson(`${did.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
      expect(res.body.attestation.issuer).toBe("did:web:rnwy.com");
      // A DID issuer has no URL of its own here: the attestation points at the service's JWKS.
      expect(res.body.attestation.jwks).toBe(`${did.url}/.well-known/jwks.json`);
    } finally {
      await did.close();
    }
    await expect(startTrustService({ port: 70_000 })).rejects.toThrow(/port/);
  });

  it("listens on an ephemeral loopback port by default and closes idempotently", async () => {
    const service = await startTrustService({ population, rateLimit: false });
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.issuer).toBe(service.url);
    await service.close();
    await service.close();
    await expect(fetch(`${service.url}/api/stats`)).rejects.toThrow();
  });
});
