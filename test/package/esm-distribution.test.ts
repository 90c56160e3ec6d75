import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");

/**
 * Builds the ES-module distribution (`npm run build`) and uses it from a plain Node ESM program, the way
 * another project would after installing the kit: main entry, the `service` entry (in `dist/harness/`), a signed trust check
 * verified end to end over loopback HTTP.
 */
describe("the ESM distribution", () => {
  beforeAll(() => {
    execFileSync(process.execPath, [require.resolve("tsx/cli"), "scripts/build.ts"], { cwd: root, stdio: "pipe" });
  }, 180_000);

  it("marks dist/ as ES modules and points package exports at it", () => {
    expect(JSON.parse(readFileSync(join(root, "dist/package.json"), "utf8"))).toEqual({ type: "module" });
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      exports: Record<string, { import: string; require: { types: string; default: string }; default: string; types: string }>;
    };
    expect(pkg.exports["."]).toEqual({
      require: { types: "./dist/index.d.cts", default: "./dist/index.js" },
      types: "./dist/index.d.ts",
      import: "./dist/index.js",
      default: "./dist/index.js",
    });
    expect(readFileSync(join(root, pkg.exports["."]!.types), "utf8")).toContain("verifyTrustAttestation");
    expect(readFileSync(join(root, pkg.exports["."]!.require.types), "utf8")).toBe('export * from "./index.js";\n');
    // The drift job's and the deployer's entries, and the harness's, which point into dist/harness/.
    for (const [entry, file] of [
      ["./drift", "drift/entry"],
      ["./deploy", "deploy/entry"],
      ["./service", "harness/service/index"],
      ["./testing", "harness/testing/index"],
      ["./harness", "harness/index"],
    ]) {
      expect(pkg.exports[entry!]).toMatchObject({
        require: { types: `./dist/${file}.d.cts`, default: `./dist/${file}.js` },
        types: `./dist/${file}.d.ts`,
        import: `./dist/${file}.js`,
      });
      expect(readFileSync(join(root, `dist/${file}.js`), "utf8")).toMatch(/export/);
      // CommonJS declarations (TypeScript's Node16 module setting) re-export the entry's own declarations.
      expect(readFileSync(join(root, `dist/${file}.d.cts`), "utf8")).toBe(`export * from "./${basename(file!)}.js";\n`);
    }
  });

  it("runs from a plain Node ESM program: client → local service → verifyTrustAttestation", () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-esm-"));
    const program = join(dir, "consumer.mjs");
    writeFileSync(
      program,
      `import * as kit from ${JSON.stringify(join(root, "dist/index.js"))};
import { startTrustService, createPopulation } from ${JSON.stringify(join(root, "dist/harness/service/index.js"))};
const service = await startTrustService({ population: createPopulation({ seed: 5, size: 30 }), rateLimit: false });
try {
  const client = kit.createTrustApiClient({ baseUrl: service.url, rateLimit: false });
  const agent = service.population.agents[7];
  const body = await client.trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
  const result = await kit.verifyTrustAttestation(body, { issuer: service.issuer, jwks: service.url + "/.well-known/jwks.json" });
  console.log(JSON.stringify({ valid: result.valid, kid: result.kid, score: body.score, expected: agent.score }));
} finally {
  await service.close();
}
`,
    );
    const output = execFileSync(process.execPath, [program], { encoding: "utf8" });
    const result = JSON.parse(output.trim()) as Record<string, unknown>;
    expect(result).toMatchObject({ valid: true, kid: "rnwy-trust-v2" });
    expect(result.score).toBe(result.expected);
  });

  it("verifies on worker threads from the built files: dist/attestation/verify-worker.js, verdicts equal to in-process ones", () => {
    expect(existsSync(join(root, "dist/attestation/verify-worker.js"))).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "trustgate-esm-"));
    const program = join(dir, "workers.mjs");
    writeFileSync(
      program,
      `import * as kit from ${JSON.stringify(join(root, "dist/index.js"))};
import { startVerifierPool } from ${JSON.stringify(join(root, "dist/attestation/verifier-pool.js"))};
import { startTrustService, createPopulation } from ${JSON.stringify(join(root, "dist/harness/service/index.js"))};
import { isDeepStrictEqual } from "node:util";
const service = await startTrustService({ population: createPopulation({ seed: 5, size: 30 }), rateLimit: false });
const started = await startVerifierPool({ threads: 2 });
if (!started.ok) throw new Error(started.problem);
try {
  const client = kit.createTrustApiClient({ baseUrl: service.url, rateLimit: false });
  const jwks = kit.createJwksResolver({ url: service.url + "/.well-known/jwks.json" });
  const same = [];
  for (const agent of service.population.agents.slice(0, 6)) {
    const body = await client.trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
    const tampered = structuredClone(body);
    tampered.attestation.signed.score = (tampered.attestation.signed.score + 1) % 100;
    for (const response of [body, tampered]) {
      const options = { issuer: service.issuer, jwks, expected: { agentId: agent.agentId, chain: agent.chain } , now: Date.now() };
      same.push(isDeepStrictEqual(await started.pool.verify(response, options), await kit.verifyTrustAttestation(response, options)));
    }
  }
  console.log(JSON.stringify({ threads: started.pool.threads, same, stats: started.pool.stats }));
} finally {
  await started.pool.close();
  await service.close();
}
`,
    );
    const output = execFileSync(process.execPath, [program], { encoding: "utf8" });
    const result = JSON.parse(output.trim()) as { threads: number; same: boolean[]; stats: { onWorkers: number; inProcess: number } };
    expect(result.threads).toBe(2);
    expect(result.same).toEqual(Array(12).fill(true));
    expect(result.stats).toEqual({ onWorkers: 12, inProcess: 0 });
  });
});
